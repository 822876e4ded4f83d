package draft

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft/sentences"
)

// DefaultPassageTokens is how much passage text the model in this process
// reads by default, in tokens. Reading the prompt is most of a CPU model's
// wait: Qwen2.5 0.5B (Q8_0) on two cores reads about 190-210 tokens a
// second, so 320 tokens of passages, with the question and the passages'
// titles, are read in about 2 seconds (the system prompt is read once by
// sponge serve), and the first statement follows a second or two later.
// Measured with make bench-draft (7 SciFact abstracts, quiet machine): at
// 400 the first statement through sponge serve came after 4.3 s, at 320
// after 3.4 s, and the model read 5 of the 7 passages either way.
const DefaultPassageTokens = 320

// cutMark stands where words of a passage were left out.
const cutMark = "…"

// shownPassage is a passage as the model is shown it: when the budget does
// not hold all of it, its text is cut to whole sentences, verbatim, with
// cutMark where words were left out.
type shownPassage struct {
	// Passage is a copy of the passage whose Text is what the model reads.
	*jsonl.Passage
	// Source is the passage's whole text, as saved.
	Source string
	// Parts are the [start, end) byte ranges of Text that are the passage's
	// own words, in order; between them stand the cut marks. A quote is a
	// span of one part.
	Parts [][2]int
}

// passageHeader is the line before a passage's text in the prompt.
func passageHeader(p *jsonl.Passage) string {
	h := "\n[" + strconv.Itoa(p.Number) + "]"
	if p.Title != "" {
		h += " From “" + p.Title + "”"
		if p.Heading != "" {
			h += ", " + p.Heading
		}
	}
	return h + "\n"
}

// whole is p shown as it is.
func whole(p *jsonl.Passage) *shownPassage {
	return &shownPassage{Passage: p, Source: p.Text, Parts: [][2]int{{0, len(p.Text)}}}
}

// cutPassages fits passages, in rank order, into budget tokens of passage
// text (headers included), as counted by count. The sentences go in by
// their worth to the question: first each passage's best sentence holding
// the question's words, in rank order; then the passages' other such
// sentences; then the sentences around them, and the first sentence of a
// passage with none of the question's words (found by meaning), passing
// over one too short to quote, which is shown only beside others of its
// passage; then the rest. So a budget that holds everything shows every passage whole, and a
// short one the sentences that bear on the question from as many passages
// as it holds. A sentence that does not fit is passed over for shorter
// ones after it; a passage of which no sentence fits is left out. The first
// sentence of the list is kept whatever the budget, so the model always
// has something to read.
func cutPassages(question string, passages []*jsonl.Passage, budget int, count func(string) int) []*shownPassage {
	qterms := map[string]bool{}
	for _, t := range keywords.QuestionTerms(question) {
		qterms[t] = true
	}
	type sentence struct {
		passage, i int
		span       sentences.Span
		hits       int // distinct question terms in it
		rank       int // order of worth, see above: lower goes in first
		// short: too short to quote ("Summary."); such a sentence is
		// shown only with others of its passage.
		short bool
	}
	var all []*sentence
	spans := make([][]sentences.Span, len(passages))
	for pi, p := range passages {
		spans[pi] = sentences.Split(p.Text)
		var ss []*sentence
		for i, sp := range spans[pi] {
			s := &sentence{passage: pi, i: i, span: sp, rank: 3,
				short: quote.NewQuote(p.Text[sp.Start:sp.End]).Words() < quote.MinWords}
			seen := map[string]bool{}
			for _, t := range keywords.Terms(p.Text[sp.Start:sp.End]) {
				if qterms[t] && !seen[t] {
					seen[t] = true
					s.hits++
				}
			}
			ss = append(ss, s)
		}
		best := -1
		for i, s := range ss {
			if s.hits > 0 {
				s.rank = 1
				if best < 0 || s.hits > ss[best].hits {
					best = i
				}
			}
		}
		if best >= 0 {
			ss[best].rank = 0
			for i, s := range ss {
				if s.hits > 0 {
					for _, j := range []int{i - 1, i + 1} {
						if j >= 0 && j < len(ss) && ss[j].rank == 3 {
							ss[j].rank = 2
						}
					}
				}
			}
		} else {
			// The first sentence long enough to quote: not a heading such
			// as "Summary."
			for _, s := range ss {
				if !s.short {
					s.rank = 2
					break
				}
			}
		}
		all = append(all, ss...)
	}
	slices.SortStableFunc(all, func(a, b *sentence) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.passage, b.passage), cmp.Compare(b.hits, a.hits), cmp.Compare(a.i, b.i))
	})

	keep := make([][]bool, len(passages))
	left := budget
	kept := false
	for _, s := range all {
		p := passages[s.passage]
		cost := count(p.Text[s.span.Start:s.span.End])
		if keep[s.passage] == nil {
			if s.short {
				continue
			}
			cost += count(passageHeader(p))
		}
		if cost > left && kept {
			continue
		}
		kept = true
		if keep[s.passage] == nil {
			keep[s.passage] = make([]bool, len(spans[s.passage]))
		}
		keep[s.passage][s.i] = true
		// A cut mark may come with the sentence: a token or two, left
		// unreckoned beside a sentence's tens.
		left -= cost
	}

	var out []*shownPassage
	for pi, p := range passages {
		if keep[pi] == nil {
			continue
		}
		out = append(out, cut(p, spans[pi], keep[pi]))
	}
	return out
}

// cut is p shown with only the sentences marked in keep: runs of kept
// sentences are copied with what stands between them, and a cut mark
// stands for each run of sentences left out.
func cut(p *jsonl.Passage, spans []sentences.Span, keep []bool) *shownPassage {
	if !slices.Contains(keep, false) {
		return whole(p)
	}
	var b strings.Builder
	var parts [][2]int
	for i := 0; i < len(spans); {
		if !keep[i] {
			i++
			continue
		}
		j := i
		for j+1 < len(spans) && keep[j+1] {
			j++
		}
		if i > 0 {
			if b.Len() > 0 {
				b.WriteString(" ")
			}
			b.WriteString(cutMark + " ")
		}
		start := b.Len()
		b.WriteString(p.Text[spans[i].Start:spans[j].End])
		parts = append(parts, [2]int{start, b.Len()})
		if j == len(spans)-1 {
			break
		}
		i = j + 1
	}
	if last := len(spans) - 1; !keep[last] {
		b.WriteString(" " + cutMark)
	}
	shown := *p
	shown.Text = b.String()
	return &shownPassage{Passage: &shown, Source: p.Text, Parts: parts}
}
