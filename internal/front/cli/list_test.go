package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

func listItem(n int) (*item.Item, []byte) {
	src := []byte(strings.Repeat("x", n) + " The kettle whistles at dawn.\n")
	return &item.Item{ID: library.ItemID(src), Title: "Note " + strings.Repeat("I", n), Source: "test", Kind: item.KindText,
		Added:      time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Paragraphs: []item.Paragraph{{Text: "The kettle whistles at dawn."}}}, src
}

// TestListSaysWhatSearchCannotFind: an item saved and not yet indexed (an
// add killed between the two) is listed with a warning that search does not
// find it yet; a damaged item is named and the others are still listed.
func TestListSaysWhatSearchCannotFind(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, srcA := listItem(1)
	b, srcB := listItem(2)
	c, srcC := listItem(3)
	if err := w.Add(a, srcA); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(c, srcC); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.Save(b, srcB); err != nil { // saved, never queued: as after a kill
		t.Fatal(err)
	}
	// Damage c (its file's head), as a disk error would.
	if err := os.WriteFile(filepath.Join(dir, "items", c.ID[:2], c.ID+".zst"), []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := Main([]string{"list", "--library", dir}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1 (an item could not be read)", code)
	}
	for _, want := range []string{item.Short(a.ID), item.Short(b.ID)} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("%s not listed:\n%s", want, stdout.String())
		}
	}
	for _, want := range []string{"1 item is saved but not yet in the index", "item " + item.Short(c.ID) + " is damaged"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	w.Close()
}
