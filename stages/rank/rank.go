// Package rank is the sponge-rank stage: it reads the question and the hits,
// ranks every paragraph of the hit items against the question, and writes
// the best of them as numbered passages.
package rank

import (
	"io"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/cli"
	"github.com/sponge-library/sponge/internal/index"
	"github.com/sponge-library/sponge/internal/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/jsonl"
)

// Prog is the stage's name in messages.
const Prog = "sponge-rank"

// Budget: at most PerItem paragraphs of one item, and about BudgetChars
// characters of passages in all (what a small model reads comfortably).
const (
	PerItem     = 4
	BudgetChars = 12000
)

// Weights of the passage score: the paragraph's own BM25 against the
// question (scaled to the best paragraph), the item's search score (scaled
// to the best item), and a bonus for the paragraph meaning search matched.
const (
	weightParagraph = 0.75
	weightItem      = 0.25
	bonusMeaning    = 0.3
	k1, b           = 1.2, 0.75
	// A paragraph whose own score is below this share of the best
	// paragraph's is not a passage: it shares a word or two with the
	// question, not its subject.
	minShare = 0.2
)

type options struct {
	Library string `long:"library" value-name:"DIR" description:"the library folder (default $SPONGE_HOME, else ~/.local/share/sponge)"`
}

// Main runs the stage and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var opts options
	rest, done, code := cli.Parse(&opts, Prog, "[OPTIONS] < hits.jsonl",
		"Rank the paragraphs of the hit items against the question and write them as\n"+
			"numbered passages (at most 4 per item, about 12,000 characters in all).\n"+
			"Every record read is passed on unchanged; passages follow them.", args, stdout, stderr)
	if done {
		return code
	}
	if len(rest) > 0 {
		return cli.Report(stderr, Prog, cli.Usage("sponge-rank reads JSONL on stdin and takes no arguments (got %q)", rest[0]))
	}
	w := jsonl.NewWriter(stdout)
	r := jsonl.NewReader(stdin, "<stdin>")
	var question *jsonl.Question
	var hits []*jsonl.Hit
	seen := false
	for {
		line, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return cli.Report(stderr, Prog, &cli.Error{Code: cli.ExitBadInput, Msg: err.Error()})
		}
		seen = true
		switch rec := line.Record.(type) {
		case *jsonl.Question:
			question = rec
		case *jsonl.Hit:
			hits = append(hits, rec)
		}
		if err := w.WriteRaw(line.Raw); err != nil {
			return cli.Report(stderr, Prog, err)
		}
	}
	if question == nil && !seen {
		// An empty stream: the stage before has said what went wrong.
		return cli.ExitOK
	}
	if question == nil {
		return cli.Report(stderr, Prog, &cli.Error{Code: cli.ExitBadInput, Msg: "<stdin>: no question record",
			Hint: `pipe sponge-search into it: sponge-search "QUESTION" | sponge-rank`})
	}
	if len(hits) == 0 {
		return cli.ExitOK
	}
	lib, err := library.Open(opts.Library)
	if err != nil {
		return cli.Report(stderr, Prog, err)
	}
	passages, err := Rank(lib, question.Text, hits)
	if err != nil {
		return cli.Report(stderr, Prog, err)
	}
	for _, p := range passages {
		if err := w.Write(p); err != nil {
			return cli.Report(stderr, Prog, err)
		}
	}
	return cli.ExitOK
}

type candidate struct {
	hit   int // index into hits
	para  int
	p     *item.Paragraph
	terms map[string]int
	n     int // length in terms
	score float64
}

// Rank loads the hit items and returns the numbered passages.
func Rank(lib *library.Library, question string, hits []*jsonl.Hit) ([]*jsonl.Passage, error) {
	qterms := index.QuestionTerms(question)
	items := make([]*item.Item, len(hits))
	var cands []*candidate
	for i, h := range hits {
		it, err := lib.Item(h.ItemID)
		if err != nil {
			// An item removed since the search is simply not ranked.
			continue
		}
		items[i] = it
		for j := range it.Paragraphs {
			p := &it.Paragraphs[j]
			c := &candidate{hit: i, para: j, p: p, terms: map[string]int{}}
			text := p.Heading + "\n" + p.Text
			if !mayMatch(strings.ToLower(text), qterms) {
				// Analysing every paragraph of a 16,000-paragraph item is
				// most of rank's time; one that cannot hold a question term
				// needs only its length.
				c.n = countWords(text)
				cands = append(cands, c)
				continue
			}
			for _, t := range index.Terms(text) {
				c.terms[t]++
				c.n++
			}
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	scoreBM25(cands, qterms)

	maxPara, maxItem := 0.0, 0.0
	for _, c := range cands {
		maxPara = math.Max(maxPara, c.score)
	}
	for _, h := range hits {
		maxItem = math.Max(maxItem, h.Score)
	}
	for _, c := range cands {
		h := hits[c.hit]
		s := 0.0
		if maxPara > 0 {
			s += weightParagraph * c.score / maxPara
		}
		if maxItem > 0 {
			s += weightItem * h.Score / maxItem
		} else {
			s += weightItem / float64(h.Rank+1)
		}
		if h.Paragraph != nil && *h.Paragraph == c.para {
			s += bonusMeaning
		}
		if c.score <= minShare*maxPara && !(h.Paragraph != nil && *h.Paragraph == c.para) {
			s = 0 // too little of the question's words: no passage
		}
		c.score = s
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		if cands[i].hit != cands[j].hit {
			return cands[i].hit < cands[j].hit
		}
		return cands[i].para < cands[j].para
	})

	perItem := map[int]int{}
	used := 0
	var out []*jsonl.Passage
	for _, c := range cands {
		if c.score <= 0 || perItem[c.hit] >= PerItem {
			continue
		}
		text := c.p.Text
		n := utf8.RuneCountInString(text)
		if used+n > BudgetChars {
			if len(out) > 0 {
				continue
			}
			// A single paragraph longer than the budget is cut at a sentence end.
			text = cutAtSentence(text, BudgetChars)
			n = utf8.RuneCountInString(text)
		}
		used += n
		perItem[c.hit]++
		it := items[c.hit]
		out = append(out, &jsonl.Passage{
			Number: len(out) + 1, ItemID: it.ID, Title: it.Title, Heading: c.p.Heading,
			Page: c.p.Page, StartMs: c.p.StartMs, Paragraph: c.para, Text: text,
			Score: math.Round(c.score*10000) / 10000,
		})
		if used >= BudgetChars {
			break
		}
	}
	return out, nil
}

// scoreBM25 scores each candidate paragraph against the question terms, with
// document frequencies taken over the candidates themselves.
func scoreBM25(cands []*candidate, qterms []string) {
	total := 0
	df := map[string]int{}
	for _, c := range cands {
		total += c.n
		for _, t := range qterms {
			if c.terms[t] > 0 {
				df[t]++
			}
		}
	}
	N := float64(len(cands))
	avg := float64(total) / N
	if avg == 0 {
		avg = 1
	}
	for _, c := range cands {
		s := 0.0
		for _, t := range qterms {
			tf := float64(c.terms[t])
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (N-float64(df[t])+0.5)/(float64(df[t])+0.5))
			s += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(c.n)/avg))
		}
		c.score = s
	}
}

// cutAtSentence returns the longest run of whole sentences of text within
// limit characters; if even the first sentence is longer, it cuts at a space.
func cutAtSentence(text string, limit int) string {
	r := []rune(text)
	if len(r) <= limit {
		return text
	}
	cut := -1
	for i := limit - 1; i > 0; i-- {
		if (r[i-1] == '.' || r[i-1] == '?' || r[i-1] == '!') && r[i] == ' ' {
			cut = i
			break
		}
	}
	if cut < 0 {
		for i := limit - 1; i > 0; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
	}
	if cut < 0 {
		cut = limit
	}
	return strings.TrimSpace(string(r[:cut]))
}

// mayMatch reports whether lowered text may hold one of the terms. The
// index's analyzer only lowercases and strips endings (plurals,
// possessives), except that "-ies" becomes "-y"; so a word that gives a
// term starts with the term, or with the term less its final "y".
func mayMatch(lowered string, terms []string) bool {
	for _, t := range terms {
		if strings.Contains(lowered, t) {
			return true
		}
		if stem, ok := strings.CutSuffix(t, "y"); ok && stem != "" && strings.Contains(lowered, stem) {
			return true
		}
	}
	return false
}

// countWords counts runs of letters and digits, as the index's tokenizer
// about does.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}
