// Package sentences splits the text of a paragraph into sentences, as byte
// spans of the text itself, so that a sentence can be quoted verbatim.
//
// It is built for the text sponge saves: prose with abbreviations ("e.g.",
// "Dr.", "Fig. 3", "et al."), decimals, citations ("[12]", "(Smith et al.,
// 2020)"), list items, transcripts whose cues carry little punctuation, and
// PDF text whose lines break in the middle of sentences.
package sentences

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is one sentence: the bytes text[Start:End]. A span never starts or
// ends with white space.
type Span struct {
	Start, End int
}

// MaxLen is the longest sentence, in bytes, that Split returns. Text with no
// sentence end for longer than this (a transcript without punctuation, a
// table flattened into a line) is cut at the softest break near the middle:
// a semicolon, a colon, a comma, else a space.
const MaxLen = 1000

// Split returns the sentences of text in order.
func Split(text string) []Span {
	var out []Span
	start := 0
	emit := func(end int) {
		for _, s := range cutLong(text, trim(text, start, end)) {
			if hasWord(text[s.Start:s.End]) {
				out = append(out, s)
			}
		}
		start = end
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\n':
			// A blank line always ends a sentence; a single line break ends
			// one only when the next line is a list item (a PDF breaks its
			// lines anywhere).
			j := i + 1
			for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r') {
				j++
			}
			if j < len(text) && text[j] == '\n' {
				emit(j)
				i = j
				continue
			}
			if k, ok := listMarker(text, j); ok {
				emit(j)
				i = k
				continue
			}
			// A line that ends in a colon introduces what the next
			// lines hold (a command, a listing, a table): it ends there.
			if prev := strings.TrimRight(text[start:i], " \t\r"); strings.HasSuffix(prev, ":") || strings.HasSuffix(prev, "：") {
				emit(i)
				i = j
				continue
			}
		case r == '>' && strings.HasPrefix(text[i:], ">>") && atLineOrSpaceStart(text, i):
			// ">>" marks a new speaker in transcripts.
			if i > start {
				emit(i)
			}
			i += 2
			start = i
			continue
		case isTerminal(r):
			end, ok := boundary(text, i, r, size)
			if ok {
				emit(end)
				i = end
				continue
			}
		}
		i += size
	}
	if start < len(text) {
		emit(len(text))
	}
	return out
}

// Sentences returns the sentences of text as strings.
func Sentences(text string) []string {
	spans := Split(text)
	if len(spans) == 0 {
		return nil
	}
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = text[s.Start:s.End]
	}
	return out
}

// Ends reports whether text ends a sentence: its last mark, after any
// closing quotes and brackets, is a full stop, a question or an
// exclamation mark of any script Split knows ("It is.", "Это так.",
// "这是。", "এটা।", "هل هذا؟"). A heading, a table's cell or a clause cut
// at a comma does not. Thai, which writes no sentence end, never does.
func Ends(text string) bool {
	text = strings.TrimRightFunc(text, unicode.IsSpace)
	// A citation after the full stop belongs to the sentence: "… in
	// 1965.[1]", "… a Muslim family.[6][7]".
	for strings.HasSuffix(text, "]") {
		i := strings.LastIndexByte(text, '[')
		if i < 0 {
			break
		}
		if _, ok := citation(text, i); !ok {
			break
		}
		text = strings.TrimRightFunc(text[:i], unicode.IsSpace)
	}
	for text != "" {
		r, size := utf8.DecodeLastRuneInString(text)
		if isTerminal(r) {
			return true
		}
		if !isCloser(r) {
			return false
		}
		text = text[:len(text)-size]
	}
	return false
}

func isTerminal(r rune) bool {
	switch r {
	case '.', '!', '?', '…', '‼', '⁇', '⁈', '⁉':
		return true
	case '।', '॥': // the danda of Devanagari, Bengali and other Indic scripts
		return true
	case '؟', '۔': // Arabic's question mark (also Persian's, Urdu's), the Urdu full stop
		return true
	case '։', '።', '፧', '။': // Armenian's full stop, Ethiopic's full stop and question mark, Myanmar's
		return true
	}
	return isWideTerminal(r)
}

// isWideTerminal reports whether r is a sentence end of Chinese and Japanese
// (ideographic and full-width marks), which no space follows: the next
// sentence starts right after it.
func isWideTerminal(r rune) bool {
	switch r {
	case '。', '｡', '！', '？', '．', '︒', '﹒', '﹗', '﹖':
		return true
	}
	return false
}

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', '”', '’', '»', ')', ']', '}', '›', '*', '_',
		'」', '』', '）', '】', '〕', '》', '〉', '〗', '〙', '＂', '＇', '］', '｝', '｣':
		return true
	}
	return false
}

// boundary decides whether the terminal mark r at text[i:i+size] ends a
// sentence, and if so returns where the sentence ends: after any further
// marks ("?!", "..."), closing quotes and brackets, and a citation that
// follows the full stop (".[12]", ". [3, 4]").
func boundary(text string, i int, r rune, size int) (int, bool) {
	j := i + size
	// Runs of marks: "...", "?!", "!!".
	for j < len(text) {
		r2, s2 := utf8.DecodeRuneInString(text[j:])
		if !isTerminal(r2) {
			break
		}
		j += s2
	}
	ellipsis := r == '…' || strings.HasPrefix(text[i:j], "..")
	wide := strings.IndexFunc(text[i:j], isWideTerminal) >= 0
	for j < len(text) {
		r2, s2 := utf8.DecodeRuneInString(text[j:])
		if !isCloser(r2) {
			break
		}
		j += s2
	}
	if wide {
		// "…です。次の文" ends here, but not "３．５" nor "v1．2".
		r2, _ := utf8.DecodeRuneInString(text[j:])
		if r != '．' || j >= len(text) || !unicode.IsDigit(r2) {
			return j, true
		}
		return 0, false
	}
	// A full stop glued to what follows is not an end: 3.5, e.g., U.S., a.m.,
	// www.example.com, "end.The" (rare, and safer kept whole).
	if j < len(text) {
		r2, _ := utf8.DecodeRuneInString(text[j:])
		if r2 == '[' {
			if k, ok := citation(text, j); ok {
				j = k
			} else {
				return 0, false
			}
		} else if !unicode.IsSpace(r2) {
			return 0, false
		}
	}
	end := j
	// A bracketed citation after the full stop and a space belongs to the
	// sentence it follows: "as shown before. [12] Next".
	k := skipSpace(text, j)
	if k < len(text) && text[k] == '[' {
		if c, ok := citation(text, k); ok {
			end = c
			k = skipSpace(text, c)
		}
	}
	if k >= len(text) {
		return len(text), true
	}
	next := nextWord(text, k)
	if r == '.' && !ellipsis {
		if !endsSentence(text, i, next) {
			return 0, false
		}
		return end, true
	}
	if ellipsis || r == '?' || r == '!' {
		// "wait... what" or "a?b" style: a lower-case word goes on.
		if startsLower(next) {
			return 0, false
		}
	}
	return end, true
}

// citation reports whether text[j:] starts with a numeric citation such as
// "[12]", "[3, 4]" or "[5–7]", and returns where it ends.
func citation(text string, j int) (int, bool) {
	k := j + 1
	digits := false
	for k < len(text) {
		c := text[k]
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == ',' || c == ' ' || c == '-' || c == ';':
		case strings.HasPrefix(text[k:], "–"):
			k += len("–") - 1
		case c == ']':
			if !digits {
				return 0, false
			}
			return k + 1, true
		default:
			return 0, false
		}
		k++
		if k-j > 40 {
			return 0, false
		}
	}
	return 0, false
}

func skipSpace(text string, j int) int {
	for j < len(text) {
		r, s := utf8.DecodeRuneInString(text[j:])
		if !unicode.IsSpace(r) {
			break
		}
		j += s
	}
	return j
}

// nextWord returns the word starting at text[k:], with any opening quote or
// bracket kept in front.
func nextWord(text string, k int) string {
	e := k
	for e < len(text) {
		r, s := utf8.DecodeRuneInString(text[e:])
		if unicode.IsSpace(r) {
			break
		}
		e += s
	}
	return text[k:e]
}

// startsLower reports whether a word begins, after opening punctuation, with
// a lower-case letter and has no capital or digit after it (so "mRNA",
// "eNOS" and "p53", which start sentences in science, do not count).
func startsLower(w string) bool {
	w = strings.TrimLeft(w, "\"'“‘«([{")
	r, s := utf8.DecodeRuneInString(w)
	if !unicode.IsLower(r) {
		return false
	}
	for _, c := range w[s:] {
		if unicode.IsUpper(c) || unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

func startsUpper(w string) bool {
	w = strings.TrimLeft(w, "\"'“‘«([{")
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

func startsDigit(w string) bool {
	w = strings.TrimLeft(w, "([")
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsDigit(r)
}

// endsSentence decides a full stop at text[i] followed by white space and
// the word next.
func endsSentence(text string, i int, next string) bool {
	word := wordBefore(text, i)
	lw := strings.ToLower(word)
	if startsLower(next) {
		// "approx. five", "Fig. 2a shows", "et al. found": a full stop
		// followed by a lower-case word does not end a sentence.
		return false
	}
	if word == "" {
		return true
	}
	switch {
	case neverEnds[lw]:
		return false
	case beforeNumber[lw]:
		if startsDigit(next) || isRoman(next) {
			return false
		}
		return true
	}
	// A single capital letter is an initial ("J. Smith", "A. B. Jones")
	// unless it ends a sentence ("vitamin C. The"): call it an initial when
	// the word before it is capitalised, or another initial follows.
	if utf8.RuneCountInString(word) == 1 {
		r, _ := utf8.DecodeRuneInString(word)
		if unicode.IsUpper(r) && startsUpper(next) {
			prev := wordBefore(text, i-len(word)-1)
			if prev == "" || startsUpper(prev) || isInitial(next) {
				return false
			}
		}
		return true
	}
	// Dotted abbreviations: "U.S.", "Ph.D.", "a.m." end a sentence only when
	// a capitalised word follows (checked above for lower-case), and those
	// that never end one were caught by neverEnds.
	return true
}

// wordBefore returns the word that ends at text[:i] (the full stop at i not
// included), without opening brackets or quotes.
func wordBefore(text string, i int) string {
	if i <= 0 || i > len(text) {
		return ""
	}
	s := i
	for s > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:s])
		if unicode.IsSpace(r) || r == '(' || r == '[' || r == '"' || r == '“' || r == '\'' || r == '‘' {
			break
		}
		s -= size
	}
	return text[s:i]
}

// isInitial reports whether w is a capital letter and a full stop: "R.".
func isInitial(w string) bool {
	r, s := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && w[s:] == "."
}

func isRoman(w string) bool {
	w = strings.TrimRight(w, ",;:.)")
	if w == "" || len(w) > 6 {
		return false
	}
	for _, c := range w {
		if !strings.ContainsRune("IVXivx", c) {
			return false
		}
	}
	return true
}

// neverEnds are abbreviations after which a sentence never ends in practice.
// Keys are lower case, without the final full stop.
var neverEnds = setOf(
	"e.g", "i.e", "cf", "viz", "vs", "al", "approx", "ca", "resp", "incl", "esp",
	"dr", "mr", "mrs", "ms", "prof", "st", "mt", "sr", "jr", "gen", "col", "lt", "capt", "sgt", "gov", "sen", "rep", "rev", "hon", "messrs", "mme", "mlle",
	"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
	"e.g.", "i.e.", "w.r.t", "a.k.a", "et", "ft",
)

// beforeNumber are abbreviations that stand before a number or a roman
// numeral ("Fig. 3", "No. 5", "p. 12", "Eq. (2)", "Vol. II"); elsewhere they
// may end a sentence ("said no. Then").
var beforeNumber = setOf(
	"fig", "figs", "eq", "eqs", "ref", "refs", "no", "nos", "vol", "vols", "p", "pp", "sec", "ch", "chap",
	"tab", "art", "para", "pt", "ex", "op", "n", "nr", "ed", "suppl", "table",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// listMarker reports whether a list item starts at text[j:]: a bullet ("-",
// "*", "•") or an enumerator ("1.", "2)", "(a)", "a)") followed by a space.
// It returns where the item's text starts.
func listMarker(text string, j int) (int, bool) {
	if j >= len(text) {
		return 0, false
	}
	r, s := utf8.DecodeRuneInString(text[j:])
	switch r {
	case '-', '*', '•', '·', '‣', '–', '—', '▪', '◦':
		if j+s < len(text) && text[j+s] == ' ' {
			return j + s + 1, true
		}
		return 0, false
	}
	k := j
	paren := false
	if text[k] == '(' {
		paren = true
		k++
	}
	n := 0
	for k < len(text) && n < 3 && (isASCIIDigit(text[k]) || (n == 0 && isASCIILetter(text[k]))) {
		letter := isASCIILetter(text[k])
		k++
		n++
		if letter {
			break
		}
	}
	if n == 0 || k >= len(text) {
		return 0, false
	}
	switch {
	case text[k] == ')':
		k++
	case text[k] == '.' && !paren:
		k++
	default:
		return 0, false
	}
	if k < len(text) && text[k] == ' ' {
		return k + 1, true
	}
	return 0, false
}

func isASCIIDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isASCIILetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

func atLineOrSpaceStart(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsSpace(r)
}

// trim shrinks [start,end) to drop white space and a leading list marker.
func trim(text string, start, end int) Span {
	for start < end {
		r, s := utf8.DecodeRuneInString(text[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		start += s
	}
	if k, ok := listMarker(text[:end], start); ok && (start == 0 || text[start-1] == '\n') {
		start = k
	}
	for end > start {
		r, s := utf8.DecodeLastRuneInString(text[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= s
	}
	return Span{start, end}
}

// hasWord reports whether s has a letter or digit outside square brackets,
// so that stray marks and sound cues such as "[Music]" are not sentences.
func hasWord(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		default:
			if depth == 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return true
			}
		}
	}
	return false
}

// cutLong cuts a span longer than MaxLen at the softest break near its middle.
func cutLong(text string, sp Span) []Span {
	if sp.End-sp.Start <= MaxLen {
		return []Span{sp}
	}
	s := text[sp.Start:sp.End]
	mid := len(s) / 2
	best, bestCost := -1, 1<<30
	for i := 1; i < len(s)-1; i++ {
		if s[i] != ' ' {
			continue
		}
		cost := 4
		switch s[i-1] {
		case ';':
			cost = 0
		case ':':
			cost = 1
		case ',':
			cost = 2
		}
		if strings.HasPrefix(s[i+1:], "and ") || strings.HasPrefix(s[i+1:], "but ") || strings.HasPrefix(s[i+1:], "so ") {
			cost = min(cost, 3)
		}
		// Prefer soft breaks, then nearness to the middle.
		d := i - mid
		if d < 0 {
			d = -d
		}
		c := cost*len(s)/8 + d
		if c < bestCost {
			best, bestCost = i, c
		}
	}
	if best < 0 {
		return []Span{sp}
	}
	left := trim(text, sp.Start, sp.Start+best)
	right := trim(text, sp.Start+best+1, sp.End)
	return append(cutLong(text, left), cutLong(text, right)...)
}
