package quote

import (
	"testing"
	"unicode/utf8"
)

// FuzzFind: any text and quote, never a panic; a match gives offsets that
// hold its saved words; a text always holds itself.
func FuzzFind(f *testing.F) {
	f.Add(tea, "so the leaves do not turn bitter")
	f.Add("The inter-\nnational  tea — day… “x”", "international tea-day... \"x\"")
	f.Add("a\u00ad\nb c\u200bd", "ab c\u200bd")
	f.Add("cafe\u0301 \xff\xfe tea", "Café \xff")
	f.Fuzz(func(t *testing.T, text, q string) {
		m, ok := NewText(text).Find(NewQuote(q))
		if ok {
			if !utf8.ValidString(text) {
				return // offsets count the bytes of a broken sequence as one character each
			}
			r := []rune(text)
			if m.Start < 0 || m.End > len(r) || m.Start >= m.End || string(r[m.Start:m.End]) != m.Saved {
				t.Fatalf("match [%d,%d) %q does not hold its saved words in %q", m.Start, m.End, m.Saved, text)
			}
		}
		if self := NewQuote(text); !self.Empty() {
			if _, ok := NewText(text).Find(self); !ok {
				t.Fatalf("%q does not hold itself", text)
			}
		}
	})
}
