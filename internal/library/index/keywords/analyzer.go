// Package keywords is how the library finds words in text: the analyzer of
// the keyword index (Terms), the stop words of questions, the word scan that
// ranking counts with, and the paragraph postings of big items. It imports
// bleve's analysis, not its index, so that sponge-rank, which ranks
// paragraphs without opening the index, does not pay for starting bleve's
// index (its package init alone: ~26,000 allocations, ~10 ms).
package keywords

import (
	"errors"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/sponge-library/sponge/internal/base/thai"
)

// AnalyzerName is the analyzer of the text field: Unicode words (Thai cut
// into dictionary words, see words.go), full-width forms folded, lowercase,
// English possessives, plurals and -ed/-ing endings dropped (a noun of
// AgeNouns given as its verb), a Cyrillic word's stress marks dropped and
// its ё written е (lang.FoldStress) and the word stemmed as Russian
// (russianStem: "Одессу" is "одесс"), an Arabic word's harakat dropped and
// its alef, alef maqsura and teh marbuta written one way (lang.FoldArabic:
// "أين" is "اين", "دبى" is "دبي"), the Korean particles, a question's
// copula and the forms of a verb of 하다 or 되다 taken off a word of Hangul
// (lang.BareHangul: "설립되었는가" is "설립"), the Bengali and Telugu case
// endings, plural and definite markers taken off a word of their script
// (lang.BareGlued: "পশ্চিমবঙ্গের" is "পশ্চিমবঙ্গ", "భారతదేశంలో"
// "భారతదేశం"), and Han, kana and characters outside any
// Thai word paired into overlapping bigrams, as Lucene's CJK analyzer does.
// Words of other languages match exactly.
const AnalyzerName = "sponge"

// AnalyzerRules names the analyzer's rules; an index records it (with the
// Thai word list it was made with), and one made under other rules has other
// terms than today's questions: readers refuse it (sponge reindex remakes
// it), and a writer remakes it. Change it whenever the terms change.
const AnalyzerRules = "13: unicode+thai words, cjk width, lowercase, possessive, plural, Cyrillic stress marks and ё folded, Cyrillic words stemmed as Russian, Arabic harakat and letter forms folded, Korean particles (all of them), Bengali and Telugu case endings, copula, 하다/되다 and question endings, -ed/-ing with the lost e, -age nouns as verbs, cjk bigrams"

// AnalyzerVersion is what an index made now records.
func AnalyzerVersion() string {
	words := "thai=pairs"
	if _, name := thai.List(); name != "" {
		words = "thai=" + name
	}
	return AnalyzerRules + "; " + words
}

// AnalyzerConfig is the analyzer as bleve's index mapping defines it.
func AnalyzerConfig() map[string]any {
	return map[string]any{
		"type":      custom.Name,
		"tokenizer": wordsTokenizerName,
		"token_filters": []string{cjk.WidthName, lowercase.Name, en.PossessiveName, en.PluralStemmerName,
			endingsFilterName, cjk.BigramName},
	}
}

var (
	analyzerOnce sync.Once
	analyzer     analysis.Analyzer
	analyzerErr  error
)

// defineAnalyzer defines the analyzer of the index, once.
func defineAnalyzer() {
	analyzerOnce.Do(func() {
		analyzer, analyzerErr = registry.NewCache().DefineAnalyzer(AnalyzerName, AnalyzerConfig())
		if analyzerErr == nil && analyzer == nil {
			analyzerErr = errors.New("analyzer not found")
		}
	})
	if analyzerErr != nil {
		panic("keywords: " + analyzerErr.Error())
	}
}

// Terms splits text into index terms with the same analyzer the index uses.
func Terms(text string) []string {
	defineAnalyzer()
	if out, ok := asciiTerms(text); ok {
		return out
	}
	toks := analyzer.Analyze([]byte(text))
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		out = append(out, string(t.Term))
	}
	return out
}

// asciiTerms is Terms of an ASCII text without a token for each word: its
// words found as the tokenizer finds them (nextASCIIWord), a plain word
// (plainWord) its own term, a capitalised one lowered (upperPlain), each
// other through the word filters (the CJK bigram filter pairs no ASCII).
// The drafter asks Terms of every sentence of the passages, and the
// analyzer's filters over each word's token were most of that. False when
// text is not all ASCII, or a word's filters do not leave one term: the
// analyzer then has the text.
func asciiTerms(text string) ([]string, bool) {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return nil, false
		}
	}
	a := ChunkAnalyzer().(*chunkAnalyzer)
	input := unsafe.Slice(unsafe.StringData(text), len(text)) // only read
	var out []string
	var lower []byte
	for i := 0; ; {
		start, end, typ := nextASCIIWord(input, i)
		if start == end {
			return out, true
		}
		i = end
		word := input[start:end]
		switch {
		case plainWord(word):
			out = append(out, text[start:end])
		case upperPlain(word):
			lower, _ = appendLower(lower[:0], word)
			out = append(out, string(lower))
		default:
			term := a.filterWord(&analysis.Token{Term: word, Start: start, End: end, Type: typ})
			if term == nil {
				return nil, false
			}
			out = append(out, string(term))
		}
	}
}
