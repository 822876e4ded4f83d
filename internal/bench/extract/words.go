package main

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

var fold = strings.NewReplacer("‐", "-", "‑", "-", "−", "-", "–", "-", "’", "'", "‘", "'", "`", "'", "´", "'", "“", `"`, "”", `"`, "\u00a0", " ")

// words are a text's words as compared: lower case, with the marks at
// either end left out ("gzip(1)." is "gzip(1"), hyphens, minus signs and
// quotes of every kind the same. A dot leader ("....") is no word.
func words(s string) []string {
	var out []string
	for _, w := range strings.Fields(fold.Replace(s)) {
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
	var prev []string
	for _, q := range d.Paras {
		var path []string
		if q.H != "" {
			path = strings.Split(q.H, " › ")
		}
		for i, h := range path {
			if i >= len(prev) || prev[i] != h {
				got = append(got, words(h)...)
			}
		}
		prev = path
		got = append(got, words(q.T)...)
	}
	return got
}

// docText is a document's text as docWords reads it, a line a paragraph.
func docText(d *doc) string {
	var b strings.Builder
	var prev []string
	for _, q := range d.Paras {
		var path []string
		if q.H != "" {
			path = strings.Split(q.H, " › ")
		}
		for i, h := range path {
			if i >= len(prev) || prev[i] != h {
				b.WriteString(h + "\n")
			}
		}
		prev = path
		b.WriteString(q.T + "\n")
	}
	return b.String()
}

// pageWords are a PDF's words by the page sponge gives them (Page, and
// Pages where a paragraph runs on to another page), each heading where it
// changes on the page of the paragraph under it.
func pageWords(d *doc) map[int][]string {
	out := map[int][]string{}
	var prev []string
	for _, q := range d.Paras {
		page, text := q.P, q.T
		var path []string
		if q.H != "" {
			path = strings.Split(q.H, " › ")
		}
		for i, h := range path {
			if i >= len(prev) || prev[i] != h {
				out[page] = append(out[page], words(h)...)
			}
		}
		prev = path
		at := 0 // code points of q.T before text
		for _, s := range q.Ps {
			cut := byteOffset(text, s.Offset-at)
			out[page] = append(out[page], words(text[:cut])...)
			text, at, page = text[cut:], s.Offset, s.Page
		}
		out[page] = append(out[page], words(text)...)
	}
	return out
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
	ids := map[string]int32{}
	id := func(s []string) []int32 {
		out := make([]int32, len(s))
		for i, w := range s {
			v, ok := ids[w]
			if !ok {
				v = int32(len(ids))
				ids[w] = v
			}
			out[i] = v
		}
		return out
	}
	x, y := id(a), id(b)
	prev := make([]int32, len(y)+1)
	cur := make([]int32, len(y)+1)
	for i := range x {
		for j := range y {
			switch {
			case x[i] == y[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return pre + suf + int(prev[len(y)])
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
