package ingest

import (
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/extract"
)

// Reextract reads every item again from its saved original bytes with this
// version's extractors, so a library saved by an older sponge gains what
// extraction has learnt since (better PDF text, say). Ids, sources and
// added times stay; a title given with --title stays. An item that cannot
// be read again is kept as it was, and each is told so (err). The caller
// rebuilds the index, and the vectors of the changed items, afterwards;
// until then the changed items are pending, so a run that is killed leaves a
// library the next writer puts right. each is called once per id, from one
// goroutine.
func Reextract(w *Writer, ids []string, each func(id string, changed bool, err error)) (changed map[string]bool) {
	changed = map[string]bool{}
	type result struct {
		id      string
		changed bool
		err     error
	}
	work := make(chan string)
	results := make(chan result)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				ch, err := reextractItem(w, id)
				results <- result{id, ch, err}
			}
		}()
	}
	go func() {
		for _, id := range ids {
			work <- id
		}
		close(work)
		wg.Wait()
		close(results)
	}()
	for r := range results {
		if r.err == nil && r.changed {
			changed[r.id] = true
		}
		each(r.id, r.changed, r.err)
	}
	return changed
}

// ErrLinked is an item saved with --link whose file is gone or changed.
var ErrLinked = library.ErrLinked

// reextractItem reads one item again and saves it if its text or title
// changed.
func reextractItem(w *Writer, id string) (changed bool, err error) {
	old, err := w.Item(id)
	if err != nil {
		return false, err
	}
	src, err := w.Original(old)
	if err != nil {
		return false, err
	}
	doc, err := extract.ReadWith(src, old.Source, old.Kind, "", extract.Options{AllText: old.AllText})
	if err != nil {
		return false, fmt.Errorf("cannot read it again: %v", err)
	}
	it := *old
	it.Paragraphs = doc.Paragraphs
	it.Author, it.Published = doc.Author, doc.Published
	// Items saved from standard input before titles were marked as given
	// had them given: "stdin" is no title.
	if !old.TitleGiven && old.Source != "stdin" {
		it.Title = ExtractedTitle(doc, old.Source)
	}
	if it.Title == old.Title && it.Author == old.Author && it.Published == old.Published &&
		slices.EqualFunc(it.Paragraphs, old.Paragraphs, sameParagraph) {
		return false, nil
	}
	keep := src
	if it.Linked {
		keep = nil
	}
	if err := w.Save(&it, keep); err != nil {
		return false, fmt.Errorf("cannot save: %w", err)
	}
	return true, nil
}

func sameParagraph(a, b item.Paragraph) bool {
	return a.Text == b.Text && a.Heading == b.Heading && a.Page == b.Page && a.HeadingPage == b.HeadingPage &&
		(a.StartMs == nil) == (b.StartMs == nil) && (a.StartMs == nil || *a.StartMs == *b.StartMs) &&
		slices.Equal(a.Cues, b.Cues) && slices.Equal(a.Pages, b.Pages)
}
