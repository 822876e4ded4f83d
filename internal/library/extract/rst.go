package extract

import (
	"strings"
	"unicode/utf8"
)

// reStructuredText is read line by line: a section title is a line of text
// underlined (or over- and underlined) with one punctuation character, its
// level set by the order in which each style first appears; the first
// title is the document's. Directives that hold no prose (images, the
// table of contents, raw output) are left out with their indented
// content; comments too. Inline markup is reduced to the words it marks.
// A literal block (after "::", or a code-block directive's) keeps its lines
// (codeText), in the paragraph that announces it when that is short.

var (
	rstDirectRE    = lazyRE(`^\.\.\s+([A-Za-z][\w:+.-]*)::(.*)$`)
	rstListRE      = lazyRE(`^\s*(?:[-*+•]|\d+[.)]|#\.|\(?[a-zA-Z0-9][.)])\s+`)
	rstRoleRE      = lazyRE(":[A-Za-z][\\w:+.-]*:`")
	rstLinkRE      = lazyRE("`([^`<]*?)\\s*<[^`>]*>`__?")
	rstRefRE       = lazyRE("`([^`]+)`__?")
	rstLiteralRE   = lazyRE("``(.+?)``")
	rstInterpRE    = lazyRE("`([^`]+)`")
	rstStrongRE    = lazyRE(`\*\*(\S(?:.*?\S)?)\*\*`)
	rstEmphRE      = lazyRE(`(^|[\s(])\*(\S(?:.*?\S)?)\*`)
	rstFootRefRE   = lazyRE(`\s?\[(?:#\w*|\*|\d+)\]_`)
	rstWordRefRE   = lazyRE(`\b(\w+)__?\b`)
	rstTableRuleRE = lazyRE(`^\s*\+[-=+]+\+\s*$|^\s*=+(\s+=+)+\s*$|^\s*-+(\s+-+)+\s*$`)
)

// rstSkipped are directives whose content is not prose.
var rstSkipped = map[string]bool{
	"image": true, "figure": false, "toctree": true, "raw": true, "include": true, "meta": true,
	"contents": true, "index": true, "only": false, "highlight": true, "sectnum": true, "role": true,
	"default-role": true, "csv-table": false, "literalinclude": true, "automodule": true, "autoclass": true,
	"autofunction": true, "math": false,
}

// rstAdornment says whether a line is a title's under- or overline, or a
// transition: three or more of one punctuation character.
func rstAdornment(line string) bool {
	line = strings.TrimRight(line, " \t")
	if len(line) < 3 || !strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", rune(line[0])) {
		return false
	}
	return strings.Count(line, line[:1]) == len(line)
}

func rstInline(s string) string {
	s = rstRoleRE.ReplaceAllString(s, "`")
	s = rstLiteralRE.ReplaceAllString(s, "$1")
	s = rstLinkRE.ReplaceAllString(s, "$1")
	s = rstRefRE.ReplaceAllString(s, "$1")
	s = rstInterpRE.ReplaceAllString(s, "$1")
	s = rstStrongRE.ReplaceAllString(s, "$1")
	s = rstEmphRE.ReplaceAllString(s, "$1$2")
	s = rstFootRefRE.ReplaceAllString(s, "")
	s = rstWordRefRE.ReplaceAllString(s, "$1")
	s = strings.ReplaceAll(s, `\`, "")
	return s
}

func indented(line string) bool {
	return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
}

func extractRST(text string) *Document {
	lines := splitLines(text)
	var b builder
	h := &headings{}
	styles := map[string]int{}
	title := ""
	var buf []string
	flush := func() {
		p := strings.Join(buf, "\n")
		if t := strings.TrimSpace(p); strings.HasSuffix(t, "::") {
			p = strings.TrimSuffix(t, ":") // "as follows::" introduces a literal block
		}
		b.addText(rstInline(p), h.path())
		buf = buf[:0]
	}
	section := func(text, style string) {
		flush()
		text = cleanText(rstInline(text))
		lvl, ok := styles[style]
		if !ok {
			lvl = len(styles) + 1
			styles[style] = lvl
		}
		if title == "" {
			title, h.title = text, text
		}
		h.push(lvl, text)
	}
	skipBlock := func(i int) int { // past the indented block after line i
		j := i + 1
		for j < len(lines) && (strings.TrimSpace(lines[j]) == "" || indented(lines[j])) {
			j++
		}
		return j - 1
	}
	// literal keeps the indented block after line i as code (codeText),
	// less a directive's options (":linenos:") when options; it returns
	// the block's last line.
	literal := func(i int, options bool) int {
		j := i + 1
		for options && j < len(lines) && indented(lines[j]) && strings.HasPrefix(strings.TrimSpace(lines[j]), ":") {
			j++
		}
		last := skipBlock(j - 1)
		b.addCode(strings.Join(lines[j:last+1], "\n"), h.path())
		return last
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		next := func(k int) string {
			if i+k < len(lines) {
				return lines[i+k]
			}
			return ""
		}
		switch {
		case trimmed == "":
			announces := len(buf) > 0 && strings.HasSuffix(strings.TrimSpace(buf[len(buf)-1]), "::")
			flush()
			if announces {
				i = literal(i, false) // "as follows::" and its literal block
			}
		case trimmed == "::":
			flush()
			i = literal(i, false)
		case rstAdornment(line) && strings.TrimSpace(next(1)) != "" && !rstAdornment(next(1)) &&
			strings.TrimRight(next(2), " \t") == strings.TrimRight(line, " \t"):
			section(next(1), "o"+line[:1])
			i += 2
		case !indented(line) && len(buf) == 0 && rstAdornment(next(1)) &&
			utf8.RuneCountInString(strings.TrimSpace(next(1))) >= min(utf8.RuneCountInString(trimmed), 3):
			section(trimmed, "u"+next(1)[:1])
			i++
		case rstAdornment(line) || rstTableRuleRE.MatchString(line):
			// a transition or a table's rule
		case strings.HasPrefix(trimmed, ".. "):
			flush()
			if m := rstDirectRE.FindStringSubmatch(trimmed); m != nil {
				name := strings.ToLower(m[1])
				if rstSkipped[name] || strings.HasPrefix(name, "auto") {
					i = skipBlock(i)
				} else if name == "code-block" || name == "code" || name == "sourcecode" {
					i = literal(i, true)
				} else if arg := strings.TrimSpace(m[2]); arg != "" {
					buf = append(buf, arg) // an admonition's or a figure's own words
				}
				continue
			}
			if strings.HasPrefix(trimmed, ".. [") { // a footnote or citation: its text is prose
				if j := strings.Index(trimmed, "]"); j > 0 {
					buf = append(buf, trimmed[j+1:])
				}
				continue
			}
			i = skipBlock(i) // a comment, a link target or a substitution
		case strings.HasPrefix(trimmed, ":") && strings.Count(trimmed, ":") >= 2 && len(buf) == 0:
			// a field (":Author: Ann"): its words are prose, "Author: Ann"
			buf = append(buf, strings.TrimPrefix(trimmed, ":"))
		case rstListRE.MatchString(line):
			flush()
			buf = append(buf, rstListRE.ReplaceAllString(line, ""))
		case strings.HasPrefix(trimmed, "|") && strings.HasSuffix(trimmed, "|") && len(trimmed) > 1:
			flush()
			var cells []string
			for _, c := range strings.Split(strings.Trim(trimmed, "|"), "|") {
				if c = strings.TrimSpace(c); c != "" {
					cells = append(cells, c)
				}
			}
			buf = append(buf, strings.Join(cells, " | "))
			flush()
		default:
			buf = append(buf, line)
		}
	}
	flush()
	return &Document{Title: title, Paragraphs: b.paras}
}
