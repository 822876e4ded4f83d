package rank

import (
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/jsonl"
)

// The summary mode (sponge-rank --item ID): the question is what the item
// says, so there are no hits and no question words to rank by. The passages
// are the item's most central paragraphs, one from each of up to
// SummaryPassages stretches of equal length in reading order, so that a
// 300-page PDF or a two-hour transcript is summed up from all of it, not from
// its start. Here the two paths differ: ask ranks paragraphs by the
// question's words (Rank), a summary by how central they are to the item.

// SummaryPassages is the most passages of a summary.
const SummaryPassages = 8

// minProseWords is the fewest words of a paragraph that may be a summary
// passage: shorter ones are titles, headings, captions and lines of a
// table of contents.
const minProseWords = 8

// ItemPassages returns the passages of it for its summary, numbered in
// reading order, about BudgetChars characters in all.
func ItemPassages(it *item.Item) []*jsonl.Passage {
	type para struct {
		i     int
		terms []termCount // in the order of the words, so sums come out the same every time
		chars int
		score float64
	}
	var cands []*para
	df := map[string]int{}
	lx := itemLexicon(it)
	for i := range it.Paragraphs {
		text := it.Paragraphs[i].Text
		tf, words := centralTerms(text, lx)
		if (words < minProseWords && !nameLine(it, i)) || !prose(text) {
			continue
		}
		for t := range tf {
			df[t]++
		}
		cands = append(cands, &para{i: i, terms: sortedCounts(tf), chars: utf8.RuneCountInString(text)})
	}
	if len(cands) == 0 {
		// An item of short lines only (a list, a poem): take them as they are.
		for i := range it.Paragraphs {
			if text := it.Paragraphs[i].Text; strings.TrimSpace(text) != "" {
				tf, _ := centralTerms(text, lx)
				for t := range tf {
					df[t]++
				}
				cands = append(cands, &para{i: i, terms: sortedCounts(tf), chars: utf8.RuneCountInString(text)})
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	// Centrality: the cosine of a paragraph's tf-idf vector with the whole
	// item's (the centroid), idf over the item's paragraphs. A word in every
	// paragraph weighs nothing; one that runs through many weighs most.
	n := float64(len(cands))
	idf := make(map[string]float64, len(df))
	centroid := map[string]float64{}
	for _, c := range cands {
		for _, tc := range c.terms {
			t, f := tc.term, tc.n
			if _, ok := idf[t]; !ok {
				idf[t] = math.Log((n + 1) / (float64(df[t]) + 0.5))
			}
			centroid[t] += float64(f) * idf[t]
		}
	}
	// The cosine with the other paragraphs' sum (C - v), not with one that
	// holds the paragraph itself: a word of this paragraph alone then adds
	// nothing to its centrality. v·(C-v) and |C-v| come from v·C, |v| and
	// |C|, in time of the paragraph's words.
	// Every sum runs over words in one order: summed in a map's order, the
	// scores of paragraphs alike differed in their last bits from run to
	// run, and which of them was a passage with them.
	csq := 0.0
	for _, t := range slices.Sorted(maps.Keys(centroid)) {
		csq += centroid[t] * centroid[t]
	}
	for _, c := range cands {
		vc, vv := 0.0, 0.0
		for _, tc := range c.terms {
			v := float64(tc.n) * idf[tc.term]
			vc += v * centroid[tc.term]
			vv += v * v
		}
		if rest := csq - 2*vc + vv; vv > 0 && rest > 1e-12 {
			c.score = (vc - vv) / (math.Sqrt(vv) * math.Sqrt(rest))
		}
	}
	// Stretches of equal length in characters, in reading order: the best
	// paragraph of each is a passage.
	k := min(SummaryPassages, len(cands))
	total := 0
	for _, c := range cands {
		total += c.chars
	}
	// The paragraph stands in the stretch where it starts; a paragraph
	// longer than a stretch leaves the next one empty.
	best := make([]*para, k)
	seen := 0
	for _, c := range cands {
		s := min(k-1, seen*k/total)
		seen += c.chars
		if best[s] == nil || c.score > best[s].score {
			best[s] = c
		}
	}
	// The item's first paragraph of prose is the first passage: it most
	// often says what the item is (an abstract, an introduction, the
	// opening of a lecture), whether or not its words run through the rest.
	best[0] = cands[0]
	budget := BudgetChars / k
	var out []*jsonl.Passage
	for _, b := range best {
		if b == nil {
			continue
		}
		p := &it.Paragraphs[b.i]
		out = append(out, &jsonl.Passage{
			Number: len(out) + 1, ItemID: it.ID, Title: it.Title, Heading: p.Heading,
			Page: p.Page, StartMs: p.StartMs, Paragraph: b.i, Text: cutAtSentence(p.Text, budget),
			Score: math.Round(b.score*10000) / 10000,
		})
	}
	return out
}

// nameLine reports whether paragraph i of it is a manual page's NAME line
// ("ssh — OpenSSH remote login client"): the first paragraph of a man item,
// since man-pages(7) puts the NAME section first in every language (NAME,
// BEZEICHNUNG, NOM, ИМЯ). It says what the item is in fewer words than
// minProseWords, so it is a summary passage however short.
func nameLine(it *item.Item, i int) bool {
	return it.Kind == item.KindMan && i == 0 && len(strings.Fields(it.Paragraphs[i].Text)) >= 2
}

// termCount is a word and how often a paragraph has it.
type termCount struct {
	term string
	n    int
}

// sortedCounts lists a paragraph's word counts by word.
func sortedCounts(tf map[string]int) []termCount {
	out := make([]termCount, 0, len(tf))
	for _, t := range slices.Sorted(maps.Keys(tf)) {
		out = append(out, termCount{t, tf[t]})
	}
	return out
}

// itemLexicon is the lexicon of the item's language, told from its first
// paragraphs (up to 4,000 bytes): its stop words are the words too common
// to tell what a paragraph is about. An item whose language is not told
// gets the neutral lexicon, with no stop words.
func itemLexicon(it *item.Item) *lang.Lexicon {
	var b strings.Builder
	for i := range it.Paragraphs {
		if b.Len() > 4000 {
			break
		}
		b.WriteString(it.Paragraphs[i].Text)
		b.WriteByte('\n')
	}
	return lang.For(lang.Detect(b.String()))
}

// centralTerms counts the words of text that can carry its subject, as
// lang.Words finds them in any script (a Han character, a Thai word, a
// Bengali word with its vowel signs): lowercased, not a stop word of the
// item's language, and in the alphabets that write words with spaces
// (Latin, Cyrillic, Greek, Armenian, Georgian) three letters or more; and
// how many words it has in all.
func centralTerms(text string, lx *lang.Lexicon) (map[string]int, int) {
	tf := map[string]int{}
	words := 0
	for _, w := range lang.Words(text) {
		words++
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsLetter(r) {
			continue
		}
		if unicode.In(r, unicode.Latin, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Georgian) && utf8.RuneCountInString(w) < 3 {
			continue
		}
		w = strings.ToLower(w)
		if lx.Has("stop", w) {
			continue
		}
		tf[w]++
	}
	return tf, words
}

// prose reports whether a paragraph reads as sentences: most of its
// characters are letters (with their marks: a Bengali vowel sign is part of
// its word, lang.WordLetter), not the dots and page numbers of a table of
// contents or the brackets and operators of code.
func prose(text string) bool {
	letters, other := 0, 0
	for _, r := range text {
		switch {
		case lang.WordLetter(r):
			letters++
		case unicode.IsSpace(r):
		default:
			other++
		}
	}
	return letters > 0 && float64(letters) >= 0.8*float64(letters+other)
}
