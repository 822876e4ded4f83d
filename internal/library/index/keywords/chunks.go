package keywords

import (
	"fmt"
	"sync"
	"unicode/utf8"

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
		Terms("") // defines the analyzer
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

// ChunkFrequencies is what bleve's text field makes of a chunk analysed by
// ChunkAnalyzer without term vectors: how many terms the text has, and how
// often each occurs (analysis.TokenFrequency). It counts the terms as it
// finds them: ASCII text (most chunks) without making a token for each
// word, other text without the CJK bigram filter's token for each pair.
// The tokens and their count were a fifth of what an add allocates.
func ChunkFrequencies(text []byte) (int, index.TokenFrequencies) {
	a := ChunkAnalyzer().(*chunkAnalyzer)
	m := a.memo()
	defer a.putMemo(m)
	c := termCounter{freqs: make(index.TokenFrequencies, len(text)/16), block: 1 + len(text)/32}
	// Runs of lines all ASCII (most lines, even of a chunk with a "’" or a
	// "→" somewhere) are counted without tokens; no word goes on past the
	// end of a line (UAX #29 WB3a, WB3b), so each run is counted alone.
	ok := true
	for from := 0; from < len(text) && ok; {
		end, ascii := lineRun(text, from, len(text))
		if ascii {
			ok = a.countASCII(&c, m, text[from:end])
		} else {
			ok = a.countTokens(&c, m, text[from:end])
		}
		from = end
	}
	if !ok {
		toks := a.full.Analyze(text)
		return len(toks), analysis.TokenFrequency(toks, nil, index.IndexField)
	}
	return c.n, c.freqs
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
// tokens, with the TokenFreqs allocated in blocks.
type termCounter struct {
	n     int
	freqs index.TokenFrequencies
	slab  []index.TokenFreq
	block int
	pair  []byte // a term being made
	terms []byte // where the terms made are kept, in blocks
}

// add counts one term; a new term keeps term (it must not change).
func (c *termCounter) add(term []byte) {
	c.n++
	if f := c.freqs[string(term)]; f != nil {
		f.SetFrequency(f.Frequency() + 1)
		return
	}
	if len(c.slab) == 0 {
		c.slab = make([]index.TokenFreq, min(256, c.block))
	}
	f := &c.slab[0]
	c.slab = c.slab[1:]
	f.Term = term
	f.SetFrequency(1)
	c.freqs[string(term)] = f
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

// addMade counts the term in c.pair, kept in c.terms when it is new.
func (c *termCounter) addMade() {
	if f := c.freqs[string(c.pair)]; f != nil {
		c.n++
		f.SetFrequency(f.Frequency() + 1)
		return
	}
	if cap(c.terms)-len(c.terms) < len(c.pair) {
		c.terms = make([]byte, 0, max(len(c.pair), 2048))
	}
	start := len(c.terms)
	c.terms = append(c.terms, c.pair...)
	c.add(c.terms[start:len(c.terms):len(c.terms)])
}

// plainWord reports whether the word filters leave a term as it is without
// looking: lower-case ASCII letters, digits and "_" (nothing for the width
// and lowercase filters), not ending in "s" (possessive, plural), "d" or "g"
// (-ed, -ing). Most words of English text are, and a look-up in a large
// memo costs more than this.
func plainWord[T string | []byte](term T) bool {
	if len(term) == 0 {
		return false
	}
	switch term[len(term)-1] {
	case 's', 'd', 'g':
		return false
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
// letter, not ending in "s", "d" or "g" in either case. Capitalised and
// upper-case words are common (sentence starts, CONFIG_ names, acronyms),
// and lowering them costs less than a look-up in a large memo.
func upperPlain(word []byte) bool {
	if len(word) == 0 {
		return false
	}
	switch word[len(word)-1] | ('a' - 'A') {
	case 's', 'd', 'g':
		return false
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
