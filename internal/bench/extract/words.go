package main

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fold makes the forms two readers may write of one word the same: dashes,
// quotes, the no-break space, and the Latin ligatures (pdftotext keeps a
// font's ﬁ glyph as U+FB01 where sponge's reader writes f and i).
var fold = strings.NewReplacer("ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl", "ﬅ", "st", "ﬆ", "st", "‐", "-", "‑", "-", "−", "-", "–", "-", "’", "'", "‘", "'", "`", "'", "´", "'", "“", `"`, "”", `"`, "\u00a0", " ")

// words are a text's words as compared: lower case, with the marks at
// either end left out ("gzip(1)." is "gzip(1"), hyphens, minus signs and
// quotes of every kind the same, and composed (NFC: pdftotext writes "ế"
// as ê and a combining acute, one reader may write it as one letter).
// A dot leader ("....") is no word.
func words(s string) []string {
	var out []string
	for _, w := range strings.Fields(fold.Replace(norm.NFC.String(s))) {
		w = strings.TrimFunc(strings.ToLower(w), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// docWords are a document's words as sponge saved them: each heading of a
// paragraph's heading path where it changes, then the paragraph's text;
// withTitle puts the document's title first.
func docWords(d *doc, withTitle bool) []string {
	var got []string
	if withTitle {
		got = words(d.Title)
	}
	eachLine(d, func(s string) { got = append(got, words(s)...) })
	return got
}

// docText is a document's text as docWords reads it, a line a paragraph.
func docText(d *doc) string {
	var b strings.Builder
	eachLine(d, func(s string) { b.WriteString(s + "\n") })
	return b.String()
}

// eachLine calls line with each heading of a paragraph's heading path where
// it changes, then with the paragraph's text, in order.
func eachLine(d *doc, line func(string)) {
	var prev []string
	for _, q := range d.Paras {
		var path []string
		if q.H != "" {
			path = strings.Split(q.H, " › ")
		}
		for i, h := range path {
			if i >= len(prev) || prev[i] != h {
				line(h)
			}
		}
		prev = path
		line(q.T)
	}
}

// pageWords are a PDF's words by the page sponge gives them (Page, and
// Pages where a paragraph runs on to another page), each heading where it
// changes on its own page (HeadingPage: a heading at a page's foot) or
// else on the page of the paragraph under it; angle brackets end words
// (pdfWords), and TeX's logos are read whole as in pdftotext's pages
// (texLogos).
func pageWords(d *doc) map[int][]string {
	out := map[int][]string{}
	for page, text := range pageTexts(d) {
		out[page] = pdfWords(texLogos(text))
	}
	return out
}

// pageTexts are a PDF's texts by page as pageWords reads them, a line a
// heading or a paragraph's part; the document's title opens the first
// page, where pdftotext reads it: sponge saves it as the item's title
// (shown, searched), in no paragraph, and "The amsbsy package" counted
// as lost made page 1 of 58 PDFs of the tuning half fall under 0.99.
func pageTexts(d *doc) map[int]string {
	out := map[int]*strings.Builder{}
	add := func(page int, s string) {
		if out[page] == nil {
			out[page] = &strings.Builder{}
		}
		out[page].WriteString(s)
		out[page].WriteByte('\n')
	}
	if d.Title != "" {
		add(1, d.Title)
	}
	var prev []string
	for _, q := range d.Paras {
		page, text := q.P, q.T
		var path []string
		if q.H != "" {
			path = strings.Split(q.H, " › ")
		}
		hp := page
		if q.HP > 0 {
			hp = q.HP
		}
		for i, h := range path {
			if i >= len(prev) || prev[i] != h {
				add(hp, h)
			}
		}
		prev = path
		at := 0 // code points of q.T before text
		for _, s := range q.Ps {
			cut := byteOffset(text, s.Offset-at)
			add(page, text[:cut])
			text, at, page = text[cut:], s.Offset, s.Page
		}
		add(page, text)
	}
	texts := map[int]string{}
	for page, b := range out {
		texts[page] = b.String()
	}
	return texts
}

// byteOffset is the byte offset of the n-th code point of s.
func byteOffset(s string, n int) int {
	if n <= 0 {
		return 0
	}
	i := 0
	for n > 0 && i < len(s) {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n--
	}
	return i
}

// lcs is the length of the longest common subsequence of a and b: the
// words of a that b keeps in order.
func lcs(a, b []string) int {
	// common ends first: most texts are nearly the same
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	a, b = a[pre:], b[pre:]
	suf := 0
	for suf < len(a) && suf < len(b) && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	a, b = a[:len(a)-suf], b[:len(b)-suf]
	if len(a) == 0 || len(b) == 0 {
		return pre + suf
	}
	return pre + suf + lcsBits(a, b)
}

// lcsBits is the length of the longest common subsequence of a and b,
// 64 cells of the table at a time (the bit-vector algorithm of Allison
// and Dix, as Hyyrö writes it): for each word of b, V' = (V + (V & M)) |
// (V &^ M), where M marks the places of that word in a; the LCS is the
// number of zero bits of V. Pages of 30,000 words take milliseconds.
func lcsBits(a, b []string) int {
	n := len(a)
	blocks := (n + 63) / 64
	at := map[string][]uint64{} // word → its places in a
	for i, w := range a {
		m := at[w]
		if m == nil {
			m = make([]uint64, blocks)
			at[w] = m
		}
		m[i/64] |= 1 << (i % 64)
	}
	v := make([]uint64, blocks)
	for i := range v {
		v[i] = ^uint64(0)
	}
	for _, w := range b {
		m := at[w]
		if m == nil {
			continue // V' = V
		}
		var carry uint64
		for i := range v {
			u := v[i] & m[i]
			sum, c := bits.Add64(v[i], u, carry)
			carry = c
			v[i] = sum | (v[i] &^ m[i])
		}
	}
	ones := 0
	for i, x := range v {
		if i == blocks-1 && n%64 != 0 {
			x &= 1<<(n%64) - 1
		}
		ones += bits.OnesCount64(x)
	}
	return n - ones
}

// lcsTable is lcs by the whole table, row by row: what lcsBits is tested against.
func lcsTable(a, b []string) int {
	prev := make([]int32, len(b)+1)
	cur := make([]int32, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return int(prev[len(b)])
}

// common is how many of a's words b holds, in any order (each word of b
// counted once): for pages, whose reading order two good readers may
// give differently (margin notes, table columns, page numbers).
func common(a, b []string) int {
	have := map[string]int{}
	for _, w := range b {
		have[w]++
	}
	n := 0
	for _, w := range a {
		if have[w] > 0 {
			have[w]--
			n++
		}
	}
	return n
}
