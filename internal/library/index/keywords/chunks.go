package keywords

import (
	"fmt"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
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
	a.mu.Lock()
	var m *wordMemo
	if n := len(a.memos); n > 0 {
		m = a.memos[n-1]
		a.memos = a.memos[:n-1]
	}
	a.mu.Unlock()
	if m == nil {
		m = &wordMemo{terms: make(map[string][]byte, 4096)}
	}
	defer func() {
		a.mu.Lock()
		a.memos = append(a.memos, m)
		a.mu.Unlock()
	}()
	pairs := false
	for _, t := range tokens {
		if plainWord(t.Term) {
			continue
		}
		m.key = append(append(m.key[:0], byte(t.Type)), t.Term...)
		term, ok := m.terms[string(m.key)]
		if !ok {
			term = a.filterWord(t)
			if len(m.terms) >= memoWords {
				clear(m.terms)
			}
			m.terms[string(m.key)] = term
		}
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
