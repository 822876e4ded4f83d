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
	"unicode/utf8"
	"unsafe"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/definitions"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
	"github.com/sponge-library/sponge/jsonl"
)

// Prog is the stage's name in messages.
const Prog = "sponge-rank"

// Budget: at most PerItem paragraphs of one item, and about BudgetChars
// characters of passages in all (what a small model reads comfortably).
// When one item alone gives passages, room left goes to more of its
// paragraphs, up to MaxPerItem; an item of LongItem paragraphs or more (a
// book, a long manual) gives up to MaxPerItem beside others too.
const (
	PerItem     = 4
	MaxPerItem  = 8
	BudgetChars = 12000
	// LongItem: four of a book's thousands of paragraphs left out the one
	// that answers, below a few shell sessions or a manual's other entries
	// that say the question's words more often in fewer words ("What is
	// sudo?" and the Debian Reference's "sudo(8) is a program designed …",
	// its 9th paragraph by score; "What is the default size of an RSA
	// key?" and ssh-keygen(1)'s -b entry, its 5th). No SQuAD 2.0 article
	// (49 paragraphs at most) nor multilingual set's item is that long.
	LongItem = 150
)

// Weights of the passage score: the paragraph's own BM25 against the
// question (scaled to the best paragraph), the item's search score (scaled
// to the best item), and a bonus for the paragraph meaning search matched.
const (
	weightParagraph = 0.5
	weightItem      = 0.5
	bonusMeaning    = 0.3
	k1, b           = 1.2, 0.75
	// bonusOption is added for a paragraph that writes each program option
	// the question names ("What does ssh -L do?"), twice for the manual's
	// entry for them (it opens with them): the index keeps no option
	// whole, so the entry may share no other word with the question ("-L
	// [bind_address:]port:host:hostport Specifies that connections … are
	// to be forwarded"), and a manual's examples write the option too.
	bonusOption = 1.0
	// bonusDefinition is added for a paragraph that opens by saying what
	// the question asks about is ("What is sftp?" and sftp(1)'s "sftp is a
	// file transfer program, similar to ftp(1), …", which "bye Quit sftp."
	// and "exit Quit sftp." outscored, saying «sftp» in three words).
	bonusDefinition = 0.5
	// A paragraph whose own score is below this share of the best
	// paragraph's is not a passage: it shares a word or two with the
	// question, not its subject.
	minShare = 0.2
)

type options struct {
	Library string `long:"library" value-name:"DIR" description:"the library folder (default $SPONGE_HOME, else the config file's library, else $XDG_DATA_HOME/sponge, else ~/.local/share/sponge)"`
	Item    string `long:"item" value-name:"ID" description:"summary mode: write a summary question and the passages of this item (an id or a unique prefix), read from all of it; stdin is not read"`
}

// Command is sponge-rank as a program.
var Command = pipeline.Command{
	Prog:  Prog,
	Usage: "[OPTIONS] < hits.jsonl",
	About: "Rank the paragraphs of the hit items against the question and write them as\n" +
		"numbered passages (at most 4 per item, 8 when one item alone has passages\n" +
		"or of an item of 150 paragraphs or more;\n" +
		"about 12,000 characters in all).\n" +
		"Every record read is passed on unchanged; passages follow them.\n\n" +
		"With --item ID, write instead the question of a summary (what does this item say?)\n" +
		"and the item's most central paragraphs, one from each of up to 8 stretches of it:\n" +
		"  sponge-rank --item 0a57 | sponge-draft | sponge-verify | sponge-render",
	Setup: func() (any, func([]string, pipeline.Env) (pipeline.Stage, error)) {
		var opts options
		return &opts, func(args []string, env pipeline.Env) (pipeline.Stage, error) {
			if len(args) > 0 {
				return nil, console.Usage("sponge-rank reads JSONL on stdin and takes no arguments (got %q)", args[0])
			}
			lib, _, err := env.Folders(opts.Library, "")
			if err != nil {
				return nil, err
			}
			return &Stage{Library: lib, Item: opts.Item}, nil
		}
	},
}

// Main runs the stage and returns its exit code, with no environment: its
// flags give the library (MainIn).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return MainIn(settings.Environ{}, args, stdin, stdout, stderr)
}

// MainIn runs the stage in the environment its program was started in
// (settings.FromOS, in cmd/), where a missing --library is resolved.
func MainIn(environ settings.Environ, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return pipeline.Main(Command, environ, args, stdin, stdout, stderr)
}

// Stage is sponge-rank: it passes every record on, then writes the
// passages of the hits against the question.
type Stage struct {
	Library string // the library folder
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
	hitOf := map[string]bool{}
	seen := false
	err := pipeline.Pass(r, w, func(line *jsonl.Line) error {
		seen = true
		switch rec := line.Record.(type) {
		case *jsonl.Question:
			question = rec
		case *jsonl.Hit:
			// An item hit twice is one hit, the first (the best): each
			// copy would load the item again (100 copies of one hit took
			// 2.9 GB) and give the same passages twice.
			if !hitOf[rec.ItemID] {
				hitOf[rec.ItemID] = true
				hits = append(hits, rec)
			}
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
	passages, err := RankWith(lib, question.Text, question.IDF, hits)
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
	terms []int // how often each question term (in qterms' order) stands in it; nil for none
	n     int   // length in terms
	score float64
}

// Rank is RankWith without the library's weights of the question's words:
// they are estimated from the paragraphs of the hit items alone.
func Rank(lib *library.Library, question string, hits []*jsonl.Hit) ([]*jsonl.Passage, error) {
	return RankWith(lib, question, nil, hits)
}

// RankWith loads the hit items and returns the numbered passages. Only the
// paragraphs that hold a question term (and the one meaning search matched)
// are candidates: any other paragraph scores nothing. They are found in the
// items' paragraph postings (keywords.ReadPostings), without reading the
// paragraphs; an item without postings (an index made before them, or by
// another analyzer) has all its paragraphs read and counted.
//
// A word weighs the geometric mean of its weight among the hit items'
// paragraphs (BM25's idf over them) and its weight in the whole library
// (idf, as sponge-search gives it in the question record); a word idf does
// not have weighs by the paragraphs alone. The paragraphs alone made a word
// that only one of the few items holds look rare whatever the library says:
// "how hot should green tea be" ranked two composting paragraphs ("hot
// composting", "greens") above the tea page's, since among a tea page and a
// compost guide "hot" is rare and "tea" is in every paragraph. The library
// alone loses what the paragraphs say well: which words set a paragraph apart
// from the rest of its item. SciFact nDCG@10 of the passages (train, with
// the pair credit): paragraphs alone 0.6796, library alone 0.6845, their
// arithmetic mean 0.6889, geometric mean 0.6934.
func RankWith(lib *library.Library, question string, idf map[string]float64, hits []*jsonl.Hit) ([]*jsonl.Passage, error) {
	qterms := keywords.QuestionTerms(question)
	usePostings := true
	for _, t := range qterms {
		usePostings = usePostings && keywords.HasPostings(t)
	}
	items := make([]*library.Paragraphs, len(hits))
	var cands []*candidate
	paragraphs, words := 0, 0
	df := make([]int, len(qterms))
	scan := newTermScanner(qterms)
	for i, h := range hits {
		ps, err := lib.Paragraphs(h.ItemID)
		if err != nil {
			// An item removed since the search is simply not ranked.
			continue
		}
		items[i] = ps
		var post *keywords.ItemPostings
		if usePostings {
			post, _ = keywords.ReadPostings(lib.IndexDir(), h.ItemID, qterms)
		}
		if post != nil && post.Paragraphs != ps.Len() {
			post = nil // not this item's: read it
		}
		meaning := -1
		if h.Paragraph != nil && *h.Paragraph >= 0 && *h.Paragraph < ps.Len() {
			meaning = *h.Paragraph
		}
		if post == nil {
			for j := range ps.Len() {
				heading, text, err := ps.Text(j)
				if err != nil {
					return nil, err
				}
				terms, n := scan.count(heading, text)
				paragraphs++
				words += n
				for k, tf := range terms {
					if tf > 0 {
						df[k]++
					}
				}
				if terms != nil || j == meaning {
					cands = append(cands, &candidate{hit: i, para: j, terms: terms, n: n})
				}
			}
			continue
		}
		paragraphs += post.Paragraphs
		words += post.Words
		byPara := map[int]*candidate{}
		add := func(j int) *candidate {
			c := byPara[j]
			if c == nil {
				c = &candidate{hit: i, para: j, n: post.Lengths[j]}
				byPara[j] = c
				cands = append(cands, c)
			}
			return c
		}
		for k, t := range qterms {
			list := post.Terms[t]
			df[k] += len(list)
			for _, p := range list {
				c := add(p.Paragraph)
				if c.terms == nil {
					c.terms = make([]int, len(qterms))
				}
				c.terms[k] = p.TF
			}
		}
		if meaning >= 0 {
			add(meaning)
		}
	}
	optionParas, err := addOptionParagraphs(question, items, scan, &cands)
	if err != nil {
		return nil, err
	}
	if paragraphs == 0 || len(cands) == 0 {
		return nil, nil
	}
	name := nameTerms(items, qterms)
	uncountName(cands, name)
	weight, avg := scoreBM25(cands, qterms, paragraphs, words, df, idf)
	creditName(cands, name, weight)
	if err := creditPairs(cands, items, scan, questionPairs(question, qterms), weight, avg); err != nil {
		return nil, err
	}

	defines, err := definitionsOf(question, cands, items)
	if err != nil {
		return nil, err
	}

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
		level := optionParas[[2]int{c.hit, c.para}]
		writes := level > 0
		s += bonusOption * float64(level)
		if defines[c] {
			s += bonusDefinition
		}
		if c.score <= minShare*maxPara && !(h.Paragraph != nil && *h.Paragraph == c.para) && !writes && !defines[c] {
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
	// ranked says whether a paragraph is a passage by its own score; its
	// set is made only when a passage asks.
	var rankedSet map[[2]int]bool
	ranked := func(hit, para int) bool {
		if rankedSet == nil {
			rankedSet = map[[2]int]bool{}
			for _, c := range cands {
				if c.score > 0 {
					rankedSet[[2]int{c.hit, c.para}] = true
				}
			}
		}
		return rankedSet[[2]int{hit, para}]
	}
	used := 0
	var out []*jsonl.Passage
	given := map[[2]int]bool{} // the paragraphs made passages
	passage := func(hit, para int, p *item.Paragraph, text string, score float64) {
		it := items[hit]
		perItem[hit]++
		given[[2]int{hit, para}] = true
		out = append(out, &jsonl.Passage{
			Number: len(out) + 1, ItemID: it.Item.ID, Title: item.Label(it.Item.Title, it.Item.Source), Heading: p.Heading,
			Page: p.Page, StartMs: p.StartMs, Paragraph: para, Text: text,
			Score: math.Round(score*10000) / 10000,
		})
	}
	for _, c := range cands {
		if c.score <= 0 || perItem[c.hit] >= perItemCap(items[c.hit]) {
			continue
		}
		it := items[c.hit]
		p, err := it.At(c.para)
		if err != nil {
			return nil, err
		}
		text := p.Text
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
		passage(c.hit, c.para, p, text, c.score)
		// A paragraph that asks is followed by the one after it, where a
		// talk or an interview answers it: "Is that what happened at Mount
		// St. Helens?" holds the question's words, the lecturer's "Yes. In
		// May 1980 a landslide removed the north flank, …" none of them. An
		// answer that holds enough of them comes in its own place.
		if next := c.para + 1; item.Asks(text) && next < it.Len() && !ranked(c.hit, next) {
			a, err := it.At(next)
			if err != nil {
				return nil, err
			}
			if m := utf8.RuneCountInString(a.Text); !item.Asks(a.Text) && used+m <= BudgetChars {
				used += m
				passage(c.hit, next, a, a.Text, c.score)
			}
		}
		if used >= BudgetChars {
			break
		}
	}
	// When one item alone gave passages, room left goes to more of its
	// paragraphs, best first, up to MaxPerItem: a library with one item on
	// the question ("How do I lubricate a chain?" and the chain guide's
	// "Lubricating" section, its fifth paragraph by score) is not cut at
	// four. Where other items gave passages too, more of the best item's
	// paragraphs measured worse (SQuAD 2.0's reported half: gold answer in
	// the first statement 0.79 → 0.78, precision 0.574 → 0.565).
	for _, c := range cands {
		if used >= BudgetChars || len(perItem) != 1 {
			break
		}
		if c.score <= 0 || given[[2]int{c.hit, c.para}] || perItem[c.hit] < PerItem || perItem[c.hit] >= MaxPerItem {
			continue
		}
		p, err := items[c.hit].At(c.para)
		if err != nil {
			return nil, err
		}
		if n := utf8.RuneCountInString(p.Text); used+n <= BudgetChars {
			used += n
			passage(c.hit, c.para, p, p.Text, c.score)
		}
	}
	return out, nil
}

// definitionsOf returns the candidates that open by saying what the
// question asks about is (definitions.Of: English "What is …?"
// questions, read in the index's words); nil for other questions, whose
// paragraphs are not read.
func definitionsOf(question string, cands []*candidate, items []*library.Paragraphs) (map[*candidate]bool, error) {
	subject := definitions.Of(question, indexWords)
	if subject == nil {
		return nil, nil
	}
	out := map[*candidate]bool{}
	for _, c := range cands {
		_, text, err := items[c.hit].Text(c.para)
		if err != nil {
			return nil, err
		}
		if subject.DefinedBy(text) {
			out[c] = true
		}
	}
	return out, nil
}

// indexWords are the words of the definitions rule as the index has them
// (lang.Words, keywords.Terms and its stop words, which give no term: the
// index keeps "of", and "fork of a free software project" would end with
// "of" and "a", not its heads).
var indexWords = definitions.Words{Split: lang.Words, Terms: indexTerms, Stop: func(w string) bool { return keywords.StopWords[w] }}

func indexTerms(w string) []string {
	if keywords.StopWords[w] {
		return nil
	}
	return keywords.Terms(w)
}

// nameTerms returns, by hit, which of the question's terms a manual
// page's title holds when that title is one word, the command's name
// ("TAR(1)", its section aside), and the question has a term it does
// not; nil for other items. Such a term is counted once for the page,
// not in each of its paragraphs (uncountName, creditName): a manual page
// says its command in its synopsis lines and "info tar", short lines
// that the command's word alone made passages, while the entry that
// answers, "-k, --keep-old-files Don't replace existing files when
// extracting.", does not say it ("How do I stop tar from overwriting
// files I already have when extracting?"). Other items keep their
// title's words in their paragraphs: an article's one-word title
// ("Normans") is its subject, said where it is the subject (SQuAD 2.0's
// tuning half, every 4th: gold answer first 0.701 -> 0.698 with every
// one-word title). Any language: the title's terms are the index's
// (keywords.Terms).
func nameTerms(items []*library.Paragraphs, qterms []string) [][]bool {
	var out [][]bool
	for i, ps := range items {
		if ps == nil || ps.Item.Kind != item.KindMan {
			continue
		}
		words := 0
		for _, f := range strings.Fields(ps.Item.Title) {
			if strings.Trim(f, "0123456789.") != "" {
				words++
			}
		}
		if words != 1 {
			continue
		}
		title := keywords.Terms(ps.Item.Title)
		in := make([]bool, len(qterms))
		other := false
		for k, t := range qterms {
			in[k] = slices.Contains(title, t)
			other = other || !in[k]
		}
		if other && slices.Contains(in, true) {
			if out == nil {
				out = make([][]bool, len(items))
			}
			out[i] = in
		}
	}
	return out
}

// uncountName takes the name's terms (nameTerms) out of the counts of
// its item's paragraphs.
func uncountName(cands []*candidate, name [][]bool) {
	for _, c := range cands {
		if name == nil || name[c.hit] == nil || c.terms == nil {
			continue
		}
		for k := range c.terms {
			if name[c.hit][k] {
				c.terms[k] = 0
			}
		}
	}
}

// creditName adds to each paragraph of a named item that holds another
// of the question's terms the weight of the name's terms, as if said
// once in a paragraph of the average length: the item's paragraphs are
// still weighed against other items' that say the name ("GNU cp(1) and
// openSSH scp(1):" in a book), and the ones that say only the name are
// no passages.
func creditName(cands []*candidate, name [][]bool, weight []float64) {
	for _, c := range cands {
		if name == nil || name[c.hit] == nil || c.score <= 0 {
			continue
		}
		for k, in := range name[c.hit] {
			if in {
				c.score += weight[k]
			}
		}
	}
}

// perItemCap is the most passages an item gives beside other items:
// PerItem, MaxPerItem for a long one (LongItem).
func perItemCap(ps *library.Paragraphs) int {
	if ps.Len() >= LongItem {
		return MaxPerItem
	}
	return PerItem
}

// scoreBM25 scores each candidate paragraph against the question terms,
// over the paragraphs of the hit items: how many there are, how many words
// they have, and how many hold each term. A term in libIDF weighs the
// geometric mean of that and its weight among the paragraphs. It returns
// each term's weight and the average paragraph length.
func scoreBM25(cands []*candidate, qterms []string, paragraphs, words int, df []int, libIDF map[string]float64) ([]float64, float64) {
	N := float64(paragraphs)
	avg := float64(words) / N
	if avg == 0 {
		avg = 1
	}
	weight := make([]float64, len(qterms))
	for k, t := range qterms {
		w := math.Log(1 + (N-float64(df[k])+0.5)/(float64(df[k])+0.5))
		if lib, ok := libIDF[t]; ok {
			w = math.Sqrt(w * lib)
		}
		weight[k] = w
	}
	for _, c := range cands {
		s := 0.0
		for k, tf := range c.terms {
			if tf == 0 {
				continue
			}
			s += bm25(weight[k], float64(tf), c.n, avg)
		}
		c.score = s
	}
	return weight, avg
}

// bm25 is what a term of weight w said tf times adds to the score of a
// paragraph of n words, where paragraphs have avg words.
func bm25(w, tf float64, n int, avg float64) float64 {
	return w * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(n)/avg))
}

// A pair of the question's words side by side in a paragraph counts as half
// a word of the weight of the pair's lighter word said once; pairChecks is
// how many paragraphs, best first, are read for the pairs. On SciFact
// (train) no credit 0.6926, a quarter 0.6940, half 0.6934, a whole word
// 0.6926: all within the noise (SciFact's items are one paragraph each). Half
// is what puts the tea page first for "how hot should green tea be" with
// its steeping paragraph among its four (a whole word puts its storage
// paragraph there instead, none leaves a composting paragraph first).
const (
	pairCredit = 0.5
	pairChecks = 32
)

// questionPairs returns the pairs of question terms that stand side by side
// in the question ("green tea" in "how hot should green tea be"; not "hot
// green", with "should" between them).
func questionPairs(question string, qterms []string) [][2]string {
	var pairs [][2]string
	all := keywords.Terms(question)
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		if a != b && slices.Contains(qterms, a) && slices.Contains(qterms, b) && !slices.Contains(pairs, [2]string{a, b}) {
			pairs = append(pairs, [2]string{a, b})
		}
	}
	return pairs
}

// creditPairs adds to the score of a paragraph that has a pair of the
// question's words side by side, in the question's order, pairCredit of a
// word of the weight of the pair's lighter word said once: "green tea" in
// a paragraph is nearer the question than "greens" and "tea leaves" apart.
// Only the pairChecks best paragraphs that hold both words of a pair are
// read for it.
func creditPairs(cands []*candidate, items []*library.Paragraphs, scan *termScanner, pairs [][2]string, weight []float64, avg float64) error {
	if len(pairs) == 0 {
		return nil
	}
	// The pairs as places in qterms.
	at := make([][2]int, len(pairs))
	for i, p := range pairs {
		at[i] = [2]int{slices.Index(scan.qterms, p[0]), slices.Index(scan.qterms, p[1])}
	}
	var both []*candidate
	for _, c := range cands {
		if c.terms == nil {
			continue
		}
		for _, p := range at {
			if c.terms[p[0]] > 0 && c.terms[p[1]] > 0 {
				both = append(both, c)
				break
			}
		}
	}
	sort.SliceStable(both, func(i, j int) bool { return both[i].score > both[j].score })
	if len(both) > pairChecks {
		both = both[:pairChecks]
	}
	for _, c := range both {
		heading, text, err := items[c.hit].Text(c.para)
		if err != nil {
			return err
		}
		found := make([]bool, len(pairs))
		prev := -1
		scan.scan(heading, text, func(k int) {
			for i, pair := range at {
				if prev == pair[0] && k == pair[1] && !found[i] {
					found[i] = true
					c.score += pairCredit * bm25(min(weight[pair[0]], weight[pair[1]]), 1, c.n, avg)
				}
			}
			prev = k
		})
	}
	return nil
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

// termScanner counts the question's terms in paragraphs. Running the
// index's analyzer over every paragraph of a 16,000-paragraph item was most
// of rank's time, so words are found with a plain scan (keywords.ScanWords),
// and only a word that may give a question term (keywords.MayGive) is put
// through the analyzer, with every word that is not plain ASCII and every
// run of a script written without spaces, which is as many words as the
// terms it gives. What the analyzer makes of a word is kept for the next
// time it stands in a paragraph: the words of the hit items repeat. The
// paragraph postings count the same words the same way
// (keywords.ReadPostings).
type termScanner struct {
	qterms []string
	words  map[string]scanned // by the word, lower case
	buf    []byte             // for lower
}

// scanned is what the analyzer made of a word: the question terms among its
// terms (places in qterms, -1 for any other term), and how many words it
// counts as.
type scanned struct {
	terms []int
	words int
}

func newTermScanner(qterms []string) *termScanner {
	return &termScanner{qterms: qterms, words: map[string]scanned{}}
}

// count counts how often each question term stands in a paragraph's heading
// and text (nil when none does), and how many words they have.
func (s *termScanner) count(heading, text string) ([]int, int) {
	var tf []int
	n := s.scan(heading, text, func(k int) {
		if k < 0 {
			return
		}
		if tf == nil {
			tf = make([]int, len(s.qterms))
		}
		tf[k]++
	})
	return tf, n
}

// scan calls term with the terms of a paragraph's heading and text in
// order: a question term as its place in qterms, any other as -1. It
// returns how many words they have.
func (s *termScanner) scan(heading, text string, term func(k int)) int {
	n := 0
	word := func(word string) {
		w := s.lower(word)
		if plain(w) {
			n++
			for _, t := range s.qterms {
				if keywords.MayGive(w, t) {
					s.analysed(w, term)
					return
				}
			}
			term(-1)
			return
		}
		// A run of Chinese, Japanese or Thai is many words; a word joined
		// by punctuation, or not all ASCII ("naïve"), is one that the
		// analyzer may split, so a term may start inside it.
		n += s.analysed(w, term)
	}
	// A heading and its text are apart, as if a line break were between them.
	keywords.ScanWords(heading, word)
	keywords.ScanWords(text, word)
	return n
}

// lower returns a word in lower case, as strings.ToLower does. An ASCII
// word with capitals is lowered into the scanner's buffer, not a new
// string: the string lasts until the next word (analysed copies a word it
// keeps).
func (s *termScanner) lower(word string) string {
	upper := false
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= utf8.RuneSelf {
			return strings.ToLower(word)
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return word
	}
	s.buf = s.buf[:0]
	for i := 0; i < len(word); i++ {
		c := word[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		s.buf = append(s.buf, c)
	}
	return unsafe.String(unsafe.SliceData(s.buf), len(s.buf))
}

// analysed calls term with the terms the analyzer makes of the word w, and
// returns how many words it counts as.
func (s *termScanner) analysed(w string, term func(k int)) int {
	a, ok := s.words[w]
	if !ok {
		w = strings.Clone(w) // not a piece of the paragraph
		terms := keywords.Terms(w)
		a.terms = make([]int, len(terms))
		for i, t := range terms {
			a.terms[i] = slices.Index(s.qterms, t)
		}
		a.words = 1
		if keywords.Spaceless(w) {
			a.words = len(terms)
		}
		s.words[w] = a
	}
	for _, k := range a.terms {
		term(k)
	}
	return a.words
}

// plain reports whether a word is ASCII letters, digits and "_" only: the
// analyzer keeps it one token.
func plain(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// addOptionParagraphs finds, when the question names program options
// (keywords.Options), the paragraphs of the hit items that write each of
// them, adds those that are not candidates yet, and returns them, by hit
// and paragraph: 2 for an entry that opens with each option
// (keywords.DefinesOption), 1 for another paragraph that writes them, and
// for an entry of an item whose other entries for them stand in a section
// of options (keywords.OptionsSection: bash(1)'s own -c, not its
// builtins').
func addOptionParagraphs(question string, items []*library.Paragraphs, scan *termScanner, cands *[]*candidate) (map[[2]int]int, error) {
	opts := keywords.Options(question)
	if len(opts) == 0 {
		return nil, nil
	}
	have := map[[2]int]bool{}
	for _, c := range *cands {
		have[[2]int{c.hit, c.para}] = true
	}
	writes := map[[2]int]int{}
	for i, ps := range items {
		if ps == nil {
			continue
		}
		// An item with entries in a section of options has its other
		// entries count as uses: bash(1)'s own -c, not its builtins'.
		// Between items nothing changes: one program's OPTIONS is not
		// above another's DESCRIPTION.
		var entries, elsewhere [][2]int
	paragraphs:
		for j := range ps.Len() {
			heading, text, err := ps.Text(j)
			if err != nil {
				return nil, err
			}
			for _, o := range opts {
				if !keywords.WritesOption(text, o) && !keywords.WritesOption(heading, o) {
					continue paragraphs
				}
			}
			at := [2]int{i, j}
			writes[at] = 2
			for _, o := range opts {
				if !keywords.DefinesOption(text, o) {
					writes[at] = 1
				}
			}
			if writes[at] == 2 {
				if keywords.OptionsSection(heading) {
					entries = append(entries, at)
				} else {
					elsewhere = append(elsewhere, at)
				}
			}
			if !have[at] {
				terms, n := scan.count(heading, text)
				*cands = append(*cands, &candidate{hit: i, para: j, terms: terms, n: n})
			}
		}
		if len(entries) > 0 {
			for _, at := range elsewhere {
				writes[at] = 1
			}
		}
	}
	return writes, nil
}
