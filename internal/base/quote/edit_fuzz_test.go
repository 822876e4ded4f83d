package quote

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// editRunes are what an edit adds or puts in place of a character when the
// fuzzer's own rune is not a letter, digit or mark: the marks of the issue
// and of the tests, letters that compose with them, and digits.
var editRunes = []rune{
	'\u0300', '\u0301', '\u0302', '\u0308', '\u0323', '\u0338', '\u064e', '\u064f', '\u0651',
	'\u093c', '\u094d', '\u0902', '\u093f', '\u0940', '\u09be', '\u09c7', '\u0981', '\u0e48', '\u0e49',
	'\u0e33', '\u1161', '\u11a8', '\ufe0f', '\U0001f3fd',
	'a', 'e', 'o', 'x', 'I', '\u0131', '\u00e9', '\u1ecd', 'ا', 'र', 'ক', 'ต', '中', '1', '٣',
}

// FuzzEdit: a quote that is a span of the saved text with one letter, digit
// or combining mark added, dropped or replaced is not found, unless the
// edit leaves words that stand in the text (the oracle mayStand, which
// forgives only what the package comment forgives). Either side may be in
// NFC or NFD.
func FuzzEdit(f *testing.F) {
	// seed adds the edit of runes [s, e) of text at rune at of the span.
	seed := func(text string, s, e, at int, op uint8, r rune) {
		f.Add(text, uint16(s), uint16(e-s-1), uint16(at), op, r)
	}
	seed("The value is x\u0338. Le cafe\u0301 est ouvert.", 0, 15, 14, 1, 0) // drop the U+0338
	seed("The value is x\u0338", 0, 15, 14, 1, 0)
	seed("Mo ra o\u0323ko\u0323\u0300", 0, 12, 11, 1, 0) // drop the last tone mark
	seed("Mo ra o\u0323ko\u0323\u0300", 0, 12, 11, 2, '\u0301')
	seed("Mo ra ọkọ̀ lana", 0, 15, 9, 1|4, 0)
	seed("ثم مَر\u0651\u064e بنا", 0, 8, 6, 1, 0)          // drop the shadda
	seed("ثم مَر\u0651\u064e بنا", 0, 8, 7, 2, '\u064f')   // fatha for damma
	seed("वे यहाँ नहीं हैं", 0, 12, 11, 1, 0)              // drop the anusvara on ī (Mc)
	seed("वह इन आदतों से बा\u095b आया", 0, 18, 17, 2, 'ज') // baaz for baaj
	seed("আমি \u0995\u09c7\u09be বলি", 0, 7, 6, 1, 0)
	seed("Tôi nói tiếng Việt", 0, 18, 16, 2|4|8, '\u0302')
	seed("ดื่มน้ำร้อน", 0, 7, 6, 1, 0)
	seed(tea, 10, 40, 5, 2, 'e')
	seed("The inter-\nnational committee met in 2024.", 4, 30, 3, 0, '1')
	seed("It costs 3.14 dollars.", 0, 13, 12, 1, 0)
	seed("the family 👨\u200d👩\u200d👧 came", 0, 16, 15, 0, '\U0001f3fd')
	f.Fuzz(func(t *testing.T, text string, start, length, at uint16, op uint8, r rune) {
		if !utf8.ValidString(text) || len(text) > 4000 {
			return
		}
		runes := []rune(text)
		if len(runes) == 0 {
			return
		}
		s := int(start) % len(runes)
		span := append([]rune{}, runes[s:s+1+int(length)%(len(runes)-s)]...)
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
			r = editRunes[int(uint32(r)%uint32(len(editRunes)))]
		}
		// op&3 is the edit: 0 add, 1 drop, 2 and 3 replace; op&4 puts the
		// quote in NFD, op&8 the text.
		var edited []rune
		switch op & 3 {
		case 0: // add
			k := int(at) % (len(span) + 1)
			edited = append(append(append(edited, span[:k]...), r), span[k:]...)
		default: // drop or replace the first letter, digit or mark from at on
			k := int(at) % len(span)
			for k < len(span) && !unicode.IsLetter(span[k]) && !unicode.IsDigit(span[k]) && !unicode.IsMark(span[k]) {
				k++
			}
			if k == len(span) {
				return
			}
			if op&3 == 1 {
				edited = append(append(edited, span[:k]...), span[k+1:]...)
			} else {
				edited = append(append(append(edited, span[:k]...), r), span[k+1:]...)
			}
		}
		q := string(edited)
		if op&4 != 0 {
			q = norm.NFD.String(q)
		}
		if op&8 != 0 {
			text = norm.NFD.String(text)
		}
		m, ok := NewText(text).Find(NewQuote(q))
		if ok && !mayStand(text, q) {
			t.Fatalf("quote %+q, the span %+q with one character edited, is found in %+q as %+q", q, string(span), text, m.Saved)
		}
	})
}

// mayStand is the test's oracle, simpler than the matcher and more lenient:
// whether the letters, digits and marks of q, in NFC, stand in text in the
// same order and grouping (all else counts as a gap between words), with
// the first letter in either case, starting and ending where a word may.
// What it compares on is what the package comment says may not differ.
func mayStand(text, q string) bool {
	t := oracleWords(text)
	w := oracleWords(q)
	if len(w) == 0 {
		return true
	}
	alt := append([]rune{}, w...)
	if unicode.IsLetter(alt[0]) {
		if l := unicode.ToLower(alt[0]); l != alt[0] {
			alt[0] = l
		} else {
			alt[0] = unicode.ToUpper(alt[0])
		}
	}
	for i := 0; i+len(w) <= len(t); i++ {
		for _, p := range [][]rune{w, alt} {
			if string(t[i:i+len(p)]) != string(p) {
				continue
			}
			e := i + len(p)
			left := i == 0 || t[i-1] == ' ' || (NoSpaceScript(t[i-1]) || NoSpaceScript(p[0])) && !unicode.IsMark(p[0])
			right := e == len(t) || t[e] == ' ' || (NoSpaceScript(t[e-1]) || NoSpaceScript(t[e])) && !unicode.IsMark(t[e]) && t[e] != '\u0e33'
			if left && right {
				return true
			}
		}
	}
	return false
}

// oracleWords is s in NFC with a word broken at a line end joined and the
// invisible break hints left out, as the package comment says, and then
// every run of characters that are not letters, digits or marks as one
// space, trimmed.
func oracleWords(s string) []rune {
	r := []rune(norm.NFC.String(s))
	var joined []rune
	for i := 0; i < len(r); i++ {
		if (r[i] == '-' || r[i] == '\u2010' || r[i] == '\u00ad') && i > 0 && unicode.IsLetter(r[i-1]) {
			j := i + 1
			for j < len(r) && unicode.Is(unicode.White_Space, r[j]) {
				j++
			}
			if j > i+1 && j < len(r) && unicode.IsLetter(r[j]) {
				i = j - 1
				continue
			}
		}
		joined = append(joined, r[i])
	}
	var out []rune
	gap := false
	for _, c := range joined {
		switch {
		case strings.ContainsRune("\u00ad\u200b\u2060\ufeff", c):
		case unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.IsMark(c):
			if gap && len(out) > 0 {
				out = append(out, ' ')
			}
			gap = false
			out = append(out, c)
		default:
			gap = true
		}
	}
	return out
}
