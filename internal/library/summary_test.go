package library

import (
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
)

// TestSummaryKept: a summary is saved beside its item, is current while the
// item's paragraphs are those it was made from, is none for a new version
// of the file (a new id), and goes with its item.
func TestSummaryKept(t *testing.T) {
	lib, it, src, sum := savedTea(t)
	if err := lib.PutSummary(sum); err != nil {
		t.Fatal(err)
	}
	m, err := lib.Meta(it.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := lib.Gist(m); got != sum.Statements[0].Text {
		t.Errorf("Gist = %q", got)
	}
	if lib.CurrentSummary(it) == nil {
		t.Errorf("the summary is not current")
	}
	// Read again with other paragraphs (reindex --extract): stale.
	again := *it
	again.Paragraphs = []item.Paragraph{{Text: "Green tea is steeped"}, {Text: "at eighty degrees."}}
	if lib.CurrentSummary(&again) != nil {
		t.Errorf("a summary of other paragraphs is current")
	}
	if err := lib.Put(&again, src); err != nil {
		t.Fatal(err)
	}
	m, _ = lib.Meta(it.ID)
	if got := lib.Gist(m); got != "" {
		t.Errorf("Gist of a stale summary = %q", got)
	}
	// A new version of the file is a new item, without the old summary.
	src2 := append(src, []byte(" Black tea at a hundred.")...)
	if s, err := lib.Summary(ItemID(src2)); err != nil || s != nil {
		t.Errorf("the new version has a summary: %v, %v", s, err)
	}
	if err := lib.Delete(it.ID); err != nil {
		t.Fatal(err)
	}
	if s, err := lib.Summary(it.ID); err != nil || s != nil {
		t.Errorf("the summary outlived its item: %v, %v", s, err)
	}
	if _, err := lib.Summary(strings.Repeat("z", 64)); err == nil {
		t.Errorf("a bad id was read")
	}
}

// TestSummaryOfRemovedItem (issue 42): sponge summarize --all holds no write
// lock, so sponge rm can remove an item while its summary is being written.
// A summary written for an item removed before or meanwhile is not kept.
func TestSummaryOfRemovedItem(t *testing.T) {
	lib, it, _, sum := savedTea(t)
	if kept, err := lib.PutSummaryOfItem(sum); err != nil || !kept {
		t.Fatalf("the summary of a saved item: kept %v, %v", kept, err)
	}
	if s, _ := lib.Summary(it.ID); s == nil {
		t.Fatalf("the summary of a saved item is not there")
	}
	if err := lib.Delete(it.ID); err != nil {
		t.Fatal(err)
	}
	if kept, err := lib.PutSummaryOfItem(sum); err != nil || kept {
		t.Errorf("the summary of a removed item: kept %v, %v", kept, err)
	}
	if s, _ := lib.Summary(it.ID); s != nil {
		t.Errorf("a removed item has a summary")
	}
}

// savedTea is a library holding one item of a sentence, and a summary of it
// (not saved).
func savedTea(t *testing.T) (*Library, *item.Item, []byte, *item.Summary) {
	t.Helper()
	lib, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("Green tea is steeped at eighty degrees.")
	it := &item.Item{ID: ItemID(src), Title: "Tea", Kind: item.KindText, Added: time.Now(),
		Paragraphs: []item.Paragraph{{Text: string(src)}}}
	if err := lib.Put(it, src); err != nil {
		t.Fatal(err)
	}
	sum := &item.Summary{ItemID: it.ID, Model: "extractive", Fingerprint: item.Fingerprint(it),
		Statements: []item.SummaryStatement{{Text: "Green tea is steeped at eighty degrees.", Quote: "Green tea is steeped at eighty degrees.", End: 39}}}
	return lib, it, src, sum
}
