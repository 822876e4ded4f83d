package keywords

import (
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	index "github.com/blevesearch/bleve_index_api"
)

// ChunkAnalyzer analyses the text of index documents for sponge add: it
// gives the same terms as the analyzer of the index (AnalyzerConfig), in the
// same order, at about half the cost. The filters of that analyzer but the
// last take one token at a time, so each word the tokenizer finds goes
// through them once per memo and is then looked up (the words of a library
// repeat); the last, the CJK bigram filter, pairs neighbours, and runs over
// the text's tokens when it has any it pairs.
func ChunkAnalyzer() analysis.Analyzer {
	chunkOnce.Do(func() {
		defineAnalyzer()
		full, ok := analyzer.(*analysis.DefaultAnalyzer)
		if !ok || len(full.CharFilters) > 0 || len(full.TokenFilters) == 0 {
			panic(fmt.Sprintf("keywords: the analyzer is not the one ChunkAnalyzer knows: %T", analyzer))
		}
		last := len(full.TokenFilters) - 1
		if _, ok := full.TokenFilters[last].(*cjk.CJKBigramFilter); !ok {
			panic(fmt.Sprintf("keywords: the analyzer's last filter is %T, not the CJK bigram filter", full.TokenFilters[last]))
		}
		chunk = &chunkAnalyzer{full: full, words: full.TokenFilters[:last], pairs: full.TokenFilters[last]}
	})
	return chunk
}

var (
	chunkOnce sync.Once
	chunk     *chunkAnalyzer
)

type chunkAnalyzer struct {
	full  *analysis.DefaultAnalyzer
	words []analysis.TokenFilter // the filters that take one token at a time
	pairs analysis.TokenFilter   // the CJK bigram filter

	mu    sync.Mutex
	memos []*wordMemo // not in use (bleve analyses on several goroutines)
}

// wordMemo is what the word filters made of each (type, word) seen.
type wordMemo struct {
	terms map[string][]byte // type byte + word → term; nil: not one term
	key   []byte
	count termCounter // for ChunkFrequencies
}

// memoWords is how many words a memo keeps before it starts again. The
// kernel docs have about 76,000 words that are not plainWord, most of them
// rare; a memo of 32,768 costs about 3 MB, and there is one for each
// goroutine bleve analyses on.
const memoWords = 1 << 15

func (a *chunkAnalyzer) Analyze(input []byte) analysis.TokenStream {
	tokens := a.full.Tokenizer.Tokenize(input)
	m := a.memo()
	defer a.putMemo(m)
	pairs := false
	for _, t := range tokens {
		if plainWord(t.Term) {
			continue
		}
		term := a.wordTerm(m, t)
		if term == nil {
			return a.full.Analyze(input)
		}
		t.Term = term
		pairs = pairs || t.Type == analysis.Ideographic
	}
	if pairs {
		return a.pairs.Filter(tokens)
	}
	return tokens
}

// memo takes a memo not in use, or makes one; putMemo gives it back.
func (a *chunkAnalyzer) memo() *wordMemo {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := len(a.memos); n > 0 {
		m := a.memos[n-1]
		a.memos = a.memos[:n-1]
		return m
	}
	return &wordMemo{terms: make(map[string][]byte, 4096)}
}

func (a *chunkAnalyzer) putMemo(m *wordMemo) {
	a.mu.Lock()
	a.memos = append(a.memos, m)
	a.mu.Unlock()
}

// wordTerm is the term the word filters make of one token, from the memo m
// or noted in it; nil if they do not leave one token.
func (a *chunkAnalyzer) wordTerm(m *wordMemo, t *analysis.Token) []byte {
	m.key = append(append(m.key[:0], byte(t.Type)), t.Term...)
	term, ok := m.terms[string(m.key)]
	if !ok {
		term = a.filterWord(t)
		if len(m.terms) >= memoWords {
			clear(m.terms)
		}
		m.terms[string(m.key)] = term
	}
	return term
}

// TermCounts is what ChunkFrequencies counts of a text: each of its terms
// once, in the order first met, and how often each occurs (Freqs[i] for
// Terms[i]). A term is a piece of the text counted or of a block the
// counter made it in; neither changes. Two lists, not bleve's map of a
// TokenFreq each: the map, its TokenFreqs and a key string for each of a
// chunk's terms were a quarter of what an add allocated, held by each
// document of a batch until its segment was built.
type TermCounts struct {
	Terms []string
	Freqs []uint32
}

// Frequencies is the counts as bleve's text field has them
// (analysis.TokenFrequency without term vectors).
func (c TermCounts) Frequencies() index.TokenFrequencies {
	freqs := make(index.TokenFrequencies, len(c.Terms))
	tfs := make([]index.TokenFreq, len(c.Terms))
	for i, term := range c.Terms {
		tf := &tfs[i]
		tf.Term = []byte(term)
		tf.SetFrequency(int(c.Freqs[i]))
		freqs[term] = tf
	}
	return freqs
}

// Size is what Frequencies' map takes in memory as bleve counts it
// (index.TokenFrequencies.Size), without making it.
func (c TermCounts) Size() int {
	n := mapSize + len(c.Terms)*(entrySize+freqSize)
	for _, term := range c.Terms {
		n += 2 * len(term) // the key and the TokenFreq's Term
	}
	return n
}

// The sizes bleve counts for a TokenFrequencies map, each entry, and each
// TokenFreq without locations.
var (
	mapSize   = index.TokenFrequencies{}.Size()
	freqSize  = (&index.TokenFreq{}).Size()
	entrySize = index.TokenFrequencies{"": {}}.Size() - mapSize - freqSize
)

// ChunkFrequencies is what bleve's text field makes of a chunk analysed by
// ChunkAnalyzer without term vectors: how many terms the text has, and how
// often each occurs (TermCounts; its Frequencies are analysis.TokenFrequency's).
// It counts the terms as it finds them: ASCII text (most chunks) without
// making a token for each word, other text without the CJK bigram filter's
// token for each pair. The tokens and their count were a fifth of what an
// add allocated.
func ChunkFrequencies(text []byte) (int, TermCounts) {
	a := ChunkAnalyzer().(*chunkAnalyzer)
	m := a.memo()
	defer a.putMemo(m)
	c := &m.count
	a.countText(c, m, text)
	return c.n, c.done()
}

// HeldTerms is how many of the terms in want Terms(text) gives, each
// counted once, worked out as ChunkFrequencies counts (no token for each
// ASCII word, the words met before from the memo): a search's snippet asks
// it of every paragraph of the items found, where Terms made a string and a
// token of each word (most of a sponge search's time).
func HeldTerms(text string, want map[string]bool) int {
	if len(want) == 0 {
		return 0
	}
	a := ChunkAnalyzer().(*chunkAnalyzer)
	m := a.memo()
	defer a.putMemo(m)
	c := &m.count
	c.want, c.held = want, c.held[:0]
	defer func() { c.want = nil }()
	a.countText(c, m, []byte(text))
	return len(c.held)
}

// countText counts the terms of text in c, emptied first; its terms are
// pieces of text or of c's own blocks, kept until c is started again.
func (a *chunkAnalyzer) countText(c *termCounter, m *wordMemo, text []byte) {
	c.start()
	// Runs of lines all ASCII (most lines, even of a chunk with a "’" or a
	// "→" somewhere) are counted without tokens; no word goes on past the
	// end of a line (UAX #29 WB3a, WB3b), so each run is counted alone.
	ok := true
	for from := 0; from < len(text) && ok; {
		end, ascii := lineRun(text, from, len(text))
		if ascii {
			ok = a.countASCII(c, m, text[from:end])
		} else {
			ok = a.countTokens(c, m, text[from:end])
		}
		from = end
	}
	if !ok {
		c.start()
		toks := a.full.Analyze(text)
		if c.want != nil {
			for _, t := range toks {
				c.hold(t.Term)
			}
			return
		}
		for term, tf := range analysis.TokenFrequency(toks, nil, index.IndexField) {
			c.terms = append(c.terms, term)
			c.freqs = append(c.freqs, uint32(tf.Frequency()))
		}
		c.n = len(toks)
	}
}

// countASCII counts the terms of ASCII text, finding its words as the
// tokenizer finds them (nextASCIIWord) without making a token for each.
// False: the word filters did not leave one term for a word, and the full
// analyzer must count.
func (a *chunkAnalyzer) countASCII(c *termCounter, m *wordMemo, text []byte) bool {
	var tok analysis.Token
	for i := 0; ; {
		start, end, typ := nextASCIIWord(text, i)
		if start == end {
			return true
		}
		i = end
		term := text[start:end]
		if !plainWord(term) {
			if upperPlain(term) {
				c.addLower(term)
				continue
			}
			tok = analysis.Token{Term: term, Start: start, End: end, Type: typ}
			if term = a.wordTerm(m, &tok); term == nil {
				return false
			}
		}
		c.add(term)
	}
}

// countTokens counts the terms of text that is not all ASCII: its tokens
// through the word filters (from the memo m), then paired as the CJK bigram
// filter pairs them (without unigrams): each character of an ideographic
// token is a unit; units that touch (one starts where the one before ends)
// make a run; a run of one counts as that unit, a longer run as each pair
// of neighbours. False: the word filters did not leave one term for a
// token, and the full analyzer must count.
func (a *chunkAnalyzer) countTokens(c *termCounter, m *wordMemo, text []byte) bool {
	tokens := a.full.Tokenizer.Tokenize(text)
	var prev []byte // the last unit of the run
	prevEnd, run := 0, 0
	for _, t := range tokens {
		term := t.Term
		lower := false
		if !plainWord(term) {
			if lower = upperPlain(term); !lower {
				if term = a.wordTerm(m, t); term == nil {
					return false
				}
			}
		}
		if t.Type != analysis.Ideographic {
			if run == 1 {
				c.add(prev)
			}
			run = 0
			if lower {
				c.addLower(term)
			} else {
				c.add(term)
			}
			continue
		}
		for at := 0; at < len(term); {
			_, size := utf8.DecodeRune(term[at:])
			unit, start := term[at:at+size], t.Start+at
			if run > 0 && start != prevEnd {
				if run == 1 {
					c.add(prev)
				}
				run = 0
			}
			if run > 0 {
				c.addPair(prev, unit)
			}
			run++
			prev, prevEnd = unit, start+size
			at += size
		}
	}
	if run == 1 {
		c.add(prev)
	}
	return true
}

// termCounter counts the terms of a text as analysis.TokenFrequency counts
// tokens. It is kept with a memo and used for one text after another: its
// map and lists are emptied and reused (start), and only the counts are
// copied out (done).
type termCounter struct {
	n     int
	at    map[string]int32 // term → its place in terms and freqs
	terms []string
	freqs []uint32
	pair  []byte // a term being made
	made  []byte // where the terms made are kept, in blocks: only appended to
	// want, when not nil, makes the counter note only which of its terms
	// the text holds, each once, in held (HeldTerms), and count nothing.
	want map[string]bool
	held []string
}

// counterKeeps is the most terms a termCounter's map keeps room for from
// one text to the next: emptying a map costs as much as its room, and a
// chunk of one long paragraph may have tens of thousands.
const counterKeeps = 4096

// start empties the counter for a text.
func (c *termCounter) start() {
	if c.want != nil {
		c.held = c.held[:0] // the map is not used: emptying it cost more than a short paragraph
		return
	}
	if c.at == nil || len(c.at) > counterKeeps {
		c.at = make(map[string]int32, 512)
	} else {
		clear(c.at) // its keys are pieces of the last text
	}
	clear(c.terms)
	c.n, c.terms, c.freqs = 0, c.terms[:0], c.freqs[:0]
}

// done returns the counts of the text, in lists of their own.
func (c *termCounter) done() TermCounts {
	return TermCounts{Terms: slices.Clone(c.terms), Freqs: slices.Clone(c.freqs)}
}

// add counts one term; a new term keeps term (it must not change).
func (c *termCounter) add(term []byte) {
	if c.want != nil {
		c.hold(term)
		return
	}
	c.n++
	if k, ok := c.at[string(term)]; ok {
		c.freqs[k]++
		return
	}
	t := unsafe.String(unsafe.SliceData(term), len(term))
	c.at[t] = int32(len(c.terms))
	c.terms = append(c.terms, t)
	c.freqs = append(c.freqs, 1)
}

// addPair counts the term of two units together.
func (c *termCounter) addPair(first, second []byte) {
	c.pair = append(append(c.pair[:0], first...), second...)
	c.addMade()
}

// addLower counts the term of an upperPlain word: the word in lower case.
func (c *termCounter) addLower(word []byte) {
	c.pair, _ = appendLower(c.pair[:0], word)
	c.addMade()
}

// hold notes term in held if it is wanted and not there yet.
func (c *termCounter) hold(term []byte) {
	if !c.want[string(term)] || slices.Contains(c.held, string(term)) {
		return
	}
	c.held = append(c.held, string(term))
}

// addMade counts the term in c.pair, kept in c.made when it is new.
func (c *termCounter) addMade() {
	if c.want != nil {
		c.hold(c.pair)
		return
	}
	if k, ok := c.at[string(c.pair)]; ok {
		c.n++
		c.freqs[k]++
		return
	}
	if cap(c.made)-len(c.made) < len(c.pair) {
		c.made = make([]byte, 0, max(len(c.pair), 2048))
	}
	start := len(c.made)
	c.made = append(c.made, c.pair...)
	c.add(c.made[start:len(c.made):len(c.made)])
}

// plainWord reports whether the word filters leave a term as it is without
// looking: lower-case ASCII letters, digits and "_" (nothing for the width
// and lowercase filters), not ending in "s" (possessive, plural), "d" or "g"
// (-ed, -ing), nor in "age" (AgeNouns). Most words of English text are, and
// a look-up in a large memo costs more than this.
func plainWord[T string | []byte](term T) bool {
	n := len(term)
	if n == 0 {
		return false
	}
	switch term[n-1] {
	case 's', 'd', 'g':
		return false
	case 'e':
		if n >= 4 && term[n-2] == 'g' && term[n-3] == 'a' {
			return false
		}
	}
	for i := 0; i < len(term); i++ {
		c := term[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// upperPlain reports whether the word filters only lower the case of a
// word that is not plainWord: ASCII letters, digits and "_" with a capital
// letter, not ending in "s", "d", "g" or "age" in either case. Capitalised and
// upper-case words are common (sentence starts, CONFIG_ names, acronyms),
// and lowering them costs less than a look-up in a large memo.
func upperPlain(word []byte) bool {
	if len(word) == 0 {
		return false
	}
	n := len(word)
	switch word[n-1] | ('a' - 'A') {
	case 's', 'd', 'g':
		return false
	case 'e':
		if n >= 4 && word[n-2]|('a'-'A') == 'g' && word[n-3]|('a'-'A') == 'a' {
			return false
		}
	}
	upper := false
	for _, c := range word {
		switch {
		case 'A' <= c && c <= 'Z':
			upper = true
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_':
		default:
			return false
		}
	}
	return upper
}

// filterWord puts a copy of one token through the word filters and returns
// its term, or nil if they did not leave one token, where it was, of its
// type.
func (a *chunkAnalyzer) filterWord(t *analysis.Token) []byte {
	c := *t
	c.Term = append([]byte(nil), t.Term...)
	s := analysis.TokenStream{&c}
	for _, f := range a.words {
		s = f.Filter(s)
	}
	if len(s) != 1 || s[0].Type != t.Type || s[0].Start != t.Start || s[0].End != t.End {
		return nil
	}
	return s[0].Term
}
