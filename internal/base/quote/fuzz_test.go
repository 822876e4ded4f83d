package quote

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// FuzzFind: any text and quote, never a panic; a match gives offsets that
// hold its saved words, and those words are the quote's under the matching
// rule; a text always holds itself, in NFC and in NFD.
func FuzzFind(f *testing.F) {
	f.Add(tea, "so the leaves do not turn bitter")
	f.Add("The inter-\nnational  tea — day… “x”", "international tea-day... \"x\"")
	f.Add("a\u00ad\nb c\u200bd", "ab c\u200bd")
	f.Add("cafe\u0301 \xff\xfe tea", "Café \xff")
	f.Add("Mo ra o\u0323ko\u0323\u0300. The value is x\u0338", "Mo ra \u1ecdk\u1ecd")
	f.Add("And then… the tea", "And then..")
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
			if !Same(m.Saved, q) {
				t.Fatalf("quote %+q found as %+q, which are other words", q, m.Saved)
			}
		}
		for _, self := range []string{text, norm.NFC.String(text), norm.NFD.String(text)} {
			if q := NewQuote(self); !q.Empty() {
				if _, ok := NewText(text).Find(q); !ok {
					t.Fatalf("%+q does not hold %+q", text, self)
				}
			}
		}
	})
}
