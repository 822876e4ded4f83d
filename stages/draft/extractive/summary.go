package extractive

import (
	"context"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft/sentences"
)

// The summary mode of the extractive drafter (a question record with
// summary set): there is no question to match, so a sentence is worth
// quoting when it is central to the item, close to what all the passages
// say together. Draft picks sentences by the question's words (Select); a
// summary picks them by centrality (SummarySentences) and writes them in
// reading order.

// Limits of an extractive summary.
const (
	// SummaryStatements is the most statements; a short item gets fewer,
	// one for every summarySentencesPer sentences it has.
	SummaryStatements   = 5
	summarySentencesPer = 3
	// SummaryChars is the longest statement, in characters: a longer
	// sentence is quoted up to a clause break before it.
	SummaryChars = 300
	// summaryRedundant: a sentence that shares this much of its weight
	// with one already picked says the same thing, and is passed over.
	summaryRedundant = 0.5
	// summaryLead weighs up the first sentence of a passage, which most
	// often says what the paragraph is about.
	summaryLead = 1.3
)

// Sentence is a sentence of a passage, as a summary quotes it.
type Sentence struct {
	Passage int    // the passage's number
	Index   int    // position of the sentence in its passage
	Quote   string // the sentence (or its first clauses), verbatim
	Score   float64

	weights map[string]float64
	terms   []string // the keys of weights, sorted: every sum runs in their order
	norm    float64
}

// Summarize writes up to SummaryStatements of the passages' most central
// sentences, in reading order, each quoted whole as its own statement.
func (d *Drafter) Summarize(ctx context.Context, passages []*jsonl.Passage, emit func(*jsonl.Statement) error) error {
	for _, s := range SummarySentences(passages, SummaryStatements) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := emit(&jsonl.Statement{Text: s.Quote, Passage: s.Passage, Quote: s.Quote}); err != nil {
			return err
		}
	}
	return nil
}

// SummarySentences returns at most max sentences of the passages that can
// be statements (summaryStatement): the item's opening sentence
// (openingSentence), then the most central ones, in reading order.
// Centrality is the cosine of a sentence's tf-idf vector (idf over the
// passages' sentences) with the sum of all the other sentences' vectors.
func SummarySentences(passages []*jsonl.Passage, max int) []*Sentence {
	all := weighSentences(passages)
	if len(all) == 0 || max <= 0 {
		return nil
	}
	cands := centralSentences(all)
	max = min(max, (len(all)+summarySentencesPer-1)/summarySentencesPer)
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].Score > cands[j].Score })
	// Picked greedily, best first, passing over one that repeats a picked
	// sentence, and weighing down a passage already quoted so that the
	// summary spreads over the item as its passages do.
	var picked []*Sentence
	perPassage := map[int]int{}
	used := make([]bool, len(cands))
	// The item's opening sentence first (summary_lead.go), then the most
	// central ones.
	if s := openingSentence(passages, all); s != nil {
		picked = append(picked, s)
		perPassage[s.Passage]++
		for i, c := range cands {
			if c == s {
				used[i] = true
			}
		}
	}
	for len(picked) < max {
		bi, bv := -1, math.Inf(-1)
		for i, c := range cands {
			if used[i] {
				continue
			}
			redundant := false
			for _, p := range picked {
				if cosine(c, p) > summaryRedundant {
					redundant = true
					break
				}
			}
			if redundant {
				used[i] = true
				continue
			}
			v := c.Score * math.Pow(0.7, float64(perPassage[c.Passage]))
			if v > bv {
				bi, bv = i, v
			}
		}
		if bi < 0 {
			break
		}
		used[bi] = true
		picked = append(picked, cands[bi])
		perPassage[cands[bi].Passage]++
	}
	sort.Slice(picked, func(i, j int) bool {
		if picked[i].Passage != picked[j].Passage {
			return picked[i].Passage < picked[j].Passage
		}
		return picked[i].Index < picked[j].Index
	})
	return picked
}

// weighSentences returns the passages' sentences, each quoted whole or by
// its first clauses (shortQuote), with its tf-idf vector: idf over the
// passages' sentences. Every sum runs over words in one order (sorted):
// summed in a map's order, the scores of sentences alike differed in their
// last bits from run to run, and which of them a summary quoted with them.
func weighSentences(passages []*jsonl.Passage) []*Sentence {
	var all []*Sentence
	df := map[string]int{}
	tfs := []map[string]int{}
	for _, p := range passages {
		for i, sp := range sentences.Split(p.Text) {
			q := shortQuote(p.Text[sp.Start:sp.End])
			if !wholeWords(p.Text, sp.Start, sp.Start+len(q)) {
				continue
			}
			tf := map[string]int{}
			for _, t := range terms(q) {
				tf[t]++
			}
			for t := range tf {
				df[t]++
			}
			tfs = append(tfs, tf)
			all = append(all, &Sentence{Passage: p.Number, Index: i, Quote: q})
		}
	}
	n := float64(len(all))
	for k, s := range all {
		s.weights = make(map[string]float64, len(tfs[k]))
		s.terms = slices.Sorted(maps.Keys(tfs[k]))
		for _, t := range s.terms {
			w := (1 + math.Log(float64(tfs[k][t]))) * math.Log((n+1)/(float64(df[t])+0.5))
			s.weights[t] = w
			s.norm += w * w
		}
		s.norm = math.Sqrt(s.norm)
	}
	return all
}

// centralSentences scores the sentences that can be statements
// (summaryStatement) by centrality: the cosine of a sentence's vector with
// the sum of all the other sentences' vectors, an opening sentence's
// raised by summaryLead; it returns them in reading order.
func centralSentences(all []*Sentence) []*Sentence {
	centroid := map[string]float64{}
	for _, s := range all {
		for _, t := range s.terms {
			centroid[t] += s.weights[t]
		}
	}
	words := slices.Sorted(maps.Keys(centroid))
	var cands []*Sentence
	for _, s := range all {
		if !summaryStatement(s.Quote) || s.norm == 0 {
			continue
		}
		dot, cnorm := 0.0, 0.0
		for _, t := range words {
			c := centroid[t] - s.weights[t] // the others' sum, not the sentence's own
			dot += s.weights[t] * c
			cnorm += c * c
		}
		if cnorm > 0 {
			s.Score = dot / (s.norm * math.Sqrt(cnorm))
		}
		if s.Index == 0 {
			s.Score *= summaryLead
		}
		cands = append(cands, s)
	}
	return cands
}

func cosine(a, b *Sentence) float64 {
	if a.norm == 0 || b.norm == 0 {
		return 0
	}
	dot := 0.0
	for _, t := range a.terms {
		dot += a.weights[t] * b.weights[t]
	}
	return dot / (a.norm * b.norm)
}

// shortQuote returns s, or when it is longer than SummaryChars its first
// clauses: cut after the last comma, semicolon or colon that keeps it
// within the limit, else at the last space; ending on a whole word.
func shortQuote(s string) string {
	if utf8.RuneCountInString(s) <= SummaryChars {
		return s
	}
	cut := 0
	for i := range s {
		if utf8.RuneCountInString(s[:i]) > SummaryChars {
			break
		}
		cut = i
	}
	head := s[:cut]
	if i := max(strings.LastIndex(head, ", "), strings.LastIndex(head, "; "), strings.LastIndex(head, ": ")); i >= SummaryChars/3 {
		head = head[:i]
	} else if i := strings.LastIndexByte(head, ' '); i > 0 {
		head = head[:i]
	}
	return strings.TrimRightFunc(head, func(r rune) bool { return !isWordRune(r) && r != ')' })
}

// wholeWords reports whether text[start:end] starts and ends on whole
// words, as sponge-verify wants a quote to: not inside "1,409" or
// "diagnosis.2,3", where the sentence splitter or a cut may stop.
func wholeWords(text string, start, end int) bool {
	alnum := isWordRune
	if start > 0 {
		if r, _ := utf8.DecodeLastRuneInString(text[:start]); alnum(r) {
			return false
		}
	}
	// A full-width mark ends a sentence written without spaces: the next
	// one follows at once ("…的茶。绿茶…").
	if last, _ := utf8.DecodeLastRuneInString(text[start:end]); end < len(text) && !strings.ContainsRune("。！？；」』）", last) {
		r1, n := utf8.DecodeRuneInString(text[end:])
		r2, _ := utf8.DecodeRuneInString(text[end+n:])
		if alnum(r1) || !unicode.IsSpace(r1) && alnum(r2) && strings.ContainsRune(",.:;'’-", r1) {
			return false
		}
	}
	return true
}

// summaryStatement reports whether a sentence can stand as a statement of
// a summary, in any language: prose of six words or more (lang.Words)
// that starts a sentence, not a
// question, not code or markup, not a line of a table or of navigation.
// It is IsStatement, which every answer's statement passes, made stricter:
// a summary speaks for the whole item, unasked, so a fragment or a lead-in
// that an answer may quote is not enough here.
func summaryStatement(s string) bool {
	if !IsStatement(s) {
		return false
	}
	// Words as the index counts them: a Han character is one.
	if len(lang.Words(s)) < 6 || item.Asks(s) || strings.HasSuffix(s, ":") || strings.HasSuffix(s, "：") {
		return false // a lead-in to a list or code ("… is provided by:")
	}
	if f := strings.Fields(s); len(f) > 1 && strings.Trim(f[0], "0123456789.") == "" && unicode.IsUpper([]rune(f[1])[0]) {
		return false // a numbered heading ("2 Support calc in …", "3.1 Options")
	}
	// A small letter first is a piece of a sentence cut by a page or a list;
	// in a script without capitals (Han, Arabic, Bengali, Hangul, Thai …) a
	// letter may open a sentence.
	first, _ := utf8.DecodeRuneInString(s)
	if unicode.IsLower(first) || !unicode.IsLetter(first) && !unicode.IsDigit(first) && !strings.ContainsRune("\"'“‘(«„「『", first) {
		return false
	}
	letters, other, pipes := 0, 0, 0
	for _, r := range s {
		switch {
		case keywords.WordLetter(r):
			letters++
		case unicode.IsSpace(r):
		case r == '\\' || r == '{' || r == '}' || r == '=' || r == '<' || r == '>' || r == '$':
			return false // code, TeX, markup, a formula
		case r == '|' || r == '»' || r == '›' || r == '•':
			pipes++
			other++
		default:
			other++
		}
	}
	if pipes >= 2 || letters < 4*other {
		return false // navigation ("Home | About | Contact"), a table, numbers
	}
	lower := strings.ToLower(s)
	for _, nav := range enWords("page-furniture") {
		if strings.Contains(lower, nav) {
			return false
		}
	}
	return true
}
