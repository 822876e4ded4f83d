package ingest

import (
	"fmt"
	"slices"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
)

// A source (a file's absolute path or a URL) has one current version: the
// item of the bytes it was last read with. Adding a source saved before with
// other bytes saves the new item and replaces the old one (RemoveItems: its
// paragraphs leave the index, its vectors go). The same bytes from another
// source are one item with both sources noted (item.Also). The old version
// is not kept: ids are the hash of the bytes, so a version history would
// keep, and answer from, text the person changed or took out on purpose.

// sourcesLocked returns the map of sources, reading it from the store the
// first time. The caller holds w.mu.
func (w *Writer) sourcesLocked() (map[string][]string, error) {
	if w.sources == nil {
		all, err := w.Sources()
		if err != nil {
			return nil, err
		}
		w.sources = make(map[string][]string, len(all))
		for s, metas := range all {
			for _, m := range metas {
				w.sources[s] = append(w.sources[s], m.ID)
			}
		}
	}
	return w.sources, nil
}

// ItemsOf are the items that name source (more than one only after a killed
// add or update, see library.Sources).
func (w *Writer) ItemsOf(source string) ([]string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	m, err := w.sourcesLocked()
	if err != nil {
		return nil, err
	}
	return slices.Clone(m[source]), nil
}

// claim makes id the current version of source: id's item notes the source
// (as Also, when it names another: noted), and every other item that names
// it loses it. Those left with no source are returned, for RemoveItems; the
// others are saved again without it. An item new in this run (isNew) names
// the source already, and the store may hold another input's copy of it
// until Add puts it right: it is not read. It is called from one goroutine.
func (w *Writer) claim(source, id string, isNew bool) (replaced []string, noted bool, err error) {
	if !library.Versioned(source) {
		return nil, false, nil
	}
	w.mu.Lock()
	m, err := w.sourcesLocked()
	var others []string
	had := false
	if err == nil {
		for _, o := range m[source] {
			if o == id {
				had = true
			} else {
				others = append(others, o)
			}
		}
	}
	w.mu.Unlock()
	if err != nil {
		return nil, false, err
	}
	if !had && !isNew {
		if err := w.changeSources(id, func(src []string) []string {
			if slices.Contains(src, source) {
				return src
			}
			noted = true
			return append(src, source)
		}); err != nil {
			return nil, false, err
		}
	}
	for _, o := range others {
		left := 0
		if err := w.changeSources(o, func(src []string) []string {
			src = slices.DeleteFunc(src, func(s string) bool { return s == source })
			left = len(src)
			return src
		}); err != nil {
			return nil, false, err
		}
		if left == 0 {
			replaced = append(replaced, o)
		}
	}
	w.mu.Lock()
	m[source] = []string{id}
	w.mu.Unlock()
	return replaced, noted, nil
}

// Detach takes source away from the items that name it (a file that is
// gone, pruned by sponge update), and returns those left with no source,
// for RemoveItems.
func (w *Writer) Detach(source string) (orphans []string, err error) {
	ids, err := w.ItemsOf(source)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		left := 0
		if err := w.changeSources(id, func(src []string) []string {
			src = slices.DeleteFunc(src, func(s string) bool { return s == source })
			left = len(src)
			return src
		}); err != nil {
			return nil, err
		}
		if left == 0 {
			orphans = append(orphans, id)
		}
	}
	w.mu.Lock()
	delete(w.sources, source)
	w.mu.Unlock()
	w.ForgetStat(source)
	return orphans, nil
}

// changeSources gives an item the sources f makes of its own (Source, then
// Also) and saves it again, in the store and the index, unless they are the
// same. An item left with none is not saved: the caller removes it.
func (w *Writer) changeSources(id string, f func([]string) []string) error {
	it, err := w.Item(id)
	if err != nil {
		return err
	}
	old := it.Sources()
	src := f(slices.Clone(old))
	if slices.Equal(src, old) || len(src) == 0 {
		return nil
	}
	it.Source, it.Also = src[0], src[1:]
	if len(it.Also) == 0 {
		it.Also = nil
	}
	return w.resave(it)
}

// resave saves an item whose sources changed, with the original bytes the
// store has, and queues it for the index.
func (w *Writer) resave(it *item.Item) error {
	var data []byte
	if !it.Linked {
		var err error
		if data, err = w.Source(it.ID); err != nil {
			return err
		}
	}
	if err := w.Save(it, data); err != nil {
		return fmt.Errorf("cannot save: %w", err)
	}
	return w.Queue(it)
}
