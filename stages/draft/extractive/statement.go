package extractive

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
)

// MaxStatement is the longest statement, in characters. A longer sentence
// is cut into its clauses (see Clauses), and the clause that holds the
// answer is quoted: a person reads a statement at a glance.
const MaxStatement = 300

// minClauseWords is the fewest words of a clause cut from a long sentence
// that is quoted: a shorter one is a fragment ("on the remote side.").
const minClauseWords = 6

// wordCount is the number of words of text, as a quote counts them.
func wordCount(text string) int { return quote.NewQuote(text).Words() }

// IsStatement reports whether text can be quoted as a statement at all:
// it has quote.MinWords words or more and reads as prose, not as a code
// listing, a table of keys or options, or a page's navigation line
// ("Next: Tables, Previous: Lists, Up: Top [Contents][Index]"). Every
// extractive answer and summary asks this of each sentence.
func IsStatement(text string) bool {
	text = strings.TrimSpace(text)
	if quote.NewQuote(text).Words() < quote.MinWords {
		return false
	}
	// A manual's entry reads as prose after the options it documents, and
	// other options it names weigh nothing: "-z, --gzip, --gunzip, --ungzip
	// Filter the archive through gzip.", "-a, --archive same as -dR
	// --preserve=all".
	prose := text
	if opts, rest := keywords.LeadingOptions(text); len(opts) > 0 {
		var words []string
		for _, w := range strings.Fields(rest) {
			if !strings.HasPrefix(w, "-") {
				words = append(words, w)
			}
		}
		prose = strings.Join(words, " ")
	}
	return !isNavigation(text) && !isListing(text) && !isFlatCode(text) && keys(text) < maxKeys && proseShare(prose) >= minProse
}

// introduces reports whether a sentence ends in a colon: it introduces a
// list, a table or a listing that follows it.
func introduces(sentence string) bool {
	return strings.HasSuffix(strings.TrimSpace(sentence), ":")
}

// isFlatCode reports whether text is code that lost its lines (a listing
// of an HTML page whose <pre> became one line, or a declaration in a
// reference page): it opens with a shell prompt ("$ tar -xf …"), or it
// holds maxCodeMarks or more of code's marks standing alone as words:
// braces, comment markers, pointers, comparisons ("struct s { const
// char * name; }", "// An interface … interface { ~int }"). Prose about
// code names functions ("a call to ffi_prep_cif_var with n=3") but does
// not hold its braces.
func isFlatCode(text string) bool {
	if strings.HasPrefix(text, "$ ") {
		return true
	}
	n := 0
	for _, w := range strings.Fields(text) {
		if codeMarks[w] || strings.HasPrefix(w, "//") || strings.HasPrefix(w, "/*") {
			n++
		}
	}
	return n >= maxCodeMarks
}

// codeMarks are words that only code writes alone.
// Not "=" or ";": a paper's statistics write them alone ("RHR = 1.71; 95%
// CI, 1.06-2.78; P = .03").
var codeMarks = map[string]bool{"{": true, "}": true, "};": true, "*": true, "**": true, "==": true,
	"!=": true, ":=": true, "->": true, "=>": true, "&&": true, "||": true, "*/": true, "{}": true, "()": true}

// maxCodeMarks is the fewest of codeMarks that make a text code.
const maxCodeMarks = 3

// maxKeys is the fewest keys ("C-b", "M-x", "^X", "Ctrl-a") that make a
// text a table of keys, even flattened into one line; a sentence names one
// or two ("press C-b, then d").
const maxKeys = 3

// keys counts the words of text that name a key.
func keys(text string) int {
	n := 0
	for _, w := range strings.Fields(text) {
		w = strings.TrimRight(w, ",.;:)")
		lw := strings.ToLower(w)
		switch {
		case len(w) == 2 && w[0] == '^' && unicode.IsUpper(rune(w[1])):
			n++
		case strings.HasPrefix(lw, "ctrl-") || strings.HasPrefix(lw, "ctrl+") || strings.HasPrefix(lw, "alt-") || strings.HasPrefix(lw, "alt+"):
			n++
		case len(w) >= 3 && strings.IndexByte("CMS", w[0]) >= 0 && w[1] == '-' && utf8.RuneCountInString(w) <= 6:
			n++
		}
	}
	return n
}

// minProse is the least share of a statement's words that are plain words:
// "set -g prefix C-a", "ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-B bind_interface]"
// and "for (i = 0; i < n; i++) {" are not statements; "the -g flag sets a
// global option" is.
const minProse = 0.6

// navWords start the links of a navigation line.
var navWords = []string{"next:", "previous:", "prev:", "up:", "top:", "contents:", "index:", "home:"}

// isNavigation reports whether text is (or starts with) a navigation line:
// two or more of "Next:", "Previous:", "Up:" …, or a bracketed [Index] or
// [Contents] link.
func isNavigation(text string) bool {
	low := strings.ToLower(text)
	if strings.Contains(low, "[index]") || strings.Contains(low, "[contents]") {
		return true
	}
	n := 0
	for _, w := range navWords {
		if i := strings.Index(low, w); i >= 0 && (i == 0 || !isWordRune(rune(low[i-1]))) {
			n++
		}
	}
	return n >= 2
}

// isListing reports whether text is laid out in lines as code or a table
// is: three lines or more, most of them indented or holding a gap of two
// spaces or a tab between columns, or ending in code's punctuation.
func isListing(text string) bool {
	lines := strings.Split(text, "\n")
	n, laid := 0, 0
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n++
		t := strings.TrimRight(l, " \t\r")
		if (i > 0 && (strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "\t"))) ||
			strings.Contains(strings.TrimSpace(t), "  ") || strings.Contains(strings.TrimSpace(t), "\t") ||
			strings.HasSuffix(t, "{") || strings.HasSuffix(t, "}") || strings.HasSuffix(t, ";") {
			laid++
		}
	}
	return n >= 3 && 2*laid >= n
}

// proseShare is the share of text's white-space separated words that are
// plain words: letters (with inner apostrophes and hyphens between
// letters), in any case, with ordinary punctuation around them, or
// numbers.
func proseShare(text string) float64 {
	// Chinese and Japanese put no space after their commas and stops
	// (，、。), so those split words here as a space does.
	words := strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || isWidePunct(r) })
	if len(words) == 0 {
		return 0
	}
	plain := 0
	for _, w := range words {
		if isPlainWord(w) {
			plain++
		}
	}
	return float64(plain) / float64(len(words))
}

func isPlainWord(w string) bool {
	w = strings.TrimLeft(w, "\"'“‘«(")
	w = strings.TrimRight(w, "\"'”’»),.;:!?…")
	if w == "" {
		return false
	}
	letters, digits := 0, 0
	prev := rune(0)
	for i, r := range w {
		switch {
		case keywords.WordLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		case r == '\'' || r == '’' || r == '-' || r == '–' || r == '/' || r == '.' || r == ',' || r == '%':
			// Inner marks: "don't", "well-known", "and/or", "3.5", "1,000", "20%".
			next, _ := utf8.DecodeRuneInString(w[i+utf8.RuneLen(r):])
			if i == 0 || !isWordRune(prev) || (!isWordRune(next) && r != '%') {
				return false
			}
		default:
			return false
		}
		prev = r
	}
	if letters == 0 {
		return digits > 0
	}
	// "C-a", "M-x", "-B": a key or an option is one letter beside a hyphen.
	if strings.Contains(w, "-") {
		for _, part := range strings.Split(w, "-") {
			if utf8.RuneCountInString(part) == 1 && unicode.IsUpper([]rune(part)[0]) {
				return false
			}
		}
	}
	return true
}

// isWordRune reports whether r is part of a word: a letter with its marks
// (keywords.WordLetter, as search and rank have it) or a digit.
func isWordRune(r rune) bool { return keywords.WordLetter(r) || unicode.IsDigit(r) }

// isWidePunct reports whether r is a punctuation mark of CJK text: the
// ideographic ones (、。「」) and the full-width forms (，！？：；).
func isWidePunct(r rune) bool {
	return unicode.IsPunct(r) && (r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef)
}

// Clauses cuts a sentence longer than MaxStatement characters into clauses
// of at most MaxStatement, at the softest breaks (a semicolon, a colon, a
// dash, a comma; before an opening parenthesis only when a clause has none
// of those, a space only when it has none at all), each a span of the
// sentence without its surrounding white space. A shorter sentence is one
// clause, itself. A parenthesis opens an aside inside a clause: cut before
// it, the clause's end goes without its subject ("(especially Warsaw) was
// a major success", its "Three-Year Plan" left in the clause before).
func Clauses(s string) []Span {
	if utf8.RuneCountInString(s) <= MaxStatement {
		return []Span{{0, len(s)}}
	}
	// Break points: after "; ", ": ", ", ", before " — ", " – ", " (".
	// parenCut is the cost of a cut before " (".
	type brk struct{ at, cost int }
	var brks []brk
	for i := 0; i+1 < len(s); i++ {
		if s[i+1] != ' ' {
			continue
		}
		switch s[i] {
		case ';':
			brks = append(brks, brk{i + 1, 0})
		case ':':
			brks = append(brks, brk{i + 1, 1})
		case ',':
			brks = append(brks, brk{i + 1, 2})
		}
	}
	for _, d := range []string{" — ", " – ", " ("} {
		cost := 1
		if d == " (" {
			cost = parenCut
		}
		for off := 0; ; {
			j := strings.Index(s[off:], d)
			if j < 0 {
				break
			}
			brks = append(brks, brk{off + j, cost})
			off += j + len(d)
		}
	}
	// Cut greedily from the left: each clause ends at the softest break
	// that keeps it within MaxStatement, the later of equally soft ones.
	var out []Span
	start := 0
	for utf8.RuneCountInString(s[start:]) > MaxStatement {
		limit := start
		for n := 0; limit < len(s) && n < MaxStatement; n++ {
			_, size := utf8.DecodeRuneInString(s[limit:])
			limit += size
		}
		cut, cost := -1, 99
		for _, b := range brks {
			if b.at <= start+MaxStatement/4 || b.at > limit {
				continue
			}
			if b.cost < cost || (b.cost == cost && b.at > cut) {
				cut, cost = b.at, b.cost
			}
		}
		if cut < 0 {
			// No soft break: cut at the last space.
			cut = strings.LastIndexByte(s[start:limit], ' ')
			if cut <= 0 {
				break
			}
			cut += start
		}
		out = append(out, trimSpan(s, start, cut))
		start = cut
	}
	return append(out, trimSpan(s, start, len(s)))
}

// parenCut is the cost of cutting a long sentence before an opening
// parenthesis (Clauses): 3, after a comma's 2, so that an aside stays in
// its clause (main had 1, a dash's; the test sets it back to show the
// difference).
var parenCut = 3

// Span is a part of a sentence, s[Start:End].
type Span struct{ Start, End int }

func trimSpan(s string, start, end int) Span {
	for start < end && (s[start] == ' ' || s[start] == '\n' || s[start] == '\t') {
		start++
	}
	for end > start && (s[end-1] == ' ' || s[end-1] == '\n' || s[end-1] == '\t') {
		end--
	}
	return Span{start, end}
}
