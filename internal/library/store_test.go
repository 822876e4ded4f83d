package library

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
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

// putBytes is the item file Put writes, made as it was first written:
// each part compressed into a fresh slice, then joined.
func putBytes(t testing.TB, it *item.Item, source []byte) []byte {
	meta, err := json.Marshal(MetaOf(it))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := appendItemJSON(nil, it)
	if err != nil {
		t.Fatal(err)
	}
	e := encoder()
	data := skippable(nil, metaMagic, meta)
	data = skippable(data, sourceMagic, e.EncodeAll(source, nil))
	return e.EncodeAll(raw, data)
}

// Put makes its file in lent buffers, the source compressed in place: the
// bytes are those of each part made on its own and joined, for items big
// and small one after the other (a lent buffer holds a bigger item's bytes
// past the end of a smaller one's), with no source (a linked file) too.
func TestPutSameBytes(t *testing.T) {
	l, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []int{2000, 3, 0, 40000, 1, 500, 0, 9000} {
		src := []byte(strings.Repeat(fmt.Sprintf("line %d of source %d, as it was read.\n", i, n), n))
		it := &item.Item{ID: ItemID(append(src, byte(i))), Title: fmt.Sprintf("Item %d", i), Source: "/x/item.md", Kind: item.KindMarkdown}
		for p := range 1 + n/50 {
			it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: fmt.Sprintf("paragraph %d of item %d: %s", p, i, strings.Repeat("words ", p%30)), Heading: "Part"})
		}
		if err := l.Put(it, src); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(l.itemPath(it.ID))
		if err != nil {
			t.Fatal(err)
		}
		if want := putBytes(t, it, src); !bytes.Equal(got, want) {
			t.Fatalf("item %d (%d bytes of source): Put wrote %d bytes unlike the parts joined (%d bytes)", i, len(src), len(got), len(want))
		}
		back, err := l.Source(it.ID)
		if err != nil || !bytes.Equal(back, src) {
			t.Fatalf("item %d: source read back %d bytes of %d, %v", i, len(back), len(src), err)
		}
	}
}

// BenchmarkPut saves an item of 2,000 paragraphs (about 300 KB) with its
// source, as sponge add's workers save each item.
func BenchmarkPut(b *testing.B) {
	l, err := Create(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	it, source := benchItem(2000, 100)
	it.ID = ItemID(source)
	b.SetBytes(int64(len(source)))
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Put(it, source); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPutNew saves new items of about 7 KB of source, the kernel
// docs' mean, each in its own file, as sponge add's workers save a folder.
func BenchmarkPutNew(b *testing.B) {
	l, err := Create(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	it, source := benchItem(40, 10)
	b.SetBytes(int64(len(source)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		it.ID = ItemID(fmt.Append(nil, n))
		if err := l.Put(it, source); err != nil {
			b.Fatal(err)
		}
	}
}

// benchItem is an item of n paragraphs, chapters of perChapter under
// their headings, and its source.
func benchItem(n, perChapter int) (*item.Item, []byte) {
	var src strings.Builder
	it := &item.Item{Title: "Bench", Source: "/x/bench.md", Kind: item.KindMarkdown}
	for i := range n {
		text := fmt.Sprintf("Paragraph %d: %s", i, strings.Repeat("the words of a paragraph, "+fmt.Sprint(i%97)+" ", 3+i%9))
		it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: text, Heading: "Chapter " + fmt.Sprint(i/perChapter)})
		src.WriteString(text + "\n\n")
	}
	return it, []byte(src.String())
}
