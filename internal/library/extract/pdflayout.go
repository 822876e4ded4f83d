package extract

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/sponge-library/sponge/internal/base/item"
)

// Layout turns positioned glyphs into lines, lines into paragraphs, and
// finds headings by font size and weight. Thresholds are in ems of the
// glyph's font size, tuned on the texlive-latex-base-doc PDFs against
// pdftotext (see the commit that chose the PDF extractor).
const (
	spaceGap = 0.15 // a gap this wide or wider (em) between glyphs is a space (spaceSlack)
	// spaceSlack is how much narrower (em) a gap of spaceGap may come out
	// of the content stream's arithmetic. \LaTeXe sets "LaTeX", a kern of
	// 0.15 em, then "2ε": the gap came out a hair over or under, and the
	// one logo was saved "LATEX 2ε" on most pages and "LATEX2ε" on others
	// (23 times on the tuning half), a coin toss. It is a space, as
	// pdftotext reads it, and "LaTeX" is then a word a search finds.
	spaceSlack    = 0.001
	numberGap     = 0.1  // the same after a number and before a letter (numberThenLetter)
	lineJump      = 0.6  // a baseline move larger than this (em) starts a new line
	paraGap       = 1.45 // a line gap larger than this many line spacings starts a paragraph
	headingScale  = 1.15 // text this much larger than the body text may be a heading
	maxHeadingLen = 160
)

// pdfLine is one line of text on a page.
type pdfLine struct {
	text   string
	x0, x1 float64
	y      float64 // baseline
	size   float64
	bold   bool
	page   int
	// mono says that the line is set in a fixed-pitch font (a line of
	// code: three quarters of its characters or more), each character cw
	// wide; monoShare is the share of its characters in that font
	mono      bool
	cw        float64
	monoShare float64
	// monoStart says that the line's first glyph after its line number
	// (lineNumber) is set in a fixed-pitch font, or is a placeholder's "⟨"
	monoStart bool
	// leaderEnd says that a table of contents' dot leader ended the line
	leaderEnd bool
	// cells is the line's number of words when there are four or more and
	// each is an em or more apart from the next, as a table's cells are
	// (a row of headings: "˝8 ˝9 ˝A ˝B ˝C ˝D ˝E ˝F"), else 0
	cells int
	// wide is the line's widest gap between two words, where a note in the
	// right margin may start (rightMarginNotes); at is its space's byte
	// offset in text, 0 for none
	wide lineGap
}

// lineGap is a gap between words: the space at byte at of a line's text,
// from x0, where the word before ends, to x1, where the next starts.
type lineGap struct {
	at     int
	x0, x1 float64
}

// accentMarks are the spacing accents a font draws over or under a letter
// (TeX's \"o is a dieresis glyph and an o at the same place), as the
// combining marks they stand for. ASCII ^ and ~ are left alone: in code
// they are characters of their own. The grave is ASCII ` in TeX's fonts
// (OT1 and T1 name the glyph grave: "H`an Th`anh", "arri`ere" for Hàn
// Thành, arrière), and a backquote in code; it is an accent only when it
// is drawn on a letter, as a backquote set beside one never is.
var accentMarks = map[string]string{
	"¨": "\u0308", "´": "\u0301", "ˆ": "\u0302", "˜": "\u0303", "¸": "\u0327", "ˇ": "\u030c",
	"˘": "\u0306", "˙": "\u0307", "˚": "\u030a", "¯": "\u0304", "˛": "\u0328", "˝": "\u030b",
	"`": "\u0300",
}

// composeAccents puts each spacing accent drawn on a letter beside it in
// the content stream onto that letter, as one character ("Sch¨opf" is
// "Schöpf", as a person reads it and as it is searched for): the accent
// and the letter overlap by half the narrower one's width at least, the
// accent no more than an em above or below. An accent on nothing (a table
// of a font's glyphs) stays as it is. gs is changed in place.
func composeAccents(gs []glyph) []glyph {
	first := -1
	for i := range gs {
		if isAccent(gs[i]) {
			first = i
			break
		}
	}
	if first < 0 {
		return gs
	}
	out := gs[:first]
	for i := first; i < len(gs); i++ {
		g := gs[i]
		mark, ok := "", isAccent(g)
		if ok {
			mark = accentMarks[g.s]
		}
		if !ok {
			out = append(out, g)
			continue
		}
		// the letter before (already out) or after that it is drawn on
		overlap := func(b glyph) float64 {
			r, _ := utf8.DecodeLastRuneInString(b.s)
			if !unicode.IsLetter(r) || math.Abs(b.y-g.y) > math.Max(b.size, g.size) {
				return 0
			}
			o := math.Min(g.x+g.w, b.x+b.w) - math.Max(g.x, b.x)
			if o < 0.5*math.Min(g.w, b.w) || o <= 0 {
				return 0
			}
			return o
		}
		before, after := 0.0, 0.0
		if len(out) > 0 {
			before = overlap(out[len(out)-1])
		}
		if i+1 < len(gs) {
			after = overlap(gs[i+1])
		}
		switch {
		case after > 0 && after >= before:
			gs[i+1].s = norm.NFC.String(gs[i+1].s + mark)
		case before > 0:
			out[len(out)-1].s = norm.NFC.String(out[len(out)-1].s + mark)
		default:
			out = append(out, g)
		}
	}
	return out
}

// isAccent says whether g is one of accentMarks (the grave, or two bytes
// in UTF-8 from C2 or CB; most glyphs are one other byte).
func isAccent(g glyph) bool {
	if len(g.s) == 1 {
		return g.s[0] == '`'
	}
	if len(g.s) != 2 || g.s[0] != 0xc2 && g.s[0] != 0xcb {
		return false
	}
	_, ok := accentMarks[g.s]
	return ok
}

// glyphLines groups a page's glyphs, in content-stream order, into lines.
func glyphLines(gs []glyph, page int) []pdfLine {
	gs = composeAccents(gs)
	var lines []pdfLine
	var b strings.Builder
	var cur pdfLine
	var sizeSum, boldN, chars, monoN, monoW float64
	var prevEnd, prevStart, prevSize, prevY float64
	var wideGaps, narrowGaps int
	var lead lineNumber
	pendingSpace := false
	open := false
	flush := func() {
		if open {
			raw := b.String()
			cur.text, cur.leaderEnd = dropLeaders(raw)
			if cur.text != raw {
				cur.wide = lineGap{} // its offset is lost
			}
			if narrowGaps == 0 && wideGaps >= 3 {
				cur.cells = wideGaps + 1
			}
			if chars > 0 {
				n, sum := lead.code(chars, sizeSum, monoN)
				cur.size = sum / n
				cur.bold = boldN > chars/2
				cur.monoShare = monoN / n
				cur.monoStart = lead.monoAfter
				cur.mono = cur.monoShare >= 0.75
				if monoN > 0 {
					cur.cw = monoW / monoN
				}
			}
			if strings.TrimSpace(cur.text) != "" {
				lines = append(lines, cur)
			}
		}
		b.Reset()
		sizeSum, boldN, chars, monoN, monoW = 0, 0, 0, 0, 0
		lead = lineNumber{}
		wideGaps, narrowGaps = 0, 0
		open = false
		pendingSpace = false
	}
	for _, g := range gs {
		if g.s == "" || math.IsNaN(g.x) || math.IsNaN(g.y) || math.IsInf(g.x, 0) || math.IsInf(g.y, 0) {
			continue
		}
		size := math.Abs(g.size)
		if size < 0.5 {
			size = 0.5
		}
		if blank(g.s) {
			if open {
				pendingSpace = true
				prevEnd = g.x + g.w
			}
			continue
		}
		if open {
			em := math.Max(size, prevSize)
			dy := g.y - cur.y
			dx := g.x - prevEnd
			if math.Abs(dy) > lineJump*em || dx < -3*em {
				flush()
			} else if pendingSpace || dx > (spaceGap-spaceSlack)*math.Min(size, prevSize) || dx < -0.5*em && !rightToLeft(g.x+g.w, prevStart, math.Min(size, prevSize)) || superscriptEnd(size, g.y, prevSize, prevY, dx) || subscriptEnd(size, g.y, prevSize, prevY, dx) && nextFactor(b.String(), g.s) ||
				dx > numberGap*math.Min(size, prevSize) && (numberThenLetter(b.String(), g.s) || size == prevSize && g.y == prevY && letterThenNumber(b.String(), g.s)) {
				if dx > cur.wide.x1-cur.wide.x0 {
					cur.wide = lineGap{b.Len(), prevEnd, g.x}
				}
				if dx >= em {
					wideGaps++
				} else {
					narrowGaps++
				}
				b.WriteByte(' ')
			}
		}
		if !open {
			open = true
			cur = pdfLine{x0: g.x, y: g.y, page: page}
		}
		pendingSpace = false
		b.WriteString(g.s)
		n := 1.0
		if len(g.s) > 1 {
			n = float64(utf8.RuneCountInString(g.s))
		}
		sizeSum += size * n
		chars += n
		lead.add(g, n, size)
		if g.bold {
			boldN += n
		}
		if g.mono {
			monoN += n
			monoW += g.w
		}
		prevEnd, prevStart = g.x+g.w, g.x
		prevSize = size
		prevY = g.y
		if prevEnd > cur.x1 {
			cur.x1 = prevEnd
		}
		if g.x < cur.x0 {
			cur.x0 = g.x
		}
	}
	flush()
	return dropLeaderEnds(lines)
}

// lineNumber is the digits that open a line in a font other than a
// typewriter's, as a code listing's line number is set (ltxdoc and the
// classes like it: "421 }" with "421" in a smaller proportional font).
type lineNumber struct {
	n, sizeSum float64 // its characters and their sizes summed
	past       bool    // a glyph other than a digit came
	monoAfter  bool    // that glyph is in a fixed-pitch font or is "⟨"
}

func (p *lineNumber) add(g glyph, n, size float64) {
	if p.past {
		return
	}
	if g.mono || strings.TrimLeft(g.s, "0123456789") != "" {
		// a placeholder's angle bracket opens a line of code as its
		// font does ("⟨intexpr1⟩ ⟨relation1⟩", "339 ⟨all, ts1⟩\Declare…")
		p.past, p.monoAfter = true, g.mono || g.s == "⟨"
		return
	}
	p.n += n
	p.sizeSum += size * n
}

// code is the characters and their sizes summed that say a line's size and
// its share of a fixed-pitch font: those after its line number when the
// rest of the line is in that font (three quarters of it or more), else
// all of them. A short line of code ("421 }", "423 \fi") was no line of
// code for the digits of its number, and of another size than the lines
// beside it: epstopdf.pdf's listings were cut at each closing brace, the
// brace a paragraph of its own, and "472 }% 473 }{% 474 \let\next\relax"
// read as a sentence. It reads fonts and digits only: any language.
func (p lineNumber) code(chars, sizeSum, monoN float64) (n, sum float64) {
	if p.n > 0 && chars > p.n && monoN >= 0.75*(chars-p.n) {
		return chars - p.n, sizeSum - p.sizeSum
	}
	return chars, sizeSum
}

// numberThenLetter says whether a line so far ends in a digit and the glyph
// after it starts with a letter: a section number and its title, set a
// little apart. A contents line's number wider than the room left for it
// comes within 0.15 em of its title, and source3.pdf's "45.3.10 Groups and
// alternations" was saved as "45.3.10Groups", the word "Groups" lost to a
// search; pdftotext parts words at 0.1 em. Within a word ("2nd", "x2a") a
// letter is set close to its digit. Any script.
func numberThenLetter(line, next string) bool {
	if line == "" || line[len(line)-1] < '0' || line[len(line)-1] > '9' {
		return false
	}
	r, _ := utf8.DecodeRuneInString(next)
	return unicode.IsLetter(r)
}

// letterThenNumber says whether a line so far ends in a letter and the
// glyph after it, of the same size on the same baseline, is a digit: a
// logo's version set a little apart. \LaTeXe kerns "2ε" 0.15 em of its
// font's quad from "LaTeX", and a quad is less than the size in the large
// fonts of a title (cmr17's is 0.92 of it): cfgguide.pdf's "Configuration
// options for LATEX 2ε" was saved as "LATEX2ε" and the word "LaTeX" lost to
// a search, while the body text had "LATEX 2ε". pdftotext parts them at 0.1
// em, as numberThenLetter does. Within a word or a name ("int1", "H2") the
// digit is set close to its letter; an exponent or an index is smaller or
// off the baseline (superscriptEnd). Any script.
func letterThenNumber(line, next string) bool {
	r, _ := utf8.DecodeLastRuneInString(line)
	return unicode.IsLetter(r) && next != "" && next[0] >= '0' && next[0] <= '9'
}

// rightToLeft says whether a glyph that ends at end, drawn back from the
// glyph before (which starts at prevStart), goes on with its word right to
// left: it ends where that one starts, no further off than a space. Arabic
// and Hebrew are drawn so, a letter left of the one before it, and every
// letter was taken for a word of its own: babel.pdf's Arabic sample was
// saved as "و ﻗ ﺪ ﻋ ﺮ ﻓ ﺖ", not a word of it found. Any script.
func rightToLeft(end, prevStart, em float64) bool {
	gap := prevStart - end
	return gap >= -0.1*em && gap <= spaceGap*em
}

// superscriptEnd says whether a glyph of size at baseline y, dx after the
// glyph before (of prevSize at prevY), ends a superscript: the glyph
// before is smaller by 15% and raised by 0.15 of this one's size, and this
// one is not drawn back over it. In any language a footnote's mark is no
// part of the word after it: "⁵Actually, any name" was saved as
// "5Actually", and the note was not found for "actually" (as with
// "10⁴a/z" in a formula). pdftotext parts them so, and joins a mark to
// the word before ("documents.¹¹"), as this does: starting a superscript
// is no word's end.
func superscriptEnd(size, y, prevSize, prevY, dx float64) bool {
	return prevSize < 0.85*size && prevY-y > 0.15*size && dx >= -0.05*size
}

// subscriptEnd says whether a glyph of size at baseline y, dx after the
// glyph before (of prevSize at prevY), ends a subscript: the glyph before
// is smaller by 15% and lowered by 0.1 of this one's size. In a formula
// the factor after a subscript is a word of its own, as pdftotext and a
// reader part them: "bij x̂i" and "Kn1 n2" (b_{ij}\hat x_i, K_{n_1n_2}) were
// saved as "bijx̂i" and "Kn1n2", and a search for "bij" missed them. A
// superscript after a subscript (x_i^2) is no larger, and goes on the
// word; what follows a subscript starts a word of its own when nextFactor
// says so. Any script.
func subscriptEnd(size, y, prevSize, prevY, dx float64) bool {
	return prevSize < 0.85*size && y-prevY > 0.1*size && dx >= -0.05*size
}

// nextFactor says whether next, after a subscript that ends line, starts
// a word of its own, as a formula's next factor is ("bij xi", "ψ0 S",
// "ψ0 (x)", as pdftotext parts them), unless it ends the word (a stop, a
// closing bracket: "CO2.") or a chemical formula goes on, one word as a
// person searches for it: "H2O", "H2SO4", "C6H12O6" (H₂O, H₂SO₄, C₆H₁₂O₆),
// a capital after a word of chemical elements' symbols, each with its
// count ("H2", "C6H12"). Any language.
func nextFactor(line, next string) bool {
	r, _ := utf8.DecodeRuneInString(next)
	if unicode.In(r, unicode.Pe, unicode.Pf, unicode.Po) {
		return false
	}
	if !unicode.IsUpper(r) || line == "" || line[len(line)-1] < '0' || line[len(line)-1] > '9' {
		return true
	}
	word := line[strings.LastIndexByte(line, ' ')+1:]
	for word != "" {
		n := 1
		if len(word) > 1 && word[1] >= 'a' && word[1] <= 'z' {
			n = 2
		}
		if !elements[word[:n]] {
			return true
		}
		word = strings.TrimLeft(word[n:], "0123456789")
	}
	return false
}

// elements are the chemical elements' symbols (IUPAC).
var elements = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(`H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn
		Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho
		Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf
		Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og`) {
		m[e] = true
	}
	return m
}()

// dropLeaders drops a table of contents' or an index's dot leaders from a
// line: the dots between an entry and its page numbers ("Introduction . .
// . . 3" is "Introduction 3", "\\box . . . . 501, 512" is "\\box 501, 512").
// A leader is a run of four dots or more (. · … ․ ‥, spaced or not)
// anywhere in the line, for a leader may end the line (its numbers on the
// next, in an index of two columns) or begin it; an ellipsis in prose
// ("wait... 3", "then. . . 3") is not one, nor are dots within a word. ended says whether a leader
// ended the line.
func dropLeaders(line string) (text string, ended bool) {
	if !strings.Contains(line, "..") && !strings.Contains(line, ". .") && !strings.ContainsAny(line, "·…․‥") {
		return line, false
	}
	var b strings.Builder
	at := 0
	for _, r := range dotRunRE.re().FindAllStringIndex(line, -1) {
		if dotWeight(line[r[0]:r[1]]) < 4 && !shortLeader(line, r) || inWord(line, r) || endsWord(line, r) && !numberAfter(line[r[1]:]) {
			continue
		}
		if before := strings.TrimRight(line[at:r[0]], " "); before != "" {
			b.WriteString(before)
			b.WriteByte(' ')
		}
		at = r[1]
		for at < len(line) && line[at] == ' ' {
			at++
		}
	}
	if at == 0 {
		return line, false
	}
	b.WriteString(line[at:])
	return strings.TrimRight(b.String(), " "), at == len(line)
}

// shortLeader says whether the dots at r, fewer than four, are an index's
// leader all the same: three spaced dots (". . .") after a space, with
// nothing but page numbers after them to the line's end ("\\the . . . 77,
// 78", an entry too long for more dots). An ellipsis in prose is glued to
// its word ("then. . . 3") or goes on with words.
func shortLeader(line string, r []int) bool {
	return spacedDots(line, r) && pageNumbersRE.re().MatchString(strings.TrimSpace(line[r[1]:]))
}

// spacedDots says whether the dots at r are three spaced dots or more
// after a space, as a short leader is.
func spacedDots(line string, r []int) bool {
	run := line[r[0]:r[1]]
	return dotWeight(run) >= 3 && strings.Contains(run, " ") && r[0] > 0 && line[r[0]-1] == ' '
}

// pageNumberFirstRE is a line that begins with page numbers: a number and
// a comma or a dash ("1753, 1754,"). A number alone or before words may be
// a code listing's line number after an ellipsis ("Declaring new hooks . .
// ." then "1448", "\\NewDocumentCommand …").
var pageNumberFirstRE = lazyRE(`^\s*[0-9]+[,–-]`)

// pageNumbersRE is an index entry's page numbers: "77", "77, 78", "12–14",
// and those that go on on the next line ("547, 717, 868,", "6047–").
var pageNumbersRE = lazyRE(`^[0-9]+(?:(?:, ?|–|-)[0-9]+)*[,–-]?$`)

// inWord says whether the dots at r are within a word, with no space on
// either side: code ("\\def\\x{....}", "a......b"), not a leader.
func inWord(line string, r []int) bool {
	if r[0] == 0 || r[1] == len(line) || strings.Contains(line[r[0]:r[1]], " ") {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(line[:r[0]])
	after, _ := utf8.DecodeRuneInString(line[r[1]:])
	return !unicode.IsSpace(before) && !unicode.IsSpace(after)
}

// endsWord says whether the dots at r end a word, glued to it: a leader so
// set runs to a page number ("Index……… 210"); dots with none after them
// are the word's (clsguide.pdf's "\\RequirePackage...." at a sentence's
// end, a macro's name and an ellipsis), unless the next line begins with
// page numbers (dropLeaderEnds).
func endsWord(line string, r []int) bool {
	if r[0] == 0 {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(line[:r[0]])
	return !unicode.IsSpace(before)
}

// numberAfter says whether rest, what follows a run of dots, begins with
// a page number: "210", "xii", "501, 512", or a digit after two
// characters at most, as an index's numbers may be (doc-code.pdf's
// "\\Describe... . . . ℓ-1202", source2e.pdf's "\\. . . . b398, b400"),
// not a word ("F.... exim4" in a listing).
func numberAfter(rest string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	if first == "" {
		return false
	}
	if pageNumberRE.MatchString(first) {
		return true
	}
	d := strings.IndexAny(first, "0123456789")
	return d >= 0 && utf8.RuneCountInString(first[:d]) <= 2
}

// dotRunRE is a run of leader dots, spaced or not.
var dotRunRE = lazyRE(`(?:[.·…․‥] ?)*[.·…․‥]`)

func isLeaderDot(r rune) bool {
	return r == '.' || r == '·' || r == '…' || r == '․' || r == '‥'
}

// dotWeight is how many dots a run of them holds (an ellipsis is three).
func dotWeight(run string) int {
	return strings.Count(run, ".") + strings.Count(run, "·") + strings.Count(run, "․") + 2*strings.Count(run, "‥") + 3*strings.Count(run, "…")
}

// dropLeaderEnds drops a leader cut by a line break, which dropLeaders,
// reading a line at a time, leaves: the dots that end a line and those
// that begin the next, four or more together, or any that go on from a
// leader that ended the line before ("\\ltx@car . . . . . . ." then ". .
// 5, 185"), and three spaced dots that end a line whose next line begins
// with a page number (an index entry too long for more dots, its numbers
// on the next line: l3backend-code.pdf's "\\l__graphics_decodearray_str
// . . ." then "1753, 1754,"), or four dots or more glued to the line's
// last word (which dropLeaders keeps) before such a line. Else the lines, joined into a paragraph,
// join their dots into a run again.
func dropLeaderEnds(lines []pdfLine) []pdfLine {
	for i := 1; i < len(lines); i++ {
		prev, cur := &lines[i-1], &lines[i]
		if strings.HasSuffix(strings.TrimRight(prev.text, " "), "..") && pageNumberFirstRE.re().MatchString(cur.text) {
			if tail := lastDotRun(prev.text); tail != nil && dotWeight(prev.text[tail[0]:tail[1]]) >= 4 {
				prev.text, prev.leaderEnd = strings.TrimRight(prev.text[:tail[0]], " "), true
				continue
			}
		}
		if strings.HasSuffix(strings.TrimRight(prev.text, " "), ". .") && pageNumberFirstRE.re().MatchString(cur.text) {
			if tail := lastDotRun(prev.text); tail != nil && spacedDots(prev.text, tail) {
				prev.text, prev.leaderEnd = strings.TrimRight(prev.text[:tail[0]], " "), true
				continue
			}
		}
		if first, _ := utf8.DecodeRuneInString(strings.TrimLeft(cur.text, " ")); !isLeaderDot(first) {
			continue
		}
		head := dotRunRE.FindStringIndex(cur.text)
		if head == nil || strings.TrimSpace(cur.text[:head[0]]) != "" {
			continue // no dots begin the line
		}
		tail := lastDotRun(prev.text)
		if !prev.leaderEnd && (tail == nil || dotWeight(prev.text[tail[0]:tail[1]])+dotWeight(cur.text[head[0]:head[1]]) < 4) {
			continue
		}
		if tail != nil {
			prev.text = strings.TrimRight(prev.text[:tail[0]], " ")
		}
		cur.text = strings.TrimLeft(cur.text[head[1]:], " ")
		cur.leaderEnd = cur.leaderEnd || cur.text == ""
	}
	return slices.DeleteFunc(lines, func(l pdfLine) bool { return strings.TrimSpace(l.text) == "" })
}

// lastDotRun is where the run of dots that ends s is, or nil.
func lastDotRun(s string) []int {
	s = strings.TrimRight(s, " ")
	if last, _ := utf8.DecodeLastRuneInString(s); !isLeaderDot(last) {
		return nil
	}
	runs := dotRunRE.re().FindAllStringIndex(s, -1)
	if len(runs) == 0 || runs[len(runs)-1][1] != len(s) {
		return nil
	}
	return runs[len(runs)-1]
}

// blank says whether s is only white space; most glyphs are one ASCII letter.
func blank(s string) bool {
	if len(s) == 1 && s[0] < utf8.RuneSelf {
		return s[0] == ' ' || s[0] >= '\t' && s[0] <= '\r'
	}
	return strings.TrimFunc(s, unicode.IsSpace) == ""
}

var (
	pageNumberRE = lazyRE(`^(?i)(page\s*)?[\divxlc]{1,8}(\s*(of|/)\s*\d+)?$`)
	digitsRE     = lazyRE(`\d+`)
)

// dropRunningLines removes page numbers and running heads/feet: lines at
// the top or bottom of pages that repeat (digits ignored) on many pages, a
// third of them; on half of them, three at least, for a line set in a
// typewriter font (a line of code and its number).
func dropRunningLines(pages [][]pdfLine) {
	key := func(l pdfLine) string {
		return strings.ToLower(digitsRE.ReplaceAllString(strings.Join(strings.Fields(l.text), " "), "#"))
	}
	edge := func(ls []pdfLine, i int) bool { return i < 2 || i >= len(ls)-2 }
	// slot numbers a page's edge lines 0 to 3
	slot := func(ls []pdfLine, i int) int {
		if i < 2 {
			return i
		}
		return i - len(ls) + 4
	}
	count := map[string]int{}
	keys := make([][4]string, len(pages)) // of each page's edge lines
	later := map[string]float64{}         // the largest size of each edge line past the first page
	for p, ls := range pages {
		seen := map[string]bool{}
		for i, l := range ls {
			if edge(ls, i) {
				k := key(l)
				keys[p][slot(ls, i)] = k
				if p > 0 {
					later[k] = max(later[k], l.size)
				}
				if !seen[k] {
					seen[k] = true
					count[k]++
				}
			}
		}
	}
	// A running head is on at least two pages, and on a third of them.
	minRepeat := max(2, (len(pages)+2)/3)
	out := make([][]pdfLine, len(pages))
	left := 0
	for p, ls := range pages {
		kept := ls[:0:0]
		for i, l := range ls {
			t := strings.TrimSpace(l.text)
			if !edge(ls, i) {
				kept = append(kept, l)
				continue
			}
			k := keys[p][slot(ls, i)]
			// The title on the first page, which later pages repeat small
			// as their running head, is the title, not a running head.
			title := p == 0 && later[k] > 0 && l.size >= 1.3*later[k]
			repeats := minRepeat
			if l.mono {
				// a line of code, its line number aside, at the foot of a
				// few pages of a short document (english.pdf's "94
				// \ifx\CurrentOption…" and "96 \ifx\CurrentOption…" on
				// two of its five pages) is code: a running head set in
				// a typewriter font is on half the pages, three at least
				repeats = max(3, (len(pages)+1)/2)
			}
			// A table's row of headings, set again at its foot (encguide's
			// "˝8 ˝9 … ˝F" under each glyph table, on eight of its 39
			// pages), is the table's, not a running line.
			row := l.cells > 0
			if !title && (pageNumberRE.MatchString(t) || !row && len(pages) >= 2 && count[k] >= repeats && utf8.RuneCountInString(t) <= 100) {
				continue
			}
			kept = append(kept, l)
		}
		out[p] = kept
		left += len(kept)
	}
	// Lines that repeat on every page with nothing else on them are the
	// document (a form, labels, a slide deck of one-liners), not its margins.
	if left > 0 {
		copy(pages, out)
	}
}

// bodyStats returns the size of the body text (the size most characters
// have) and the usual distance between its baselines.
func bodyStats(pages [][]pdfLine) (size, spacing float64) {
	bySize := map[float64]int{}
	for _, ls := range pages {
		for _, l := range ls {
			bySize[math.Round(l.size*2)/2] += utf8.RuneCountInString(l.text)
		}
	}
	best := 0
	for s, n := range bySize {
		if n > best || n == best && s < size {
			size, best = s, n
		}
	}
	if size <= 0 {
		size = 10
	}
	byGap := map[float64]int{}
	for _, ls := range pages {
		for i := 1; i < len(ls); i++ {
			dy := ls[i-1].y - ls[i].y
			if dy > 0.8*size && dy < 3*size && math.Abs(ls[i].size-size) < 0.5 {
				byGap[math.Round(dy*2)/2]++
			}
		}
	}
	best = 0
	for g, n := range byGap {
		if n > best || n == best && g < spacing {
			spacing, best = g, n
		}
	}
	if spacing <= 0 {
		spacing = 1.2 * size
	}
	return size, spacing
}

// proseSize is the size most characters set in a proportional font have,
// 0 for none: the size of a document's text where its code listings,
// set smaller in a typewriter font, outnumber it and are the body's size
// (bodyStats). Against that body, l3backend-code.pdf's 10-point sentences
// in 8.5-point code were larger by more than headingScale, and short ones
// ("No support at present.", "Data not available!") were taken for
// headings, saved once for the pages they recur on. It reads sizes and
// fonts only: any language.
func proseSize(pages [][]pdfLine) float64 {
	bySize := map[float64]int{}
	for _, ls := range pages {
		for _, l := range ls {
			if !l.mono {
				bySize[math.Round(l.size*2)/2] += utf8.RuneCountInString(l.text)
			}
		}
	}
	size, best := 0.0, 0
	for s, n := range bySize {
		if n > best || n == best && s < size {
			size, best = s, n
		}
	}
	return size
}

// pdfBlock is a paragraph or a heading in the making.
type pdfBlock struct {
	lines   []pdfLine
	heading bool
	// prose: a block that starts with a line set in a fixed-pitch font
	// is text all the same, its word going on past the line's end
	prose bool
}

// lastPage is the page where p ends.
func lastPage(p item.Paragraph) int {
	if len(p.Pages) > 0 {
		return p.Pages[len(p.Pages)-1].Page
	}
	return p.Page
}

// code says whether the block is lines of code, set in a fixed-pitch font.
func (b *pdfBlock) code() bool { return b.lines[0].mono && !b.prose }

// wordGoesOn says whether the word that ends prev goes on at the start of
// l: prev ends with a hyphen after a letter and l starts in lower case
// ("be-" "tween"), or a code name is cut after its underscore ("curr_-"
// "submatches."). Scripts with letter case.
func wordGoesOn(prev, l pdfLine) bool {
	first, _ := utf8.DecodeRuneInString(l.text)
	return hyphenEnd(prev.text) && unicode.IsLower(first) || codeNameGoesOn(prev.text, first)
}

// startsCode says whether l, a line set in a fixed-pitch font after prev,
// a line of text, starts a block of code rather than goes on with prev's
// sentence (a URL or a command's name set in that font and wrapped
// there): prev ends a sentence or announces it (":"), or stops short of
// the right edge of its column's text (right: columnRights), or l is set
// in from it or below it with more room than between two lines. It reads
// positions and marks: any language.
func startsCode(prev, l pdfLine, em, dy, gap, right float64) bool {
	if wordGoesOn(prev, l) {
		return false
	}
	return endsSentence(prev.text) || right > 0 && prev.x1 < right-2*em || l.x0 > prev.x0+0.8*em || dy > 1.2*gap
}

// codeRun says whether ls[i] and the line after it are both set in a
// fixed-pitch font whole, in one size, the second not left of the first:
// two lines of code, not a name wrapped in a sentence (amsbooka.pdf's
// "substitute" then "\begin{inchapterbibliography}", "...",
// "\end{inchapterbibliography}" after a line that runs to the text's
// edge). A wrapped name has the sentence's words after it, in the text's
// font ("\usepackage to"). It reads positions and fonts: any language.
func codeRun(ls []pdfLine, i int, em float64) bool {
	if i+1 >= len(ls) {
		return false
	}
	l, next := ls[i], ls[i+1]
	return l.monoShare >= 0.99 && next.monoShare >= 0.99 && next.x0 >= l.x0-0.5*em &&
		math.Abs(l.size-next.size) <= 0.12*math.Max(l.size, next.size)
}

// codeLines is the text of a block of code: its lines as they stand,
// "\n" between them, each indented by as many spaces as characters it
// is set in from the block's leftmost line (codeText).
func codeLines(ls []pdfLine) string {
	left, cw := math.Inf(1), 0.0
	for _, l := range ls {
		left = math.Min(left, l.x0)
		cw = math.Max(cw, l.cw)
	}
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteByte('\n')
		}
		if cw > 0 {
			b.WriteString(strings.Repeat(" ", min(40, int(math.Round((l.x0-left)/cw)))))
		}
		b.WriteString(l.text)
	}
	return codeText(b.String())
}

func (b *pdfBlock) size() float64 {
	s, n := 0.0, 0.0
	for _, l := range b.lines {
		k := float64(utf8.RuneCountInString(l.text))
		s += l.size * k
		n += k
	}
	if n == 0 {
		return 0
	}
	return s / n
}

// endsSentence reports whether text ends a sentence: . ! ? : possibly followed by closing quotes or brackets.
func endsSentence(text string) bool {
	t := strings.TrimRightFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(`"'”’»)]`, r)
	})
	r, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune(".!?:;…", r)
}

// pageBlocks cuts one page's lines into blocks. A heading is larger than
// prose, the size of the document's text (proseSize) where that is larger
// than body.
func pageBlocks(ls []pdfLine, body, spacing, prose float64) []*pdfBlock {
	marginNotesAfterWords(ls)
	ls, notes := rightMarginNotes(ls, body)
	var blocks []*pdfBlock
	inBlock := make([]int, len(ls)) // the block each line went to
	// the rightmost line's end, where a line ending a sentence short of
	// it ends its paragraph; startsCode reads its column's (columnRights)
	right, lastStart := 0.0, 0.0
	for _, l := range ls {
		if l.bodySize(body) {
			right = max(right, l.x1)
			lastStart = max(lastStart, l.x0)
		}
	}
	rightOf := columnRights(ls, body)
	// shortOf is where a line that ends a sentence short of it ends its
	// paragraph: its column's right edge when a column of text starts
	// right of it, else the rightmost line's end. On a page of two
	// columns set ragged or justified (ltnews), the right column's end
	// was taken for the left's, and every sentence that ended a line of
	// the left column ended a paragraph ("… slower than LATEX 2.09 did."
	// then "If you want to run your document …", one paragraph).
	shortOf := func(i int) float64 {
		if c := rightOf(i); c < right && lastStart >= c {
			return c
		}
		return right
	}
	isBig := func(l pdfLine) bool { return l.size >= headingScale*body }
	for i := range ls {
		// a heading set in a typewriter font ("2.3 \IfLanguagePatterns",
		// a package's title) is no code
		ls[i].mono = ls[i].mono && !ls[i].bold && !isBig(ls[i])
	}
	for i, l := range ls {
		if len(blocks) == 0 {
			blocks = append(blocks, &pdfBlock{lines: []pdfLine{l}})
			continue
		}
		cur := blocks[len(blocks)-1]
		prev := cur.lines[len(cur.lines)-1]
		em := math.Max(l.size, 1)
		dy := prev.y - l.y
		gap := spacing * math.Max(l.size, prev.size) / body
		brk := false
		switch {
		case dy < -0.5*em, dy > paraGap*gap:
			brk = true // moved up (new column) or a blank line
		case cur.code() && !l.mono && wordGoesOn(prev, l):
			cur.prose = true // a wrapped name or word, not code
		case cur.code() && !l.mono:
			// the code ends, unless a third of the line is code too
			// (LaTeX's "\ProvidesPackage{⟨package⟩}[⟨date⟩]", its
			// arguments named in italics) and starts in the code's font
			// (fancyhdr.pdf's "Now we reset \ps@f@nch@fancyproto to
			// \ps@f@nch@fancycore with" after "405 \fi" is text)
			brk = l.monoShare < 0.3 || !l.monoStart || math.Abs(l.size-prev.size) > 0.12*math.Max(l.size, prev.size)
		case cur.code():
			// a line of code goes on the block of code above it, however
			// indented, in the same size
			brk = math.Abs(l.size-prev.size) > 0.12*math.Max(l.size, prev.size)
		case l.mono && (startsCode(prev, l, em, dy, gap, rightOf(i-1)) || codeRun(ls, i, em)):
			brk = true
		case isBig(l) != isBig(prev), math.Abs(l.size-prev.size) > 0.12*math.Max(l.size, prev.size):
			brk = true
		case l.bold != prev.bold && (len(cur.lines) == 1 && prev.bold || l.bold && !strings.HasSuffix(prev.text, "-")):
			brk = true // a bold line on its own is a heading
		case l.x0 > prev.x0+0.8*em && (i+1 == len(ls) || ls[i+1].x0 < l.x0-0.5*em) && l.x0-prev.x0 < 6*em && !hangs(prev, l, isBig(prev)) &&
			!(right > 0 && prev.x1 >= right-2*em && !endsSentence(prev.text)):
			// first-line indent; not the last line of a hanging
			// paragraph whose full line above runs on into it
			// (lppl.pdf's "Derived Work Any work that under any
			// applicable law is derived from the" then "Work.")
			brk = true
		case endsSentence(prev.text) && right > 0 && prev.x1 < right-2*em && prev.x1 < shortOf(i-1)-2*em:
			brk = true // a short line ending a sentence
		case nextItem(cur.lines, l, em):
			brk = true
		}
		if brk {
			blocks = append(blocks, &pdfBlock{lines: []pdfLine{l}})
		} else {
			cur.lines = append(cur.lines, l)
		}
		inBlock[i] = len(blocks) - 1
	}
	for i, b := range blocks {
		b.heading = !b.code() && isHeadingBlock(b, prose) && !standsAside(blocks, i, prose)
	}
	return withNotes(blocks, notes, inBlock)
}

// columnRights gives the right edge of the text beside each of a page's
// lines, where a line that does not end a paragraph ends (0 for none): the
// rightmost place where three lines of the body's size set in a
// proportional font end, of the lines beside it (that start left of its
// end and end right of its start: its column's, and lines across the
// page), and fewer of them end more than 2 em right of it (a code
// listing's lines "⟨/pdfmarkbase⟩", "}%" end together, its longer lines
// past them); or where no place is so (ragged text, a page of code) the
// rightmost end of those lines. The rightmost end of any line was the
// edge before, and a line ending at the text's edge was taken for a short
// one: beside a note in the right margin read into its line (clsguide.pdf's
// page 7 "New description"), whose wrapped "\RequirePackage…" was read as
// code; and on a page of two columns, the right column's end for the
// left's. It reads positions only: any language. Each line's edge is found
// when first asked for.
func columnRights(ls []pdfLine, body float64) func(i int) float64 {
	rights := make([]float64, len(ls))
	for i := range rights {
		rights[i] = -1
	}
	var ends, all []float64 // of the lines in a proportional font, and of all
	return func(i int) float64 {
		if rights[i] >= 0 {
			return rights[i]
		}
		l := ls[i]
		most := 0.0
		ends, all = ends[:0], all[:0]
		for _, o := range ls {
			if !o.bodySize(body) || o.x0 >= l.x1 || o.x1 <= l.x0 {
				continue
			}
			most = math.Max(most, o.x1)
			all = append(all, math.Round(o.x1))
			if !o.mono {
				ends = append(ends, math.Round(o.x1))
			}
		}
		slices.Sort(ends)
		slices.Sort(all)
		rights[i] = most
		for k := len(ends) - 1; k >= 2; k-- {
			x := ends[k]
			if ends[k-2] != x || k+1 < len(ends) && ends[k+1] == x {
				continue // fewer than three end at x, or not the last of them
			}
			at := k + 1 - slices.Index(ends, x)
			past, _ := slices.BinarySearch(all, x+2*body+0.5)
			beyond := len(all) - past
			if beyond < at {
				rights[i] = x
				break
			}
		}
		return rights[i]
	}
}

// marginNote is a note in the right margin and the line it follows
// (its index in the page's lines without notes, -1 for none).
type marginNote struct {
	line  pdfLine
	after int
}

// rightMarginNotes takes the notes in the right margin out of a page's
// lines. ltxguide's classes (clsguide.pdf, usrguide-historic.pdf) set
// "New feature" or "New description" and a date there, starting on the
// baseline of a line of the text, after a wide gap, and the note was read
// into the sentence beside it: "The following commands can be used in the
// common case that you want to New feature 1995/12/01 simply load a
// class". A note starts half an em or more right of the text's right edge
// (the rightmost place where three lines of the body's size that start at
// the text's left end, a line that ends in a note counted where its text
// ends: noteTail), after the widest gap of a line of the body's size that
// starts at the text's left and whose words before the gap end at that
// edge or less than an em left of it (a line of a paragraph, not of code);
// it has a letter (a page number in a running head is no note), it is no
// wider than two fifths of the text, and the lines right of the edge under
// it, as narrow, go on with it (its date). A code listing's comment after
// its code, in smaller type or indented, stays, and a page with a wide
// line right of the edge (a second column) has no notes. It reads
// positions only: any language.
func rightMarginNotes(ls []pdfLine, body float64) ([]pdfLine, []marginNote) {
	em := body
	left := map[float64]int{}
	for _, l := range ls {
		if l.bodySize(body) {
			left[math.Round(l.x0)]++
		}
	}
	start, m := 0.0, 0
	for x, k := range left {
		if k > m || k == m && x < start {
			start, m = x, k
		}
	}
	ends, noted := map[float64]int{}, 0
	for _, l := range ls {
		if l.bodySize(body) && math.Abs(l.x0-start) <= em {
			if noteTail(l, em) {
				noted++
			} else {
				ends[math.Round(l.x1)]++
			}
		}
	}
	if noted > 0 {
		for _, l := range ls {
			if l.bodySize(body) && math.Abs(l.x0-start) <= em && noteTail(l, em) {
				if x := math.Round(l.wide.x0); ends[x] >= 3 {
					ends[x]++
				} else {
					ends[math.Round(l.x1)]++
				}
			}
		}
	}
	edge := 0.0
	for x, k := range ends {
		if k >= 3 && x > edge {
			edge = x
		}
	}
	width := edge - start
	if width <= 0 {
		return ls, nil
	}
	inMargin := func(x0, x1 float64) bool { return x0 >= edge+0.5*em && x1-x0 <= 0.4*width }

	for _, l := range ls {
		if l.x0 >= edge+0.5*em && l.x1-l.x0 > 0.4*width {
			return ls, nil // a second column
		}
	}
	var out []pdfLine
	var notes []marginNote
	for _, l := range ls {
		switch {
		case inMargin(l.x0, l.x1) && len(notes) > 0 && math.Abs(notes[len(notes)-1].line.y-l.y) < 2*l.size:
			notes = append(notes, marginNote{l, len(out) - 1}) // a note's next line
		case l.wide.at > 0 && l.wide.x0 >= edge-em && l.wide.x0 <= edge+1 && inMargin(l.wide.x1, l.x1) && hasLetter(l.text[l.wide.at:]) &&
			l.bodySize(body) && l.x0 <= start+em:
			note := l
			note.text, note.x0, note.wide = l.text[l.wide.at+1:], l.wide.x1, lineGap{}
			l.text, l.x1, l.wide = l.text[:l.wide.at], l.wide.x0, lineGap{}
			out = append(out, l)
			notes = append(notes, marginNote{note, len(out) - 1})
		default:
			out = append(out, l)
		}
	}
	return out, notes
}

// noteTail says whether a line of text (not of code) may end in a note
// in the right margin: its widest gap is an em or wider and what follows
// it is narrow (at most two fifths of the line). Such a line counts for
// the text's right edge where its text ends, before the gap, when three
// lines without such a gap end there too (a table's row or a line of code
// whose gap starts where a line or two happen to end counts at its end):
// the lines that end in a note were counted at the note's end, and a page
// of three notes or more (clsguide.pdf's page 17) took the notes' right
// end for the text's, so none was a note.
func noteTail(l pdfLine, em float64) bool {
	return !l.mono && l.wide.at > 0 && l.wide.x1-l.wide.x0 >= em && l.x1-l.wide.x1 <= 0.4*(l.x1-l.x0)
}

// withNotes puts each run of right margin notes (rightMarginNotes) as a
// block of its own after the block of the line it follows, or before it
// when that block ends the page with no sentence's end: it may go on on
// the next page.
// inBlock is the block of each line.
func withNotes(blocks []*pdfBlock, notes []marginNote, inBlock []int) []*pdfBlock {
	if len(notes) == 0 {
		return blocks
	}
	at := make([][]*pdfBlock, len(blocks)+1) // the note blocks after block i-1
	for i, n := range notes {
		b := 0
		if n.after >= 0 {
			b = inBlock[n.after] + 1
		}
		if b == len(blocks) && b > 0 && !endsSentence(blocks[b-1].lines[len(blocks[b-1].lines)-1].text) {
			b-- // before the page's last block, which goes on on the next page
		}
		if i > 0 && len(at[b]) > 0 && math.Abs(notes[i-1].line.y-n.line.y) < 2*n.line.size {
			// the note's next line
			last := at[b][len(at[b])-1]
			last.lines = append(last.lines, n.line)
			continue
		}
		at[b] = append(at[b], &pdfBlock{lines: []pdfLine{n.line}})
	}
	out := make([]*pdfBlock, 0, len(blocks)+len(notes))
	for i := 0; i <= len(blocks); i++ {
		out = append(out, at[i]...)
		if i < len(blocks) {
			out = append(out, blocks[i])
		}
	}
	return out
}

// standsAside says whether blocks[i], a line or a few of bold text of
// the body's size, starts more than an em right of where most lines of
// the blocks before and after it start and is centred on neither: a bold
// line set in (lthooks-code.pdf's and source2e.pdf's "Warning: this
// support will vanish in future releases!", above a code listing) or a
// table's bold row beside the code that makes it (colortbl-DE.pdf's "eins
// zwei", "drei vier"), not a heading. Taken for one, it was the heading
// of forty paragraphs after it. A heading starts where the text around
// it starts or left of it, or is centred on text of its size or larger
// (an index's "Symbols" over its column, an "Abstract" under the title's
// date; the Warning is centred, by chance, on the smaller code below it). A block that ends left of it is
// beside it (a note in the margin, the code a table is made by) and is
// not measured; a block first or last on its page is left as it was, a
// heading at a page's top having no text above to measure it by. A line
// that opens with a section's number of two levels or more ("9.3.5
// Miscellaneous" in docstrip.pdf, "2.10.3 \bitsetGetSetBitList" in
// bitset.pdf, each set in as its class sets them) is a heading all the
// same. It reads positions and digits only: any language.
func standsAside(blocks []*pdfBlock, i int, body float64) bool {
	b := blocks[i]
	if b.size() >= headingScale*body || b.size() < body-0.5 {
		return false // larger, or an index's letter in its smaller type
	}
	if m := sectionNumberRE.FindStringSubmatch(b.lines[0].text); m != nil && m[2] != "" {
		return false // numbered as a section is ("9.3.5 Miscellaneous"), set in or not
	}
	x0, x1 := b.lines[0].x0, b.lines[0].x1
	em := math.Max(b.lines[0].size, 1)
	left := math.Inf(-1)
	for _, j := range []int{i - 1, i + 1} {
		if j < 0 || j >= len(blocks) {
			return false // first or last on its page
		}
		if blocks[j].lines[0].x1 <= x0 {
			continue // beside it (a note in the margin, a table's code)
		}
		l0, l1 := math.Inf(1), math.Inf(-1)
		starts := make([]float64, 0, len(blocks[j].lines))
		for _, l := range blocks[j].lines {
			l0, l1 = math.Min(l0, l.x0), math.Max(l1, l.x1)
			starts = append(starts, l.x0)
		}
		slices.Sort(starts)
		left = math.Max(left, starts[len(starts)/2]) // where most of its lines start
		if math.Abs((x0+x1)/2-(l0+l1)/2) <= 2*em && blocks[j].size() > b.size()-0.5 {
			return false // centred on text of its size or larger
		}
	}
	return !math.IsInf(left, -1) && x0 > left+em
}

// marginNotesAfterWords moves a margin note out of a word hyphenated at
// the end of the line beside it. ltxdoc and the classes like it set a
// command's name in the left margin on the baseline of the line that
// describes it, and the PDF may draw it right after that line: when the
// line ended in a hyphen, the note came between the word's halves.
// ltluatex.pdf's "as de-", "disable_callback", "scribed in" was saved as
// "as dedisable_callback scribed in", babelbib.pdf's "lan-",
// "\setbtxfallbacklanguage", "guage" as "lan-\setbtxfallbacklanguage
// guage", so neither the word nor the name could be found. A note is a
// line on the hyphen's baseline that ends left of where the lines before
// and after it start; it now comes after the next line that ends no word
// with a hyphen, on that line's baseline. It reads no words: any language.
// ls is reordered in place.
func marginNotesAfterWords(ls []pdfLine) {
	note := func(i int) bool {
		prev, l, next := ls[i-1], ls[i], ls[i+1]
		em := math.Max(l.size, 1)
		return hyphenEnd(prev.text) && math.Abs(l.y-prev.y) <= 0.2*em && l.x1 <= prev.x0-0.2*em && l.x1 <= next.x0-0.2*em
	}
	first := 1
	for first+1 < len(ls) && !note(first) {
		first++
	}
	if first+1 >= len(ls) {
		return
	}
	out := slices.Clone(ls[:first])
	var notes []pdfLine
	for i := first; i < len(ls); i++ {
		if i+1 < len(ls) && note(i) {
			notes = append(notes, ls[i])
			continue
		}
		out = append(out, ls[i])
		if len(notes) > 0 && !hyphenEnd(ls[i].text) {
			for _, n := range notes {
				n.y = ls[i].y
				out = append(out, n)
			}
			notes = notes[:0]
		}
	}
	copy(ls, append(out, notes...))
}

// bodySize says whether l is set in the body text's size.
func (l pdfLine) bodySize(body float64) bool {
	return math.Abs(l.size-body) < 0.5
}

// hasLetter says whether s has a letter of any script.
func hasLetter(s string) bool {
	return strings.ContainsFunc(s, unicode.IsLetter)
}

// hyphenEnd says whether a line ends in a letter and a hyphen.
func hyphenEnd(text string) bool {
	end := strings.TrimRight(text, " ")
	last, n := utf8.DecodeLastRuneInString(end)
	if last != '-' {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(end[:len(end)-n])
	return unicode.IsLetter(before)
}

// nextItem says whether l, back at the left of a hanging paragraph whose
// lines after the first are indented, starts the next item of its list:
// its first words are an item's mark ("(c)", "2.", "ii.", "•") where the
// paragraph's first line began. lppl.pdf's "(b) … a complete and accurate
// log of the changes." filled its last line, and "(c) No information …"
// was saved in the same paragraph. A line that comes back without a mark
// (a code listing's closing brace) goes on.
func nextItem(lines []pdfLine, l pdfLine, em float64) bool {
	if len(lines) < 2 || math.Abs(l.x0-lines[0].x0) > 0.5*em || !itemMarkRE.MatchString(l.text) {
		return false
	}
	for _, c := range lines[1:] {
		if c.x0 < lines[0].x0+0.8*em {
			return false
		}
	}
	return true
}

// itemMarkRE is a list item's mark at a line's start: a number or a
// letter or a roman number with "." or ")" ("(c)", "c)", "c."), or a
// bullet or a dash (any language written with these marks).
var itemMarkRE = lazyRE(`^\s*(\(?(\d{1,3}|[a-zA-Z]|[ivxlc]{1,6})[.)]|[•◦▪‣∙·–—*-])\s`)

// hangs says whether l, indented under prev, goes on with it rather than
// starting a paragraph: a word hyphenated at prev's end ("possi-" then
// "bilities"), or a numbered heading's second line, indented past its
// number ("8.8 Bugs, misfeatures, … and other" then "possibilities" under
// "Bugs"). Other big lines stay apart (a title page's centred lines).
func hangs(prev, l pdfLine, big bool) bool {
	first, _ := utf8.DecodeRuneInString(l.text)
	end := strings.TrimRight(prev.text, " ")
	return strings.HasSuffix(end, "-") && (unicode.IsLower(first) || codeNameGoesOn(end, first)) ||
		(prev.bold || big) && sectionNumberRE.MatchString(prev.text)
}

// codeNameGoesOn says whether a line ending in text, whose next line starts
// with first, ends in a code name broken after an underscore, in any
// language: l3doc's "\__hook_normalize_file_-" then "name:w" is
// \__hook_normalize_file_name:w, and an index's
// "\__color_model_devicen_parse_-" then "1:nn", indented under it, goes on
// with it. No name ends in "_-".
func codeNameGoesOn(text string, first rune) bool {
	return strings.HasSuffix(text, "_-") && (unicode.IsLetter(first) || unicode.IsDigit(first) || first == '_')
}

// sectionNumberRE is a heading's number: "8", "8.8", "2.3.1.", "A.1", "B."
// (not the word "A").
var sectionNumberRE = lazyRE(`^\s*(\d+(\.\d+)*\.?|[A-Z](\.\d+)+\.?|[A-Z]\.)\s`)

func isHeadingBlock(b *pdfBlock, body float64) bool {
	if len(b.lines) > 3 {
		return false
	}
	text := joinLines(b.lines, nil)
	n := utf8.RuneCountInString(text)
	if n > maxHeadingLen || n < 2 || !hasLetter(text) {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(text)
	if strings.ContainsRune(",;", last) || last == '.' && n > 40 {
		return false
	}
	if b.size() >= headingScale*body {
		return true
	}
	bold := true
	for _, l := range b.lines {
		bold = bold && l.bold
	}
	return bold && n <= 100 && last != '.' && math.Abs(b.size()-body) < 0.25*body
}

// joinLines joins lines into one paragraph text, rejoining words hyphenated
// at a line end ("hyphen-" + "ated" → "hyphenated") when the word goes on
// in lower case, and code names broken after an underscore ("\cs_new_-" +
// "protected:Npn"); a hyphen after a capital or digit ("HTML-based") is kept.
// pages, if not nil, gets the rune offset where each later page starts.
func joinLines(ls []pdfLine, pages *[]item.PageStart) string {
	var b strings.Builder
	runes := 0
	lastPage := 0
	softBreak := false
	for _, l := range ls {
		t := cleanText(l.text)
		if t == "" {
			continue
		}
		if softBreak {
			// a soft hyphen ended the previous line: the word goes on
		} else if b.Len() > 0 {
			s := b.String()
			first, _ := utf8.DecodeRuneInString(t)
			last, lastSize := utf8.DecodeLastRuneInString(s)
			before, _ := utf8.DecodeLastRuneInString(s[:len(s)-lastSize])
			switch {
			case (last == '-' || last == '\u2010') && unicode.IsLower(first) && unicode.IsLower(before),
				codeNameGoesOn(s, first):
				s = s[:len(s)-lastSize]
				runes--
				b.Reset()
				b.WriteString(s)
			case last == '-' && unicode.IsLetter(before) || last == '/' && !startsAnew(t):
				// keep the hyphen (or slash), no space: "HTML-based", "and/or"
			default:
				b.WriteByte(' ')
				runes++
			}
		}
		if pages != nil && l.page != lastPage {
			if lastPage != 0 {
				*pages = append(*pages, item.PageStart{Offset: runes, Page: l.page})
			}
			lastPage = l.page
		}
		b.WriteString(t)
		runes += utf8.RuneCountInString(t)
		softBreak = strings.HasSuffix(strings.TrimRightFunc(l.text, unicode.IsSpace), "\u00ad")
	}
	return b.String()
}

// startsAnew says whether a line starts a thing of its own, which a line
// ending in a slash does not go on with though a URL or a path broken
// after its slash would: a reference's number ("[2] LaTeX News, Issue
// 28") or another address ("ftp://dante.ctan.org/tex-archive/"). The
// references of ltnews29.pdf, each ending in an address, were saved as
// "https://latex-project.org/publications/[2] LATEX News", the address
// lost to a search, and ltx3info.pdf's three mirrors as one
// "ftp://cam.ctan.org/tex-archive/ftp://dante.ctan.org/…". Any language.
func startsAnew(line string) bool {
	if len(line) > 1 && line[0] == '[' && line[1] >= '0' && line[1] <= '9' {
		return true
	}
	first, _, _ := strings.Cut(line, " ")
	return strings.Contains(first, "://") || strings.HasPrefix(first, "www.")
}

// layoutParagraphs builds the paragraphs of a PDF from its pages' lines
// (pages[i] is page i+1). A paragraph cut by a page break is joined, with
// a PageStart marking where the next page begins. It also returns the
// text of the largest heading on the first page, a title candidate.
func layoutParagraphs(pages [][]pdfLine) (paras []item.Paragraph, bigTitle string) {
	dropRunningLines(pages)
	body, spacing := bodyStats(pages)
	prose := max(body, proseSize(pages))
	var blocks []*pdfBlock
	for _, ls := range pages {
		pb := pageBlocks(ls, body, spacing, prose)
		if len(pb) > 0 && len(blocks) > 0 {
			prev := blocks[len(blocks)-1]
			first := pb[0]
			prevText := prev.lines[len(prev.lines)-1].text
			if !prev.heading && !first.heading && !prev.code() && !first.code() && !endsSentence(prevText) {
				prev.lines = append(prev.lines, first.lines...)
				pb = pb[1:]
			}
		}
		blocks = append(blocks, pb...)
	}
	bigSize := 0.0
	heading := ""
	// A heading with no paragraph under it yet: its words are kept, in the
	// heading path when a smaller heading on its page follows it ("Part
	// I › 1 Introduction"), else as a paragraph of its own (a page of only
	// a part's title, or lines taken for headings one after another).
	var open *pdfBlock
	above := "" // the heading above open
	// the page heading's last part is on, and above's: a heading at a
	// page's foot is on its own page, not its first paragraph's
	headingPage, abovePage := 0, 0
	// onPage is a paragraph's HeadingPage: the page its heading is on,
	// hp, where that is not the paragraph's own page (its start), on the
	// first paragraph under the heading (where it changes) only
	onPage := func(h string, hp, page int) int {
		if hp == page || len(paras) > 0 && paras[len(paras)-1].Heading == h {
			return 0
		}
		return hp
	}
	keepOpen := func() {
		if open != nil {
			page := open.lines[0].page
			paras = append(paras, item.Paragraph{Text: cleanText(joinLines(open.lines, nil)), Heading: above, Page: page, HeadingPage: onPage(above, abovePage, page)})
		}
	}
	for _, b := range blocks {
		if b.heading {
			text := cleanText(joinLines(b.lines, nil))
			switch {
			case open != nil && heading == bigTitle && open.lines[0].page == 1 && b.size() <= bigSize:
				// the document's title, not a part of the path; unless a
				// larger heading follows and is the title instead (colortbl-DE.pdf's
				// author set larger than "The colortbl package"): then the
				// first is kept as text, or its words were in no paragraph
				above, heading = "", text
				abovePage, headingPage = 0, b.lines[0].page
			case open != nil && b.lines[0].page == open.lines[0].page && b.size() < 0.95*open.size():
				above = heading
				heading += " › " + text
				abovePage, headingPage = headingPage, b.lines[0].page
			default:
				if open != nil {
					// open's words are a paragraph now, not a heading
					// of what follows: fntguide.pdf's copyright line
					// was saved as text and again as the heading of its
					// date, under the title
					keepOpen()
					heading, headingPage = above, abovePage
				}
				above, heading = heading, text
				abovePage, headingPage = headingPage, b.lines[0].page
			}
			if b.lines[0].page == 1 && b.size() > bigSize && b.size() >= 1.3*body {
				bigSize, bigTitle = b.size(), text
			}
			open = b
			continue
		}
		open = nil
		if b.code() {
			// the sentence announcing it on its page
			code, page := codeLines(b.lines), b.lines[0].page
			if len(paras) == 0 || lastPage(paras[len(paras)-1]) != page || !announceIn(paras, code, heading) {
				paras = append(paras, item.Paragraph{Text: code, Heading: heading, Page: page, HeadingPage: onPage(heading, headingPage, page)})
			}
			continue
		}
		var ps []item.PageStart
		text := joinLines(b.lines, &ps)
		page := b.lines[0].page
		p := item.Paragraph{Text: text, Heading: heading, Page: page, HeadingPage: onPage(heading, headingPage, page), Pages: ps}
		paras = append(paras, p)
	}
	if !slices.ContainsFunc(blocks, func(b *pdfBlock) bool { return !b.heading }) {
		// Only headings (a poster, a slide): keep them as text.
		paras = paras[:0]
		for _, b := range blocks {
			paras = append(paras, item.Paragraph{Text: joinLines(b.lines, nil), Page: b.lines[0].page})
		}
	} else {
		keepOpen()
	}
	return paras, strings.TrimRight(bigTitle, footnoteMarks)
}

// footnoteMarks end a title that has a footnote (LaTeX's \thanks): "The
// fix2col package∗" is "The fix2col package".
const footnoteMarks = " *\u2217\u2020\u2021\u00a7\u00b6\u00b9\u00b2\u00b3"
