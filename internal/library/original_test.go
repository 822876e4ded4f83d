package library

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
)

// TestOriginal: an item's original bytes come from the store, or for one
// saved with --link from its file while that still holds what was saved.
func TestOriginal(t *testing.T) {
	lib, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	saved := []byte("%PDF-1.4 saved in the library")
	it := &item.Item{ID: ItemID(saved), Title: "Saved", Source: "/nowhere/saved.pdf", Kind: item.KindPDF, Added: time.Now(),
		Paragraphs: []item.Paragraph{{Text: "Saved.", Page: 1}}}
	if err := lib.Put(it, saved); err != nil {
		t.Fatal(err)
	}
	if got, err := lib.Original(it); err != nil || !bytes.Equal(got, saved) {
		t.Errorf("saved item: %q, %v; want its saved bytes", got, err)
	}

	file := filepath.Join(t.TempDir(), "linked.pdf")
	linked := []byte("%PDF-1.4 linked, not in the library")
	if err := os.WriteFile(file, linked, 0o644); err != nil {
		t.Fatal(err)
	}
	li := &item.Item{ID: ItemID(linked), Title: "Linked", Source: file, Linked: true, Kind: item.KindPDF, Added: time.Now(),
		Paragraphs: []item.Paragraph{{Text: "Linked.", Page: 1}}}
	if err := lib.Put(li, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := lib.Original(li); err != nil || !bytes.Equal(got, linked) {
		t.Errorf("linked item: %q, %v; want its file's bytes", got, err)
	}
	if err := os.WriteFile(file, []byte("%PDF-1.4 another version"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := lib.Original(li); !errors.Is(err, ErrLinked) || !strings.Contains(err.Error(), "has changed since") {
		t.Errorf("linked item whose file changed: %v; want ErrLinked, has changed since", err)
	}
	os.Remove(file)
	if _, err := lib.Original(li); !errors.Is(err, ErrLinked) || !strings.Contains(err.Error(), "cannot be read") {
		t.Errorf("linked item whose file is gone: %v; want ErrLinked, cannot be read", err)
	}
}
