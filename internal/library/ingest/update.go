package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Changes is what sponge update finds to do, by looking, not reading: the
// files under the folders given to sponge add, and the files of the saved
// items, by their size and modification time (library.Stat).
type Changes struct {
	// Read are the files to read: new under a folder, or changed or not
	// known to be unchanged (a file touched but the same is read, found the
	// same, and counted unchanged).
	Read []Input
	New  int // of Read, new files under a folder
	// Unchanged is how many files the look found unchanged.
	Unchanged int
	// Gone are saved files that are no longer there.
	Gone []Gone
	// URLs is how many saved URLs were not fetched again.
	URLs int
	// Errs are files and folders that could not be looked at.
	Errs []error
}

// Gone is a saved file that is no longer there, and the items that name it.
type Gone struct {
	Source string
	IDs    []string
}

// FindChanges looks at every saved file and every folder given to sponge
// add, and says what sponge update has to do. follow: links to files
// outside a folder are followed (Expand). Each folder is walked with the
// ignore rules it was added with (library.Folder).
func FindChanges(w *Writer, follow bool) (*Changes, error) {
	w.mu.Lock()
	m, err := w.sourcesLocked()
	sources := make(map[string][]string, len(m))
	for s, ids := range m {
		if len(ids) > 0 {
			sources[s] = append([]string(nil), ids...)
		}
	}
	w.mu.Unlock()
	if err != nil {
		return nil, err
	}
	folders, err := w.Folders()
	if err != nil {
		return nil, err
	}
	removed, err := w.Removed()
	if err != nil {
		return nil, err
	}
	c := &Changes{}
	paths := make([]string, 0, len(sources))
	for s := range sources {
		if !filepath.IsAbs(s) {
			c.URLs++
			continue
		}
		paths = append(paths, s)
	}
	sort.Strings(paths)
	for _, p := range paths {
		ids := sources[p]
		st, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			c.Gone = append(c.Gone, Gone{Source: p, IDs: ids})
			continue
		case err != nil:
			c.Errs = append(c.Errs, fmt.Errorf("%s: %v", p, errors.Unwrap(err)))
			continue
		case !st.Mode().IsRegular():
			// Replaced by a folder (or anything else that is not a file):
			// the file is gone. A folder under an added folder is read
			// below, with its files.
			c.Gone = append(c.Gone, Gone{Source: p, IDs: ids})
			continue
		}
		if s, ok := w.Stat(p); ok && len(ids) == 1 && s.ID == ids[0] && s.Unchanged(st.Size(), st.ModTime()) {
			c.Unchanged++
			continue
		}
		in := Input{Name: p, Path: p}
		// A changed file is kept as it was saved: where it is, or copied.
		// The item, not its Meta, which says so only since sponge update.
		if it, err := w.Item(ids[len(ids)-1]); err == nil {
			in.Link, in.AllText = it.Linked, it.AllText
		}
		c.Read = append(c.Read, in)
	}
	for _, f := range folders {
		if st, err := os.Stat(f.Path); err != nil || !st.IsDir() {
			c.Errs = append(c.Errs, fmt.Errorf("%s: the folder is gone (its files are gone too)", f.Path))
			continue
		}
		ins, _, errs := Expand(f.Path, WalkOptions{Follow: follow, NoIgnore: f.NoIgnore, Hidden: f.Hidden})
		c.Errs = append(c.Errs, errs...)
		for _, in := range ins {
			if _, saved := sources[in.Path]; saved || removed[in.Path] {
				continue
			}
			if s, ok := w.Stat(in.Path); ok && s.NoText {
				if st, err := os.Stat(in.Path); err == nil && s.Unchanged(st.Size(), st.ModTime()) {
					c.Unchanged++ // no readable text when it was last read, and the same still
					continue
				}
			}
			sources[in.Path] = nil // under two folders, read once
			in.Link = f.Link
			c.Read = append(c.Read, in)
			c.New++
		}
	}
	return c, nil
}

// Prune takes the gone files away from their items, and removes the items
// left with no source, with everything derived from them (RemoveItems). It
// returns the items removed.
func Prune(w *Writer, gone []Gone) (removed []string, err error) {
	for _, g := range gone {
		orphans, err := w.Detach(g.Source)
		if err != nil {
			return nil, err
		}
		removed = append(removed, orphans...)
	}
	sort.Strings(removed)
	return removed, w.RemoveItems(removed)
}
