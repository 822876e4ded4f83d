// Package rank is the sponge-rank stage: it reads the question and the hits,
// ranks every paragraph of the hit items against the question, and writes
// the best of them as numbered passages.
package rank

import (
	"context"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
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
	Library string `long:"library" value-name:"DIR" description:"the library folder (default $SPONGE_HOME, else the config file's library, else ~/.local/share/sponge)"`
	Item    string `long:"item" value-name:"ID" description:"summary mode: write a summary question and the passages of this item (an id or a unique prefix), read from all of it; stdin is not read"`
}

// Command is sponge-rank as a program.
var Command = pipeline.Command{
	Prog:  Prog,
	Usage: "[OPTIONS] < hits.jsonl",
	About: "Rank the paragraphs of the hit items against the question and write them as\n" +
		"numbered passages (at most 4 per item, about 12,000 characters in all).\n" +
		"Every record read is passed on unchanged; passages follow them.\n\n" +
		"With --item ID, write instead the question of a summary (what does this item say?)\n" +
		"and the item's most central paragraphs, one from each of up to 8 stretches of it:\n" +
		"  sponge-rank --item 0a57 | sponge-draft | sponge-verify | sponge-render",
	Setup: func() (any, func([]string, pipeline.Env) (pipeline.Stage, error)) {
		var opts options
		return &opts, func(args []string, _ pipeline.Env) (pipeline.Stage, error) {
			if len(args) > 0 {
				return nil, console.Usage("sponge-rank reads JSONL on stdin and takes no arguments (got %q)", args[0])
			}
			return &Stage{Library: opts.Library, Item: opts.Item}, nil
		}
	},
}

// Main runs the stage and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return pipeline.Main(Command, args, stdin, stdout, stderr)
}

// Stage is sponge-rank: it passes every record on, then writes the
// passages of the hits against the question.
type Stage struct {
	Library string // the library folder; "" is the default
	// Item, when set, is the summary mode: the stream is not read, and the
	// stage writes a summary question and ItemPassages of this item (an
	// id or a unique prefix).
	Item string
}

// Run reads the stream, passes it on, and writes the passages.
func (s *Stage) Run(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
	if s.Item != "" {
		return s.summary(w)
	}
	var question *jsonl.Question
	var hits []*jsonl.Hit
	seen := false
	err := pipeline.Pass(r, w, func(line *jsonl.Line) error {
		seen = true
		switch rec := line.Record.(type) {
		case *jsonl.Question:
			question = rec
		case *jsonl.Hit:
			hits = append(hits, rec)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if question == nil && !seen {
		// An empty stream: the stage before has said what went wrong.
		return nil
	}
	if question == nil {
		return &console.Error{Code: console.ExitBadInput, Msg: "<stdin>: no question record",
			Hint: `pipe sponge-search into it: sponge-search "QUESTION" | sponge-rank`}
	}
	if len(hits) == 0 {
		return nil
	}
	lib, err := library.Open(s.Library)
	if err != nil {
		return err
	}
	passages, err := Rank(lib, question.Text, hits)
	if err != nil {
		return err
	}
	for _, p := range passages {
		if err := w.Write(p); err != nil {
			return err
		}
	}
	return nil
}

// summary writes the question of a summary and the item's passages.
func (s *Stage) summary(w *jsonl.Writer) error {
	lib, err := library.Open(s.Library)
	if err != nil {
		return err
	}
	id, err := lib.Resolve(s.Item)
	if err != nil {
		return err
	}
	it, err := lib.Item(id)
	if err != nil {
		return err
	}
	if err := w.Write(&jsonl.Question{Text: jsonl.SummaryQuestion, Summary: true}); err != nil {
		return err
	}
	for _, p := range ItemPassages(it) {
		if err := w.Write(p); err != nil {
			return err
		}
	}
	return nil
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
			c := &candidate{hit: i, para: j, p: p}
			c.terms, c.n = countTerms(p.Heading+"\n"+p.Text, qterms)
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

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '_'
}

// countTerms counts how often each question term stands in text, and how
// many words text has. Running the index's analyzer over every paragraph of
// a 16,000-paragraph item was most of rank's time, so words are found with a
// plain scan, and only a word that starts like a question term is put
// through the analyzer: its filters (lowercase, possessive, plural) only
// strip endings, except that "-ies" becomes "-y", so a word that gives a
// term starts with the term, or with the term less its final "y".
func countTerms(text string, qterms []string) (map[string]int, int) {
	var tf map[string]int
	n := 0
	start := -1
	word := func(end int) {
		n++
		w := strings.ToLower(text[start:end])
		for _, t := range qterms {
			stem, _ := strings.CutSuffix(t, "y")
			if !strings.HasPrefix(w, t) && (stem == "" || !strings.HasPrefix(w, stem)) {
				continue
			}
			for _, got := range index.Terms(w) {
				if slices.Contains(qterms, got) {
					if tf == nil {
						tf = map[string]int{}
					}
					tf[got]++
				}
			}
			return
		}
	}
	prev := rune(0)
	for i, r := range text {
		inWord := isWordRune(r)
		if !inWord && start >= 0 {
			// Word-internal punctuation, as Unicode word boundaries (which
			// the index's tokenizer follows) have it: "john's", "e.g",
			// "3.5", "1,000", "abi_testing".
			next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			alnum := func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }
			switch r {
			case '\'', '’', '.':
				inWord = alnum(prev) && alnum(next)
			case ':':
				inWord = unicode.IsLetter(prev) && unicode.IsLetter(next)
			case ',', ';':
				inWord = unicode.IsDigit(prev) && unicode.IsDigit(next)
			}
		}
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			word(i)
			start = -1
		}
		prev = r
	}
	if start >= 0 {
		word(len(text))
	}
	return tf, n
}
