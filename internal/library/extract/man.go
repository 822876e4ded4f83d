package extract

import (
	"slices"
	"strings"
)

// Manual pages are troff source with the man (or BSD mdoc) macros: .TH
// (.Dt) names the page, .SH and .SS (.Sh, .Ss) are its headings, the
// paragraph macros end a paragraph, the font macros give their words, and
// every other request is formatting and is left out. Escapes become the
// characters they name (\(em is "—", \- is "-") or nothing (fonts, sizes,
// motions). Gzipped pages (ls.1.gz) are unpacked first, as any .gz is.

// manPageExtRE is a manual page's file extension: its section, with an
// optional suffix (.1, .3p, .3pm, .8x), or .man.
var manPageExtRE = lazyRE(`^\.([1-9][a-z]{0,3}|n|man|mdoc)$`)

// looksTroff says whether text is troff source: a title or heading
// request (.TH, .Dt, .SH, .Sh) at a line start within its first 16 KiB
// (Pod::Man puts a long preamble of definitions before its .TH).
func looksTroff(text string) bool {
	text = text[:min(len(text), 16<<10)]
	for _, r := range []string{".TH ", ".Dt ", ".SH", ".Sh "} {
		if strings.HasPrefix(text, r) || strings.Contains(text, "\n"+r) {
			return true
		}
	}
	return false
}

var manParaMacros = map[string]bool{
	"PP": true, "P": true, "LP": true, "TP": true, "IP": true, "HP": true, "sp": true, "Pp": true, "Bl": true,
	"El": true, "It": true, "Bd": true, "Ed": true, "TQ": true, "RS": true, "RE": true, "EX": true, "EE": true,
	"nf": true, "fi": true, "Lp": true, "bp": true,
}

// mdocInline are mdoc's inline macros: their names are dropped from a
// line's words (".Op Fl a Ar file" is "[-a file]", near enough).
var mdocInline = map[string]string{
	"Fl": "-", "Ar": "", "Op": "", "Oo": "", "Oc": "", "Nm": "", "Xr": "", "Pa": "", "Cm": "", "Ic": "", "Ev": "",
	"Va": "", "Dv": "", "Er": "", "Em": "", "Sy": "", "Li": "", "Ql": "", "Dq": "", "Sq": "", "Pq": "", "Qq": "",
	"Ns": "", "No": "", "Ux": "UNIX", "Bx": "BSD", "At": "AT&T UNIX", "An": "", "Lk": "", "Mt": "", "Tn": "",
	"Fn": "", "Fa": "", "Ft": "", "Fd": "", "Fo": "", "Fc": "", "Vt": "", "Cd": "", "Ad": "", "Ms": "", "Sx": "",
	"Nd": "—", "Aq": "", "Bq": "", "Brq": "", "Eo": "", "Ec": "", "Pf": "", "Dl": "", "Ta": "|", "Ot": "",
	"Xo": "",
}

// manArgs splits a request's arguments, keeping quoted ones whole.
func manArgs(s string) []string {
	var args []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			end := strings.Index(s[1:], `"`)
			for end >= 0 && end+2 < len(s) && s[end+2] == '"' { // "" is a quote inside
				next := strings.Index(s[end+3:], `"`)
				if next < 0 {
					end = -1
					break
				}
				end += 2 + next
			}
			if end < 0 {
				args = append(args, s[1:])
				break
			}
			args = append(args, strings.ReplaceAll(s[1:end+1], `""`, `"`))
			s = s[end+2:]
			continue
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			args = append(args, s)
			break
		}
		args = append(args, s[:i])
		s = s[i:]
	}
	return args
}

func extractMan(text string) *Document {
	var b builder
	h := &headings{}
	title := ""
	var buf []string
	// tagEnd is the length of buf when an mdoc item's tag (".It Fl L")
	// ended, -1 when none is open; xo: the tag goes on to .Xc.
	tagEnd, xo := -1, false
	smOff, smJoin := false, false // smJoin: a word came since .Sm off
	flush := func() {
		b.addText(strings.Join(buf, "\n"), h.path())
		buf = buf[:0]
		tagEnd, xo = -1, false
	}
	lines := splitLines(text)
	headingNext := 0 // a .SH without words names the next line
	inTable, tableFormat := false, false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(line, `.\"`) || strings.HasPrefix(line, `'\"`) || strings.HasPrefix(line, `\"`) || line == "." {
			continue
		}
		if headingNext > 0 && !strings.HasPrefix(line, ".") {
			if t := cleanText(troffText(line)); t != "" {
				h.push(headingNext, t)
			}
			headingNext = 0
			continue
		}
		if inTable {
			switch {
			case strings.HasPrefix(line, ".TE"):
				inTable = false
				flush()
			case tableFormat:
				tableFormat = !strings.HasSuffix(strings.TrimSpace(line), ".")
			case strings.HasPrefix(line, ".") || line == "_" || line == "=":
			default:
				flush()
				buf = append(buf, strings.ReplaceAll(troffText(line), "\t", " | "))
				flush()
			}
			continue
		}
		if !strings.HasPrefix(line, ".") && !strings.HasPrefix(line, "'") {
			buf = append(buf, troffText(line))
			continue
		}
		name, rest, _ := strings.Cut(strings.TrimSpace(line[1:]), " ")
		name, rest = strings.TrimSpace(name), strings.TrimSpace(rest)
		if i := strings.Index(rest, `\"`); i >= 0 {
			rest = rest[:i]
		}
		args := manArgs(rest)
		switch {
		case name == "TH" || name == "Dt":
			if len(args) > 0 && title == "" {
				title = strings.ToLower(troffText(args[0]))
				if name == "TH" {
					title = troffText(args[0])
				}
				if len(args) > 1 {
					title += "(" + troffText(args[1]) + ")"
				}
				title = cleanText(title)
			}
		case name == "SH" || name == "Sh" || name == "SS" || name == "Ss":
			flush()
			lvl := 1
			if name == "SS" || name == "Ss" {
				lvl = 2
			}
			if len(args) == 0 {
				headingNext = lvl
				continue
			}
			if t := cleanText(troffText(strings.Join(args, " "))); t != "" {
				h.push(lvl, t)
			}
		case name == "de" || name == "de1" || name == "am" || name == "ig":
			for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "..") {
				i++
			}
			i++
		case name == "TS":
			flush()
			inTable, tableFormat = true, true
		case name == "It":
			// Items whose tags stand one after the other share the
			// description after the last (".It Fl L Xo … .Xc" four times
			// in ssh(1)): one paragraph, every tag in it.
			if tagEnd < 0 || len(buf) != tagEnd {
				flush()
			}
			buf = append(buf, mdocWords(args))
			xo = slices.Contains(args, "Xo")
			tagEnd = len(buf)
			if xo {
				tagEnd = -1
			}
		case name == "Xc":
			if xo {
				xo, tagEnd = false, len(buf)
			}
		case name == "Sm":
			// Spacing off: the words that follow are written without
			// spaces ("-L bind_address:port:host:hostport").
			smOff, smJoin = len(args) > 0 && args[0] == "off", false
		case name == "IP":
			// help2man writes an option's tag as a .HP paragraph of its
			// own and its description as the .IP after it: one entry.
			if len(args) > 0 || len(buf) != 1 || !strings.HasPrefix(strings.TrimSpace(buf[0]), "-") {
				flush()
			}
			if len(args) > 0 {
				buf = append(buf, troffText(args[0]))
			}
		case manParaMacros[name]:
			flush()
		case name == "B" || name == "I" || name == "R" || name == "SM" || name == "SB":
			if len(args) == 0 && i+1 < len(lines) {
				continue // the next line is in that font: read it as it comes
			}
			buf = append(buf, troffText(strings.Join(args, " ")))
		case len(name) == 2 && strings.Trim(name, "BIR") == "":
			buf = append(buf, troffText(strings.Join(args, "")))
		case name == "br" || name == "Nm" && len(args) == 0 || name == "UR" || name == "UE" || name == "MT" || name == "ME":
			if name == "UE" || name == "ME" {
				buf = append(buf, troffText(strings.Join(args, " ")))
			}
		case mdocInline[name] != "" || mdocInline[name] == "" && isMdocName(name):
			words := mdocWords(append([]string{name}, args...))
			if smOff {
				words = strings.ReplaceAll(words, " ", "")
				if smJoin && len(buf) > 0 {
					buf[len(buf)-1] += words
					continue
				}
				smJoin = true
			}
			buf = append(buf, words)
		}
	}
	flush()
	return &Document{Title: title, Paragraphs: b.paras}
}

func isMdocName(name string) bool {
	_, ok := mdocInline[name]
	return ok
}

// mdocWords renders an mdoc line's words: macro names are dropped, Fl's
// next word gets its dash, and Xr's name and section become "ls(1)".
func mdocWords(args []string) string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "Fl" && i+1 < len(args) && !isMdocName(args[i+1]):
			out = append(out, "-"+troffText(args[i+1]))
			i++
		case a == "Xr" && i+2 < len(args):
			out = append(out, troffText(args[i+1])+"("+args[i+2]+")")
			i += 2
		case isMdocName(a):
			if s := mdocInline[a]; s != "" && s != "-" {
				out = append(out, s)
			}
		default:
			out = append(out, troffText(a))
		}
	}
	return strings.Join(out, " ")
}

// troffChars are the special characters of \(xx and \[xx].
var troffChars = map[string]string{
	"em": "—", "en": "–", "hy": "-", "bu": "•", "co": "©", "rg": "®", "tm": "™", "lq": "“", "rq": "”",
	"oq": "‘", "cq": "’", "aq": "'", "dq": `"`, "ga": "`", "aa": "´", "ti": "~", "ha": "^", "bv": "|",
	"ba": "|", "mi": "-", "pl": "+", "mu": "×", "di": "÷", "de": "°", "<=": "≤", ">=": "≥", "!=": "≠",
	"->": "→", "<-": "←", "sc": "§", "ps": "¶", "dg": "†", "ul": "_", "rs": `\`, "sl": "/", "Fo": "«",
	"Fc": "»", "fo": "‹", "fc": "›", "at": "@", "sh": "#", "Do": "$", "eu": "€", "Eu": "€", "ct": "¢",
	"Po": "£", "Ye": "¥", "ss": "ß", "'e": "é", "`e": "è", ":u": "ü", ":o": "ö", ":a": "ä", "no": "¬",
	"+-": "±", "**": "*", "ua": "↑", "da": "↓", "lA": "⇐", "rA": "⇒", "lB": "[", "rB": "]",
	"lC": "{", "rC": "}", "la": "⟨", "ra": "⟩", "bq": "„", "Bq": "‚", "OK": "✓", "--": "—",
}

// troffStrings are the predefined strings of \*(xx and \*[xx].
var troffStrings = map[string]string{`L"`: "“", `R"`: "”", "--": "—", "PI": "π", "R": "®", "Tm": "™", "lq": "“", "rq": "”", "C+": "C++", "Ba": "|", "q": `"`, "Lq": "“", "Rq": "”"}

// troffText turns a line of troff text into plain text.
func troffText(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	// name reads an escape's name: one character, (xx, or [long].
	name := func(i int) (string, int) {
		switch {
		case i >= len(s):
			return "", i
		case s[i] == '(' && i+2 < len(s):
			return s[i+1 : i+3], i + 3
		case s[i] == '[':
			if j := strings.IndexByte(s[i:], ']'); j > 0 {
				return s[i+1 : i+j], i + j + 1
			}
			return "", len(s)
		}
		return s[i : i+1], i + 1
	}
	// quoted skips an escape's delimited argument: \w'…', \h'…'.
	quoted := func(i int) int {
		if i >= len(s) {
			return i
		}
		if j := strings.IndexByte(s[i+1:], s[i]); j >= 0 {
			return i + j + 2
		}
		return len(s)
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(s) {
			break // a backslash ending a line joins it to the next
		}
		e := s[i+1]
		i += 2
		switch e {
		case '"':
			return b.String() // a comment to the end of the line
		case 'f', 'F', 'n', 'g', 'k', 'm', 'M', 'V', 'Y':
			_, i = name(i) // font, register, colour: nothing to read
		case 's':
			if i < len(s) && (s[i] == '+' || s[i] == '-') {
				i++
			}
			if i < len(s) && (s[i] == '(' || s[i] == '[') {
				_, i = name(i)
			} else {
				for i < len(s) && s[i] >= '0' && s[i] <= '9' {
					i++
				}
			}
		case '(', '[':
			n, j := name(i - 1)
			i = j
			if n != "" && strings.HasPrefix(n, "u") && len(n) >= 5 {
				b.WriteString(unicodeEscape(n[1:]))
			} else if r, ok := troffChars[n]; ok {
				b.WriteString(r)
			}
		case '*':
			n, j := name(i)
			i = j
			b.WriteString(troffStrings[n])
		case 'h', 'v', 'w', 'o', 'l', 'L', 'Z', 'X', 'N', 'D', 'b', 'x', 'A', 'B', 'C', 'R', 'S':
			i = quoted(i)
		case '-':
			b.WriteByte('-')
		case 'e', '\\':
			b.WriteByte('\\')
		case ' ', '~', '0':
			b.WriteByte(' ')
		case '&', ')', 'c', '%', ':', '/', ',', '^', '|', 'd', 'u', 'p', 'a', 'r', 't', 'z', '{', '}':
		case '\'':
			b.WriteString("´")
		case '`':
			b.WriteString("`")
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

func unicodeEscape(hex string) string {
	var r rune
	for _, c := range hex {
		switch {
		case c >= '0' && c <= '9':
			r = r*16 + c - '0'
		case c >= 'A' && c <= 'F':
			r = r*16 + c - 'A' + 10
		case c >= 'a' && c <= 'f':
			r = r*16 + c - 'a' + 10
		default:
			return ""
		}
		if r > 0x10ffff {
			return ""
		}
	}
	return string(r)
}
