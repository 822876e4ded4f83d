package extract

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/item"
)

// maxParagraph is where a long paragraph is cut, at a sentence end near it.
const maxParagraph = 2000

// cleanASCII says whether s is printable ASCII with single spaces between
// words, which cleanText returns as it is: most lines of most documents.
func cleanASCII(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c > '~' || c == ' ' && s[i+1] == ' ' {
			return false
		}
	}
	return true
}

// ligatures are expanded so that "ﬁnd" is found when a reader types "find".
var ligatures = strings.NewReplacer(ligaturePairs...)

var ligaturePairs = []string{
	"\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st",
}

// ligatureLead is how every ligature's UTF-8 starts (U+FB00–U+FB3F):
// text without it has none to expand.
const ligatureLead = "\xef\xac"

// cleanText makes text readable on one line: valid UTF-8, no control or
// invisible characters, ligatures spelled out, every run of white space a
// single space, no space at either end.
func cleanText(s string) string {
	if cleanASCII(s) {
		return s
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.Contains(s, ligatureLead) { // Replace copies s twice even when it finds none
		s = ligatures.Replace(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		// A run of printable ASCII (most of any text) is copied at once;
		// an ASCII space or control (all are below '!' or DEL) is a space.
		if c := s[i]; c < utf8.RuneSelf {
			if c <= ' ' || c == 0x7f {
				space = true
				i++
				continue
			}
			// The run goes on over a single space between two such
			// characters, which stays as it is: one copy for each line.
			j := i + 1
			for j < len(s) {
				if c := s[j]; c > ' ' && c < 0x7f {
					j++
				} else if c == ' ' && j+1 < len(s) && s[j+1] > ' ' && s[j+1] < 0x7f {
					j += 2
				} else {
					break
				}
			}
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteString(s[i:j])
			i = j
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case unicode.IsSpace(r) || r == '\u2028' || r == '\u2029':
			space = true
			continue
		case r == '\u00ad' || r == '\ufeff' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' ||
			r == '\u200e' || r == '\u200f':
			continue // soft hyphen, BOM, zero-width and direction marks: invisible
		case unicode.IsControl(r) || r >= '\ue000' && r <= '\uf8ff':
			// Controls are never text. Private-use code points are symbol
			// glyphs (bullets, ticks) that no reader can type.
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// codeText cleans the text of a block of code as cleanText
// does each of its lines, and keeps the lines: "\n" between them, a run of
// blank lines one line break, each line's indentation kept (a tab to the
// next of every 8 columns) less what all its lines share, no space at a
// line's end. A person reads code by its lines; the index, rank and the
// quote check read a line break as a space, so the words are cleanText's.
// HTML's <pre>, Markdown's fenced code, a manual page's no-fill displays
// (.nf, .EX, .Bd -literal), reStructuredText's literal blocks and Org's
// source blocks keep them (builder.addCode), and so do a PDF's lines set
// in a typewriter font (codeLines).
func codeText(s string) string {
	type codeLine struct {
		indent int
		text   string
	}
	var lines []codeLine
	least := -1
	for line := range eachLine(s) {
		t := cleanText(line)
		if t == "" {
			continue
		}
		col := 0
		for _, c := range []byte(line) {
			if c == ' ' {
				col++
			} else if c == '\t' {
				col += 8 - col%8
			} else {
				break
			}
		}
		if least < 0 || col < least {
			least = col
		}
		lines = append(lines, codeLine{col, t})
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		for range l.indent - least {
			b.WriteByte(' ')
		}
		b.WriteString(l.text)
	}
	return b.String()
}

// splitLong cuts text longer than maxParagraph into pieces that end at a
// sentence end between half and 1.25× maxParagraph, else at a space, and
// never inside a word unless a "word" is longer than the limit itself. It
// returns the rune offset where each piece starts.
func splitLong(text string) (pieces []string, offsets []int) {
	if utf8.RuneCountInString(text) <= maxParagraph*5/4 {
		return []string{text}, []int{0}
	}
	runes := []rune(text)
	start := 0
	for len(runes)-start > maxParagraph*5/4 {
		lo, hi := start+maxParagraph/2, start+maxParagraph*5/4
		cut := -1
		// The sentence end nearest to maxParagraph.
		best := -1
		for i := lo; i < hi && i < len(runes)-1; i++ {
			if runes[i+1] == ' ' && strings.ContainsRune(".!?…", runes[i]) ||
				runes[i+1] == ' ' && strings.ContainsRune(`"'”’)`, runes[i]) && i > 0 && strings.ContainsRune(".!?", runes[i-1]) {
				if best < 0 || abs(i-(start+maxParagraph)) < abs(best-(start+maxParagraph)) {
					best = i
				}
			}
		}
		if best >= 0 {
			cut = best + 1
		} else {
			for i := start + maxParagraph; i > lo; i-- {
				if runes[i] == ' ' || runes[i] == '\n' {
					cut = i
					break
				}
			}
			if cut < 0 {
				for i := start + maxParagraph; i < hi; i++ {
					if runes[i] == ' ' {
						cut = i
						break
					}
				}
			}
			if cut < 0 {
				cut = start + maxParagraph // one unbroken token: no word to keep whole
			}
		}
		piece := strings.TrimSpace(string(runes[start:cut]))
		if piece != "" {
			pieces = append(pieces, piece)
			offsets = append(offsets, start)
		}
		start = cut
		for start < len(runes) && (runes[start] == ' ' || runes[start] == '\n') {
			start++
		}
	}
	if start < len(runes) {
		pieces = append(pieces, string(runes[start:]))
		offsets = append(offsets, start)
	}
	return pieces, offsets
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Bounds of what one file may expand to, kept by the builder every reader
// puts its paragraphs through: a 41 KB EPUB of tiny paragraphs made 1.7
// million of them (818 MB), a 50 MB text 7.5 million (2 GB). A file past a
// bound is refused, not cut short: an item that silently lacks the end of
// its file would answer "not in the item" for what is in it, and a file of
// that many paragraphs is not one document to ask questions of. The
// reader stops at once (a panic that Read recovers), so what it has made
// up to the bound is all the memory it takes.
const (
	// maxParagraphs is the most paragraphs one item may have: 16 times War
	// and Peace (12,000), and a 100 MB text of 500-byte paragraphs.
	maxParagraphs = 200_000
	// maxTextBytes is the most text one item may have: as much as the
	// largest file sponge reads holds.
	maxTextBytes = MaxBytes
	// maxExpansion is the most bytes of text a file may give per byte it
	// holds (after unpacking gzip, bzip2 or xz), beyond the first MiB:
	// decoding an 8-bit encoding to UTF-8 gives up to three, the rest comes
	// from expansions (a manual page's strings and macros). Zipped formats
	// and PDFs are held by their own budgets (maxUnzipped, the PDF's
	// pages and time).
	maxExpansion = 8
)

// tooMuchText is the panic of a builder past a bound; Read recovers it and
// names the kind of file.
type tooMuchText string

func (e tooMuchText) Error() string { return string(e) }

// builder collects a document's paragraphs, cleaning and cutting them.
type builder struct {
	paras []item.Paragraph
	bytes int // of the paragraphs' text
}

// keep appends a paragraph, within the bounds (maxParagraphs, maxTextBytes).
func (b *builder) keep(p item.Paragraph) {
	b.bytes += len(p.Text)
	if len(b.paras) >= maxParagraphs {
		panic(tooMuchText(fmt.Sprintf("it makes more than %d paragraphs, the most one item may have (split the file)", maxParagraphs)))
	}
	if b.bytes > maxTextBytes {
		panic(tooMuchText(fmt.Sprintf("it makes more than %s of text, the most one item may have (split the file)", size(maxTextBytes))))
	}
	b.paras = append(b.paras, p)
}

// addText adds a paragraph of raw text under a heading.
func (b *builder) addText(text, heading string) {
	b.add(item.Paragraph{Text: cleanText(text), Heading: heading})
}

// addCode adds a block of code, its lines kept (codeText), under a heading:
// in the paragraph before it when that announces it (announce), else as a
// paragraph of its own.
func (b *builder) addCode(raw, heading string) {
	code := codeText(raw)
	if code != "" && !b.announce(code, heading) {
		b.add(item.Paragraph{Text: code, Heading: heading})
	}
}

// announce adds a short block of code (codeText's) to the last paragraph
// when that announces it, ending in a colon (":", or the full-width "："
// of Chinese and Japanese; any language) under the same heading: "… while
// you are still learning Python:\n\n>>> while True print('Hello world')\n…".
// A quote must lie in one paragraph, and the sentence says what the block
// is, the block what the sentence announces: a drafter quotes them
// together. A blank line ("\n\n", which codeText never writes) stands
// between them (item.CodeOf). It reports whether it did.
func (b *builder) announce(code, heading string) bool {
	if !announceIn(b.paras, code, heading) {
		return false
	}
	b.bytes += 2 + len(code)
	return true
}

// announceIn is announce on paras, which it changes in place.
func announceIn(paras []item.Paragraph, code, heading string) bool {
	n := len(paras)
	if n == 0 || code == "" {
		return false
	}
	before := &paras[n-1]
	if strings.Contains(before.Text, "\n") || before.Heading != heading ||
		!strings.HasSuffix(before.Text, ":") && !strings.HasSuffix(before.Text, "：") {
		return false
	}
	if utf8.RuneCountInString(code) > maxAnnounced ||
		utf8.RuneCountInString(before.Text)+2+utf8.RuneCountInString(code) > maxParagraph {
		return false
	}
	before.Text += "\n\n" + code
	return true
}

// maxAnnounced is the longest block of code, in characters, kept with the
// sentence that announces it: a command or a few lines (as many as a
// drafter quotes with it).
const maxAnnounced = 200

// add adds a paragraph whose Text is already clean (see cleanText); Cues
// and Pages offsets refer to that text. Long paragraphs are cut, and their
// page and cue marks follow the pieces.
func (b *builder) add(p item.Paragraph) {
	if p.Text == "" {
		return
	}
	// A text of no more bytes than splitLong's limit in runes is never cut:
	// most paragraphs, which then cost no rune count and no slices.
	if len(p.Text) <= maxParagraph*5/4 {
		b.keep(p)
		return
	}
	pieces, offsets := splitLong(p.Text)
	if len(pieces) == 1 {
		b.keep(p)
		return
	}
	total := utf8.RuneCountInString(p.Text)
	for i, piece := range pieces {
		start := offsets[i]
		end := total
		if i+1 < len(pieces) {
			end = offsets[i+1]
		}
		q := item.Paragraph{Text: piece, Heading: p.Heading}
		page, startMs := p.At(start)
		q.Page = page
		if i == 0 {
			q.HeadingPage = p.HeadingPage // the heading starts above it
		}
		if startMs != nil {
			ms := *startMs
			q.StartMs = &ms
		}
		for _, ps := range p.Pages {
			if ps.Offset > start && ps.Offset < end {
				q.Pages = append(q.Pages, item.PageStart{Offset: ps.Offset - start, Page: ps.Page})
			}
		}
		if len(p.Cues) > 0 {
			// The cue running at the cut starts the piece at offset 0.
			if q.StartMs != nil {
				q.Cues = append(q.Cues, item.Cue{Offset: 0, StartMs: *q.StartMs})
			}
			for _, c := range p.Cues {
				if c.Offset > start && c.Offset < end {
					q.Cues = append(q.Cues, item.Cue{Offset: c.Offset - start, StartMs: c.StartMs})
				}
			}
		}
		b.keep(q)
	}
}

// titleFromName is the fallback title: the file name without its
// extension, or the last part of a URL path, or the host.
func titleFromName(name string) string {
	n := name
	if i := strings.IndexAny(n, "?#"); i >= 0 && strings.Contains(name, "://") {
		n = n[:i]
	}
	n = strings.TrimRight(n, "/")
	if i := strings.Index(n, "://"); i >= 0 && !strings.Contains(n[i+3:], "/") {
		return n[i+3:] // a bare host
	}
	if i := strings.LastIndexAny(n, `/\`); i >= 0 {
		n = n[i+1:]
	}
	if i := strings.LastIndexByte(n, '.'); i > 0 {
		n = n[:i]
	}
	n = cleanText(unescapePath(n))
	if n == "" || n == "-" {
		return ""
	}
	return n
}
