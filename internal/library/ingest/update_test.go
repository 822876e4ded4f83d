package ingest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/library"
)

// update runs what sponge update does, and returns what FindChanges found
// and what Add did with it.
func update(t *testing.T, lib string, prune bool) (*Changes, []Added) {
	t.Helper()
	w, err := OpenWriter(lib, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	c, err := FindChanges(w, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range c.Errs {
		t.Errorf("FindChanges: %v", e)
	}
	var out []Added
	if err := Add(context.Background(), w, c.Read, AddOptions{}, func(r Added) { out = append(out, r) }); err != nil {
		t.Fatal(err)
	}
	if prune {
		if _, err := Prune(w, c.Gone); err != nil {
			t.Fatal(err)
		}
	}
	return c, out
}

// age sets a file's time an hour back, as for a file saved a while ago (a
// time just now is not trusted, see library.Stat).
func age(t *testing.T, path string, by time.Duration) {
	t.Helper()
	old := time.Now().Add(-by)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lib, notes := filepath.Join(dir, "lib"), filepath.Join(dir, "notes")
	for _, n := range []string{"a", "b", "c", "sub/d"} {
		p := filepath.Join(notes, n+".md")
		write(t, p, "# "+n+"\n\nThe kettle of note "+n+" whistles.\n")
		age(t, p, time.Hour)
	}
	w, err := OpenWriter(lib, nil)
	if err != nil {
		t.Fatal(err)
	}
	ins, _, _ := Expand(notes, WalkOptions{})
	if err := Add(context.Background(), w, ins, AddOptions{}, func(Added) {}); err != nil {
		t.Fatal(err)
	}
	if err := w.AddFolder(library.Folder{Path: notes}); err != nil {
		t.Fatal(err)
	}
	w.Close()

	// Nothing changed: every file is taken for unchanged by its stat, and
	// none is read.
	c, _ := update(t, lib, false)
	if len(c.Read) != 0 || c.Unchanged != 4 {
		t.Fatalf("nothing changed: read %d files, %d unchanged; want 0 and 4", len(c.Read), c.Unchanged)
	}

	// A file edited in place, one touched but the same, a new one under a
	// sub-folder, one gone.
	a, b, c2, e := filepath.Join(notes, "a.md"), filepath.Join(notes, "b.md"), filepath.Join(notes, "c.md"), filepath.Join(notes, "sub/new/e.md")
	aID := storeIDsOf(t, lib, a)
	write(t, a, "# a\n\nThe kettle of note a hums now.\n")
	age(t, a, time.Minute)
	age(t, b, time.Minute) // touched
	write(t, e, "# e\n\nThe kettle of note e is new.\n")
	age(t, e, time.Minute)
	cID := storeIDsOf(t, lib, c2)
	os.Remove(c2)
	c, rs := update(t, lib, false)
	if c.New != 1 || len(c.Read) != 3 || c.Unchanged != 1 {
		t.Errorf("found %d new, %d to read, %d unchanged; want 1, 3 (a, b, e) and 1 (sub/d)", c.New, len(c.Read), c.Unchanged)
	}
	if len(c.Gone) != 1 || c.Gone[0].Source != c2 || !slices.Equal(c.Gone[0].IDs, cID) {
		t.Errorf("gone: %+v, want %s", c.Gone, c2)
	}
	for _, r := range rs {
		switch r.Input.Path {
		case a:
			if !slices.Equal(r.Replaced, aID) {
				t.Errorf("a: replaced %v, want %v", r.Replaced, aID)
			}
		case b:
			if !r.Had || len(r.Replaced) > 0 || r.Noted {
				t.Errorf("b, touched: %+v", r)
			}
		case e:
			if r.Had || r.Item == nil {
				t.Errorf("e, new: %+v", r)
			}
		}
	}
	if got := search(t, lib, "hums"); len(got) != 1 {
		t.Errorf("the new version of a is not found: %v", got)
	}
	if got := search(t, lib, "whistles"); len(got) != 3 { // b, c (gone but kept), d
		t.Errorf("whistles is found in %d items, want 3 (the old a is gone)", len(got))
	}
	// Gone is kept until --prune.
	if !slices.Contains(storeIDs(t, lib), cID[0]) {
		t.Error("a gone file's item was removed without --prune")
	}
	c, _ = update(t, lib, true)
	if len(c.Read) != 0 || len(c.Gone) != 1 {
		t.Errorf("after the update: read %d, gone %d; want 0 and 1", len(c.Read), len(c.Gone))
	}
	if slices.Contains(storeIDs(t, lib), cID[0]) {
		t.Error("--prune kept the gone file's item")
	}
	if got := search(t, lib, "whistles"); len(got) != 2 {
		t.Errorf("whistles is found in %d items after --prune, want 2", len(got))
	}
	c, _ = update(t, lib, false)
	if len(c.Read) != 0 || len(c.Gone) != 0 || c.Unchanged != 4 {
		t.Errorf("at the end: read %d, gone %d, unchanged %d; want 0, 0, 4", len(c.Read), len(c.Gone), c.Unchanged)
	}
}

// storeIDsOf are the items whose source is path.
func storeIDsOf(t *testing.T, lib, path string) []string {
	t.Helper()
	l := &library.Library{Dir: lib}
	srcs, err := l.Sources()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range srcs[path] {
		ids = append(ids, m.ID)
	}
	return ids
}

// TestUpdateFileBecameFolder: a saved file replaced by a folder of the same
// name is gone (every later update failed with "no longer a regular file",
// and --prune kept the stale item), and the folder's files, under an added
// folder, are read as new.
func TestUpdateFileBecameFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lib, notes := filepath.Join(dir, "lib"), filepath.Join(dir, "notes")
	for _, n := range []string{"a", "b"} {
		p := filepath.Join(notes, n+".md")
		write(t, p, "# "+n+"\n\nThe kettle of note "+n+" whistles.\n")
		age(t, p, time.Hour) // a time just now is not trusted
	}
	w, err := OpenWriter(lib, nil)
	if err != nil {
		t.Fatal(err)
	}
	ins, _, _ := Expand(notes, WalkOptions{})
	if err := Add(context.Background(), w, ins, AddOptions{}, func(Added) {}); err != nil {
		t.Fatal(err)
	}
	if err := w.AddFolder(library.Folder{Path: notes}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b := filepath.Join(notes, "b.md")
	os.Remove(b)
	write(t, filepath.Join(b, "inner.md"), "# inner\n\nThe kettle inside the folder whistles.\n")
	age(t, filepath.Join(b, "inner.md"), time.Hour)
	c, added := update(t, lib, true)
	if len(c.Gone) != 1 || c.Gone[0].Source != b {
		t.Errorf("gone: %+v, want %s", c.Gone, b)
	}
	if len(added) != 1 || added[0].Input.Path != filepath.Join(b, "inner.md") || added[0].Err != nil {
		t.Errorf("added: %+v", added)
	}
	c, _ = update(t, lib, false)
	if len(c.Gone) != 0 || len(c.Read) != 0 {
		t.Errorf("the next update: gone %v, read %v", c.Gone, c.Read)
	}
}

// TestUpdateKeepsByteNames: file names are bytes. A file and a folder named
// in Latin-1 (Caf\xe9, not UTF-8) were saved as Caf\ufffd, so sponge update
// took them for gone and --prune removed their items although the files
// were there (issue 42). Their sources keep the very bytes, in the item, its
// Meta and folders.json, and the title shows them escaped.
func TestUpdateKeepsByteNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lib, notes := filepath.Join(dir, "lib"), filepath.Join(dir, "notes")
	cafe := filepath.Join(notes, "Caf\xe9")
	file, inCafe := filepath.Join(notes, "th\xe9.txt"), filepath.Join(cafe, "beans.txt")
	write(t, file, "A note on tea, named in Latin-1.\n")
	write(t, inCafe, "Coffee beans, in a folder named in Latin-1.\n")
	for _, p := range []string{file, inCafe} {
		age(t, p, time.Hour)
	}
	w, err := OpenWriter(lib, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ins []Input
	for _, arg := range []string{notes, cafe} {
		got, _, _ := Expand(arg, WalkOptions{})
		ins = append(ins, got...)
		if err := w.AddFolder(library.Folder{Path: arg}); err != nil {
			t.Fatal(err)
		}
	}
	ids := map[string]string{}
	if err := Add(context.Background(), w, ins, AddOptions{}, func(r Added) {
		if r.Err != nil {
			t.Errorf("%q: %v", r.Input.Path, r.Err)
		}
		ids[r.Source] = r.ID
	}); err != nil {
		t.Fatal(err)
	}
	w.Close()

	c, _ := update(t, lib, true)
	if len(c.Gone) > 0 || len(c.Read) > 0 {
		t.Errorf("update found gone %v, to read %v; want nothing changed", c.Gone, c.Read)
	}
	l, err := library.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	for path, id := range map[string]string{file: ids[file], inCafe: ids[inCafe]} {
		it, err := l.Item(id)
		if err != nil {
			t.Fatalf("%q: %v (pruned?)", path, err)
		}
		m, err := l.Meta(id)
		if err != nil {
			t.Fatal(err)
		}
		if it.Source != path || m.Source != path {
			t.Errorf("source %q, Meta's %q; want %q", it.Source, m.Source, path)
		}
	}
	if it, err := l.Item(ids[file]); err == nil && it.Title != `th\xe9` {
		t.Errorf("title %q, want th\\xe9", it.Title)
	}
	folders, err := l.Folders()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(folders, func(f library.Folder) bool { return f.Path == cafe }) {
		t.Errorf("folders %+v, want %q among them", folders, cafe)
	}
}
