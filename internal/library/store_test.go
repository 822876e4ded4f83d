package library

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

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
	// zstd reads the file: the skippable frames are passed over, and the
	// frame holds the item's JSON, then the source.
	all, err := decoder().DecodeAll(whole, nil)
	raw, _ := appendItemJSON(nil, it)
	if err != nil || !bytes.Equal(all, append(raw, src...)) {
		t.Fatalf("the whole file decodes to %d bytes, not the JSON and the source (%d): %v", len(all), len(raw)+len(src), err)
	}
	frame := len(whole) - int(f.parts.frameLen)
	jsonEnd := frame + int(f.parts.jsonEnd)
	for _, n := range []int{0, 4, 8, 20, frame - 1, frame + 5, jsonEnd - 1, jsonEnd + 2, len(whole) - 1} {
		if err := os.WriteFile(l.itemPath(it.ID), whole[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Item(it.ID); !fault.Is(err, fault.Damaged) {
			t.Errorf("cut at %d of %d bytes: %v, want damaged", n, len(whole), err)
		}
		if _, err := l.Source(it.ID); !fault.Is(err, fault.Damaged) {
			t.Errorf("source, cut at %d of %d bytes: %v, want damaged", n, len(whole), err)
		}
	}
	// Any byte of the item's blocks changed is seen; one of the source's is
	// not read for the item. The frame's header is 8 bytes: magic, flags,
	// window, and a content size of 256 to 65,791 bytes.
	if whole[frame+4]>>6 != 1 {
		t.Fatalf("the frame's header is not of 8 bytes: flags %08b", whole[frame+4])
	}
	for at := frame + 8; at < len(whole); at++ {
		bad := bytes.Clone(whole)
		bad[at] ^= 0x40
		if err := os.WriteFile(l.itemPath(it.ID), bad, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := l.Item(it.ID)
		if at < jsonEnd && !fault.Is(err, fault.Damaged) || at >= jsonEnd && err != nil {
			t.Errorf("byte %d (the JSON's blocks end at %d) changed: %v", at, jsonEnd, err)
		}
		if _, err := l.Source(it.ID); !fault.Is(err, fault.Damaged) {
			t.Errorf("source, byte %d changed: %v, want damaged", at, err)
		}
	}
}

// Items saved before the one-frame layout, their source in a frame of
// its own (testdata/old-layout.zst, written by sponge at cb6925b), still read.
func TestOldLayout(t *testing.T) {
	const id = "9435435c3b2652f1d7919f4b8c21405ab5d261822dbcabc7c8e047e71ec370e6"
	old, err := os.ReadFile("testdata/old-layout.zst")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(l.itemPath(id)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.itemPath(id), old, 0o644); err != nil {
		t.Fatal(err)
	}
	it, err := l.Item(id)
	if err != nil || it.Title != "Kettles" || len(it.Paragraphs) != 2 || it.Paragraphs[1].Text != "Steam rises from the spout of the kettle." {
		t.Fatalf("Item: %+v, %v", it, err)
	}
	ps, err := l.Paragraphs(id)
	if err != nil || ps.Len() != 2 {
		t.Fatalf("Paragraphs: %v", err)
	}
	if h, text, err := ps.Text(0); err != nil || h != "Kettles" || text != "Descale the kettle every Friday: & water." {
		t.Errorf("paragraph 0: %q %q %v", h, text, err)
	}
	src, err := l.Source(id)
	want := "# Kettles\n\nDescale the kettle every Friday: <vinegar> & water.\n\n## Steam\n\nSteam rises from the spout of the kettle.\n"
	if err != nil || string(src) != want {
		t.Errorf("Source: %q, %v", src, err)
	}
	if n, err := l.SourceSize(id); err != nil || n <= 0 || n > int64(len(old)) {
		t.Errorf("SourceSize: %d, %v", n, err)
	}
	if m, err := l.Meta(id); err != nil || m.Paragraphs != 2 || m.Title != "Kettles" {
		t.Errorf("Meta: %+v, %v", m, err)
	}
	// Saved again, it is in the one-frame layout, and reads the same.
	if err := l.Put(it, src); err != nil {
		t.Fatal(err)
	}
	if f, err := l.open(id, 0); err != nil || !f.joined {
		t.Fatalf("saved again: joined %v, %v", f != nil && f.joined, err)
	}
	again, err := l.Item(id)
	if err != nil || !reflect.DeepEqual(again, it) {
		t.Errorf("saved again: %+v, %v", again, err)
	}
	// A cut old file is damaged too.
	for _, n := range []int{8, len(old) / 2, len(old) - 1} {
		if err := os.WriteFile(l.itemPath(id), old[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Item(id); !fault.Is(err, fault.Damaged) {
			t.Errorf("old file cut at %d of %d bytes: %v, want damaged", n, len(old), err)
		}
	}
}

// itemFileFresh is the item file Put writes, made in fresh slices by a
// fresh encoder.
func itemFileFresh(t testing.TB, it *item.Item, source []byte) []byte {
	meta, err := json.Marshal(MetaOf(it))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := appendItemJSON(nil, it)
	if err != nil {
		t.Fatal(err)
	}
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	data, err := (&itemWriter{e: e}).file(nil, meta, raw, source)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Put makes its file in lent buffers with a kept encoder: the bytes are
// those made afresh, for items big and small one after the other (a lent
// buffer or the encoder's history holds a bigger item's bytes past the end
// of a smaller one's), with no source (a linked file) too, and a JSON of
// more than one block.
func TestPutSameBytes(t *testing.T) {
	l, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []int{2000, 3, 0, 40000, 1, 500, 90000, 0, 9000} {
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
		if want := itemFileFresh(t, it, src); !bytes.Equal(got, want) {
			t.Fatalf("item %d (%d bytes of source): Put wrote %d bytes unlike those made afresh (%d bytes)", i, len(src), len(got), len(want))
		}
		back, err := l.Source(it.ID)
		if err != nil || !bytes.Equal(back, src) {
			t.Fatalf("item %d: source read back %d bytes of %d, %v", i, len(back), len(src), err)
		}
		again, err := l.Item(it.ID)
		if err != nil || !reflect.DeepEqual(again.Paragraphs, it.Paragraphs) {
			t.Fatalf("item %d: read back %v", i, err)
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

// BenchmarkItem reads an item as rank and ask do, small (40 paragraphs,
// about 7 KB of source) and large (2,000 paragraphs, about 300 KB): only
// its JSON is decoded, not its source.
func BenchmarkItem(b *testing.B) {
	l, err := Create(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []struct {
		name          string
		n, perChapter int
	}{{"small", 40, 10}, {"large", 2000, 100}} {
		it, source := benchItem(size.n, size.perChapter)
		it.ID = ItemID(source)
		if err := l.Put(it, source); err != nil {
			b.Fatal(err)
		}
		b.Run(size.name+"/Item", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := l.Item(it.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(size.name+"/Paragraphs", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := l.Paragraphs(it.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
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

// An item file of a layout to come (a second frame of a magic after
// partsMagic) reads as made by a newer sponge, not as damaged: a rebuild
// sets damaged items aside, and must leave a newer sponge's items be.
func TestNewerLayout(t *testing.T) {
	l, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("a source saved by a sponge to come")
	it := &item.Item{ID: ItemID(src), Title: "Newer", Source: "/x/newer.md", Paragraphs: []item.Paragraph{{Text: "one paragraph"}}}
	if err := l.Put(it, src); err != nil {
		t.Fatal(err)
	}
	path := l.itemPath(it.ID)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	meta := 8 + int(data[4]) | int(data[5])<<8 | int(data[6])<<16 | int(data[7])<<24
	data[meta] = 0x53 // partsMagic + 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = l.Item(it.ID)
	if err == nil || fault.Is(err, fault.Damaged) || !strings.Contains(err.Error(), "newer sponge") {
		t.Errorf("Item of a newer layout: %v", err)
	}
}
