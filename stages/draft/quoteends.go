package draft

import (
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/quote"
)

// aheadBytes is how much text after a quote's end makes sure it can still
// end somewhere: a few dozen words hold more places to end than there are
// quotes given already (the only ones it may not repeat).
const aheadBytes = 200

// canEndAhead reports whether a quote that has written so far, and stands
// at offset at of text, in a part of it that ends at end, can still end
// further on: at a word boundary where ok (sponge-verify would find it, and
// it is not a quote given already) holds. A quote that cannot is a dead
// end: it must end now, or never be started.
func canEndAhead(text string, at, end int, written string, ok func(string) bool) bool {
	if end-at >= aheadBytes {
		return true
	}
	for e := at + 1; e <= end; e++ {
		if e < end && !wordBoundary(text, e) {
			continue
		}
		if ok(written + text[at:e]) {
			return true
		}
	}
	return false
}

// wordBoundary reports whether a quote may end at offset i of text: between
// characters, and not inside a word (in a script written without spaces,
// between any two characters).
func wordBoundary(text string, i int) bool {
	if i <= 0 || i >= len(text) || !utf8.RuneStart(text[i]) {
		return i == len(text)
	}
	before, _ := utf8.DecodeLastRuneInString(text[:i])
	after, _ := utf8.DecodeRuneInString(text[i:])
	inWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) }
	return !inWord(before) || !inWord(after) || quote.NoSpaceScript(before) || quote.NoSpaceScript(after)
}
