package extract

import (
	"fmt"
	"html"
	"iter"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/item"
)

// Markdown is read line by line, the way a reader sees the rendered page:
//   - paragraphs end at blank lines; every list item, table row and
//     fenced code block is a paragraph of its own, its lines kept (codeText),
//     or goes in the paragraph before it when that announces it with a colon;
//   - ATX (#) and setext (=== / ---) headings are not paragraphs: they
//     become the Heading path of the paragraphs below them;
//   - markup is removed from the text: emphasis markers, link and image
//     syntax (links keep their text, images are dropped), code backticks,
//     quote markers, inline HTML tags, backslash escapes, footnote marks;
//   - front matter (--- YAML --- or +++ TOML +++) is skipped; its title:
//     is the document's title, else the first heading is.

var (
	atxRE        = lineRule(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`, "#")
	setext1RE    = lineRule(`^ {0,3}=+[ \t]*$`, "=")
	setext2RE    = lineRule(`^ {0,3}-+[ \t]*$`, "-")
	fenceRE      = lineRule("^ {0,3}(`{3,}|~{3,})", "`~")
	taskRE       = lazyRE(`^\[[ xX]\][ \t]+`)
	refDefRE     = lineRule(`^ {0,3}\[[^\]^][^\]]*\]:[ \t]*\S+`, "[")
	footDefRE    = lineRule(`^ {0,3}\[\^([^\]]+)\]:[ \t]*`, "[")
	tableDelimRE = lineRule(`^[ \t]*\|?[ \t]*:?-{1,}:?[ \t]*(\|[ \t]*:?-{1,}:?[ \t]*)+\|?[ \t]*$`, "|:-")
	commentRE    = lazyRE(`(?s)<!--.*?-->`)
	fmTitleRE    = lazyRE(`(?m)^title[ \t]*[:=][ \t]*(.+?)[ \t]*$`)

	imageRE    = lazyRE(`!\[([^\]]*)\]\([^)]*\)|!\[([^\]]*)\]\[[^\]]*\]`)
	linkRE     = lazyRE(`\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)`)
	refLinkRE  = lazyRE(`\[([^\]]+)\]\[[^\]]*\]`)
	autoLinkRE = lazyRE(`<((?:https?|ftp|mailto):[^>\s]+)>`)
	footRefRE  = lazyRE(`\[\^[^\]\s]+\]`)
	tagRE      = lazyRE(`</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>`)
	escapeRE   = lazyRE("\\\\([!-/:-@\\[-`{-~])")
)

// headings keeps the path of headings above the current line.
type headings struct {
	title string
	// chapter starts the path: an EPUB chapter's name, which the
	// chapter's own first heading often repeats.
	chapter string
	stack   []headingEntry
	// made is the path last made, of madeTitle and madeChapter, while
	// kept is true (push clears it): the paragraphs under one heading
	// share it instead of each joining the headings again.
	made, madeTitle, madeChapter string
	kept                         bool
}

type headingEntry struct {
	level int
	text  string
}

func (h *headings) push(level int, text string) {
	for len(h.stack) > 0 && h.stack[len(h.stack)-1].level >= level {
		h.stack = h.stack[:len(h.stack)-1]
	}
	h.stack = append(h.stack, headingEntry{level, text})
	h.kept = false
}

// path is the headings above, joined with " › "; the heading that is the
// document's title is left out when there is a heading below it.
func (h *headings) path() string {
	if h.kept && h.madeTitle == h.title && h.madeChapter == h.chapter {
		return h.made
	}
	h.made, h.madeTitle, h.madeChapter, h.kept = h.joined(), h.title, h.chapter, true
	return h.made
}

func (h *headings) joined() string {
	s := h.stack
	if len(s) > 1 && s[0].text == h.title {
		s = s[1:]
	}
	parts := make([]string, 0, len(s)+1)
	if h.chapter != "" {
		parts = append(parts, h.chapter)
	}
	for _, e := range s {
		if e.text != "" && e.text != h.chapter {
			parts = append(parts, e.text)
		}
	}
	return strings.Join(parts, " › ")
}

func splitLines(text string) []string {
	text = unixNewlines(text)
	// A slice of lines takes 16 bytes a line: 256 MiB of line breaks
	// would take 4 GiB before the first paragraph.
	if n := strings.Count(text, "\n"); n >= maxLines {
		panic(tooMuchText(fmt.Sprintf("it has more than %d lines, the most sponge reads in this format (split the file)", maxLines)))
	}
	return strings.Split(text, "\n")
}

// maxLines is the most lines of a format read as a slice of lines (man,
// reStructuredText, WebVTT, SubRip): 32 MiB of slice. Text and Org are
// read line by line (eachLine), Markdown by positions.
const maxLines = 2_000_000

// eachLine is splitLines for a reader that reads each line once: no slice
// of them all (a 50 MB text of blank lines is 33 million of them, 530 MB
// of slice before the first paragraph is made).
func eachLine(text string) iter.Seq[string] {
	return strings.SplitSeq(unixNewlines(text), "\n")
}

// unixNewlines turns every \r\n and lone \r of text into \n.
func unixNewlines(text string) string {
	if strings.IndexByte(text, '\r') < 0 {
		return text
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	return strings.ReplaceAll(text, "\r", "\n")
}

// frontMatter returns where the lines after a leading front matter block
// start in text (0 when there is none), and the title it names, if any.
func frontMatter(text string) (rest int, title string) {
	first, next, _ := strings.Cut(text, "\n")
	open := strings.TrimSpace(first)
	if open != "---" && open != "+++" {
		return 0, ""
	}
	at := len(first) + 1 // where the next line starts
	for i := 1; i < 500 && at <= len(text); i++ {
		l, after, found := strings.Cut(next, "\n")
		if t := strings.TrimSpace(l); t == open || open == "---" && t == "..." {
			block := text[len(first)+1 : max(at-1, len(first)+1)]
			if m := fmTitleRE.FindStringSubmatch(block); m != nil {
				title = cleanText(strings.Trim(m[1], `"'`))
			}
			return at + len(l) + 1, title
		}
		if !found {
			break
		}
		at += len(l) + 1
		next = after
	}
	return 0, ""
}

// markdownParagraphs lends extractMarkdown a list to gather paragraphs
// in: the document's own is then made at its size, not grown and copied.
var markdownParagraphs = sync.Pool{New: func() any { return new([]item.Paragraph) }}

func extractMarkdown(text string) *Document {
	if strings.Contains(text, "<!--") {
		text = commentRE.ReplaceAllString(text, "")
	}
	text = unixNewlines(text)
	start, fmTitle := frontMatter(text)
	var b builder
	lent := markdownParagraphs.Get().(*[]item.Paragraph)
	b.paras = (*lent)[:0]
	defer func() {
		clear(b.paras) // nor hold the document's text
		*lent = b.paras[:0]
		markdownParagraphs.Put(lent)
	}()
	h := &headings{title: fmTitle}
	firstHeading := ""
	var buf []string // lines of the paragraph being read
	var run lineRun  // where buf is in text, while it is one run of it
	kind := ""       // "", "list", "table"
	// The line read is text[pos:end], without its "\n"; lines are read
	// where they are, not split into a list first.
	pos, end := 0, 0
	// add appends part, the end of the line read or text made from it
	// (whole false), to the paragraph.
	add := func(part string, whole bool) {
		if len(buf) == 0 {
			run = lineRun{}
		}
		buf = append(buf, part)
		if whole {
			run.add(pos, text[pos:end], part)
		} else {
			run.add(pos, text[pos:end], "")
		}
	}
	flush := func() {
		if len(buf) > 0 {
			b.addText(inlineMarkdown(run.text(text, buf, "\n")), h.path())
		}
		buf, kind = buf[:0], ""
	}
	heading := func(level int, raw string) {
		t := cleanText(inlineMarkdown(raw))
		if firstHeading == "" && t != "" {
			firstHeading = t
			if h.title == "" {
				h.title = t
			}
		}
		h.push(level, t)
	}
	fence := ""
	var code lineRun // the code lines, whole lines of text
	for pos = start; pos <= len(text); pos = end + 1 {
		end = strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		if fence != "" {
			if m := lineRE(line, fenceRE); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) &&
				strings.TrimSpace(line[strings.Index(line, m[1])+len(m[1]):]) == "" {
				b.addCode(code.text(text, nil, "\n"), h.path())
				fence, code = "", lineRun{}
				continue
			}
			code.add(pos, line, line)
			continue
		}
		// Quote markers are not text; what is inside a quote is read as usual.
		line, quoted := unquote(line)
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		// Each rule of a line is tried only when the line starts (after
		// spaces and tabs) with a character the rule's markup starts with
		// (lineRE): most lines are text, and the regexps cost.
		if m := lineRE(line, fenceRE); m != nil {
			flush()
			fence = m[1]
			continue
		}
		if m := lineRE(line, atxRE); m != nil {
			flush()
			heading(len(m[1]), m[2])
			continue
		}
		if len(buf) > 0 && kind == "" && !quoted {
			if lineMatch(line, setext1RE) {
				t := strings.Join(buf, " ")
				buf = buf[:0]
				heading(1, t)
				continue
			}
			if lineMatch(line, setext2RE) {
				t := strings.Join(buf, " ")
				buf = buf[:0]
				heading(2, t)
				continue
			}
		}
		if isBreak(line) {
			flush()
			continue
		}
		if len(buf) == 0 && lineMatch(line, refDefRE) {
			continue
		}
		if m := lineRE(line, footDefRE); m != nil {
			flush()
			add(m[1]+" "+line[len(m[0]):], false)
			continue
		}
		if len(buf) == 1 && strings.Contains(buf[0], "|") && lineMatch(line, tableDelimRE) {
			header := buf[0]
			buf = buf[:0]
			b.addText(inlineMarkdown(tableRow(header)), h.path())
			kind = "table"
			continue
		}
		if kind == "table" {
			if strings.Contains(line, "|") {
				b.addText(inlineMarkdown(tableRow(line)), h.path())
				continue
			}
			kind = ""
		}
		if end := listMarker(line); end >= 0 && !(len(buf) > 0 && kind == "" && isOrderedNoSpace(line)) {
			flush()
			item := line[end:]
			if strings.HasPrefix(item, "[") {
				item = taskRE.ReplaceAllString(item, "") // what is left is the line's end
			}
			add(item, true)
			kind = "list"
			continue
		}
		add(line, true)
	}
	if fence != "" {
		b.addCode(code.text(text, nil, "\n"), h.path()) // an unclosed fence runs to the end
	}
	flush()
	title := fmTitle
	if title == "" {
		title = firstHeading
	}
	return &Document{Title: title, Paragraphs: slices.Clone(b.paras)}
}

// lineRun follows where a paragraph's lines are in the text they were cut
// from: while the first is the end of a line and each next one is the
// whole next line, the paragraph is text[start:end], the lines joined by
// "\n" as they were, and needs no copy.
type lineRun struct {
	n          int // lines added
	start, end int
	broken     bool // a line was not the whole next line of text
}

// add notes part, the end of the line whole that starts at pos in text;
// part == "" when it is not (text made from the line, or nothing).
func (r *lineRun) add(pos int, whole, part string) {
	switch {
	case r.n == 0:
		*r = lineRun{start: pos + len(whole) - len(part), broken: part == "" && whole != ""}
	case pos != r.end+1 || len(part) != len(whole):
		r.broken = true
	}
	r.n++
	r.end = pos + len(whole)
}

// text is the run's lines joined by sep: a slice of text when they are one
// run of it, else lines joined (lines == nil: always a run).
func (r *lineRun) text(text string, lines []string, sep string) string {
	if r.n == 0 {
		return ""
	}
	if !r.broken || lines == nil {
		return text[r.start:r.end]
	}
	return strings.Join(lines, sep)
}

// lineRule is a line rule's regular expression with the characters its
// markup starts with, after spaces and tabs: a line that starts otherwise
// cannot match it (mayMatch).
func lineRule(src, starts string) *lazyRegexp {
	r := lazyRE(src)
	r.starts = starts
	return r
}

// mayMatch reports whether the line rule re may match line: whether the
// line's first character after spaces and tabs is one its markup starts with.
func mayMatch(line string, re *lazyRegexp) bool {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i < len(line) && strings.IndexByte(re.starts, line[i]) >= 0
}

// lineRE is re.FindStringSubmatch(line), tried only when it may match.
func lineRE(line string, re *lazyRegexp) []string {
	if !mayMatch(line, re) {
		return nil
	}
	return re.FindStringSubmatch(line)
}

// lineMatch is re.MatchString(line), tried only when it may match.
func lineMatch(line string, re *lazyRegexp) bool {
	return mayMatch(line, re) && re.MatchString(line)
}

// isBreak reports whether line is a thematic break: up to three spaces,
// then three or more of one of - * _, and nothing else but spaces and tabs
// (what breakRE in the tests matches). Every list item is tried: a regexp
// costs more than the line.
func isBreak(line string) bool {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	if i == len(line) || line[i] != '-' && line[i] != '*' && line[i] != '_' {
		return false
	}
	c, n := line[i], 0
	for ; i < len(line); i++ {
		switch line[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// listMarker is where a list item's text starts in line after its marker
// (- * + or 1. 1) and the spaces and tabs after it), or -1 when line is no
// list item (what listRE in the tests finds).
func listMarker(line string) int {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) {
		return -1
	}
	switch c := line[i]; {
	case c == '-' || c == '*' || c == '+':
		i++
	case '0' <= c && c <= '9':
		j := i + 1
		for j < len(line) && j-i < 9 && '0' <= line[j] && line[j] <= '9' {
			j++
		}
		if j == len(line) || line[j] != '.' && line[j] != ')' {
			return -1 // ten digits are too many too
		}
		i = j + 1
	default:
		return -1
	}
	if i < len(line) && line[i] != ' ' && line[i] != '\t' {
		return -1
	}
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i
}

// unquote removes the quote markers ("> > ", ">>") at the start of a line,
// in one pass: a line of many markers costs no more than any other.
func unquote(line string) (rest string, quoted bool) {
	for {
		i := 0
		for i < 3 && i < len(line) && line[i] == ' ' {
			i++
		}
		if i == len(line) || line[i] != '>' {
			return line, quoted
		}
		line, quoted = line[i+1:], true
		if line != "" && line[0] == ' ' {
			line = line[1:]
		}
	}
}

// isOrderedNoSpace is a paragraph line like "2024. was a year" that only
// looks like an ordered list item; CommonMark does not let such a line
// interrupt a paragraph unless it starts with 1.
func isOrderedNoSpace(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return len(t) > 0 && t[0] >= '0' && t[0] <= '9' && !strings.HasPrefix(t, "1.") && !strings.HasPrefix(t, "1)")
}

// tableRow turns "| a | b |" into "a | b".
func tableRow(line string) string {
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	cells := strings.Split(t, "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return strings.Join(cells, " | ")
}

// inlineMarkdown removes inline markup, keeping the text a reader sees.
func inlineMarkdown(s string) string {
	// Code spans are kept verbatim: take them out before the other rules.
	// So are backslash-escaped characters: \* is a star, not emphasis.
	var spans []string
	hold := func(text string) string {
		spans = append(spans, text)
		return "\x00" + string(rune(0xE000+len(spans)-1)) + "\x00"
	}
	s = replaceCodeSpans(s, hold)
	// Each rule runs only on text with the character its markup starts
	// with: most paragraphs have none, and a regular expression that finds
	// nothing still reads the whole text.
	if strings.IndexByte(s, '\\') >= 0 {
		s = escapeRE.ReplaceAllStringFunc(s, func(m string) string { return hold(m[1:]) })
	}
	// A rule runs only where the text holds what every match of it holds:
	// ReplaceAllString copies the text even when it replaces nothing.
	if strings.Contains(s, "![") {
		s = imageRE.ReplaceAllString(s, "")
	}
	for i := 0; i < 3 && strings.Contains(s, "](") && linkRE.MatchString(s); i++ { // links inside links: [![x](y)](z)
		s = linkRE.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "][") {
		s = refLinkRE.ReplaceAllString(s, "$1")
	}
	if strings.IndexByte(s, '<') >= 0 && strings.IndexByte(s, ':') >= 0 {
		s = autoLinkRE.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "[^") {
		s = footRefRE.ReplaceAllString(s, "")
	}
	if strings.IndexByte(s, '<') >= 0 {
		s = tagRE.ReplaceAllString(s, " ")
	}
	s = stripEmphasis(s)
	if strings.IndexByte(s, '\\') >= 0 {
		s = strings.ReplaceAll(s, "\\\n", "\n") // backslash hard break
	}
	s = html.UnescapeString(s)
	if len(spans) > 0 {
		// Each held text back where its mark is, copying what is between.
		var b strings.Builder
		b.Grow(len(s))
		for {
			i := strings.IndexByte(s, 0)
			if i < 0 {
				break
			}
			b.WriteString(s[:i])
			r, n := utf8.DecodeRuneInString(s[i+1:])
			if k := int(r - 0xE000); k >= 0 && k < len(spans) && i+1+n < len(s) && s[i+1+n] == 0 {
				b.WriteString(spans[k])
				s = s[i+n+2:]
				continue
			}
			b.WriteByte(0)
			s = s[i+1:]
		}
		b.WriteString(s)
		s = b.String()
	}
	return s
}

// replaceCodeSpans finds `code` spans (any number of backticks) and
// replaces each with f of its content.
func replaceCodeSpans(s string, f func(string) string) string {
	if strings.IndexByte(s, '`') < 0 {
		return s
	}
	// Each run of backticks, in one pass; an opener's closer is the next run
	// of its length (next), found without searching the rest of the text
	// again for each opener.
	type tick struct{ at, n int }
	var runs []tick
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			break
		}
		i += j
		n := 1
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		runs = append(runs, tick{i, n})
		i += n
	}
	next := make([]int, len(runs))
	var lastShort [8]int // the next run of each length below 8, +1 (0: none)
	var lastLong map[int]int
	for k := len(runs) - 1; k >= 0; k-- {
		n := runs[k].n
		if n < len(lastShort) {
			next[k], lastShort[n] = lastShort[n]-1, k+1
			continue
		}
		if lastLong == nil {
			lastLong = map[int]int{}
		}
		if c, ok := lastLong[n]; ok {
			next[k] = c
		} else {
			next[k] = -1
		}
		lastLong[n] = k
	}
	var b strings.Builder
	done := 0 // s[:done] is written
	for k := 0; k < len(runs); k++ {
		if next[k] < 0 {
			continue // no closer: the backticks stay as written
		}
		open, end := runs[k], runs[next[k]]
		b.WriteString(s[done:open.at])
		code := s[open.at+open.n : end.at]
		if t := strings.TrimSpace(code); t != "" {
			code = t
		}
		b.WriteString(f(code))
		done = end.at + end.n
		k = next[k] // the runs inside the span are code
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// stripEmphasis removes *, _ and ~~ runs that open and close emphasis,
// pairing an opener with the next closer of the same kind, so that
// "2 * 3", "snake_case" and a lone "*" stay as written.
func stripEmphasis(s string) string {
	// Three IndexByte, not ContainsAny: they read 16 bytes at a time.
	if strings.IndexByte(s, '*') < 0 && strings.IndexByte(s, '_') < 0 && strings.IndexByte(s, '~') < 0 ||
		innerUnderscores(s) {
		return s
	}
	return pairEmphasis(s)
}

// innerUnderscores reports whether the only markup stripEmphasis looks at
// in s is "_" between ASCII letters or digits ("snake_case", "__x__" aside):
// such a run neither opens nor closes, so s stays as it is. Most "_" of
// technical text are of this kind, and pairEmphasis costs a rune slice.
func innerUnderscores(s string) bool {
	if strings.IndexByte(s, '*') >= 0 || strings.IndexByte(s, '~') >= 0 || !utf8.ValidString(s) {
		return false
	}
	alnum := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }
	for i := 0; i < len(s); i++ {
		if s[i] != '_' {
			continue
		}
		j := i
		for j < len(s) && s[j] == '_' {
			j++
		}
		if i == 0 || j == len(s) || !alnum(s[i-1]) || !alnum(s[j]) {
			return false
		}
		i = j
	}
	return true
}

// pairEmphasis is stripEmphasis's work on text that may hold emphasis.
func pairEmphasis(s string) string {
	if !utf8.ValidString(s) {
		s = string([]rune(s)) // each byte that is not UTF-8 a U+FFFD, as it always was
	}
	type run struct {
		c byte
		n int
	}
	var remove []bool // by byte; made at the first pair: most texts pair nothing ("2 * 3", "*ptr")
	// The openers not yet closed, nearest last, are openers[:open] (their
	// byte offsets); a closer takes the nearest opener of its kind and drops
	// those after it. Each kind's openers are also listed apart, so that a
	// closer finds its own at once however many of other kinds wait; an entry
	// there whose opener was dropped is stale, and skipped when met.
	type entry struct{ k, at int } // openers[k] == at while it is open
	type kind struct {
		run
		same []entry
	}
	var openers []int
	var kinds []kind // few: a list, not a map
	byRun := func(key run) *kind {
		for i := range kinds {
			if kinds[i].run == key {
				return &kinds[i]
			}
		}
		kinds = append(kinds, kind{run: key})
		return &kinds[len(kinds)-1]
	}
	open := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c != '*' && c != '_' && c != '~' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == c {
			j++
		}
		n := j - i
		var prev, next rune = ' ', ' '
		if i > 0 {
			prev, _ = utf8.DecodeLastRuneInString(s[:i])
		}
		if j < len(s) {
			next, _ = utf8.DecodeRuneInString(s[j:])
		}
		left := !unicode.IsSpace(next)  // can open
		right := !unicode.IsSpace(prev) // can close
		if c == '_' && isWord(prev) && isWord(next) {
			left, right = false, false // snake_case
		}
		if c == '~' && n != 2 {
			left, right = false, false
		}
		matched := false
		if right {
			kd := byRun(run{c, n})
			same := kd.same
			for len(same) > 0 && (same[len(same)-1].k >= open || openers[same[len(same)-1].k] != same[len(same)-1].at) {
				same = same[:len(same)-1]
			}
			if len(same) > 0 {
				if remove == nil {
					remove = make([]bool, len(s))
				}
				k := same[len(same)-1].k
				for x := openers[k]; x < openers[k]+n; x++ {
					remove[x] = true
				}
				for x := i; x < j; x++ {
					remove[x] = true
				}
				open = k
				same = same[:len(same)-1]
				matched = true
			}
			kd.same = same
		}
		if !matched && left {
			openers = append(openers[:open], i)
			kd := byRun(run{c, n})
			kd.same = append(kd.same, entry{open, i})
			open++
		}
		i = j
	}
	if remove == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && !remove[j] {
			j++
		}
		b.WriteString(s[i:j])
		for j < len(s) && remove[j] {
			j++
		}
		i = j
	}
	return b.String()
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
