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
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/internal/base/thai"
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

// Split returns the sentences of text in order. The abbreviations it
// reads past are those of the text's language (lang.Detect: its lexicon's
// lang.Abbreviations and lang.BeforeNumber lists, and the neutral ones of
// every language), and it does not end a sentence inside a quotation.
func Split(text string) []Span {
	var out []Span
	sp := splitter{text: text}
	start := 0
	emit := func(end int) {
		for _, s := range cutLong(text, trim(text, start, end)) {
			if hasWord(text[s.Start:s.End]) {
				out = append(out, s)
			}
		}
		start = end
		sp.quotes = sp.quotes[:0]
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
			if sp.thaiBreak(start, i) {
				emit(i)
				i = j
				continue
			}
		case r == ' ' && sp.thaiBreak(start, i):
			emit(i)
			i += size
			continue
		case r == '>' && strings.HasPrefix(text[i:], ">>") && atLineOrSpaceStart(text, i):
			// ">>" marks a new speaker in transcripts.
			if i > start {
				emit(i)
			}
			i += 2
			start = i
			continue
		case isTerminal(r):
			end, ok := sp.boundary(i, r, size)
			if ok {
				emit(end)
				i = end
				continue
			}
		case isQuote(r):
			sp.quote(i, r)
		}
		i += size
	}
	if start < len(text) {
		emit(len(text))
	}
	return out
}

// splitter is the state of one Split: the text, its lexicon (read when a
// full stop first needs it), and the quotations open at this point.
type splitter struct {
	text   string
	lx     *lang.Lexicon
	quotes []quoteMark
}

// detectBytes is how much of a text's start tells its language.
const detectBytes = 400

// lexicon returns the lexicon of the text's language.
func (sp *splitter) lexicon() *lang.Lexicon {
	if sp.lx == nil {
		// The start of a paragraph tells its language.
		head := sp.text
		if len(head) > detectBytes {
			head = head[:detectBytes]
			for len(head) > 0 && !utf8.RuneStart(sp.text[len(head)]) {
				head = head[:len(head)-1]
			}
		}
		sp.lx = lang.For(lang.Detect(head))
	}
	return sp.lx
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
func (sp *splitter) boundary(i int, r rune, size int) (int, bool) {
	text := sp.text
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
	closed := len(sp.quotes) // the quotations still open after the closers
	for j < len(text) {
		r2, s2 := utf8.DecodeRuneInString(text[j:])
		if !isCloser(r2) {
			break
		}
		if closed > 0 && sp.quotes[closed-1].closes(r2) {
			closed--
		}
		j += s2
	}
	if closed > 0 && sp.quoteOpen(i) {
		// "He said “Stop. Wait for me.” and left": a quotation's
		// sentences are the sentence that quotes them.
		return 0, false
	}
	if wide {
		// "…です。次の文" ends here, but not "３．５" nor "v1．2", nor a
		// quotation the sentence goes on after: "「待って。」と言った。"
		r2, _ := utf8.DecodeRuneInString(text[j:])
		switch {
		case r == '．' && j < len(text) && unicode.IsDigit(r2):
			return 0, false
		case closed < len(sp.quotes) && j < len(text) && lang.WordLetter(r2):
			return 0, false
		}
		return j, true
	}
	if r == '.' && thaiBefore(text, i) {
		// Thai ends no sentence with a full stop: "พ.ศ. 2561" is an era.
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
		if !sp.endsSentence(i, next) {
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

// WithoutCitations blanks the numeric citations of text, as an
// encyclopedia marks its sources ("… из Скандинавии[1].", "… ছিলেন।[9]",
// "… a Muslim family.[6][7]", "[3, 4]"): a citation numbers a source, it is
// no number or year the text gives. A bracket whose number has four digits
// or more ("[1998]") is left: it may be a year. The text keeps its length.
func WithoutCitations(text string) string {
	if !strings.Contains(text, "[") {
		return text
	}
	b := []byte(text)
	for j := 0; j < len(b); j++ {
		if b[j] != '[' {
			continue
		}
		end, ok := citation(text, j)
		if !ok || longNumber(text[j:end]) {
			continue
		}
		for k := j; k < end; k++ {
			b[k] = ' '
		}
		j = end - 1
	}
	return string(b)
}

// longNumber reports whether s holds a run of four digits or more.
func longNumber(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			run++
			if run >= 4 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
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
func (sp *splitter) endsSentence(i int, next string) bool {
	text := sp.text
	word := wordBefore(text, i)
	if startsLower(next) {
		// "approx. five", "Fig. 2a shows", "et al. found": a full stop
		// followed by a lower-case word does not end a sentence.
		return false
	}
	if word == "" {
		return true
	}
	if !anyAbbreviation()[strings.ToLower(pieceBefore(text, i))] && !isOrdinal(word) {
		// no language's abbreviation ends so: the text's language (which
		// costs a look at its words) does not matter
		return sp.initialEnds(i, word, next)
	}
	lx := sp.lexicon()
	switch {
	case abbreviation(lx, lang.Abbreviations, text, i):
		return false
	case abbreviation(lx, lang.BeforeNumber, text, i):
		if startsDigit(next) || isRoman(next) {
			return false
		}
		return true
	case isOrdinal(word) && lx.Has(lang.Traits, "ordinals-with-full-stop"):
		// "am 3. Oktober", "im 19. Jahrhundert"; a year ends one
		// ("fiel 1989. Danach").
		return false
	}
	return sp.initialEnds(i, word, next)
}

// initialEnds decides a full stop after a word that is no abbreviation of
// the text's language.
func (sp *splitter) initialEnds(i int, word, next string) bool {
	text := sp.text
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
	// that never end one were caught by the lexicon's lists.
	return true
}

// abbreviation reports whether the full stop at text[i] is one of an
// abbreviation of the named list: its last ("Dr. Smith", "z. B. Sencha") or
// one inside it ("z. B.", "т. е.", "p. ex."), the abbreviation standing as
// a word of its own, in any case.
func abbreviation(lx *lang.Lexicon, list, text string, i int) bool {
	for _, d := range dotsOf(lx, list)[strings.ToLower(pieceBefore(text, i))] {
		head, tail := d.entry[:d.k+1], d.entry[d.k+1:]
		s, e := i+1-len(head), i+1+len(tail)
		if s < 0 || e > len(text) || !strings.EqualFold(text[s:i+1], head) || !strings.EqualFold(text[i+1:e], tail) {
			continue
		}
		if s > 0 {
			if r, _ := utf8.DecodeLastRuneInString(text[:s]); lang.WordLetter(r) || unicode.IsDigit(r) || r == '.' {
				continue // the end of a longer word: "Dr." in "CDr."
			}
		}
		return true
	}
	return false
}

// pieceBefore returns the letters right before text[i], back to a space or
// a full stop: "B" of "z. B.", "g" of "e.g.".
func pieceBefore(text string, i int) string {
	s := i
	for s > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:s])
		if r == '.' || unicode.IsSpace(r) || !lang.WordLetter(r) && r != '-' {
			break
		}
		s -= size
	}
	return text[s:i]
}

// anyAbbreviation holds the pieces before a full stop (pieceBefore,
// lower-cased) of every abbreviation of every lexicon.
var anyAbbreviation = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, t := range append(lang.Tags(), lang.Unknown) {
		for _, list := range []string{lang.Abbreviations, lang.BeforeNumber} {
			for p := range dotsOf(lang.For(t), list) {
				m[p] = true
			}
		}
	}
	return m
})

// dot is a full stop of an abbreviation: the entry, and where in it.
type dot struct {
	entry string
	k     int
}

var (
	dotsMu sync.Mutex
	dots   map[*lang.Lexicon]map[string]map[string][]dot
)

// dotsOf returns the full stops of a list's abbreviations by the piece
// before each (pieceBefore, lower-cased), made once a lexicon and list.
func dotsOf(lx *lang.Lexicon, list string) map[string][]dot {
	dotsMu.Lock()
	defer dotsMu.Unlock()
	if dots == nil {
		dots = map[*lang.Lexicon]map[string]map[string][]dot{}
	}
	if dots[lx] == nil {
		dots[lx] = map[string]map[string][]dot{}
	}
	m, ok := dots[lx][list]
	if ok {
		return m
	}
	m = map[string][]dot{}
	for _, a := range lx.Words(list) {
		for k := 0; k < len(a); k++ {
			if a[k] == '.' {
				p := strings.ToLower(pieceBefore(a, k))
				m[p] = append(m[p], dot{a, k})
			}
		}
	}
	dots[lx][list] = m
	return m
}

// isOrdinal reports whether a word is a number an ordinal's full stop may
// follow: one to three digits.
func isOrdinal(word string) bool {
	if len(word) > 3 {
		return false
	}
	for _, c := range []byte(word) {
		if c < '0' || c > '9' {
			return false
		}
	}
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

// quoteMark is a quotation open in the sentence: where it opened, and the
// marks that close it.
type quoteMark struct {
	at     int
	closer string
}

func (q quoteMark) closes(r rune) bool { return strings.ContainsRune(q.closer, r) }

// quoteOpeners are the marks that open a quotation, each with those that
// close it: English “…”, German „…“, French and Russian «…», Chinese and
// Japanese 「…」 and 『…』, and straight quotes.
var quoteOpeners = []quoteMark{
	{'“', "”"}, {'„', "“”"}, {'«', "»"}, {'「', "」"}, {'『', "』"}, {'‹', "›"}, {'"', `"`},
}

func isQuote(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '"'
	}
	switch r {
	case '“', '”', '„', '«', '»', '「', '」', '『', '』', '‹', '›':
		return true
	}
	return false
}

// maxQuote is how far, in bytes, a quotation may run and still hold its
// sentences together: a quote mark left open by mistake (or by a cut in a
// PDF's text) must not keep the rest of a long paragraph one sentence.
const maxQuote = 600

// quote notes the quote mark r at text[i]: it closes the quotation open
// last if it can, else opens one (a straight quote only at a word's start).
func (sp *splitter) quote(i int, r rune) {
	if n := len(sp.quotes); n > 0 && sp.quotes[n-1].closes(r) {
		sp.quotes = sp.quotes[:n-1]
		return
	}
	if r == '"' && !atWordStart(sp.text, i) {
		return
	}
	for _, q := range quoteOpeners {
		if q.at == int(r) {
			sp.quotes = append(sp.quotes, quoteMark{at: i, closer: q.closer})
			return
		}
	}
}

// quoteOpen reports whether a quotation open at text[i] opened near enough
// to count (maxQuote).
func (sp *splitter) quoteOpen(i int) bool {
	n := len(sp.quotes)
	return n > 0 && i-sp.quotes[n-1].at <= maxQuote
}

func atWordStart(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsSpace(r) || strings.ContainsRune("([{", r)
}

// minThai is the fewest characters a Thai sentence has before a space may
// end it: Thai sets off clauses with spaces too ("นอกจากนั้น ชา…",
// "moreover, tea …"), and a clause quoted alone loses what it says. On the
// tuning half of ../shared/bench/multilingual's th-iapp (92 questions),
// gold answers in a quote of at most 300 characters: 0.674 at 30, 0.739 at
// 60, 0.804 at 100, 0.848 at 120, 0.902 at 150, 0.924 at 200, 0.902 at 250;
// 0.783 before Thai was split at spaces (a paragraph cut only at MaxLen).
const minThai = 200

// thaiBreak reports whether the white space at text[i] ends a sentence of
// Thai (or Lao), which marks no sentence's end but a space between two
// sentences: one after a Thai letter (or a quotation or a citation closing
// after one), before a Thai letter, in a sentence of minThai characters or
// more, unless an abbreviation starts the next word ("มกราคม พ.ศ. 2561":
// January of the Buddhist era 2561).
func (sp *splitter) thaiBreak(start, i int) bool {
	text := sp.text
	if i == 0 || i+1 >= len(text) || text[i-1] < utf8.RuneSelf && text[i-1] != '"' && text[i-1] != ')' && text[i-1] != ']' {
		return false // most text: no Thai before
	}
	before := strings.TrimRight(text[start:i], "\"”)]0123456789[")
	if strings.HasSuffix(text[start:i], "]") {
		before = strings.TrimRight(strings.TrimRight(text[start:i], "]0123456789["), "\"”)")
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	if !thaiOrLao(r) {
		return false
	}
	if r, _ := utf8.DecodeLastRuneInString(text[start:i]); unicode.IsDigit(r) {
		return false // "วันที่ 31 มกราคม": a number goes with its words
	}
	k := skipSpace(text, i)
	next, _ := utf8.DecodeRuneInString(text[k:])
	if !thaiOrLao(next) || utf8.RuneCountInString(before) < minThai {
		return false
	}
	lx := lang.For("th")
	for _, a := range lx.Words(lang.Abbreviations) {
		if strings.HasPrefix(text[k:], a) {
			return false
		}
	}
	return true
}

func thaiOrLao(r rune) bool { return r >= 0x0E01 && r <= 0x0ECE && thai.Letter(r) }

// thaiBefore reports whether a Thai (or Lao) letter stands right before
// text[i].
func thaiBefore(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return thaiOrLao(r)
}
