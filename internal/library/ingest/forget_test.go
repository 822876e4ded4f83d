package ingest

import (
	"path/filepath"
	"testing"
)

// TestRemoveNoted: the item is gone from the store and the index, and its
// file (a full path) is noted as removed, so that sponge update leaves it
// out; a source that is no file path (a note from stdin) is not noted.
func TestRemoveNoted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	file := filepath.Join(t.TempDir(), "notes", "kettle.md")
	a, srcA := testItem(1)
	a.Source = file
	b, srcB := testItem(2)
	b.Source = "stdin"
	if err := w.Add(a, srcA); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(b, srcB); err != nil {
		t.Fatal(err)
	}
	for _, it := range []struct{ id, source string }{{a.ID, file}, {b.ID, "stdin"}} {
		m, removed, err := w.RemoveNoted(it.id)
		if err != nil || !removed {
			t.Fatalf("RemoveNoted(%s): removed %v, %v", it.id, removed, err)
		}
		if m == nil || m.Source != it.source {
			t.Errorf("RemoveNoted(%s) = %+v; want the meta of the item from %s", it.id, m, it.source)
		}
		if w.Has(it.id) {
			t.Errorf("%s still in the library", it.source)
		}
	}
	removed, err := w.Removed()
	if err != nil {
		t.Fatal(err)
	}
	if !removed[file] || len(removed) != 1 {
		t.Errorf("noted as removed: %v; want %s alone", removed, file)
	}
	if got := indexed(t, dir); got[a.ID] || got[b.ID] {
		t.Errorf("still in the index: %v", got)
	}
}
