package index

import (
	"unicode"
	"unicode/utf8"
)

// ScanWords calls word with each word of text, found as the index's
// tokenizer finds them (Unicode word boundaries) but with a plain scan, many
// times faster than the analyzer: letters, digits, marks and "_", joined by
// word-internal punctuation ("john's", "e.g", "3.5", "1,000"). Ranking
// counts words this way, and puts through the analyzer (Terms) only the
// words it needs.
func ScanWords(text string, word func(w string)) {
	start := -1
	prev := rune(0)
	for i, r := range text {
		inWord := isWordRune(r)
		if !inWord && start >= 0 {
			next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			alnum := func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }
			switch r {
			case '\'', '’', '.':
				inWord = alnum(prev) && alnum(next)
			case ':':
				inWord = unicode.IsLetter(prev) && unicode.IsLetter(next)
			case ',', ';':
				inWord = unicode.IsDigit(prev) && unicode.IsDigit(next)
			}
		}
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			word(text[start:i])
			start = -1
		}
		prev = r
	}
	if start >= 0 {
		word(text[start:])
	}
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '_'
}
