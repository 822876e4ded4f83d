package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
)

// postingsItem is an item of three paragraphs, two of them about tea.
func postingsItem() *item.Item {
	return &item.Item{ID: "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789", Title: "T",
		Paragraphs: []item.Paragraph{
			{Heading: "Green tea", Text: "Green teas are steeped cooler than the black ones."},
			{Text: "The kettle's water boils; the kettles boil."},
			{Heading: "Storage", Text: "Keep tea away from light."},
		}}
}

// An index made under other word rules is refused with a clear message, and
// Outdated tells a writer to remake it.
func TestOldIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	bi, err := bleve.New(dir, bleve.NewIndexMapping()) // as an older sponge made it: no version
	if err != nil {
		t.Fatal(err)
	}
	bi.Close()
	if !Outdated(dir) {
		t.Error("an index without a version is not Outdated")
	}
	for name, open := range map[string]func(string) (*Index, error){"Open": Open, "Create": Create} {
		x, err := open(dir)
		if err == nil {
			x.Close()
			t.Fatalf("%s opened an old index", name)
		}
		if !fault.Is(err, fault.IndexBroken) || !strings.Contains(err.Error(), "was made by an older sponge: its words no longer match this sponge's") {
			t.Errorf("%s: %v", name, err)
		}
	}

	fresh := filepath.Join(t.TempDir(), "index")
	x, err := Create(fresh)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	if Outdated(fresh) {
		t.Error("a new index is Outdated")
	}
	if x, err := Open(fresh); err != nil {
		t.Errorf("Open(new index): %v", err)
	} else {
		x.Close()
	}
	if Outdated(filepath.Join(t.TempDir(), "none")) {
		t.Error("a missing index is Outdated")
	}
}

// TestPostingsWithItem checks that the index writes an item's postings with
// its documents and removes them with it.
func TestPostingsWithItem(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	x, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	it := postingsItem()
	for len(it.Paragraphs) < keywords.PostingsFrom/20 {
		it.Paragraphs = append(it.Paragraphs, it.Paragraphs[:3]...)
	}
	small := &item.Item{ID: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", Paragraphs: it.Paragraphs[:3]}
	b := x.NewBatch()
	if err := b.Add(small); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(it); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if p, err := keywords.ReadPostings(dir, it.ID, []string{"tea"}); err != nil || len(p.Terms["tea"]) != 2*len(it.Paragraphs)/3 {
		t.Fatalf("postings after add: %+v, %v", p, err)
	}
	if _, err := keywords.ReadPostings(dir, small.ID, []string{"tea"}); err == nil {
		t.Error("an item smaller than keywords.PostingsFrom has postings")
	}
	if err := x.Remove(it.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "postings", it.ID[:2], it.ID)); !os.IsNotExist(err) {
		t.Errorf("postings left after remove: %v", err)
	}
	if _, err := keywords.ReadPostings(dir, it.ID, []string{"tea"}); err == nil {
		t.Error("postings read after remove")
	}
}
