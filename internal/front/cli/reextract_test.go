package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
)

// sponge reindex --extract reads items again from their saved originals:
// what an older extractor saved is replaced, titles given with --title and
// ids stay, and an item that cannot be read again is kept with a warning.
func TestReindexExtract(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	note := filepath.Join(dir, "kettles.md")
	os.WriteFile(note, []byte("# Kettles\n\nDescale the kettle every Friday.\n\nNobody knows who bought it.\n"), 0o644)
	plain := filepath.Join(dir, "tea.txt")
	os.WriteFile(plain, []byte("Green tea wants water at 80 degrees.\n"), 0o644)
	memo := filepath.Join(dir, "memo.md")
	os.WriteFile(memo, []byte("# Memo\n\nThe office kettle whistles.\n"), 0o644)
	for _, args := range [][]string{{note, plain}, {memo, "--title", "My kettle memo"}} {
		if _, errs, code := runSponge(t, append([]string{"add", "--library", lib}, args...)...); code != 0 {
			t.Fatalf("add: %s", errs)
		}
	}
	l, err := library.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := l.IDs()
	byTitle := map[string]*item.Item{}
	for _, id := range ids {
		it, err := l.Item(id)
		if err != nil {
			t.Fatal(err)
		}
		byTitle[it.Title] = it
	}
	want := *byTitle["Kettles"]
	memoWant := *byTitle["My kettle memo"]
	// What an older extractor might have saved: a glyph read wrong, a title
	// missed. The memo's paragraphs are damaged too, but its title was given.
	tamper := func(it *item.Item, f func(*item.Item)) {
		src, err := l.Source(it.ID)
		if err != nil {
			t.Fatal(err)
		}
		c := *it
		c.Paragraphs = append([]item.Paragraph(nil), it.Paragraphs...)
		f(&c)
		if err := l.Put(&c, src); err != nil {
			t.Fatal(err)
		}
	}
	tamper(byTitle["Kettles"], func(c *item.Item) {
		c.Title = "kettles"
		c.Paragraphs[0].Text = "Descale the kettle every \uFFFDriday."
	})
	tamper(byTitle["My kettle memo"], func(c *item.Item) { c.Paragraphs[0].Text = "The of\uFFFDce kettle whistles." })
	// The plain note claims to be a PDF: reading it again fails.
	tea := byTitle["tea"]
	tamper(tea, func(c *item.Item) { c.Kind = item.KindPDF })

	out, errs, code := runSponge(t, "reindex", "--library", lib, "--extract")
	if code != 1 {
		t.Errorf("exit %d, want 1 (one item failed)", code)
	}
	if !strings.Contains(out, "read 3 items again: 2 changed, 0 the same, 1 failed\n") || !strings.Contains(out, "reindexed 3 items\n") {
		t.Errorf("stdout:\n%s", out)
	}
	if !strings.HasPrefix(errs, "sponge: warning: "+item.Short(tea.ID)+": cannot read it again: corrupt PDF") ||
		!strings.Contains(errs, "kept as it was") || strings.Contains(errs, "hint") {
		t.Errorf("stderr:\n%s", errs)
	}
	for _, w := range []item.Item{want, memoWant} {
		got, err := l.Item(w.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(w, *got); d != "" {
			t.Errorf("item %q read again (-want +got):\n%s", w.Title, d)
		}
	}
	if got, _ := l.Item(tea.ID); got == nil || got.Kind != item.KindPDF || got.Paragraphs[0].Text != tea.Paragraphs[0].Text {
		t.Errorf("the item that failed changed: %+v", got)
	}
	// The index has the new text: the repaired word is found.
	out, _, _ = runSponge(t, "search", "--library", lib, "Friday")
	if !strings.Contains(out, "Kettles") {
		t.Errorf("search after reindex --extract:\n%s", out)
	}
	// Every item is in the index: none is left noted as pending, and list
	// does not say that search cannot find them yet.
	if p, err := l.Pending(); err != nil || len(p) > 0 {
		t.Errorf("pending after reindex --extract: %v %v", p, err)
	}
	if _, errs, _ := runSponge(t, "list", "--library", lib); errs != "" {
		t.Errorf("list after reindex --extract, stderr:\n%s", errs)
	}
	// A second run changes nothing.
	out, _, _ = runSponge(t, "reindex", "--library", lib, "--extract")
	if !strings.Contains(out, "read 3 items again: 0 changed, 2 the same, 1 failed") {
		t.Errorf("second run:\n%s", out)
	}
}

// sponge add --link keeps no copy of a file: the item is read again from
// the file while it is unchanged, and kept as it was once it changes.
func TestAddLink(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	note := filepath.Join(dir, "kettles.md")
	body := "# Kettles\n\nDescale the kettle every Friday.\n\n" + strings.Repeat("Steam rises from the spout of the kettle. ", 2000) + "\n"
	os.WriteFile(note, []byte(body), 0o644)
	if _, errs, code := runSponge(t, "add", "--library", lib, "--link", note); code != 0 {
		t.Fatalf("add: %s", errs)
	}
	l, _ := library.Open(lib)
	ids, _ := l.IDs()
	if len(ids) != 1 {
		t.Fatalf("%d items", len(ids))
	}
	id := ids[0]
	if n, err := l.SourceSize(id); err != nil || n > 64 {
		t.Errorf("the store keeps %d bytes of the original (%v), want none", n, err)
	}
	out, _, _ := runSponge(t, "show", "--library", lib, id[:8])
	if !strings.Contains(out, "original: not kept in the library (saved with --link)\n") {
		t.Errorf("show:\n%s", out)
	}
	// Standard input has no file to point to: it is kept whole.
	r := strings.NewReader("A memo from standard input.\n")
	var o, e strings.Builder
	if code := Main([]string{"add", "--library", lib, "--link", "-", "--title", "Memo"}, r, &o, &e); code != 0 {
		t.Fatalf("add -: %s", e.String())
	}
	out, errs, code := runSponge(t, "reindex", "--library", lib, "--extract")
	if code != 0 || !strings.Contains(out, "read 2 items again: 0 changed, 2 the same, 0 failed") {
		t.Errorf("reindex --extract: exit %d\n%s%s", code, out, errs)
	}
	os.WriteFile(note, []byte(body+"One more line.\n"), 0o644)
	out, errs, code = runSponge(t, "reindex", "--library", lib, "--extract")
	if code != 1 || !strings.Contains(out, "0 changed, 1 the same, 1 failed") ||
		!strings.Contains(errs, "sponge: warning: "+item.Short(id)+": it was saved with --link and "+note+" has changed since; kept as it was\n") ||
		!strings.Contains(errs, "sponge: hint: 'sponge update' reads a linked file that changed again") {
		t.Errorf("after the file changed: exit %d\n%s%s", code, out, errs)
	}
	if it, err := l.Item(id); err != nil || !strings.Contains(it.Paragraphs[0].Text, "Friday") {
		t.Errorf("the item changed: %v", err)
	}
}
