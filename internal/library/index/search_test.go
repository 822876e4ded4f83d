package index

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sponge-library/sponge/internal/base/item"
)

// searchItems are notes of different lengths about tea and coffee; the last
// two say the same words, so they tie.
func searchItems() []*item.Item {
	texts := []string{
		"Green tea is steeped at eighty degrees for two minutes.",
		"Black tea wants boiling water. Steep it for four minutes, then take the leaves out, or the tea turns bitter and dark; milk softens it.",
		"Coffee is brewed hotter than tea, at ninety to ninety-six degrees, and ground just before brewing.",
		"Oolong is rolled, withered and partly oxidised; it is steeped many times, each infusion a little longer than the last, and the third is often the best of the pot. " +
			"Its leaves unfurl slowly, so a gaiwan or a small clay pot is used, warmed first with hot water.",
		"Matcha is whisked, not steeped.",
		"Store tea away from light, air and the smell of coffee.",
		"Store tea away from light, air and the smell of coffee.",
	}
	var items []*item.Item
	for i, text := range texts {
		id := fmt.Sprintf("%02x%062d", 0xf0-i, i) // ids in the opposite order to the texts
		items = append(items, &item.Item{ID: id, Title: fmt.Sprintf("Note %d", i), Paragraphs: []item.Paragraph{{Text: text}}})
	}
	return items
}

// indexOf makes an index of items, added in batches of the given size.
func indexOf(t *testing.T, items []*item.Item, batch int) *Index {
	t.Helper()
	x, err := Create(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	b := x.NewBatch()
	for i, it := range items {
		if err := b.Add(it); err != nil {
			t.Fatal(err)
		}
		if (i+1)%batch == 0 || i == len(items)-1 {
			if err := b.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return x
}

// The same items give the same hits with the same scores however they were
// added: in one batch (one segment), one at a time and in reverse (several
// segments, other doc numbers). bleve's own BM25 took the average length
// from the segments' dictionaries, so the scores moved with the layout.
func TestSearchSameHoweverAdded(t *testing.T) {
	items := searchItems()
	reversed := slices.Clone(items)
	slices.Reverse(reversed)
	one := indexOf(t, items, len(items))
	each := indexOf(t, reversed, 1)
	if each.Segments() < 2 {
		t.Logf("one item a batch left %d segments", each.Segments())
	}
	for _, q := range []string{"how long is green tea steeped", "coffee brewing temperature", "store tea", "oolong pot", "whisked matcha"} {
		a, err := one.Search(q, 5)
		if err != nil {
			t.Fatal(err)
		}
		b, err := each.Search(q, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) == 0 || !slices.Equal(a, b) {
			t.Errorf("%q:\none batch:  %v\none a time: %v", q, a, b)
		}
	}
}

// Items whose best chunks score the same come in the order of their ids,
// not in the order they were added.
func TestSearchTiesByID(t *testing.T) {
	items := searchItems()
	twins := items[len(items)-2:] // same text; the second has the smaller id
	for _, x := range []*Index{indexOf(t, items, len(items)), indexOf(t, []*item.Item{twins[0], twins[1]}, 1)} {
		hits, err := x.Search("smell of coffee in stored tea", 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 2 || hits[0].ItemID != twins[1].ID || hits[1].ItemID != twins[0].ID || hits[0].Score != hits[1].Score {
			t.Errorf("tied items: %+v, want %s then %s", hits, twins[1].ID[:4], twins[0].ID[:4])
		}
	}
}

// Stop words do not find items: a question's other words do.
func TestSearchLeavesStopWordsOut(t *testing.T) {
	x := indexOf(t, searchItems(), 3)
	hits, err := x.Search("how is the matcha made", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Title != "Note 4" {
		t.Errorf("hits %+v, want Note 4 alone", hits)
	}
}

// scoreChunks merges the terms' chunk lists: each chunk once, with the sum of
// its terms' scores, as scoring with a map of every chunk gives, whether or
// not a list comes in doc number order.
func TestScoreChunksMerges(t *testing.T) {
	lists := [][]posting{
		{{doc: 2, freq: 1, len: 10}, {doc: 5, freq: 4, len: 30}, {doc: 9, freq: 1, len: 5}},
		{{doc: 5, freq: 1, len: 30}, {doc: 1, freq: 9, len: 12}, {doc: 9, freq: 2, len: 5}},
		{},
		{{doc: 7, freq: 1, len: 8}},
	}
	const n, k1, b = 20, 5, 0.65
	want := map[uint64]float64{}
	lens := map[uint64]float64{}
	for _, list := range lists {
		for _, p := range list {
			lens[p.doc] = float64(p.len)
		}
	}
	total := 0.0
	for _, l := range lens {
		total += l
	}
	avg := total / float64(len(lens))
	for _, list := range lists {
		df := float64(len(list))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range list {
			tf := math.Sqrt(float64(p.freq))
			want[p.doc] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(p.len)/avg))
		}
	}
	got := scoreChunks(lists, n, k1, b)
	if len(got) != len(want) {
		t.Fatalf("%d chunks scored, want %d: %v", len(got), len(want), got)
	}
	for i, c := range got {
		if i > 0 && got[i-1].doc >= c.doc {
			t.Errorf("chunk %d after %d", c.doc, got[i-1].doc)
		}
		if math.Abs(c.score-want[c.doc]) > 1e-12 {
			t.Errorf("chunk %d scores %v, want %v", c.doc, c.score, want[c.doc])
		}
	}
}
