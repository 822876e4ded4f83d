package extract

import (
	"strings"
)

// Org files are read line by line: "* Headline" lines (their TODO
// keyword, priority and tags left out) make the heading path, #+TITLE the
// title; drawers, planning lines, comments and settings are left out; each
// list item and table row is a paragraph; links keep their description.

var (
	orgHeadRE     = lazyRE(`^(\*+)\s+(.*)$`)
	orgTodoRE     = lazyRE(`^(?:TODO|DONE|NEXT|WAITING|HOLD|CANCELLED|CANCELED|STARTED)\s+`)
	orgPrioRE     = lazyRE(`^\[#[A-Za-z0-9]\]\s*`)
	orgTagsRE     = lazyRE(`\s+:[\w@#%:]+:\s*$`)
	orgKeywordRE  = lazyRE(`^\s*#\+(\w+):\s*(.*)$`)
	orgDrawerRE   = lazyRE(`^\s*:[\w-]+:\s*$`)
	orgPlanRE     = lazyRE(`^\s*(?:SCHEDULED|DEADLINE|CLOSED):`)
	orgListRE     = lazyRE(`^\s*(?:[-+]|\d+[.)]|\s\*)\s+(?:\[[ Xx-]\]\s+)?`)
	orgLinkDescRE = lazyRE(`\[\[[^\]]*\]\[([^\]]*)\]\]`)
	orgLinkRE     = lazyRE(`\[\[([^\]]*)\]\]`)
	orgEmphRE     = lazyRE(`(^|[\s("'{])([*=~])([^\s*=~](?:[^*=~]*?[^\s*=~])?)([*=~])($|[\s)"'}.,;:!?-])`)
	orgItalicRE   = lazyRE(`(^|[\s("'{])/([^\s/](?:[^/]*?[^\s/])?)/($|[\s)"'}.,;:!?-])`)
)

func orgInline(s string) string {
	s = orgLinkDescRE.ReplaceAllString(s, "$1")
	s = orgLinkRE.ReplaceAllString(s, "$1")
	s = orgEmphRE.ReplaceAllStringFunc(s, func(m string) string {
		p := orgEmphRE.FindStringSubmatch(m)
		if p[2] != p[4] {
			return m
		}
		return p[1] + p[3] + p[5]
	})
	return orgItalicRE.ReplaceAllString(s, "$1$2$3")
}

func extractOrg(text string) *Document {
	var b builder
	h := &headings{}
	title := ""
	var buf []string
	flush := func() {
		b.addText(orgInline(strings.Join(buf, "\n")), h.path())
		buf = buf[:0]
	}
	inDrawer, inComment := false, false
	var code []string // the lines of a #+BEGIN_SRC or #+BEGIN_EXAMPLE block
	inCode := false
	for line := range eachLine(text) {
		trimmed := strings.TrimSpace(line)
		upper := strings.ToUpper(trimmed)
		switch {
		case inCode:
			if inCode = !strings.HasPrefix(upper, "#+END_SRC") && !strings.HasPrefix(upper, "#+END_EXAMPLE"); inCode {
				code = append(code, line)
			} else {
				b.addCode(strings.Join(code, "\n"), h.path())
				code = code[:0]
			}
		case inComment:
			inComment = !strings.HasPrefix(upper, "#+END_COMMENT")
		case inDrawer:
			inDrawer = upper != ":END:"
		case trimmed == "":
			flush()
		case orgHeadRE.MatchString(line):
			flush()
			m := orgHeadRE.FindStringSubmatch(line)
			t := orgTagsRE.ReplaceAllString(orgPrioRE.ReplaceAllString(orgTodoRE.ReplaceAllString(m[2], ""), ""), "")
			if t = cleanText(orgInline(t)); t != "" {
				h.push(len(m[1]), t)
			}
		case strings.HasPrefix(upper, "#+BEGIN_COMMENT"):
			flush()
			inComment = true
		case orgKeywordRE.MatchString(line):
			m := orgKeywordRE.FindStringSubmatch(line)
			switch strings.ToUpper(m[1]) {
			case "TITLE":
				if title == "" {
					title = cleanText(orgInline(m[2]))
					h.title = title
				}
			case "CAPTION":
				buf = append(buf, m[2])
			}
		case strings.HasPrefix(upper, "#+BEGIN_SRC") || strings.HasPrefix(upper, "#+BEGIN_EXAMPLE"):
			flush()
			inCode = true // its lines are kept (codeText)
		case strings.HasPrefix(upper, "#+"):
			flush() // #+BEGIN_QUOTE, #+END_QUOTE…: the block's lines are read as they come
		case trimmed == "#" || strings.HasPrefix(trimmed, "# "):
			// a comment
		case orgDrawerRE.MatchString(line) && upper != ":END:":
			flush()
			inDrawer = true
		case orgPlanRE.MatchString(line):
		case strings.HasPrefix(trimmed, "|"):
			flush()
			if strings.HasPrefix(trimmed, "|-") {
				continue
			}
			var cells []string
			for _, c := range strings.Split(strings.Trim(trimmed, "|"), "|") {
				if c = strings.TrimSpace(c); c != "" {
					cells = append(cells, c)
				}
			}
			buf = append(buf, strings.Join(cells, " | "))
			flush()
		case orgListRE.MatchString(line):
			flush()
			buf = append(buf, orgListRE.ReplaceAllString(line, ""))
		default:
			buf = append(buf, line)
		}
	}
	flush()
	b.addCode(strings.Join(code, "\n"), h.path()) // an unclosed block runs to the end
	return &Document{Title: title, Paragraphs: b.paras}
}
