package draft

import (
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
//
// It is the quote check's own rule (quote.MayEnd), so that a place to end
// found here is one sponge-verify accepts.
func wordBoundary(text string, i int) bool {
	if i == len(text) {
		return true
	}
	return quote.MayEnd(text, i)
}
