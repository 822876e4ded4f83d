// Package lang is what sponge knows of the language a text is written in:
// which one it is (Detect), its words (Words), and its lexicon (For): the
// lists of words a rule of the drafter keys on (stop words, question words,
// abbreviations, …), kept as data files one per list (lexicons/<tag>/<list>.txt),
// and its stemmer. A text of a language sponge has no lexicon for gets the
// neutral lexicon, whose lists are empty unless lexicons/neutral holds them:
// a rule that needs a list is then off, by design.
package lang

import (
	"math/bits"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Tag is a language as the base of a BCP 47 tag: "en", "de", "zh", "bn".
// The empty tag is a language not known (or not told apart).
type Tag string

// Unknown is the tag of a text whose language is not known.
const Unknown Tag = ""

// Detect returns the language of text: by its script where a script is
// written in one language sponge tells apart (Han, kana, Hangul, Thai,
// Bengali, Telugu, Greek, …) or by letters only one language of a script
// writes (Arabic's, Persian's and Urdu's; Russian's and Ukrainian's);
// else by the lexicons' stop words the text holds. Text with too few
// letters to tell, or too few stop words, is Unknown.
func Detect(text string) Tag {
	s := countScripts(text)
	if s.letters < minLetters {
		return Unknown
	}
	if t, ok := s.byScript(); ok {
		return t
	}
	return byStopWords(text, false)
}

// DetectQuestion returns the language of a question: a short text, whose
// first word, most often a question word ("Wie", "Кто"), weighs twice.
func DetectQuestion(question string) Tag {
	s := countScripts(question)
	if s.letters < 2 {
		return Unknown
	}
	if t, ok := s.byScript(); ok {
		return t
	}
	return byStopWords(question, true)
}

// minLetters is the fewest letters Detect names a language from.
const minLetters = 3

// scripts counts the letters of a text by script.
type scripts struct {
	letters int
	counts  [len(scriptTables)]int // by the index in scriptTables
	main    *unicode.RangeTable    // the script with the most letters (weighed)
	special map[rune]bool          // the letters of specialLetters the text holds
}

// scriptTables are the scripts told apart, in the order a tie is broken.
var scriptTables = [...]*unicode.RangeTable{
	unicode.Latin, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Cyrillic,
	unicode.Arabic, unicode.Devanagari, unicode.Bengali, unicode.Telugu, unicode.Tamil, unicode.Kannada,
	unicode.Malayalam, unicode.Gujarati, unicode.Gurmukhi, unicode.Oriya, unicode.Sinhala, unicode.Thai,
	unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Greek, unicode.Hebrew, unicode.Armenian,
	unicode.Georgian, unicode.Ethiopic, unicode.Tibetan,
}

// The first scripts of scriptTables, by their index.
const (
	latinScript = iota
	hanScript
	hiraganaScript
	katakanaScript
)

// ofScript are the scripts written in one language (of those sponge knows):
// the script is the language.
// (A slice, not a map: the compiler lays it out, so no program pays for
// it at start.)
var ofScript = []struct {
	script *unicode.RangeTable
	tag    Tag
}{
	{unicode.Hangul, "ko"}, {unicode.Bengali, "bn"}, {unicode.Telugu, "te"}, {unicode.Tamil, "ta"},
	{unicode.Kannada, "kn"}, {unicode.Malayalam, "ml"}, {unicode.Gujarati, "gu"}, {unicode.Gurmukhi, "pa"},
	{unicode.Oriya, "or"}, {unicode.Sinhala, "si"}, {unicode.Thai, "th"}, {unicode.Lao, "lo"},
	{unicode.Khmer, "km"}, {unicode.Myanmar, "my"}, {unicode.Greek, "el"}, {unicode.Hebrew, "he"},
	{unicode.Armenian, "hy"}, {unicode.Georgian, "ka"}, {unicode.Ethiopic, "am"}, {unicode.Tibetan, "bo"},
}

// specialLetters are letters of Arabic and Cyrillic that only some of the
// languages written in them write (see byLetters).
const specialLetters = "ٹڈڑںےپچژگیکةыэёъіїєґўјљњћђџѓќѕ"

func countScripts(text string) scripts {
	var s scripts
	last := -1
	for _, r := range text {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				s.letters++
				s.counts[latinScript]++
			}
			continue
		}
		if !unicode.IsLetter(r) {
			continue
		}
		s.letters++
		if strings.ContainsRune(specialLetters, unicode.ToLower(r)) {
			if s.special == nil {
				s.special = map[rune]bool{}
			}
			s.special[unicode.ToLower(r)] = true
		}
		if last >= 0 && unicode.Is(scriptTables[last], r) {
			s.counts[last]++
			continue
		}
		for k, t := range scriptTables {
			if unicode.Is(t, r) {
				s.counts[k]++
				last = k
				break
			}
		}
	}
	// Han and kana are one script here, and a character of them weighs two
	// letters; Latin letters weigh half: names and terms in Latin letters
	// fill Japanese, Chinese and Russian text ("Sonic the Hedgehog 3",
	// "Eastern European Time - EET"), seldom the other way round.
	weight := func(k int) int {
		switch k {
		case latinScript:
			return s.counts[k]
		case hanScript, hiraganaScript, katakanaScript:
			return 4 * (s.counts[hanScript] + s.counts[hiraganaScript] + s.counts[katakanaScript])
		}
		return 2 * s.counts[k]
	}
	best := 0
	for k, t := range scriptTables {
		if n := weight(k); n > best {
			best, s.main = n, t
		}
	}
	return s
}

// byScript names the language of a text whose main script decides it.
// Han is Japanese when the text has kana (a Japanese sentence seldom has
// none), else Chinese.
func (s scripts) byScript() (Tag, bool) {
	kana := s.counts[hiraganaScript] + s.counts[katakanaScript]
	switch s.main {
	case unicode.Han, unicode.Hiragana, unicode.Katakana:
		if kana > 0 {
			return "ja", true
		}
		return "zh", true
	case nil:
		return Unknown, true
	case unicode.Arabic, unicode.Cyrillic:
		return s.byLetters()
	}
	for _, o := range ofScript {
		if o.script == s.main {
			return o.tag, true
		}
	}
	return Unknown, false
}

// byLetters names the language of Arabic or Cyrillic text by the letters
// only some of its languages write: Urdu's ٹ ڈ ڑ ں ے, Persian's پ چ ژ گ
// and its own ی and ک, else Arabic; Ukrainian's і ї є ґ, Belarusian's ў (or і with ы or э),
// Serbian's and Macedonian's ј љ њ ћ ђ џ ѓ ќ ѕ, and Russian's ы э ё (which
// Bulgarian does not write). Cyrillic with none of them is left to the
// stop words and trigrams (Russian or Bulgarian).
func (s scripts) byLetters() (Tag, bool) {
	has := func(letters string) bool {
		for _, r := range letters {
			if s.special[r] {
				return true
			}
		}
		return false
	}
	if s.main == unicode.Arabic {
		switch {
		case has("ٹڈڑںے"):
			return "ur", true
		case has("پچژگیک") && !has("ة"):
			return "fa", true
		}
		return "ar", true
	}
	switch {
	case has("ў"), has("і") && has("ыэ"):
		return "be", true
	case has("іїєґ"):
		return "uk", true
	case has("ѓќѕ"):
		return "mk", true
	case has("јљњћђџ"):
		return "sr", true
	case has("ыэё"):
		return "ru", true
	}
	return Unknown, false
}

// byStopWords names the language whose stop words a text holds, in a
// script written in several languages (Latin, Cyrillic, Devanagari): of the
// languages with at least two of its stop words in the text (in a question,
// whose first word is most often a question word, "Wie", "Кто", that word
// counts twice), the one whose words are most its own: a word that is a
// stop word of k languages gives each 1/k ("der" is German, Danish, Dutch
// and Norwegian; "wie" German, Dutch and Polish). A word with a letter of
// ownLetters counts as a stop word of its language. A tie goes to the
// language first in preferred. Unknown: no language has enough.
func byStopWords(text string, question bool) Tag {
	tags := stopTags()
	var hits [64]int
	var score [64]float64
	add := func(k, n int, w float64) {
		hits[k] += n
		score[k] += w
	}
	index := stopIndex()
	first := true
	Scan(text, func(start, end int) {
		n := 1
		if question && first {
			n = 2
		}
		first = false
		w := text[start:end]
		var buf [32]byte
		var set uint64
		if len(w) <= len(buf) && isASCII(w) {
			// lower-cased in place: a word with a capital costs no string
			b := buf[:len(w)]
			for i := range len(w) {
				c := w[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				b[i] = c
			}
			set = index[string(b)]
		} else {
			w = lower(w)
			set = index[w]
		}
		if set != 0 {
			k := float64(bits.OnesCount64(set))
			for ; set != 0; set &= set - 1 {
				add(bits.TrailingZeros64(set), n, float64(n)/k)
			}
		}
		if t := ownLetter(w); t != Unknown {
			if k := slices.Index(tags, t); k >= 0 {
				add(k, n, float64(n))
			}
		}
	})
	best := -1
	for _, k := range stopOrder() {
		if hits[k] >= 2 && (best < 0 || score[k] > score[best]) {
			best = k
		}
	}
	if best < 0 {
		return Unknown
	}
	return tags[best]
}

// stopOrder is the order of stopTags' indexes in which a tie goes to a
// language: by preferred, then by tag.
var stopOrder = sync.OnceValue(func() []int {
	tags := stopTags()
	order := make([]int, len(tags))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return byPreference(tags[a], tags[b]) })
	return order
})

// ownLetters are letters of the Latin script that one language of those
// with a lexicon writes and its neighbours do not.
var ownLetters = []struct {
	letters string
	tag     Tag
}{
	{"ãõ", "pt"}, {"ñ", "es"}, {"ß", "de"}, {"ığş", "tr"}, {"ł", "pl"}, {"řěů", "cs"}, {"őű", "hu"},
	{"țșă", "ro"},
}

// ownLetter returns the language whose own letter a word holds, or whose
// own ending: Bulgarian's article "-ът" ("чайникът"), which Russian does not
// write.
func ownLetter(w string) Tag {
	if isASCII(w) {
		return Unknown // most words: no letter of ownLetters
	}
	if strings.HasSuffix(w, "ът") {
		return "bg"
	}
	for _, o := range ownLetters {
		if strings.ContainsAny(w, o.letters) {
			return o.tag
		}
	}
	return Unknown
}

// preferred are languages in the order a tie of stop words goes to them:
// the languages most written first ("Как звали мать Аристотеля?" holds one
// stop word, of Russian and of Bulgarian).
var preferred = []Tag{"en", "es", "ru", "fr", "de", "pt", "it", "nl", "pl", "tr"}

// byPreference orders languages by preferred, then by tag.
func byPreference(a, b Tag) int {
	i, j := slices.Index(preferred, a), slices.Index(preferred, b)
	switch {
	case i == j:
		return strings.Compare(string(a), string(b))
	case i < 0:
		return 1
	case j < 0:
		return -1
	}
	return i - j
}

// stopIndex gives each stop word of every lexicon the languages it is one
// of, as a set of bits: bit i is stopTags()[i].
var stopIndex = sync.OnceValue(makeStopIndex)

// stopTags are the languages of stopIndex's bits: at most 64.
var stopTags = sync.OnceValue(func() []Tag {
	tags := Tags()
	return tags[:min(len(tags), 64)]
})

// It reads the stop lists alone, not whole lexicons: a question in Latin
// letters pays for these.
func makeStopIndex() map[string]uint64 {
	m := make(map[string]uint64, 6000)
	for i, t := range stopTags() {
		data, err := lexiconFiles.ReadFile(path.Join("lexicons", string(t), Stop+".txt"))
		if err != nil {
			continue // no stop words
		}
		for _, w := range parseList(string(data)) {
			m[lower(w)] |= 1 << i
		}
	}
	return m
}

func lower(s string) string { return strings.ToLower(s) }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
