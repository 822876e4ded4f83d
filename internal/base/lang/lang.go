// Package lang is what sponge knows of the language a text is written in:
// which one it is (Detect), its words (Words), and its lexicon (For): the
// lists of words a rule of the drafter keys on (stop words, question words,
// abbreviations, …), kept as data files one per list (lexicons/<tag>/<list>.txt),
// and its stemmer. A text of a language sponge has no lexicon for gets the
// neutral lexicon, whose lists are empty unless lexicons/neutral holds them:
// a rule that needs a list is then off, by design.
package lang

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/RadhiFadlillah/whatlanggo"
)

// Tag is a language as the base of a BCP 47 tag: "en", "de", "zh", "bn".
// The empty tag is a language not known (or not told apart).
type Tag string

// Unknown is the tag of a text whose language is not known.
const Unknown Tag = ""

// Detect returns the language of text: by its script where a script is
// written in one language sponge tells apart (Han, kana, Hangul, Thai,
// Bengali, Telugu, Greek, …); within Latin, Cyrillic, Arabic and Devanagari
// by a trigram detector (whatlanggo). Text with too few letters to tell is
// Unknown.
func Detect(text string) Tag {
	s := countScripts(text)
	if s.letters < minLetters {
		return Unknown
	}
	if t, ok := s.byScript(); ok {
		return t
	}
	if t, ok := byStopWords(text); ok {
		return t
	}
	return s.byTrigrams(text)
}

// DetectQuestion returns the language of a question: a short text, where
// trigrams alone often guess wrong ("Wer war Kant?"), so the question's
// function and question words (the lexicons' "stop" lists) vote first.
func DetectQuestion(question string) Tag {
	s := countScripts(question)
	if s.letters < 2 {
		return Unknown
	}
	if t, ok := s.byScript(); ok {
		return t
	}
	if t, ok := byStopWords(question); ok {
		return t
	}
	return s.byTrigrams(question)
}

// minLetters is the fewest letters Detect names a language from.
const minLetters = 3

// scripts counts the letters of a text by script.
type scripts struct {
	letters int
	counts  map[*unicode.RangeTable]int
	main    *unicode.RangeTable // the script with the most letters
}

// scriptTables are the scripts told apart, in the order a tie is broken.
var scriptTables = []*unicode.RangeTable{
	unicode.Latin, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Cyrillic,
	unicode.Arabic, unicode.Devanagari, unicode.Bengali, unicode.Telugu, unicode.Tamil, unicode.Kannada,
	unicode.Malayalam, unicode.Gujarati, unicode.Gurmukhi, unicode.Oriya, unicode.Sinhala, unicode.Thai,
	unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Greek, unicode.Hebrew, unicode.Armenian,
	unicode.Georgian, unicode.Ethiopic, unicode.Tibetan,
}

// ofScript are the scripts written in one language (of those sponge knows):
// the script is the language.
var ofScript = map[*unicode.RangeTable]Tag{
	unicode.Hangul: "ko", unicode.Bengali: "bn", unicode.Telugu: "te", unicode.Tamil: "ta",
	unicode.Kannada: "kn", unicode.Malayalam: "ml", unicode.Gujarati: "gu", unicode.Gurmukhi: "pa",
	unicode.Oriya: "or", unicode.Sinhala: "si", unicode.Thai: "th", unicode.Lao: "lo", unicode.Khmer: "km",
	unicode.Myanmar: "my", unicode.Greek: "el", unicode.Hebrew: "he", unicode.Armenian: "hy",
	unicode.Georgian: "ka", unicode.Ethiopic: "am", unicode.Tibetan: "bo",
}

func countScripts(text string) scripts {
	s := scripts{counts: map[*unicode.RangeTable]int{}}
	var last *unicode.RangeTable
	for _, r := range text {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				s.letters++
				s.counts[unicode.Latin]++
			}
			continue
		}
		if !unicode.IsLetter(r) {
			continue
		}
		s.letters++
		if last != nil && unicode.Is(last, r) {
			s.counts[last]++
			continue
		}
		for _, t := range scriptTables {
			if unicode.Is(t, r) {
				s.counts[t]++
				last = t
				break
			}
		}
	}
	best := 0
	for _, t := range scriptTables {
		if n := s.counts[t]; n > best {
			best, s.main = n, t
		}
	}
	return s
}

// byScript names the language of a text whose main script decides it.
// Han is Japanese when the text has kana (a Japanese sentence seldom has
// none), else Chinese.
func (s scripts) byScript() (Tag, bool) {
	kana := s.counts[unicode.Hiragana] + s.counts[unicode.Katakana]
	switch s.main {
	case unicode.Han, unicode.Hiragana, unicode.Katakana:
		if kana > 0 {
			return "ja", true
		}
		return "zh", true
	case nil:
		return Unknown, true
	}
	if t, ok := ofScript[s.main]; ok {
		return t, true
	}
	return Unknown, false
}

// byTrigrams asks whatlanggo for the language of a text in a script
// written in several: the language it names when it is sure of it, else the
// likeliest of those with a lexicon (whatlanggo guesses Javanese of "Wer
// war Kant?" and Serbian of a Russian sentence).
func (s scripts) byTrigrams(text string) Tag {
	info := whatlanggo.DetectWithOptions(text, whatlanggo.Options{})
	if info.Lang < 0 {
		return Unknown
	}
	t := tagOf(info.Lang)
	if known()[info.Lang] || info.IsReliable() && t != Unknown {
		return t
	}
	info = whatlanggo.DetectWithOptions(text, whatlanggo.Options{Whitelist: known()})
	if info.Lang < 0 {
		return Unknown
	}
	return tagOf(info.Lang)
}

// tagOf is the tag of one of whatlanggo's languages.
func tagOf(l whatlanggo.Lang) Tag {
	switch code := l.Iso6391(); code {
	case "nb", "nn":
		return "no"
	default:
		return Tag(code)
	}
}

// known are whatlanggo's languages that have a lexicon.
var known = sync.OnceValue(func() map[whatlanggo.Lang]bool {
	have := map[Tag]bool{}
	for _, t := range Tags() {
		have[t] = true
	}
	m := map[whatlanggo.Lang]bool{}
	for l := whatlanggo.Lang(0); l < 256; l++ {
		if t := tagOf(l); t != Unknown && have[t] {
			m[l] = true
		}
	}
	return m
})

// byStopWords names the language whose stop words a short text holds most
// of, when it holds at least two and more than of any other language ("Wie
// viele Einwohner hat Berlin?" holds "wie", "viele" and "hat").
func byStopWords(text string) (Tag, bool) {
	votes := map[Tag]int{}
	index := stopIndex()
	Scan(text, func(start, end int) {
		for _, t := range index[lower(text[start:end])] {
			votes[t]++
		}
	})
	best, bestN, secondN := Unknown, 0, 0
	for _, t := range slices.Sorted(maps.Keys(votes)) {
		switch v := votes[t]; {
		case v > bestN:
			best, bestN, secondN = t, v, bestN
		case v > secondN:
			secondN = v
		}
	}
	return best, bestN >= 2 && bestN > secondN
}

// stopIndex gives each stop word of every lexicon the languages it is one of.
var stopIndex = sync.OnceValue(func() map[string][]Tag {
	m := map[string][]Tag{}
	for _, t := range Tags() {
		for _, w := range For(t).Words(Stop) {
			w = lower(w)
			m[w] = append(m[w], t)
		}
	}
	return m
})

func lower(s string) string { return strings.ToLower(s) }
