package library

import (
	"bytes"
	"os"
	"testing"

	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
)

// TestItemFileParts: an item file read for its item, its source or the
// source's size gives each part, and a file cut anywhere short is damaged,
// never misread.
func TestItemFileParts(t *testing.T) {
	l, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := bytes.Repeat([]byte("the saved source, as it was read. "), 200)
	it := &item.Item{ID: ItemID(src), Title: "Parts", Source: "/x/parts.md", Kind: item.KindMarkdown,
		Paragraphs: []item.Paragraph{{Text: "one paragraph"}, {Text: "and another"}}}
	if err := l.Put(it, src); err != nil {
		t.Fatal(err)
	}
	got, err := l.Item(it.ID)
	if err != nil || got.Title != "Parts" || len(got.Paragraphs) != 2 || got.Paragraphs[1].Text != "and another" {
		t.Fatalf("Item: %+v, %v", got, err)
	}
	back, err := l.Source(it.ID)
	if err != nil || !bytes.Equal(back, src) {
		t.Fatalf("Source: %d bytes, %v", len(back), err)
	}
	size, err := l.SourceSize(it.ID)
	if err != nil || size <= 0 || size >= int64(len(src)) {
		t.Fatalf("SourceSize: %d, %v", size, err)
	}
	f, err := l.open(it.ID, readItem)
	if err != nil || f.source != nil || f.sourceSize != size {
		t.Fatalf("open for the item read the source too (%d bytes) or sized it %d, not %d: %v", len(f.source), f.sourceSize, size, err)
	}

	whole, err := os.ReadFile(l.itemPath(it.ID))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 4, 8, 20, 8 + 8 + int(size) - 1, len(whole) - 1} {
		if err := os.WriteFile(l.itemPath(it.ID), whole[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Item(it.ID); !fault.Is(err, fault.Damaged) {
			t.Errorf("cut at %d of %d bytes: %v, want damaged", n, len(whole), err)
		}
	}
}
