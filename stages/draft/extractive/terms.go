package extractive

import (
	"maps"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/internal/library/index/keywords"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
	"golang.org/x/text/unicode/norm"
)

// terms returns the content words of s, lower-cased and stemmed, in order.
// Words are runs of letters with their marks and digits; hyphens and slashes split words
// ("IL-2" gives "il" and "2") because texts write the same thing both ways.
// A run in a script written without spaces gives the index's terms.
func terms(s string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := strings.ToLower(s[start:end])
		start = -1
		if keywords.Spaceless(w) {
			// Chinese, Japanese, Thai: no spaces mark the words, so the
			// run is cut as the index cuts it (pairs of characters, Thai
			// dictionary words), and a question meets its sentence here
			// as it met its paragraph in search and rank.
			out = append(out, keywords.Terms(w)...)
			return
		}
		if stopWords[w] {
			return
		}
		w = foldLatin(w)
		// Korean (Hangul): the word without the particles glued to it,
		// as the index has it ("초월주의는" and "초월주의의" are
		// "초월주"), so that BM25 and a sentence's coverage meet the
		// question's word in the sentence's form.
		w = lang.BareHangul(w)
		w = lang.BareGlued(w)
		if len(w) == 1 && !isDigits(w) {
			return
		}
		if base, ok := ageNouns[strings.TrimSuffix(w, "s")]; ok {
			w = base
		}
		if base, ok := irregularPast[w]; ok {
			w = base
		}
		if !isDigits(w) {
			if len(w) == 5 && strings.HasSuffix(w, "ying") {
				w = w[:1] + "ie" // "dying": Porter gives "dy"
			}
			w = porterstemmer.StemString(w)
			if len(w) == 3 && strings.HasSuffix(w, "ie") {
				// Porter gives "di" for "died" and "dies", but keeps
				// "die": "When did he die?" must meet "he died".
				w = w[:2]
			}
		}
		out = append(out, w)
	}
	for i, r := range s {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if r == '\'' || r == '’' {
			// "don't", "Alzheimer's": keep the word, drop the ending.
			flush(i)
			continue
		}
		flush(i)
	}
	flush(len(s))
	return out
}

// foldLatin drops the accents of a word in Latin letters ("Möngke" is
// "mongke", "Temür" "temur"): names are written both ways, and a question
// typed on a plain keyboard must meet its sentence. A Cyrillic word loses
// its stress marks (lang.FoldStress), an Arabic word its harakat and its
// letters' other forms (lang.FoldArabic). Other scripts keep their marks (a Thai or
// Devanagari mark is part of the letter).
func foldLatin(w string) string {
	plain := true
	for _, r := range w {
		if r >= utf8.RuneSelf {
			plain = false
			if !unicode.Is(unicode.Latin, r) && !unicode.Is(unicode.Mn, r) {
				return lang.FoldArabic(lang.FoldStress(w))
			}
		}
	}
	if plain {
		return w
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(w) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isDigits(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// stopWords are the words that say nothing about the topic of a question
// or a sentence: the list ranking uses, and the adverbs that hedge a
// question ("typically", "commonly"), which its answer seldom repeats.
var stopWords = func() map[string]bool {
	m := maps.Clone(keywords.StopWords)
	for _, w := range hedges {
		m[w] = true
	}
	return m
}()

// hedges are adverbs that soften a question without naming its topic.
// "Often" is not one: "How often …?" asks for a frequency.
var hedges = enWords("hedges")

// ageNouns are the index's nouns made from a verb with "-age", each with
// its verb (keywords.AgeNouns): the drafter's own words (terms) meet them as
// the index's terms do.
var ageNouns = keywords.AgeNouns

// splitWords cuts text into its words: runs of letters with their marks,
// digits and apostrophes ("don't" is one word).
func splitWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) && r != '\'' })
}
