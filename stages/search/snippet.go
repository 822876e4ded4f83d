package search

import (
	"strings"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
	"github.com/sponge-library/sponge/jsonl"
)

// Snippet returns a short piece of an item, the texts of its paragraphs,
// around the question's words: the paragraph with most of them, clipped to
// about width characters.
func Snippet(paragraphs []string, question string, width int) string {
	want := map[string]bool{}
	for _, t := range keywords.Terms(question) {
		want[t] = true
	}
	best, bestN := -1, 0
	for i, p := range paragraphs {
		// The terms of every paragraph of the item: HeldTerms counts them
		// as Terms gives them, without a string and a token for each word.
		n := keywords.HeldTerms(p, want)
		if n > bestN {
			best, bestN = i, n
		}
		if bestN == len(want) {
			break // no later paragraph holds more
		}
	}
	if best < 0 {
		if len(paragraphs) == 0 {
			return ""
		}
		best = 0
	}
	words := strings.Fields(paragraphs[best])
	// Start a little before the first word that matched.
	start := 0
	for i, wd := range words {
		ts := keywords.Terms(wd)
		if len(ts) > 0 && want[ts[0]] {
			start = max(0, i-6)
			break
		}
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	end := start
	for end < len(words) && b.Len()+len(words[end]) < width {
		if end > start {
			b.WriteByte(' ')
		}
		b.WriteString(words[end])
		end++
	}
	if end < len(words) {
		b.WriteString("…")
	}
	return b.String()
}

// ResultJSON is the document of `sponge search --json` and of the MCP
// search tool: the hit records, without their "v" and "type", each with a
// snippet.
type ResultJSON struct {
	Question string           `json:"question"`
	Hits     []*jsonl.Hit     `json:"hits"`
	Warnings []*jsonl.Warning `json:"warnings"`
}

// Document makes the ResultJSON of res, setting each hit's snippet from its
// item in lib.
func Document(lib *library.Library, question string, res *Result) ResultJSON {
	doc := ResultJSON{Question: question, Hits: []*jsonl.Hit{}, Warnings: []*jsonl.Warning{}}
	for _, h := range res.Hits {
		if texts, err := paragraphTexts(lib, h.ItemID); err == nil {
			h.Snippet = Snippet(texts, question, 200)
		}
		doc.Hits = append(doc.Hits, h)
	}
	doc.Warnings = append(doc.Warnings, res.Warnings...)
	return doc
}

// paragraphTexts reads the texts of an item's paragraphs, without decoding
// the item whole (library.Paragraphs: its texts are not copied), which was a
// fifth of a sponge search.
func paragraphTexts(lib *library.Library, id string) ([]string, error) {
	ps, err := lib.Paragraphs(id)
	if err != nil {
		return nil, err
	}
	texts := make([]string, ps.Len())
	for i := range texts {
		p, err := ps.At(i)
		if err != nil {
			return nil, err
		}
		texts[i] = p.Text
	}
	return texts, nil
}
