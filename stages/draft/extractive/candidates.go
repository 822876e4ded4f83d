package extractive

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft/sentences"
)

// Candidates splits the passages into sentences and measures each against
// the question. corpus may be nil: then word weights come from the passages.
func Candidates(question string, passages []*jsonl.Passage, p *Params, corpus Corpus) []*Candidate {
	qy := newQuery(question, passages, p, corpus)
	if qy == nil {
		return nil
	}
	ss := qy.collect(passages, p)
	if len(ss.sents) == 0 {
		return nil
	}
	out := qy.score(ss, len(passages), p)
	relative(out)
	return out
}

// query is the question Candidates measures sentences against: its words
// (terms, in order; uniq, each once; set), its word pairs and its weights
// in the library.
type query struct {
	question string
	terms    []string
	uniq     []string
	set      map[string]bool
	bigrams  map[[2]string]bool
	lw       *libraryWeights
	rarest   string
}

// newQuery reads the question; nil when it has no content word.
func newQuery(question string, passages []*jsonl.Passage, p *Params, corpus Corpus) *query {
	question = withoutValues(question)
	q := terms(question)
	if len(q) == 0 {
		return nil
	}
	qy := &query{question: question, terms: q, set: map[string]bool{}, bigrams: map[[2]string]bool{}}
	for _, t := range q {
		if !qy.set[t] {
			qy.set[t] = true
			qy.uniq = append(qy.uniq, t)
		}
	}
	for i := 1; i < len(q); i++ {
		if q[i-1] != q[i] {
			qy.bigrams[[2]string{q[i-1], q[i]}] = true
		}
	}
	qy.lw = newLibraryWeights(question, passages, corpus, p.PriorDocs)
	qy.rarest = qy.lw.rarest()
	return qy
}

// sent is a candidate with its words, for the scores measured over every
// sentence (BM25, Coverage).
type sent struct {
	c    *Candidate
	tf   map[string]int
	toks []string
}

// sentenceSet is every candidate sentence of the passages with the counts
// of the words among them: in how many passages and sentences each stands,
// and how many words they hold in all.
type sentenceSet struct {
	sents             []sent
	passageDF, sentDF map[string]int
	totalLen          int
}

// passageFacts is what every sentence of a passage shares.
type passageFacts struct {
	ps    *jsonl.Passage
	rank  int
	spans []sentences.Span
	// head is what the passage is about besides its text: its title, its
	// heading and the question it answers (answers).
	head, answers string
	answer        float64
	// about and passageHeld: the question's words its head holds, and its
	// head with its text (Candidate.about, passageHeld).
	about, passageHeld       uint64
	measureAnswer            float64
	headed, scaled, offScale bool
	defines                  bool
	// lex is the lexicon the rules read the passage's sentences in
	// (sentenceLexicon).
	lex    *lang.Lexicon
	pscore float64
	shares []float64 // each sentence's share of the question's weight
}

// collect measures every sentence of the passages.
func (qy *query) collect(passages []*jsonl.Passage, p *Params) *sentenceSet {
	ss := &sentenceSet{passageDF: map[string]int{}, sentDF: map[string]int{}}
	best := 0.0
	for _, ps := range passages {
		best = math.Max(best, ps.Score)
	}
	// A passage that asks, by item and paragraph: the passage of the
	// paragraph after it answers it (a talk, an interview: rank brings that
	// paragraph along), so the question is measured with the answer as its
	// heading is.
	asked := map[at]string{}
	for _, ps := range passages {
		if item.Asks(ps.Text) || leadIn(ps.Text) {
			asked[at{ps.ItemID, ps.Paragraph}] = ps.Text
		}
	}
	measured, ownScales := measuredWith(qy.lw, passages, asked, qy.question)
	for rank, ps := range passages {
		pf := qy.passageFacts(ps, rank, asked[at{ps.ItemID, ps.Paragraph - 1}], measured, ownScales, best)
		inPassage := map[string]bool{}
		for i := range pf.spans {
			qy.sentenceCandidates(ss, pf, i, p, inPassage)
		}
		for t := range inPassage {
			ss.passageDF[t]++
		}
	}
	return ss
}

// passageFacts measures the passage ps, ranked rank (from 0), that answers
// the question asked in answers ("" when none), among passages whose best
// score is best.
func (qy *query) passageFacts(ps *jsonl.Passage, rank int, answers string, measured measures, ownScales [][]scale, best float64) *passageFacts {
	lw := qy.lw
	pf := &passageFacts{ps: ps, rank: rank, spans: headingsApart(ps.Text, sentences.Split(ps.Text)), answers: answers}
	pf.head = ps.Title + "\n" + ps.Heading
	if answers != "" {
		pf.head += "\n" + answers
	}
	text := pf.head + "\n" + ps.Text
	pshare, pmass := lw.covers(text)
	pf.answer = pshare * math.Sqrt(pmass)
	pf.about, pf.passageHeld = lw.held(pf.head), lw.held(text)
	stemHas := lw.stemHeld(text)
	// The passage with the question's measure word held by the measure
	// it asks for, and whether its section heading (not its item's
	// title) holds the question's rarest word (Params.SectionMeasure).
	pf.headed = lw.measure != "" && ps.Heading != "" && ps.Heading != ps.Title && lw.holdsRarest(lw.have(ps.Heading))
	pf.measureAnswer = pf.answer
	if measured != nil {
		pf.scaled, pf.offScale = measured.scales(lw, stemHas, ownScales[rank])
	}
	if pf.headed {
		mshare := lw.shareOf(lw.withMeasure(text, lw.have(text)))
		pf.measureAnswer = mshare * math.Sqrt(mshare*lw.total/lw.logN)
	}
	pf.defines = lw.definesOptions(ps.Text)
	pf.lex = lw.sentenceLexicon(ps.Text)
	pf.shares = make([]float64, len(pf.spans))
	for i, sp := range pf.spans {
		pf.shares[i], _ = lw.covers(ps.Text[sp.Start:sp.End])
	}
	if best > 0 {
		pf.pscore = ps.Score / best
	}
	return pf
}

// window is a sentence's window: the sentence, its neighbours, the title
// and heading, where the question's words must meet; has holds the
// question's words in it, lacking its first option it does not write.
// before and after are the neighbours' shares of the question's weight.
type window struct {
	text          string
	has           map[string]bool
	lacking       string
	share         float64
	before, after float64
}

// windowOf is the window of the passage's i-th sentence.
func (qy *query) windowOf(pf *passageFacts, i int) window {
	text, spans := pf.ps.Text, pf.spans
	w := window{text: pf.head + "\n" + text[spans[i].Start:spans[i].End]}
	if i > 0 {
		w.text += "\n" + text[spans[i-1].Start:spans[i-1].End]
		w.before = pf.shares[i-1]
	}
	if i+1 < len(spans) {
		w.text += "\n" + text[spans[i+1].Start:spans[i+1].End]
		w.after = pf.shares[i+1]
	}
	w.has = qy.lw.have(w.text)
	w.lacking = qy.lw.lacksOption(w.text)
	w.share = qy.lw.shareOf(w.has)
	return w
}

// quoted is what may be quoted of the sentence text[sp]: the sentence (with
// the block after it when it introduces one: withBlock) and its clauses;
// ok is false when it holds no statement.
func quoted(text string, sp sentences.Span, p *Params) (sentence string, clauses []Span, withBlock, ok bool) {
	sentence = text[sp.Start:sp.End]
	if p.Sentences {
		return sentence, []Span{{0, len(sentence)}}, false, true
	}
	// Code, a table's row, a heading (NotStatement) has no statement in
	// any of its clauses. A sentence that introduces what follows ("You
	// can change it by the following.") is quoted with the command or
	// short block after it in its passage, and says nothing alone.
	switch {
	case inCode(text, sp):
		return "", nil, false, false
	case introduces(sentence):
		end, found := blockAfter(text, sp.Start, sp.End)
		if !found || !IsStatement(sentence) {
			return "", nil, false, false
		}
		sentence = text[sp.Start:end]
		return sentence, []Span{{0, len(sentence)}}, true, true
	case NotStatement(sentence) != "" || inHeading(text, sp):
		return "", nil, false, false
	}
	return sentence, Clauses(sentence), false, true
}

// inCode reports whether the sentence text[sp] lies in a block of code
// saved with the sentence that announces it (item.CodeOf: after a blank
// line): code's lines are no statement, whatever words they hold; the
// block is quoted only with its announcer (blockAfter). A paragraph that
// is all code (lines, no blank line) is read as any other, its lines by
// NotStatement's rules: a passage holding "\n" is also how the quality
// sets' GermanQuAD and Thai contexts come, whose lines are prose. A
// paragraph whose first line is a shell session (a prompt and a command,
// isShellSession) is a session whole: its other lines are what the
// command printed ("# aa-status\napparmor module is loaded.\n32 profiles
// are loaded."), no statement, though they read as sentences.
func inCode(text string, sp sentences.Span) bool {
	prose, code := item.CodeOf(text)
	if prose != "" && code != "" && sp.End > len(text)-len(code) {
		return true
	}
	first, _, lines := strings.Cut(text, "\n")
	return lines && isShellSession(strings.TrimSpace(first))
}

// headingsApart returns the spans of text's sentences with a heading before
// a sentence's first words made a span of its own: a line that is a heading
// (isHeading), or a heading as MediaWiki writes one, which an extractor may
// have joined to the text after it ("=== 2. Weltkrieg === Obwohl die
// indische Öffentlichkeit …"). The splitter cuts at a sentence's end, and a
// heading has none, so it opened the sentence after it, which was quoted
// with it or, too long then, cut into clauses that lost the answer.
func headingsApart(text string, spans []sentences.Span) []sentences.Span {
	var out []sentences.Span
	for _, sp := range spans {
		for {
			n := headingLen(text[sp.Start:sp.End])
			if n == 0 {
				break
			}
			out = append(out, sentences.Span{Start: sp.Start, End: sp.Start + n})
			rest := trimSpan(text[:sp.End], sp.Start+n, sp.End)
			sp.Start = rest.Start
		}
		out = append(out, sp)
	}
	return out
}

// headingLen is the length of the heading that opens the sentence s, with
// words after it, or 0 when none does: its first line when that is a
// heading, or a MediaWiki heading (wikiTitle) up to its closing equals signs.
func headingLen(s string) int {
	if nl := strings.IndexByte(s, '\n'); nl > 0 && strings.TrimSpace(s[nl:]) != "" && isHeading(strings.TrimSpace(s[:nl])) {
		return nl
	}
	fields := strings.Fields(s)
	for i := 2; i < len(fields)-1 && i <= maxHeadingWords; i++ {
		if wikiTitle(fields[:i+1]) {
			end := 0
			for _, f := range fields[:i+1] {
				end = strings.Index(s[end:], f) + end + len(f)
			}
			return end
		}
	}
	return 0
}

// inHeading reports whether the sentence text[sp] is part of a line that
// is a heading, cut by the sentence splitter at its number's full stop:
// 'The /backup/root/dirvish/default.conf file' of the caption 'Example
// 9.4. The /backup/root/dirvish/default.conf file', 'Data conversion' of
// 'Chapter 11. Data conversion' (isHeading's rules and languages).
func inHeading(text string, sp sentences.Span) bool {
	start := strings.LastIndexByte(text[:sp.Start], '\n') + 1
	end := len(text)
	if i := strings.IndexByte(text[sp.End:], '\n'); i >= 0 {
		end = sp.End + i
	}
	line := strings.TrimSpace(text[start:end])
	return line != strings.TrimSpace(text[sp.Start:sp.End]) && isHeading(line)
}

// sentenceCandidates adds to ss the candidates of the passage's i-th
// sentence: its clauses that are statements (the sentence itself, with
// Params.Sentences), marking their words in inPassage.
func (qy *query) sentenceCandidates(ss *sentenceSet, pf *passageFacts, i int, p *Params, inPassage map[string]bool) {
	win := qy.windowOf(pf, i)
	sentence, clauses, withBlock, ok := quoted(pf.ps.Text, pf.spans[i], p)
	if !ok || !p.Sentences && isCell(pf.ps.Heading, sentence) {
		return
	}
	for _, cl := range clauses {
		quote := sentence[cl.Start:cl.End]
		if !p.Sentences && !withBlock && !isStatement(quote, len(clauses) > 1) {
			continue
		}
		// A clause of a few words cut from a long sentence ("on the
		// remote side.") does not stand alone.
		if len(clauses) > 1 && wordCount(quote) < minClauseWords {
			continue
		}
		toks := terms(quote)
		tf := map[string]int{}
		for _, t := range toks {
			tf[t]++
		}
		for t := range tf {
			ss.sentDF[t]++
			inPassage[t] = true
		}
		c := qy.newCandidate(pf, i, cl, quote, len(toks), &win)
		ss.sents = append(ss.sents, sent{c, tf, toks})
		ss.totalLen += len(toks)
	}
}

// newCandidate measures quote, the clause cl of the passage's i-th
// sentence, of n content words, in its window win.
func (qy *query) newCandidate(pf *passageFacts, i int, cl Span, quote string, n int, win *window) *Candidate {
	lw, ps, spans := qy.lw, pf.ps, pf.spans
	pos := 0.0
	if len(spans) > 1 {
		pos = float64(i) / float64(len(spans)-1)
	}
	c := &Candidate{
		Passage: ps.Number, Item: ps.ItemID, Rank: pf.rank + 1, Quote: quote, Index: i,
		PassageScore: pf.pscore, Position: pos, Terms: n,
		Answer: pf.answer, Absent: lw.absent, Window: win.share,
		Before: win.before, After: win.after,
		heading: ps.Heading, title: ps.Title, answers: pf.answers, lex: pf.lex,
	}
	backs := c.reads(listBack)
	if backs && refersBack(quote) {
		c.Refers = 1
		if i > 0 {
			c.Joined, _ = lw.covers(ps.Text[spans[i-1].Start:spans[i-1].End] + "\n" + quote)
		}
	}
	if backs && i > 0 && cl.Start == 0 && pointsBack(quote, c.lex) {
		// The sentence before must be a statement itself: not a
		// question, a listing, code or a navigation line.
		before := ps.Text[spans[i-1].Start:spans[i-1].End]
		joined := strings.TrimSpace(ps.Text[spans[i-1].Start : spans[i].Start+cl.End])
		if utf8.RuneCountInString(joined) <= MaxStatement && !item.Asks(before) && !announces(before) &&
			IsStatement(before) && !introduces(before) {
			c.withBefore = joined
		}
	}
	c.Covers, _ = lw.covers(quote)
	if qy.rarest != "" && lw.have(quote)[qy.rarest] {
		c.Rarest = 1
	}
	c.held, c.weights = lw.held(quote), lw
	c.headHeld, c.about, c.passageHeld = lw.held(pf.head+"\n"+quote), pf.about, pf.passageHeld
	c.question = item.Asks(quote) || announces(quote)
	c.defines = c.reads(listCopulas) && lw.subject.DefinedBy(quote)
	c.hearsay = c.reads(listSay, listCrowds) && hearsay(quote)
	sshare, smass := lw.covers(pf.head + "\n" + quote)
	c.SentenceAnswer = sshare * math.Sqrt(smass)
	c.Gap, c.Names = lw.missingFrom(win.has)
	c.window, c.negates = win.text, negates(quote) || freeOf(quote)
	c.lacksOption, c.definesOptions = win.lacking, pf.defines
	c.measureAnswer, c.headed, c.scaled, c.offScale = pf.measureAnswer, pf.headed, pf.scaled, pf.offScale
	qy.kinds(c, quote)
	if i == 0 && ps.Paragraph == 0 && len(spans) > 1 && (lw.qtype == typeTime || lw.qtype == typeNumber) {
		// An item's opening sentence names its subject, and the sentence
		// after it often says when ("Linois's expedition … was a commerce
		// raiding operation …" and "… was ordered to the Indian Ocean …
		// in March 1803"): the answer-type rule reads it too.
		next := ps.Text[spans[1].Start:spans[1].End]
		c.nextTyped = typeHeld(next, lw.qtype, qy.set, lw.lex) != ""
	}
	return c
}

// kinds marks what kind of answer quote holds: the type, a named kind or
// a unit the question asks for.
func (qy *query) kinds(c *Candidate, quote string) {
	lw := qy.lw
	if c.typed = typeHeld(quote, lw.qtype, qy.set, lw.lex); c.typed != "" {
		c.Type = 1
	}
	c.spelled = holdsSpelled(quote, lw.qtype, qy.set)
	if holdsNamedKind(quote, lw.kind, qy.set) {
		c.Kind = 1
	}
	if holdsUnit(quote, lw.units, qy.question) {
		c.Unit = 1
	}
	if lw.howTo {
		c.code = heldCode(quote, qy.question)
	}
}

// score measures each sentence against the others: BM25 and Coverage,
// with the question's words weighed over the sentences and the np
// passages, and the features of the words it holds.
func (qy *query) score(ss *sentenceSet, np int, p *Params) []*Candidate {
	n := float64(len(ss.sents))
	avg := float64(ss.totalLen) / n
	// Coverage weights: idf over passages, with a term that no passage has
	// weighing most, since the passages lack what the question asks about.
	cw := map[string]float64{}
	cwSum := 0.0
	idfSum := 0.0
	idf := map[string]float64{}
	for _, t := range qy.uniq {
		cw[t] = math.Log((float64(np) + 1) / (float64(ss.passageDF[t]) + 0.5))
		cwSum += cw[t]
		df := float64(ss.sentDF[t])
		idf[t] = math.Log(1 + (n-df+0.5)/(df+0.5))
		idfSum += idf[t]
	}
	out := make([]*Candidate, 0, len(ss.sents))
	for _, s := range ss.sents {
		c := s.c
		bm, cov := 0.0, 0.0
		norm := p.K1 * (1 - p.B + p.B*float64(len(s.toks))/avg)
		for _, t := range qy.uniq {
			f := float64(s.tf[t])
			if f == 0 {
				continue
			}
			bm += idf[t] * f * (p.K1 + 1) / (f + norm)
			cov += cw[t]
		}
		if idfSum > 0 {
			c.BM25 = bm / (idfSum * (p.K1 + 1))
		}
		if cwSum > 0 {
			c.Coverage = cov / cwSum
		}
		qy.wordFeatures(s, idf, idfSum)
		out = append(out, c)
	}
	return out
}

// wordFeatures sets the features of the words s holds: its words, Novel,
// Proximity, Lead (by the question's words' idf over the sentences) and
// Bigram.
func (qy *query) wordFeatures(s sent, idf map[string]float64, idfSum float64) {
	c := s.c
	c.terms = make(map[string]bool, len(s.tf))
	novel := 0
	for t := range s.tf {
		c.terms[t] = true
		if !qy.set[t] {
			novel++
		}
	}
	if len(s.tf) > 0 {
		c.Novel = float64(novel) / float64(len(s.tf))
	}
	c.Proximity = proximity(s.toks, qy.set)
	if idfSum > 0 {
		lead := map[string]bool{}
		for _, t := range s.toks[:min(6, len(s.toks))] {
			if qy.set[t] && !lead[t] {
				lead[t] = true
				c.Lead += idf[t] / idfSum
			}
		}
	}
	if len(qy.bigrams) > 0 {
		hit := 0
		seen := map[[2]string]bool{}
		for i := 1; i < len(s.toks); i++ {
			b := [2]string{s.toks[i-1], s.toks[i]}
			if qy.bigrams[b] && !seen[b] {
				seen[b] = true
				hit++
			}
		}
		c.Bigram = float64(hit) / float64(len(qy.bigrams))
	}
}

// relative sets each candidate's BM25 and Covers over the best of all
// (RelBM25, RelCovers), then its learned chance (Ranked).
func relative(out []*Candidate) {
	bestBM25, bestCovers := 0.0, 0.0
	for _, c := range out {
		bestBM25, bestCovers = math.Max(bestBM25, c.BM25), math.Max(bestCovers, c.Covers)
	}
	for _, c := range out {
		if bestBM25 > 0 {
			c.RelBM25 = c.BM25 / bestBM25
		}
		if bestCovers > 0 {
			c.RelCovers = c.Covers / bestCovers
		}
		c.Ranked = rankerScore(c)
	}
}
