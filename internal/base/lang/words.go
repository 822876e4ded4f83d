package lang

import (
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/thai"
)

// Words returns the words of text, as written, in order: the one notion of
// a word that search, rank and the drafter share (see Scan).
func Words(text string) []string {
	var out []string
	Scan(text, func(start, end int) { out = append(out, text[start:end]) })
	return out
}

// Scan calls word with the span of each word of text, in order. A word is
// a run of letters with their marks (WordLetter: a Bengali or Devanagari
// vowel sign is inside its word), digits and "_", joined by the marks a
// word holds inside ("don't", "e.g", "3.14", "1,000"); as Unicode's word
// boundaries (UAX #29) and the index's tokenizer have it. In the scripts
// written without spaces, each Han character and each kana of hiragana is
// a word (the index pairs them into bigrams), a run of katakana is one, and
// Thai, Lao, Khmer and Myanmar are cut into the words of the installed Thai
// word list (internal/base/thai), what no word covers into characters.
func Scan(text string, word func(start, end int)) {
	Runs(text, func(start, end int) { scanRun(text, start, end, word) })
}

// Runs calls run with the span of each run of word characters of text, as
// Scan finds them before it cuts the runs of scripts written without
// spaces: a run of Han or Thai is one. The word scan of ranking
// (keywords.ScanWords) is this, and gives such a run to the index's
// analyzer, which pairs its characters as it pairs them in the index.
func Runs(text string, run func(start, end int)) {
	start := -1
	prev := rune(0)
	for i, r := range text {
		inWord := isWordRune(r)
		if !inWord && start >= 0 {
			// (not utf8.RuneLen(r): a byte of bad UTF-8 is one byte long,
			// though its utf8.RuneError is written in three)
			_, size := utf8.DecodeRuneInString(text[i:])
			next, _ := utf8.DecodeRuneInString(text[i+size:])
			switch r {
			case '\'', '’', '.':
				inWord = isAlnum(prev) && isAlnum(next)
			case ':':
				inWord = WordLetter(prev) && WordLetter(next)
			case ',', ';':
				inWord = unicode.IsDigit(prev) && unicode.IsDigit(next)
			}
		}
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			run(start, i)
			start = -1
		}
		prev = r
	}
	if start >= 0 {
		run(start, len(text))
	}
}

// scanRun gives the words of text[start:end], a run of word characters:
// itself, unless it holds characters of a script written without spaces.
func scanRun(text string, start, end int, word func(start, end int)) {
	from := start // the start of the part not yet given
	for i := start; i < end; {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		kind := spaceless(r)
		if kind == spaced {
			i += size
			continue
		}
		if from < i {
			word(from, i)
		}
		j := i + size
		for j < end {
			r2, s2 := utf8.DecodeRuneInString(text[j:])
			if k := spaceless(r2); k != kind && !(kind == southEastAsian && unicode.IsMark(r2)) && !(k == spaced && unicode.IsMark(r2)) {
				break
			}
			j += s2
		}
		switch kind {
		case katakana:
			word(i, j)
		case southEastAsian:
			run := []byte(text[i:j])
			for _, p := range thai.Words(run) {
				if p.Known {
					word(i+p.Start, i+p.End)
					continue
				}
				for a := p.Start; a < p.End; {
					b := thai.NextCluster(run, a)
					word(i+a, i+b)
					a = b
				}
			}
		default: // one word a character, with its marks
			for a := i; a < j; {
				_, s := utf8.DecodeRuneInString(text[a:])
				b := a + s
				for b < j {
					m, s2 := utf8.DecodeRuneInString(text[b:])
					if !unicode.IsMark(m) {
						break
					}
					b += s2
				}
				word(a, b)
				a = b
			}
		}
		from, i = j, j
	}
	if from < end {
		word(from, end)
	}
}

// The kinds of script a word character is of, by how its words are cut.
const (
	spaced         = iota // words between spaces
	ideographic           // Han, hiragana, full-width forms: one word a character
	katakana              // a run is a word
	southEastAsian        // Thai, Lao, Khmer, Myanmar: by a word list
)

func spaceless(r rune) int {
	switch {
	case r < 0x0E01:
		return spaced
	case thai.Letter(r):
		return southEastAsian
	case unicode.Is(unicode.Katakana, r) || r == 'ー':
		return katakana
	case unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r):
		return ideographic
	}
	return spaced
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
	}
	return WordLetter(r) || unicode.IsDigit(r)
}

func isAlnum(r rune) bool { return WordLetter(r) || unicode.IsDigit(r) }

// WordLetter reports whether r is a letter of a word, in any script: a
// letter, or a mark written with one (Unicode's M: nonspacing, as an
// accent or a Thai vowel; spacing, as the vowel signs of Bengali,
// Devanagari and Telugu; enclosing), or a zero-width joiner or non-joiner,
// which Indic conjuncts and Persian words hold inside a word ("র‍্যাব",
// "می‌خواهم").
func WordLetter(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || r == zwnj || r == zwj
}

// The joiners: written between two letters, never alone.
const (
	zwnj = '\u200c'
	zwj  = '\u200d'
)
