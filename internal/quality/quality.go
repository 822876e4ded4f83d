// Package quality is how the answers of the extractive drafter are
// measured: questions asked of a library in this process, through the real
// search and rank stages and the drafter, and judged as a person would (the
// demo questions over testdata/docs, SQuAD 2.0, the public multilingual
// sets of ../shared/bench). The benchmarks (internal/bench/extractive)
// print its measures as tables; its tests are the floors CI holds them to.
package quality

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/library/ingest"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft/extractive"
	"github.com/sponge-library/sponge/stages/rank"
	"github.com/sponge-library/sponge/stages/search"
)

// Question is one question asked of a library, with what search and rank
// found for it and the drafter's candidate sentences.
type Question struct {
	Text string
	// Gold are the evidence sentences (SciFact), white space collapsed;
	// GoldDocs the ids of the documents that hold them. None: unanswerable.
	Gold     []string
	GoldDocs map[string]bool
	// Short: a short question written from a claim (SciFact).
	Short    bool
	Passages []*jsonl.Passage
	Hits     []*jsonl.Hit // search's, best first
	TopHit   float64      // the best hit's score
	// DocOf maps a passage's number to its item's id, or to what the
	// caller knows the item by (a title, a SciFact doc id).
	DocOf map[int]string
	Cands []*extractive.Candidate
	Whole []*extractive.Candidate // whole sentences (Params.Sentences)
}

// Ask finds q's passages through the search and rank stages, as sponge ask
// does (search.DefaultLimit items); DocOf maps each passage to its item id.
// It looks in no models folder: items are found by keyword, as without an
// embedding model, so no model of the person's changes a measure.
func Ask(lib *library.Library, x *index.Index, q *Question) error {
	res, err := search.FindIn("", lib, x, q.Text, search.DefaultLimit)
	if err != nil {
		return fmt.Errorf("search %q: %v", q.Text, err)
	}
	q.TopHit = 0
	if len(res.Hits) > 0 {
		q.TopHit = res.Hits[0].Score
	}
	q.Hits = res.Hits
	q.Passages, err = rank.RankWith(lib, q.Text, res.IDF, res.Hits)
	if err != nil {
		return err
	}
	q.DocOf = map[int]string{}
	for _, p := range q.Passages {
		q.DocOf[p.Number] = p.ItemID
	}
	return nil
}

// Prepare makes each question's candidate sentences under p, as the
// drafter does, weighing words by their rarity in corpus (the library's
// index); with whole, also those of whole sentences (Params.Sentences),
// for measuring the drafter as it was before short statements.
func Prepare(qs []*Question, p *extractive.Params, corpus extractive.Corpus, whole bool) {
	w := *p
	w.Sentences = true
	for _, q := range qs {
		q.Cands = extractive.Candidates(q.Text, q.Passages, p, corpus)
		if whole {
			q.Whole = extractive.Candidates(q.Text, q.Passages, &w, corpus)
		}
	}
}

// CandidatesFor are the candidates the drafter picks from under p.
func (q *Question) CandidatesFor(p *extractive.Params) []*extractive.Candidate {
	if p.Sentences && q.Whole != nil {
		return q.Whole
	}
	return q.Cands
}

// Norm collapses white space.
func Norm(s string) string { return strings.Join(strings.Fields(s), " ") }

// ModuleRoot is the folder of sponge's go.mod: the working folder or the
// nearest folder above it that holds one (a test runs in its package's
// folder, a benchmark at the top).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside sponge's module: no go.mod here or above")
		}
		dir = parent
	}
}

// ErrNoShared says that the public data sets beside the repository
// (../shared/bench) are not there, as on a CI machine without them.
var ErrNoShared = errors.New("no shared data")

// SharedBench is ../shared/bench/NAME beside the repository, if it holds
// the file want; else an error that wraps ErrNoShared and says where it
// looked.
func SharedBench(name, want string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(filepath.Dir(root), "shared", "bench", name)
	if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
		return "", fmt.Errorf("%w: no %s", ErrNoShared, filepath.Join(dir, want))
	}
	return dir, nil
}

// SaveItems saves items (each made from the source bytes of the same index)
// in the library at dir, made if missing; a library that holds as many
// items already, indexed under this sponge's word rules, is kept as it is
// (a benchmark's library is built once).
func SaveItems(dir string, items []*item.Item, sources [][]byte) error {
	if lib, err := library.Open(dir); err == nil && !index.Outdated(lib.IndexDir()) {
		if have, err := lib.IDs(); err == nil && len(have) == len(items) {
			return nil
		}
	}
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		return err
	}
	for i, it := range items {
		if w.Has(it.ID) {
			continue
		}
		if err := w.Add(it, sources[i]); err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}

// AddFiles saves the files under folder in a new library at dir as sponge
// add does: each read by its extractor, saved, and indexed.
func AddFiles(dir, folder string) error {
	inputs, _, errs := ingest.Expand(folder, ingest.WalkOptions{})
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if len(inputs) == 0 {
		return fmt.Errorf("%s: no file sponge reads", folder)
	}
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		return err
	}
	var failed []error
	err = ingest.Add(context.Background(), w, inputs, ingest.AddOptions{}, func(a ingest.Added) {
		if a.Err != nil {
			failed = append(failed, fmt.Errorf("%s: %w", a.Input.Name, a.Err))
		}
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return errors.Join(append(failed, err)...)
}

// Open opens the library at dir and its index; the caller closes the index.
func Open(dir string) (*library.Library, *index.Index, error) {
	lib, err := library.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	x, err := index.Open(lib.IndexDir())
	if err != nil {
		return nil, nil, err
	}
	return lib, x, nil
}

// Share is n over of, 0 when of is 0.
func Share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}
