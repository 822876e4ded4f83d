package quote

import (
	"strings"
	"testing"
)

// BenchmarkPathological times inputs built to make a careless search slow:
// every one must stay linear in the size of the text.
func BenchmarkPathological(b *testing.B) {
	for _, c := range []struct{ name, text, quote string }{
		{"repeated-word", strings.Repeat("a ", 500000), "a a a b"},
		{"every-place-matches", strings.Repeat("tea is hot ", 100000), "tea is hot"},
		{"dashes", strings.Repeat("-", 1000000), "a - b"},
		{"combining-marks", "a" + strings.Repeat("\u0301", 1000000), "a\u0301\u0301 b c"},
		{"soft-hyphens", strings.Repeat("a\u00ad", 500000), "a\u00ada b"},
		{"rejected-starts", strings.Repeat("xa b ", 200000), "a b xa"},
		{"hyphen-spaces", strings.Repeat("a-   ", 200000), "a a"},
		{"hidden-pattern", strings.Repeat("a \u200bb ", 200000), "a \u200bb \u200bc"},
		// Every place matches but for a mark after it: rejected at the edge.
		{"mark-after-each", strings.Repeat("tea is x\u0338 ", 100000), "tea is x"},
		{"mark-after-each-nfd", strings.Repeat("cafe\u0301 is x\u0338 ", 100000), "is x"},
		{"ellipsis-split", strings.Repeat("then… ", 200000), "then.."},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			q := NewQuote(c.quote)
			for b.Loop() {
				NewText(c.text).FindAll(q)
			}
		})
	}
}
