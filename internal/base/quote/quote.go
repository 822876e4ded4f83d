// Package quote decides whether a quote is the saved words of an item, and
// where in the item it stands.
//
// # What counts as the same words
//
// A quote matches a saved text when the two are equal after forgiving only the
// differences below, and no others. Each is one of how the same words are
// typed or laid out, not a change of wording; and what a match gives back as
// the saved words (Match.Saved) is always the saved text itself, byte for
// byte, never the quote.
//
//   - Whitespace: any run of spaces, tabs and line breaks (and other Unicode
//     white space, such as no-break spaces) equals one space; whitespace at the
//     ends of the quote is ignored. Whitespace present on one side and absent
//     on the other is a difference ("green tea" is not "greentea"), except
//     next to a dash (below) and inside a line-end hyphenation.
//   - A word broken by a line-end hyphen: a hyphen (-, U+2010 ‐ or a soft
//     hyphen) written straight after a letter and followed by whitespace and a
//     letter joins the two parts, so "inter- national" and "inter-\nnational"
//     both equal "international". This works both ways: the PDF extractor
//     rejoins such words, but a model or a person may quote the broken form,
//     and an item saved from other text may still hold it. A hyphen with no
//     whitespace after it is a real hyphen: "inter-national" is not
//     "international", and "well-known" is not "wellknown". A suspended
//     hyphen ("pre- and post-war") looks the same as a broken word and is
//     read as one: the quote must hold it whole, so no quote starts at
//     "and", and only a hyphen, not another dash, is the same there.
//   - Dashes: - ‐ ‑ ‒ – — ― − ﹘ ﹣ － ⸺ ⸻ are one dash, a run of them
//     written together ("--") is one dash, and whitespace beside a dash does
//     not count, so "tea — cooler", "tea—cooler" and "tea -- cooler" are the
//     same. Dashes apart stay apart: "2 - -3" is not "2-3".
//   - Quotation marks and apostrophes: ‘ ’ ‚ ‛ equal ', and “ ” „ ‟ equal ".
//   - The ellipsis … equals three full stops "...", whole: "then.." is not
//     "then…".
//   - Unicode normal forms: both sides are compared in NFC, so text in NFD
//     equals the same text in NFC ("é" typed as e + U+0301 equals the
//     precomposed "é"), and marks typed in another order that Unicode
//     defines as the same (a dot below and a circumflex, in either order)
//     are the same. Normalising never drops a mark: x + U+0338 is "not x",
//     not x. Compatibility forms are not folded: "ﬁ" is not "fi", "²" is
//     not "2".
//   - The case of the quote's first letter, since a quote taken from the middle
//     of a sentence is often written with a capital. The saved words passed
//     on keep the saved text's case.
//   - Invisible line-break hints in the saved text (soft hyphen U+00AD, zero
//     width space U+200B, word joiner U+2060, U+FEFF) that the quote leaves
//     out. The reverse is not forgiven: a quote that carries one of them where
//     the saved text has none does not match.
//   - A byte that is not UTF-8 reads as U+FFFD, the replacement character, as
//     it does once JSON carries the quote.
//
// Everything else is a difference: a changed, added, dropped or reordered word
// or letter or digit; a combining mark added, dropped or changed (an accent, a
// tone mark, a vowel sign, an Arabic haraka, U+0338); other punctuation; a
// look-alike letter from another script (Cyrillic а is not Latin a); zero
// width joiners and non-joiners (they change how letters join in some
// scripts, so they are compared like letters); variation selectors; a quote
// stitched from two places. A quote must lie inside one paragraph: Doc
// searches each paragraph on its own.
//
// A quote must also start and end on word boundaries: "ea is ste" is in
// "tea is steeped" letter for letter, but those are not the saved words, so it
// does not match. A boundary needs a non-letter, non-digit character on one
// side; an apostrophe, a hyphen, ZWJ or ZWNJ between letters ("don't",
// "well-known") and a point or comma between digits ("3.14") are inside a
// word, so a quote neither starts nor ends on one ("well-" is not in
// "well-known"). A word the saved text breaks at a line end or with a hint
// is one word: "national" is not a word of "inter-\nnational". Scripts
// written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar)
// have no such boundaries to check. In every script a quote starts and ends
// on whole characters: never between a letter and a mark, joiner, variation
// selector or skin tone that belongs to it ("ọkọ" is not in "ọkọ̀", "น้ำร"
// is not in "น้ำร้อน").
//
// The match is done on a canonical form of both texts that keeps, for each
// canonical byte, the range of the original text it came from; finding a
// quote is then a plain substring search, fast enough for items of megabytes.
package quote

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/thai"
	"golang.org/x/text/unicode/norm"
)

// MinWords is the fewest words a quote needs to support a statement. One or
// two words ("green tea", "eighty degrees") are found in many places and in
// many senses, so finding them proves nothing about the statement; three words
// are the shortest phrase that carries a claim of its own ("tea is bitter").
const MinWords = 3

// Text is a saved text (one paragraph) prepared for finding quotes in it.
type Text struct {
	orig  string
	canon string
	// from and to give, for each byte of canon, the byte range of orig it
	// stands for.
	from, to []int32
	// hidden are the invisible characters left out of canon, in order.
	hidden []hiddenRune
}

// hiddenRune is an invisible character dropped from the canonical form: at
// is the canonical byte offset it stood before.
type hiddenRune struct {
	at int
	r  rune
}

// Quote is a quote prepared for searching.
type Quote struct {
	canon  string
	alt    string // canon with the case of its first letter changed, or ""
	hidden []hiddenRune
	words  int
}

// Match is where a quote stands in a text, in characters (Unicode code
// points) of the original text, End exclusive.
type Match struct {
	Start, End int
	// Saved is the original text of the match: the saved words.
	Saved string
}

// NewText prepares s for Find.
func NewText(s string) *Text {
	t := &Text{orig: s}
	var b canonBuilder
	b.build(s, true)
	t.canon = b.out.String()
	t.from, t.to, t.hidden = b.from, b.to, b.hidden
	return t
}

// String returns the original text.
func (t *Text) String() string { return t.orig }

// NewQuote prepares q for searching.
func NewQuote(q string) *Quote {
	var b canonBuilder
	b.build(q, false)
	c := b.out.String()
	p := &Quote{canon: c, hidden: b.hidden, words: countWords(c)}
	if r, n := utf8.DecodeRuneInString(c); unicode.IsLetter(r) {
		o := unicode.ToLower(r)
		if o == r {
			o = unicode.ToUpper(r)
		}
		if o != r {
			p.alt = string(o) + c[n:]
		}
	}
	return p
}

// Empty reports whether the quote has nothing visible to look for.
func (q *Quote) Empty() bool { return q.canon == "" }

// Words is the number of words in the quote; see MinWords.
func (q *Quote) Words() int { return q.words }

// Normal returns the canonical form of the quote with its first letter in
// lower case: two quotes with the same Normal are the same words.
func (q *Quote) Normal() string {
	r, n := utf8.DecodeRuneInString(q.canon)
	if unicode.IsLetter(r) {
		return string(unicode.ToLower(r)) + q.canon[n:]
	}
	return q.canon
}

// Normal returns the canonical form of s (see the package comment), as used
// for comparing: two strings with the same Normal are the same words.
func Normal(s string) string { return NewQuote(s).Normal() }

// Same reports whether a and b are the same words under the matching rule.
func Same(a, b string) bool { return Normal(a) == Normal(b) }

// Find returns the first place where q stands in t, on word boundaries.
func (t *Text) Find(q *Quote) (Match, bool) {
	var m Match
	found := false
	t.each(q, func(mm Match) bool {
		m, found = mm, true
		return false
	})
	return m, found
}

// FindAll returns every place where q stands in t, in order.
func (t *Text) FindAll(q *Quote) []Match {
	var ms []Match
	t.each(q, func(m Match) bool {
		ms = append(ms, m)
		return true
	})
	return ms
}

// each calls f with each match of q in t, in text order, until f returns false.
func (t *Text) each(q *Quote, f func(Match) bool) {
	if q.canon == "" {
		return
	}
	next := func(pat string, from int) int {
		if pat == "" {
			return -1
		}
		for i := from; i <= len(t.canon)-len(pat); {
			j := strings.Index(t.canon[i:], pat)
			if j < 0 {
				return -1
			}
			at := i + j
			if t.accept(q, at, at+len(pat)) {
				return at
			}
			_, n := utf8.DecodeRuneInString(t.canon[at:])
			i = at + n
		}
		return -1
	}
	// Merge the matches of the quote as written and with its first letter's
	// case changed, so they come out in text order, and count characters
	// from the last match on, so many matches cost one pass.
	var cur cursor
	a, b := next(q.canon, 0), next(q.alt, 0)
	for a >= 0 || b >= 0 {
		var at, n int
		if b < 0 || (a >= 0 && a <= b) {
			at, n = a, len(q.canon)
			a = next(q.canon, at+1)
		} else {
			at, n = b, len(q.alt)
			b = next(q.alt, at+1)
		}
		if !f(t.match(at, at+n, &cur)) {
			return
		}
	}
}

// cursor is a byte offset in the original text and its character offset.
type cursor struct{ byteOff, runeOff int }

// match turns a canonical range into a Match on the original text; matches
// come in text order, so cur only moves forward.
func (t *Text) match(i, j int, cur *cursor) Match {
	bs, be := int(t.from[i]), int(t.to[j-1])
	if bs < cur.byteOff {
		*cur = cursor{}
	}
	cur.runeOff += utf8.RuneCountInString(t.orig[cur.byteOff:bs])
	cur.byteOff = bs
	start := cur.runeOff
	return Match{Start: start, End: start + utf8.RuneCountInString(t.orig[bs:be]), Saved: t.orig[bs:be]}
}

// accept reports whether the canonical range [i, j) is a match: whole
// characters with their marks, on word boundaries, and with no invisible
// character in the quote that the saved text lacks.
func (t *Text) accept(q *Quote, i, j int) bool {
	if !t.canonEdges(i, j) {
		return false
	}
	bs, be := int(t.from[i]), int(t.to[j-1])
	if !startsWord(t.orig, bs) || !endsWord(t.orig, be) {
		return false
	}
	if len(q.hidden) == 0 {
		return true
	}
	// Each invisible character of the quote must stand at the same place in
	// the saved text.
	k := sort.Search(len(t.hidden), func(k int) bool { return t.hidden[k].at >= i })
	for _, h := range q.hidden {
		at := i + h.at
		for k < len(t.hidden) && (t.hidden[k].at < at || (t.hidden[k].at == at && t.hidden[k].r != h.r)) {
			k++
		}
		if k == len(t.hidden) || t.hidden[k].at != at || t.hidden[k].r != h.r {
			return false
		}
		k++
	}
	return true
}

// canonEdges checks the edges of the canonical range [i, j): what one saved
// character became ("…" as "...", a letter and the marks normalising
// reordered) is not split, no edge leaves a mark or joiner from the letter
// it belongs to, and none falls inside a word the canonical form joined (a
// word broken at a line end or by a soft hyphen). The original text cannot
// tell these: there a mark may share its letter's byte range.
func (t *Text) canonEdges(i, j int) bool {
	if i > 0 {
		if t.from[i] == t.from[i-1] {
			return false
		}
		prev, _ := utf8.DecodeLastRuneInString(t.canon[:i])
		first, _ := utf8.DecodeRuneInString(t.canon[i:])
		if extends(first) || prev == zwj || wordInside(prev, first) {
			return false
		}
	}
	if j < len(t.canon) {
		if t.from[j] == t.from[j-1] {
			return false
		}
		last, _ := utf8.DecodeLastRuneInString(t.canon[:j])
		next, _ := utf8.DecodeRuneInString(t.canon[j:])
		if extends(next) || last == zwj || wordInside(last, next) {
			return false
		}
	}
	return true
}

// wordInside reports whether a and b, side by side, are inside one word.
func wordInside(a, b rune) bool {
	return isWordRune(a) && isWordRune(b) && !NoSpaceScript(a) && !NoSpaceScript(b)
}

const zwj, zwnj = '\u200d', '\u200c'

// extends reports whether r belongs to the character before it, so that no
// quote may start or end just before it: a combining mark (U+0338 makes x
// "not x", a tone mark makes another word), a variation selector, ZWJ and
// ZWNJ, an emoji skin tone, Thai and Lao AM (Unicode's grapheme extenders
// and spacing marks).
func extends(r rune) bool {
	if r < '\u0300' {
		return false
	}
	return unicode.IsMark(r) || r == zwj || unicode.Is(unicode.Other_Grapheme_Extend, r) ||
		('\U0001f3fb' <= r && r <= '\U0001f3ff') || r == '\u0e33' || r == '\u0eb3'
}

// MayStart reports whether a quote of the text s may start at byte b: on a
// word's start, not on a hyphen, apostrophe or joiner inside a word, not on
// the point of "3.14", and not just before a mark that belongs to the
// character before. A writer that builds quotes a piece at a time (the
// model's constrained quotes) starts only where this holds, so that no
// quote it begins can never be found.
func MayStart(s string, b int) bool {
	if b < 0 || b >= len(s) || !utf8.RuneStart(s[b]) {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s[b:])
	return !extends(first) && startsWord(s, b)
}

// MayEnd reports whether a quote of the text s may end at byte e, by the
// same rules as MayStart.
func MayEnd(s string, e int) bool {
	if e <= 0 || e > len(s) || e < len(s) && !utf8.RuneStart(s[e]) {
		return false
	}
	if e < len(s) {
		if next, _ := utf8.DecodeRuneInString(s[e:]); extends(next) {
			return false
		}
	}
	return endsWord(s, e)
}

// startsWord reports whether a quote may start at byte b of s.
func startsWord(s string, b int) bool {
	first, fn := utf8.DecodeRuneInString(s[b:])
	prev, pb := lastVisible(s[:b])
	if prev < 0 {
		return true
	}
	if !isWordRune(first) {
		// "-known" of "well-known", "'t" of "don't": inside a word.
		after, _ := firstVisible(s[b+fn:])
		return !joins(prev, first, after)
	}
	if isWordRune(prev) {
		return NoSpaceScript(prev) || NoSpaceScript(first)
	}
	// An apostrophe or hyphen between letters, or a point between digits, is
	// inside a word.
	pp, _ := lastVisible(s[:pb])
	return !joins(pp, prev, first)
}

// endsWord reports whether a quote may end at byte e of s.
func endsWord(s string, e int) bool {
	last, ln := utf8.DecodeLastRuneInString(s[:e])
	next, nb := firstVisible(s[e:])
	if next < 0 {
		return true
	}
	if !isWordRune(last) {
		// "well-" of "well-known", "3." of "3.14": inside a word.
		before, _ := lastVisible(s[:e-ln])
		return !joins(before, last, next)
	}
	if isWordRune(next) {
		return NoSpaceScript(last) || NoSpaceScript(next)
	}
	nn, _ := firstVisible(s[e+nb:])
	return !joins(last, next, nn)
}

// joins reports whether mid, between a and b, is part of one word.
func joins(a, mid, b rune) bool {
	if a < 0 || b < 0 {
		return false
	}
	switch mid {
	case '\'', '’', 'ʼ', '-', '‐', '‑', zwj, zwnj:
		return isWordRune(a) && isWordRune(b)
	case '.', ',':
		return unicode.IsDigit(a) && unicode.IsDigit(b)
	}
	return false
}

// lastVisible returns the last rune of s that is not an invisible line-break
// hint, and the byte offset where it starts; -1 when there is none.
func lastVisible(s string) (rune, int) {
	for len(s) > 0 {
		r, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
		if !isHint(r) {
			return r, len(s)
		}
	}
	return -1, 0
}

// firstVisible returns the first rune of s that is not an invisible
// line-break hint, and the byte offset just after it; -1 when there is none.
func firstVisible(s string) (rune, int) {
	off := 0
	for off < len(s) {
		r, n := utf8.DecodeRuneInString(s[off:])
		off += n
		if !isHint(r) {
			return r, off
		}
	}
	return -1, off
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// NoSpaceScript reports whether r belongs to a script written without spaces
// between words, where a quote may start or end at any character. How many
// words such text holds is countWords' reckoning, not one a character.
func NoSpaceScript(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai,
		unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tibetan)
}

// countWords counts runs of letters and digits. Scripts written without
// spaces have no runs to count, so their words are reckoned: two characters
// of Han or kana make a word (the length of most Chinese and Japanese words,
// and the pairs the keyword index matches), so three words are five
// characters; Thai, Lao, Khmer and Myanmar are cut into words with the
// installed Thai dictionary (internal/base/thai), and three characters with
// their marks that no word covers make a word. Counting each character as a
// word would let a single Thai word (its letters and marks) or three Chinese
// characters pass as three words.
func countWords(s string) int {
	n := 0
	in := false
	han := 0 // characters in the current run of Han and kana
	endHan := func() {
		n += (han + 1) / 2
		han = 0
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if thai.Letter(r) {
			endHan()
			j := i
			for j < len(s) {
				r2, s2 := utf8.DecodeRuneInString(s[j:])
				if !thai.Letter(r2) && !unicode.IsMark(r2) {
					break
				}
				j += s2
			}
			n += thaiWords([]byte(s[i:j]))
			in = false
			i = j
			continue
		}
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
			han++
			in = false
			i += size
			continue
		}
		endHan()
		switch {
		case isWordRune(r):
			if !in {
				n++
			}
			in = true
		case r == '\'' || r == '’':
			// "don't" is one word
		default:
			in = false
		}
		i += size
	}
	endHan()
	return n
}

// thaiWords counts the words of a run of Thai (or Lao, Khmer, Myanmar).
func thaiWords(run []byte) int {
	n := 0
	for _, p := range thai.Words(run) {
		if p.Known {
			n++
			continue
		}
		clusters := 0
		for a := p.Start; a < p.End; a = thai.NextCluster(run, a) {
			clusters++
		}
		n += (clusters + 2) / 3
	}
	return n
}

// isSpace reports whether r is white space of any kind.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || ('\t' <= r && r <= '\r')
	}
	return unicode.Is(unicode.White_Space, r)
}

// isHint reports whether r is an invisible line-break hint.
func isHint(r rune) bool {
	switch r {
	case '\u00ad', '\u200b', '\u2060', '\ufeff':
		return true
	}
	return false
}

// isBreakHyphen reports whether r can end a line inside a broken word.
func isBreakHyphen(r rune) bool { return r == '-' || r == '\u2010' || r == '\u00ad' }

func isDash(r rune) bool {
	switch r {
	case '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212',
		'\ufe58', '\ufe63', '\uff0d', '\u2e3a', '\u2e3b':
		return true
	}
	return false
}

// canonBuilder makes the canonical form of a text with its map back.
type canonBuilder struct {
	out    strings.Builder
	from   []int32
	to     []int32
	hidden []hiddenRune
	saved  bool

	pending          bool // whitespace seen and not yet written
	pendFrom, pendTo int32
	last             rune // last rune written, or 0
}

// token is one NFC character of the input with the bytes it came from.
type token struct {
	r        rune
	from, to int32
}

func (b *canonBuilder) build(s string, saved bool) {
	b.saved = saved
	if saved {
		b.from = make([]int32, 0, len(s))
		b.to = make([]int32, 0, len(s))
	}
	b.out.Grow(len(s))
	toks := nfcTokens(s)
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case isSpace(t.r):
			if b.pending {
				b.pendTo = t.to
			} else {
				b.pending, b.pendFrom, b.pendTo = true, t.from, t.to
			}
			i++
			continue
		case isBreakHyphen(t.r) && i > 0 && unicode.IsLetter(toks[i-1].r):
			// A line-end hyphen: letter, hyphen, whitespace, letter.
			j := i + 1
			for j < len(toks) && isSpace(toks[j].r) {
				j++
			}
			if j > i+1 && j < len(toks) && unicode.IsLetter(toks[j].r) {
				i = j
				continue
			}
		}
		switch {
		case isHint(t.r):
			b.hidden = append(b.hidden, hiddenRune{at: b.out.Len(), r: t.r})
		case isDash(t.r):
			// A run of dashes ("--") is one dash; dashes apart stay two,
			// as in "2 - -3".
			if b.last == '-' && !b.pending {
				if b.saved {
					b.to[len(b.to)-1] = t.to
				}
			} else {
				b.put('-', t.from, t.to)
			}
		case t.r == '‘' || t.r == '’' || t.r == '‚' || t.r == '‛':
			b.put('\'', t.from, t.to)
		case t.r == '“' || t.r == '”' || t.r == '„' || t.r == '‟':
			b.put('"', t.from, t.to)
		case t.r == '…':
			b.put('.', t.from, t.to)
			b.put('.', t.from, t.to)
			b.put('.', t.from, t.to)
		default:
			b.put(t.r, t.from, t.to)
		}
		i++
	}
}

// put writes r, after the pending whitespace unless a dash is beside it or
// it would lead the text.
func (b *canonBuilder) put(r rune, from, to int32) {
	if b.pending && b.out.Len() > 0 && b.last != '-' && r != '-' {
		b.write(' ', b.pendFrom, b.pendTo)
	}
	b.pending = false
	b.write(r, from, to)
}

func (b *canonBuilder) write(r rune, from, to int32) {
	n, _ := b.out.WriteRune(r)
	if b.saved {
		for range n {
			b.from = append(b.from, from)
			b.to = append(b.to, to)
		}
	}
	b.last = r
}

// nfcTokens splits s into NFC characters, each with the byte range of s it
// came from. Where normalising changed a segment (a letter and its marks),
// every character of it has the whole segment's range, since marks may be
// reordered; canonEdges keeps a match from splitting such a segment.
func nfcTokens(s string) []token {
	toks := make([]token, 0, len(s))
	if norm.NFC.IsNormalString(s) {
		for i, r := range s {
			toks = append(toks, token{r: r, from: int32(i), to: int32(i + utf8.RuneLen(r))})
		}
		// A broken UTF-8 byte decodes as U+FFFD with RuneLen 3; keep the map
		// inside the real byte range.
		fixInvalid(s, toks)
		return toks
	}
	var it norm.Iter
	it.InitString(norm.NFC, s)
	for !it.Done() {
		from := int32(it.Pos())
		seg := it.Next()
		to := int32(it.Pos())
		for _, r := range string(seg) {
			toks = append(toks, token{r: r, from: from, to: to})
		}
	}
	return toks
}

func fixInvalid(s string, toks []token) {
	for i := range toks {
		if toks[i].r == utf8.RuneError {
			_, n := utf8.DecodeRuneInString(s[toks[i].from:])
			toks[i].to = toks[i].from + int32(n)
		}
	}
}
