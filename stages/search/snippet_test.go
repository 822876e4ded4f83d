package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
	"github.com/sponge-library/sponge/internal/testsupport/stagetest"
)

// snippetParagraph is the paragraph Snippet shows as it was first written:
// the first with the most of the question's terms, each counted once, from
// the analyzer's terms of the whole paragraph.
func snippetParagraph(it *item.Item, question string) int {
	want := map[string]bool{}
	for _, t := range keywords.Terms(question) {
		want[t] = true
	}
	best, bestN := -1, 0
	for i, p := range it.Paragraphs {
		n := 0
		seen := map[string]bool{}
		for _, t := range keywords.Terms(p.Text) {
			if want[t] && !seen[t] {
				seen[t] = true
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	return max(best, 0)
}

// snippetItems are the fixture's items, items of the text test documents'
// paragraphs (blank-line separated), and one of other scripts and
// full-width letters.
func snippetItems(t testing.TB) []*item.Item {
	var items []*item.Item
	for _, e := range stagetest.Items() {
		items = append(items, e.Item)
	}
	files, _ := filepath.Glob("../../testdata/docs/*[dt]") // .md, .srt, .vtt
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		it := &item.Item{ID: f}
		for _, p := range strings.Split(string(data), "\n\n") {
			if p = strings.TrimSpace(p); p != "" {
				it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: p})
			}
		}
		items = append(items, it)
	}
	if len(items) < 8 {
		t.Fatalf("only %d test documents", len(items))
	}
	items = append(items, &item.Item{ID: "scripts", Paragraphs: []item.Paragraph{
		{Text: "東京都の人口は多い。緑茶の温度"}, {Text: "ＧＲＥＥＮ ＴＥＡ is brewed at 80 °C"},
		{Text: "ชาเขียวชงที่อุณหภูมิต่ำ green tea"}, {Text: "The kettle's lid; kettles boiled, brewing teas"},
	}})
	return items
}

var snippetQuestions = []string{
	"how hot should the water be for green tea?", "brewing time", "chain lube", "sourdough starter feeding",
	"what is a volcano", "緑茶の温度", "kettles boiling", "the", "zzz nothing here",
}

// Snippet shows the paragraph the analyzer's terms of each paragraph pick:
// counting them with keywords.HeldTerms picks the same one.
func TestSnippetPicksAsTerms(t *testing.T) {
	for _, it := range snippetItems(t) {
		for _, q := range snippetQuestions {
			if len(it.Paragraphs) == 0 {
				continue
			}
			texts := make([]string, len(it.Paragraphs))
			for i, p := range it.Paragraphs {
				texts[i] = p.Text
			}
			best := snippetParagraph(it, q)
			want := Snippet(texts[best:best+1], q, 200)
			if got := Snippet(texts, q, 200); got != want {
				t.Errorf("%s, %q:\n got %q\nwant %q", filepath.Base(it.ID), q, got, want)
			}
		}
	}
}

// BenchmarkSnippet is the snippets of one sponge search: each question over
// every test document.
func BenchmarkSnippet(b *testing.B) {
	var items [][]string
	for _, it := range snippetItems(b) {
		var texts []string
		for _, p := range it.Paragraphs {
			texts = append(texts, p.Text)
		}
		items = append(items, texts)
	}
	for b.Loop() {
		for _, texts := range items {
			for _, q := range snippetQuestions {
				Snippet(texts, q, 200)
			}
		}
	}
}
