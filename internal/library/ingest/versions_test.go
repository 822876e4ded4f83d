package ingest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
)

// addFiles runs Add on paths in a writer of its own, and returns the results.
func addFiles(t *testing.T, lib string, opts AddOptions, paths ...string) []Added {
	t.Helper()
	w, err := OpenWriter(lib, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ins []Input
	for _, p := range paths {
		ins = append(ins, Input{Name: p, Path: p})
	}
	var out []Added
	if err := Add(context.Background(), w, ins, opts, func(r Added) { out = append(out, r) }); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, r := range out {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Input.Name, r.Err)
		}
	}
	return out
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// search returns the ids the index finds for a word.
func search(t *testing.T, lib, word string) []string {
	t.Helper()
	x, err := index.Open(filepath.Join(lib, "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	hits, err := x.Search(word, 100)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ItemID)
	}
	return ids
}

func storeIDs(t *testing.T, lib string) []string {
	t.Helper()
	l, err := library.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := l.IDs()
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// The example: a note edited and added again is one item, the new
// version, and only its words are found.
func TestNewVersionReplacesOld(t *testing.T) {
	t.Parallel()
	for _, link := range []bool{false, true} {
		dir := t.TempDir()
		lib, note := filepath.Join(dir, "lib"), filepath.Join(dir, "n.md")
		write(t, note, "# N\n\nBudget is ten.\n")
		first := addFiles(t, lib, AddOptions{Link: link}, note)[0]
		write(t, note, "# N\n\nBudget is twelve.\n")
		second := addFiles(t, lib, AddOptions{Link: link}, note)[0]
		if second.ID == first.ID || !slices.Equal(second.Replaced, []string{first.ID}) {
			t.Fatalf("link %v: the second add replaced %v, want [%s]", link, second.Replaced, first.ID[:12])
		}
		if got := storeIDs(t, lib); !slices.Equal(got, []string{second.ID}) {
			t.Errorf("link %v: the store holds %v, want only the new version", link, got)
		}
		if got := search(t, lib, "ten"); len(got) != 0 {
			t.Errorf("link %v: the old version's words are still found: %v", link, got)
		}
		if got := search(t, lib, "twelve"); !slices.Equal(got, []string{second.ID}) {
			t.Errorf("link %v: the new version is not found: %v", link, got)
		}
		it, err := (&library.Library{Dir: lib}).Item(second.ID)
		if err != nil {
			t.Fatal(err)
		}
		if it.Linked != link {
			t.Errorf("link %v: the new version has Linked %v", link, it.Linked)
		}
	}
}

// The same bytes under two paths are one item noting both; when one path
// changes, the item keeps the other, and the changed path is a new item.
func TestSameBytesTwoPaths(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lib, a, b := filepath.Join(dir, "lib"), filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md")
	write(t, a, "# Tea\n\nSencha wants seventy degrees.\n")
	write(t, b, "# Tea\n\nSencha wants seventy degrees.\n")
	rs := addFiles(t, lib, AddOptions{}, a, b)
	if rs[0].ID != rs[1].ID || !rs[1].Had || !rs[1].Noted {
		t.Fatalf("the same bytes twice: %+v", rs)
	}
	l := &library.Library{Dir: lib}
	it, err := l.Item(rs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if it.Source != a || !slices.Equal(it.Also, []string{b}) {
		t.Fatalf("sources %q also %q, want %q also [%q]", it.Source, it.Also, a, b)
	}
	// Adding b again notes nothing new.
	if r := addFiles(t, lib, AddOptions{}, b)[0]; !r.Had || r.Noted || len(r.Replaced) > 0 {
		t.Errorf("b again: %+v", r)
	}

	write(t, a, "# Tea\n\nSencha wants eighty degrees.\n")
	r := addFiles(t, lib, AddOptions{}, a)[0]
	if len(r.Replaced) != 0 {
		t.Errorf("the old item still has b, yet it was replaced: %v", r.Replaced)
	}
	old, err := l.Item(rs[0].ID)
	if err != nil {
		t.Fatalf("the item of b is gone: %v", err)
	}
	if old.Source != b || len(old.Also) != 0 {
		t.Errorf("the old item's sources are %q also %q, want only %q", old.Source, old.Also, b)
	}
	if got := storeIDs(t, lib); len(got) != 2 {
		t.Errorf("the store holds %d items, want 2", len(got))
	}
	// The index says where the item is from now.
	x, err := index.Open(l.IndexDir())
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	hits, _ := x.Search("seventy", 10)
	if len(hits) != 1 || hits[0].Source != b {
		t.Errorf("the index finds %+v, want the item with source %s", hits, b)
	}
}

// An add killed after it saved the new version and before it removed the
// old one leaves both; the same add run again removes the old one.
func TestKilledReplaceFinishes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lib, note := filepath.Join(dir, "lib"), filepath.Join(dir, "n.md")
	write(t, note, "# N\n\nBudget is ten.\n")
	first := addFiles(t, lib, AddOptions{}, note)[0]
	// What the killed add left: the new version saved and indexed.
	write(t, note, "# N\n\nBudget is twelve.\n")
	w, err := OpenWriter(lib, nil)
	if err != nil {
		t.Fatal(err)
	}
	it, src := testItem(2)
	data, _ := os.ReadFile(note)
	it.ID, it.Source = library.ItemID(data), note
	if err := w.Add(it, src); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if n := len(storeIDs(t, lib)); n != 2 {
		t.Fatalf("set-up: %d items", n)
	}
	r := addFiles(t, lib, AddOptions{}, note)[0]
	if !r.Had || !slices.Equal(r.Replaced, []string{first.ID}) {
		t.Fatalf("the add again: had %v, replaced %v", r.Had, r.Replaced)
	}
	if got := storeIDs(t, lib); !slices.Equal(got, []string{it.ID}) {
		t.Errorf("the store holds %v, want only the new version", got)
	}
}

// Standard input names no one thing: two notes from it are two items.
func TestStdinIsNotVersioned(t *testing.T) {
	t.Parallel()
	lib := filepath.Join(t.TempDir(), "lib")
	for _, text := range []string{"# A\n\nThe first memo.\n", "# B\n\nThe second memo.\n"} {
		w, err := OpenWriter(lib, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = Add(context.Background(), w, []Input{{Name: "stdin", Stdin: true}}, AddOptions{Stdin: strings.NewReader(text)}, func(r Added) {
			if r.Err != nil || len(r.Replaced) > 0 {
				t.Errorf("stdin: %+v", r)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	if n := len(storeIDs(t, lib)); n != 2 {
		t.Errorf("two notes from stdin made %d items", n)
	}
}

// A Stat is trusted only when the file's time is well before it was taken.
func TestStatRacy(t *testing.T) {
	t.Parallel()
	now := time.Now()
	s := library.Stat{Size: 10, ModTime: now.Add(-time.Hour), ID: "x", Checked: now}
	if !s.Unchanged(10, now.Add(-time.Hour)) {
		t.Error("an old file of the same size and time is not unchanged")
	}
	if s.Unchanged(11, now.Add(-time.Hour)) || s.Unchanged(10, now.Add(-time.Minute)) {
		t.Error("another size or time counts as unchanged")
	}
	s.ModTime = now.Add(-time.Second / 2)
	if s.Unchanged(10, s.ModTime) {
		t.Error("a file read within its time stamp's tick is trusted")
	}
}
