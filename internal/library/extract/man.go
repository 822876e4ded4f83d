package extract

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
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
		i := argEnd(s)
		if i < 0 {
			args = append(args, s)
			break
		}
		args = append(args, s[:i])
		s = s[i:]
	}
	return args
}

// argEnd is where an unquoted argument ends: its first space or tab that
// no backslash escapes ("\-bookmark\ file" is one argument, as w3m(1)'s
// ".BI \-bookmark\  file" has it), or -1 at the end of s.
func argEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // the escaped character, a space too
		case ' ', '\t':
			return i
		}
	}
	return -1
}

// mdocCallable are the mdoc macros that may stand among another macro's
// arguments (".Op Fl a Ar file"): there they are macros, not words.
var mdocCallable = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`Ac Ad An Ao Ap Aq Ar At Bc Bo Bq Brc Bro Brq Bsx Bx Cd Cm Dc Do Dq Dv Dx Ec Em En Eo Er Es Ev
		Fa Fc Fl Fn Fr Ft Fx Ic In Li Lk Ms Mt Nm No Ns Nx Oc Oo Op Ot Ox Pa Pc Pf Po Pq Qc Ql Qo Qq Sc Sm So Sq St Sx Sy
		Ta Tn Ux Va Vt Xc Xo Xr`) {
		m[n] = true
	}
	return m
}()

// mdocInlineOnly are the mdoc macros read on a line of their own like the
// callable ones (their words are the line's), though they call no other.
var mdocInlineOnly = map[string]bool{"Nd": true, "Dl": true, "D1": true, "Fd": true, "Hf": true, "Lb": true, "Ex": true, "Rv": true, "Ud": true, "Bt": true, "Fo": true, "Db": false}

// mdocEnclose are the quoting macros: the opening and closing marks they
// put around their words, as mandoc and groff render them in UTF-8.
var mdocEnclose = map[string][2]string{
	"Op": {"[", "]"}, "Pq": {"(", ")"}, "Dq": {"“", "”"}, "Sq": {"‘", "’"}, "Qq": {`"`, `"`}, "Aq": {"⟨", "⟩"},
	"Bq": {"[", "]"}, "Brq": {"{", "}"}, "Ql": {"‘", "’"},
}

// mdocOpen and mdocClose are the macros that open and close a quote
// across lines (".Oo … .Oc").
var mdocOpen = map[string]string{"Oo": "[", "Po": "(", "Qo": `"`, "Do": "“", "So": "‘", "Bro": "{", "Ao": "⟨", "Bo": "["}
var mdocClose = map[string]string{"Oc": "]", "Pc": ")", "Qc": `"`, "Dc": "”", "Sc": "’", "Brc": "}", "Ac": "⟩", "Bc": "]"}

// mdocBSD are the BSD names macros with a version after them (".Fx 4.0").
var mdocBSD = map[string]string{"Fx": "FreeBSD", "Nx": "NetBSD", "Ox": "OpenBSD", "Dx": "DragonFly", "Bsx": "BSD/OS"}

// mdocStandards are the commonest .St names.
var mdocStandards = map[string]string{
	"-p1003.1": "IEEE Std 1003.1 (“POSIX.1”)", "-p1003.1-2001": "IEEE Std 1003.1-2001 (“POSIX.1”)",
	"-p1003.1-2004": "IEEE Std 1003.1-2004 (“POSIX.1”)", "-p1003.1-2008": "IEEE Std 1003.1-2008 (“POSIX.1”)",
	"-p1003.2": "IEEE Std 1003.2 (“POSIX.2”)", "-p1003.1-88": "IEEE Std 1003.1-1988 (“POSIX.1”)",
	"-p1003.1-90": "IEEE Std 1003.1-1990 (“POSIX.1”)", "-p1003.2-92": "IEEE Std 1003.2-1992 (“POSIX.2”)",
	"-p1003.1b-93": "IEEE Std 1003.1b-1993 (“POSIX.1b”)", "-p1003.1c-95": "IEEE Std 1003.1c-1995 (“POSIX.1c”)",
	"-ansiC": "ANSI X3.159-1989 (“ANSI C89”)", "-ansiC-89": "ANSI X3.159-1989 (“ANSI C89”)",
	"-isoC": "ISO/IEC 9899:1990 (“ISO C90”)", "-isoC-90": "ISO/IEC 9899:1990 (“ISO C90”)",
	"-isoC-99": "ISO/IEC 9899:1999 (“ISO C99”)", "-isoC-2011": "ISO/IEC 9899:2011 (“ISO C11”)",
	"-xpg4": "X/Open Portability Guide Issue 4 (“XPG4”)", "-susv2": "Version 2 of the Single UNIX Specification (“SUSv2”)",
	"-susv3": "Version 3 of the Single UNIX Specification (“SUSv3”)", "-susv4": "Version 4 of the Single UNIX Specification (“SUSv4”)",
	"-svid4": "System V Interface Definition, Fourth Edition (“SVID4”)",
}

// mdocAT are .At's versions.
var mdocAT = map[string]string{"v1": "Version 1 AT&T UNIX", "v2": "Version 2 AT&T UNIX", "v3": "Version 3 AT&T UNIX",
	"v4": "Version 4 AT&T UNIX", "v5": "Version 5 AT&T UNIX", "v6": "Version 6 AT&T UNIX", "v7": "Version 7 AT&T UNIX",
	"32v": "Version 32V AT&T UNIX", "III": "AT&T System III UNIX", "V": "AT&T System V UNIX", "V.1": "AT&T System V Release 1 UNIX",
	"V.2": "AT&T System V Release 2 UNIX", "V.3": "AT&T System V Release 3 UNIX", "V.4": "AT&T System V Release 4 UNIX"}

// mdocDelim says what an mdoc argument standing alone is: a closing
// mark, written against the word before ("gzip(1)."), an opening one,
// written against the word after, or neither.
func mdocDelim(a string) byte {
	switch a {
	case ".", ",", ":", ";", ")", "]", "?", "!":
		return 'c'
	case "(", "[":
		return 'o'
	}
	return 0
}

// mdocLine is one mdoc line's words being written: spaces go between
// words but not against a closing mark, after an opening one, after .Ns,
// .Pf's prefix or .Ap, nor anywhere while .Sm is off.
type mdocLine struct {
	m       *manReader
	b       strings.Builder
	started bool
	lead    bool // the line's first word goes against the words before it
	glue    bool // the next word goes against the one before
	closers []string
}

func (e *mdocLine) word(w string, against bool) {
	if w == "" {
		return
	}
	if !e.started {
		e.started, e.lead = true, against || e.glue
	} else if !against && !e.glue && !e.m.smOff {
		e.b.WriteByte(' ')
	}
	e.b.WriteString(w)
	e.glue = false
}

// words renders args (from i) as mdoc: macros by their meaning, other
// arguments as words, marks against their neighbours.
func (e *mdocLine) words(args []string) {
	// tail: where the closing marks that end the line begin; quotes
	// opened on this line close before them ("(see ls(1))." ).
	tail := len(args)
	for tail > 0 && mdocDelim(args[tail-1]) == 'c' {
		tail--
	}
	plain := func(i int) bool { return i < len(args) && !mdocCallable[args[i]] && mdocDelim(args[i]) == 0 }
	m := e.m
	for i := 0; i < len(args); i++ {
		if i == tail {
			e.closeAll()
		}
		a := args[i]
		if !mdocCallable[a] && !mdocInlineOnly[a] || i > 0 && !mdocCallable[a] {
			switch mdocDelim(a) {
			case 'c':
				e.word(a, true)
			case 'o':
				e.word(a, false)
				e.glue = true
			default:
				e.word(m.text(a), false)
			}
			continue
		}
		switch a {
		case "Fl":
			n := 0
			for ; plain(i + 1); i++ {
				e.word("-"+m.text(args[i+1]), false)
				n++
			}
			if n == 0 {
				e.word("-", false)
				if i+1 < len(args) && args[i+1] == "Fl" {
					e.glue = true // ".Fl Fl long" is "--long"
				}
			}
		case "Ar":
			n := 0
			for ; plain(i + 1); i++ {
				e.word(m.text(args[i+1]), false)
				n++
			}
			if n == 0 {
				e.word("file ...", false)
			}
		case "Xr":
			if plain(i+1) && plain(i+2) {
				e.word(m.text(args[i+1])+"("+m.text(args[i+2])+")", false)
				i += 2
			}
		case "Nm":
			n := 0
			for ; plain(i + 1); i++ {
				w := m.text(args[i+1])
				if m.name == "" {
					m.name = w
				}
				e.word(w, false)
				n++
			}
			if n == 0 {
				e.word(m.name, false)
			}
		case "Fn":
			if plain(i + 1) {
				name := m.text(args[i+1])
				i++
				var fa []string
				for ; plain(i + 1); i++ {
					fa = append(fa, m.text(args[i+1]))
				}
				e.word(name+"("+strings.Join(fa, ", ")+")", false)
			}
		case "Fo":
			if plain(i + 1) {
				e.word(m.text(args[i+1])+"(", false)
				e.glue = true
				i++
				m.fo, m.foArgs = true, 0
			}
		case "Fa":
			for ; plain(i + 1); i++ {
				if m.fo && m.foArgs > 0 {
					e.word(",", true)
				}
				e.word(m.text(args[i+1]), false)
				if m.fo {
					m.foArgs++
				}
			}
		case "Fc":
			e.word(")", true)
			m.fo = false
		case "In":
			if plain(i + 1) {
				w := "<" + m.text(args[i+1]) + ">"
				if m.section == "SYNOPSIS" {
					w = "#include " + w
				}
				e.word(w, false)
				i++
			}
		case "Lk":
			if plain(i + 1) {
				url := m.text(args[i+1])
				i++
				var text []string
				for ; plain(i + 1); i++ {
					text = append(text, m.text(args[i+1]))
				}
				if len(text) > 0 {
					e.word(strings.Join(text, " ")+":", false)
				}
				e.word(url, false)
			}
		case "Ex", "Rv":
			var names []string
			for ; i+1 < len(args); i++ {
				if w := args[i+1]; w != "-std" {
					names = append(names, m.text(w))
				}
			}
			if len(names) == 0 && m.name != "" {
				names = []string{m.name}
			}
			if a == "Ex" {
				e.word("The "+strings.Join(names, ", ")+" utility exits 0 on success, and >0 if an error occurs.", false)
			} else {
				for j := range names {
					names[j] += "()"
				}
				e.word("The "+strings.Join(names, ", ")+" function returns the value 0 if successful; otherwise the value -1 is returned and the global variable errno is set to indicate the error.", false)
			}
		case "St":
			if plain(i + 1) {
				s, ok := mdocStandards[args[i+1]]
				if !ok {
					s = m.text(args[i+1])
				}
				e.word(s, false)
				i++
			}
		case "Ux":
			e.word("UNIX", false)
		case "Bx":
			w := "BSD"
			if plain(i + 1) {
				w = m.text(args[i+1]) + "BSD"
				i++
				if plain(i + 1) {
					w += "-" + m.text(args[i+1])
					i++
				}
			}
			e.word(w, false)
		case "Fx", "Nx", "Ox", "Dx", "Bsx":
			e.word(mdocBSD[a], false)
			if plain(i + 1) {
				e.word(m.text(args[i+1]), false)
				i++
			}
		case "At":
			w := "AT&T UNIX"
			if plain(i+1) && mdocAT[args[i+1]] != "" {
				w = mdocAT[args[i+1]]
				i++
			}
			e.word(w, false)
		case "Ap":
			e.word("'", true)
			e.glue = true
		case "Ns":
			e.glue = true
		case "Pf":
			if i+1 < len(args) {
				e.word(m.text(args[i+1]), false)
				i++
				e.glue = true
			}
		case "Eo":
			if plain(i + 1) {
				e.word(m.text(args[i+1]), false)
				i++
			}
			e.glue = true
		case "Ec":
			if plain(i + 1) {
				e.word(m.text(args[i+1]), true)
				i++
			}
		case "Nd":
			e.word("—", false)
		case "Ta":
			e.word("|", false)
		case "An":
			if i+1 < len(args) && (args[i+1] == "-split" || args[i+1] == "-nosplit") {
				i++
			}
		case "Sm":
			if i+1 < len(args) && (args[i+1] == "on" || args[i+1] == "off") {
				m.smOff, m.smJoin = args[i+1] == "off", false
				i++
			}
		case "Ud":
			e.word("currently under development.", false)
		case "Bt":
			e.word("is currently in beta test.", false)
		case "Xo", "Xc", "Db":
		default:
			if q, ok := mdocEnclose[a]; ok {
				e.word(q[0], false)
				e.glue = true
				e.closers = append(e.closers, q[1])
			} else if o, ok := mdocOpen[a]; ok {
				e.word(o, false)
				e.glue = true
			} else if c, ok := mdocClose[a]; ok {
				e.word(c, true)
			}
			// the others (Em, Sy, Cm, Pa, …) only set a font: their
			// words follow as arguments
		}
	}
	e.closeAll()
}

func (e *mdocLine) closeAll() {
	for len(e.closers) > 0 {
		e.word(e.closers[len(e.closers)-1], true)
		e.closers = e.closers[:len(e.closers)-1]
	}
}

// manReader reads a manual page's lines: it keeps the strings and
// macros the page defines, follows its conditions, and gathers the
// words of the paragraph being read.
type manReader struct {
	b     builder
	h     *headings
	title string
	// buf is the paragraph's lines, each a builder: words written against
	// the last ones (.Sm off, \c) are appended, not copied with them
	// (200,000 words of .Sm off, 2.4 KB gzipped, took 23 s).
	buf []*strings.Builder
	// tagEnd is the length of buf when an mdoc item's tag (".It Fl L")
	// ended, -1 when none is open; xo: the tag goes on to .Xc.
	tagEnd int
	xo     bool
	smOff  bool // .Sm off: mdoc words are written without spaces
	smJoin bool // a word came since .Sm off
	attach bool // the next words go against the last (.Ns or \c ending a line)
	// nofill: the lines are set as they come (.nf, .EX, .Bd -literal,
	// .Dl), each a line of the paragraph, which keeps them (codeText)
	nofill  bool
	name    string
	section string // the .Sh (.SH) being read, for .In in SYNOPSIS
	fo      bool   // inside .Fo … .Fc
	foArgs  int
	lists   []string // the open .Bl lists' kinds (-bullet, -enum, …)
	enums   []int
	strs    map[string]string    // .ds
	macros  map[string][]string  // .de
	regs    map[string]*troffReg // .nr
	link    string               // the address of an open .UR or .MT
	lastIf  bool                 // the last .ie's condition, for .el
	refs    []refField           // the fields of an .Rs reference
	inRef   bool
	// lines to read: the page's, then those of macros being expanded
	// (innermost last); expanded counts lines expanded, within a budget.
	stack    [][]string
	expanded int
}

// maxManString bounds a string a page defines (.ds, .as): a page that
// appends a string to itself doubles it at each line.
const maxManString = 4 << 10

// clip is s cut to at most n bytes, at a character's start.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// maxManExpanded bounds the lines a page's macros may expand to: a page
// that defines a macro calling itself stops there.
const maxManExpanded = 1 << 20

func (m *manReader) text(s string) string { return troffTextStrings(s, m.strs, m.regs) }

// troffReg is a number register (.nr name value increment), which \n[name]
// prints and \n+[name] steps first: sensible-editor(1)'s numbered steps.
type troffReg struct{ val, inc int }

// setRegister reads .nr's arguments: a value, absolute or "+n"/"-n" from
// the register's own, and an increment; a value troff would compute (an
// expression, a unit) leaves the register as it was.
func (m *manReader) setRegister(args []string) {
	if len(args) < 2 {
		return
	}
	v, err := strconv.Atoi(args[1])
	if err != nil {
		return
	}
	r := m.regs[args[0]]
	if r == nil {
		r = &troffReg{}
		m.regs[args[0]] = r
	}
	if args[1][0] == '+' || args[1][0] == '-' {
		v += r.val
	}
	r.val = v
	if len(args) > 2 {
		if inc, err := strconv.Atoi(args[2]); err == nil {
			r.inc = inc
		}
	}
}

// next is the next line to read.
func (m *manReader) next() (string, bool) {
	for len(m.stack) > 0 {
		top := m.stack[len(m.stack)-1]
		if len(top) == 0 {
			m.stack = m.stack[:len(m.stack)-1]
			continue
		}
		m.stack[len(m.stack)-1] = top[1:]
		return top[0], true
	}
	return "", false
}

// peek is the line after, without reading it.
func (m *manReader) peek() (string, bool) {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if len(m.stack[i]) > 0 {
			return m.stack[i][0], true
		}
	}
	return "", false
}

// add puts words in the paragraph, against the last ones when against
// or after a line that asked for it.
func (m *manReader) add(words string, against bool) {
	if (against || m.attach) && len(m.buf) > 0 {
		m.buf[len(m.buf)-1].WriteString(words)
	} else {
		m.line(words)
	}
	m.attach = false
}

// line starts a line of the paragraph.
func (m *manReader) line(words string) {
	b := &strings.Builder{}
	b.WriteString(words)
	m.buf = append(m.buf, b)
}

func (m *manReader) flush() {
	var text strings.Builder
	for i, l := range m.buf {
		if i > 0 {
			text.WriteByte('\n')
		}
		text.WriteString(l.String())
	}
	if m.nofill {
		m.b.addCode(text.String(), m.h.path())
	} else {
		m.b.addText(text.String(), m.h.path())
	}
	m.buf = m.buf[:0]
	m.tagEnd, m.xo, m.attach = -1, false, false
}

// mdoc renders an mdoc line's words into the paragraph.
func (m *manReader) mdoc(args []string) {
	e := &mdocLine{m: m}
	join := m.smOff && m.smJoin && len(m.buf) > 0
	e.words(args)
	if e.started {
		m.add(e.b.String(), e.lead || join)
		m.smJoin = m.smOff
	}
	m.attach = m.attach || e.glue
}

// cond evaluates an .if or .ie condition as nroff (groff) would on a
// terminal, and returns the rest of the line.
func (m *manReader) cond(rest string) (bool, string) {
	rest = strings.TrimLeft(rest, " \t")
	neg := false
	if strings.HasPrefix(rest, "!") {
		neg, rest = true, rest[1:]
	}
	ok := false
	switch {
	case rest == "":
	case rest[0] == 'n' || rest[0] == 'o' || rest[0] == 'c':
		ok, rest = true, rest[1:]
	case rest[0] == 't' || rest[0] == 'e' || rest[0] == 'v':
		rest = rest[1:]
	case rest[0] == 'd' || rest[0] == 'r' || rest[0] == 'm' || rest[0] == 'F' || rest[0] == 'S':
		kind := rest[0]
		rest = strings.TrimLeft(rest[1:], " ")
		n, after, _ := strings.Cut(rest, " ")
		_, isStr := m.strs[n]
		_, isMacro := m.macros[n]
		ok, rest = kind == 'd' && (isStr || isMacro || mdocCallable[n]), after
	case rest[0] == '\'' || rest[0] == '"':
		d := rest[0]
		parts := strings.SplitN(rest[1:], string(d), 3)
		if len(parts) == 3 {
			ok, rest = m.text(parts[0]) == m.text(parts[1]), parts[2]
		}
	default:
		// a number or a register: groff's \n(.g is 1, every other 0
		end := strings.IndexAny(rest, " \t")
		if end < 0 {
			end = len(rest)
		}
		expr := rest[:end]
		ok = strings.HasPrefix(expr, `\n(.g`) || strings.HasPrefix(expr, `\n[.g]`) || strings.HasPrefix(expr, `\n[.g`)
		if !ok && expr != "" && expr[0] >= '1' && expr[0] <= '9' {
			ok = true
		}
		rest = rest[end:]
	}
	return ok != neg, strings.TrimLeft(rest, " \t")
}

// branch reads what a condition governs: the rest of the line when ok
// (a request, text, or the first line of a \{ … \} block), else nothing,
// skipping the block's lines.
func (m *manReader) branch(ok bool, rest string) {
	if ok {
		rest = strings.TrimPrefix(rest, `\{`)
		rest = strings.TrimSuffix(strings.TrimRight(rest, " "), `\}`)
		rest = strings.TrimLeft(rest, " ")
		if rest != "" && rest != `\` {
			m.stack = append(m.stack, []string{rest})
		}
		return
	}
	depth := strings.Count(rest, `\{`) - strings.Count(rest, `\}`)
	for depth > 0 {
		l, more := m.next()
		if !more {
			return
		}
		depth += strings.Count(l, `\{`) - strings.Count(l, `\}`)
	}
}

// define reads the lines of a .de macro (or .ig's ignored ones) up to
// its end: ".." or the name given (".de xx yy" ends at ".yy").
func (m *manReader) define(args []string, ignore bool) []string {
	end := "."
	if ignore && len(args) > 0 {
		end = args[0]
	} else if !ignore && len(args) > 1 {
		end = args[1]
	}
	var body []string
	for {
		l, more := m.next()
		if !more {
			return body
		}
		if len(l) > 0 && (l[0] == '.' || l[0] == '\'') && strings.TrimSpace(l[1:]) == end {
			return body
		}
		body = append(body, l)
	}
}

// call expands a macro the page defined: \$1 … its arguments, \\ one
// backslash.
func (m *manReader) call(body, args []string) {
	if m.expanded+len(body) > maxManExpanded || len(m.stack) > 64 {
		return
	}
	m.expanded += len(body)
	lines := make([]string, len(body))
	for i, l := range body {
		l = strings.ReplaceAll(l, `\\`, `\`)
		if strings.Contains(l, `\$`) {
			var b strings.Builder
			for j := 0; j < len(l); j++ {
				if l[j] == '\\' && j+2 < len(l) && l[j+1] == '$' {
					c := l[j+2]
					switch {
					case c >= '1' && c <= '9':
						if n := int(c - '1'); n < len(args) {
							b.WriteString(args[n])
						}
						j += 2
						continue
					case c == '*' || c == '@':
						b.WriteString(strings.Join(args, " "))
						j += 2
						continue
					}
				}
				b.WriteByte(l[j])
			}
			l = b.String()
		}
		lines[i] = l
	}
	m.stack = append(m.stack, lines)
}

func extractMan(text string) *Document {
	m := &manReader{h: &headings{}, tagEnd: -1, strs: map[string]string{}, macros: map[string][]string{}, regs: map[string]*troffReg{}}
	m.stack = [][]string{splitLines(text)}
	headingNext := 0 // a .SH without words names the next line
	inTable, tableFormat, tab := false, false, "\t"
	for {
		line, more := m.next()
		if !more {
			break
		}
		if strings.HasPrefix(line, `.\"`) || strings.HasPrefix(line, `'\"`) || strings.HasPrefix(line, `\"`) || line == "." || line == "'" {
			continue
		}
		if headingNext > 0 && !strings.HasPrefix(line, ".") {
			if t := cleanText(m.text(line)); t != "" {
				m.h.push(headingNext, t)
			}
			headingNext = 0
			continue
		}
		if inTable {
			switch {
			case strings.HasPrefix(line, ".TE"):
				inTable = false
				m.flush()
			case tableFormat:
				// tbl's options ("tab(;);") and formats, to a line ending
				// in a full stop.
				if t, ok := tblTab(line); ok {
					tab = t
				}
				tableFormat = !strings.HasSuffix(strings.TrimSpace(line), ".")
			case strings.HasPrefix(line, ".") || line == "_" || line == "=":
			default:
				m.flush()
				m.line(strings.Join(strings.Split(m.text(line), tab), " | "))
				m.flush()
			}
			continue
		}
		if !strings.HasPrefix(line, ".") && !strings.HasPrefix(line, "'") {
			cont := strings.HasSuffix(line, `\c`) && !strings.HasSuffix(line, `\\c`)
			if m.inRef {
				continue
			}
			m.add(m.text(line), false)
			m.attach = cont
			continue
		}
		name, rest, _ := strings.Cut(strings.TrimSpace(line[1:]), " ")
		name, rest = strings.TrimSpace(name), strings.TrimSpace(rest)
		if i := strings.Index(rest, `\"`); i >= 0 && name != "if" && name != "ie" && name != "el" {
			rest = rest[:i]
		}
		if name == "" || strings.HasPrefix(name, `\"`) {
			continue
		}
		if name[0] == '\\' && len(name) > 1 && name[1] == '}' {
			continue // the end of a condition's block
		}
		args := manArgs(rest)
		if body, ok := m.macros[name]; ok {
			m.call(body, args)
			continue
		}
		switch {
		case name == "if":
			ok, r := m.cond(rest)
			m.branch(ok, r)
		case name == "ie":
			ok, r := m.cond(rest)
			m.lastIf = ok
			m.branch(ok, r)
		case name == "el":
			m.branch(!m.lastIf, strings.TrimLeft(rest, " "))
		case name == "nr":
			m.setRegister(args)
		case name == "ds" || name == "ds1":
			if n, v, _ := strings.Cut(rest, " "); n != "" {
				v = strings.TrimPrefix(strings.TrimLeft(v, " "), `"`)
				m.strs[n] = clip(m.text(v), maxManString)
			}
		case name == "as" || name == "as1":
			if n, v, _ := strings.Cut(rest, " "); n != "" {
				v = strings.TrimPrefix(strings.TrimLeft(v, " "), `"`)
				m.strs[n] = clip(m.strs[n]+m.text(v), maxManString)
			}
		case name == "TH" || name == "Dt":
			if len(args) > 0 && m.title == "" {
				title := strings.ToLower(m.text(args[0]))
				if name == "TH" {
					title = m.text(args[0])
				}
				if len(args) > 1 {
					title += "(" + m.text(args[1]) + ")"
				}
				m.title = cleanText(title)
			}
		case name == "SH" || name == "Sh" || name == "SS" || name == "Ss":
			m.flush()
			m.nofill = false // as man's .SH and .SS do (.fi)
			lvl := 1
			if name == "SS" || name == "Ss" {
				lvl = 2
			}
			if len(args) == 0 {
				headingNext = lvl
				continue
			}
			t := cleanText(m.text(strings.Join(args, " ")))
			if lvl == 1 {
				m.section = t
			}
			if t != "" {
				m.h.push(lvl, t)
			}
		case name == "de" || name == "de1" || name == "am" || name == "am1":
			body := m.define(args, false)
			if len(args) > 0 {
				if name == "am" || name == "am1" {
					body = append(slices.Clip(m.macros[args[0]]), body...)
				}
				m.macros[args[0]] = body
			}
		case name == "ig":
			m.define(args, true)
		case name == "rm":
			for _, a := range args {
				delete(m.macros, a)
				delete(m.strs, a)
			}
		case name == "als" && len(args) == 2:
			if body, ok := m.macros[args[1]]; ok {
				m.macros[args[0]] = body
			}
		case name == "TS":
			m.flush()
			inTable, tableFormat, tab = true, true, "\t"
		case name == "Bl":
			m.flush()
			kind := ""
			for _, a := range args {
				switch a {
				case "-bullet", "-dash", "-hyphen", "-enum", "-column", "-item", "-tag", "-ohang", "-inset", "-diag", "-hang":
					kind = a
				}
			}
			m.lists = append(m.lists, kind)
			m.enums = append(m.enums, 0)
		case name == "El":
			m.flush()
			if len(m.lists) > 0 {
				m.lists, m.enums = m.lists[:len(m.lists)-1], m.enums[:len(m.enums)-1]
			}
		case name == "It":
			// Items whose tags stand one after the other share the
			// description after the last (".It Fl L Xo … .Xc" four times
			// in ssh(1)): one paragraph, every tag in it.
			if m.tagEnd < 0 || len(m.buf) != m.tagEnd {
				m.flush()
			}
			kind := ""
			if len(m.lists) > 0 {
				kind = m.lists[len(m.lists)-1]
			}
			switch kind {
			case "-bullet":
				m.add("•", false)
			case "-dash", "-hyphen":
				m.add("-", false)
			case "-enum":
				m.enums[len(m.enums)-1]++
				m.add(strconv.Itoa(m.enums[len(m.enums)-1])+".", false)
			default:
				m.mdoc(args)
			}
			m.xo = slices.Contains(args, "Xo")
			m.tagEnd = len(m.buf)
			if m.xo {
				m.tagEnd = -1
			}
		case name == "Xc":
			if m.xo {
				m.xo, m.tagEnd = false, len(m.buf)
			}
		case name == "Rs":
			m.flush()
			m.refs, m.inRef = m.refs[:0], true
		case name == "Re":
			m.inRef = false
			if len(m.refs) > 0 {
				m.add(reference(m.refs), false)
				m.flush()
			}
		case m.inRef && len(name) == 2 && name[0] == '%':
			m.refs = append(m.refs, refField{name[1], m.text(strings.Join(args, " "))})
		case name == "IP":
			// help2man writes an option's tag as a .HP paragraph of its
			// own and its description as the .IP after it: one entry.
			if len(args) > 0 || len(m.buf) != 1 || !strings.HasPrefix(strings.TrimSpace(m.buf[0].String()), "-") {
				m.flush()
			}
			if len(args) > 0 {
				m.add(m.text(args[0]), false)
			}
		case name == "nf" || name == "EX" || name == "fi" || name == "EE" || name == "Bd" || name == "Ed":
			// No-fill displays (man's .nf … .fi and .EX … .EE, mdoc's
			// .Bd -literal or -unfilled … .Ed) keep their lines, as a
			// person reads them: a command, an example, a synopsis.
			m.flush()
			m.nofill = name == "nf" || name == "EX" ||
				name == "Bd" && (slices.Contains(args, "-literal") || slices.Contains(args, "-unfilled"))
		case name == "Dl":
			// One line of literal text, displayed on its own line.
			m.flush()
			m.nofill = true
			m.mdoc(append([]string{name}, args...))
			m.flush()
			m.nofill = false
		case manParaMacros[name]:
			m.flush()
		case name == "B" || name == "I" || name == "R" || name == "SM" || name == "SB":
			if _, more := m.peek(); len(args) == 0 && more {
				continue // the next line is in that font: read it as it comes
			}
			m.add(m.text(strings.Join(args, " ")), false)
		case len(name) == 2 && strings.Trim(name, "BIR") == "":
			m.add(m.text(strings.Join(args, "")), false)
		case name == "SY":
			// groff's synopsis macros: .SY starts a command's synopsis
			// with its name, each .OP is an option and its argument in
			// brackets ("[--backup-to dir]"), .YS ends it.
			m.flush()
			m.add(m.text(strings.Join(args, " ")), false)
		case name == "OP" && len(args) > 0:
			m.add("["+m.text(strings.Join(args, " "))+"]", false)
		case name == "YS":
			m.flush()
		case name == "UR" || name == "MT":
			// A link (.UR url … .UE) or a mail address (.MT … .ME):
			// man prints its text, then the address in angle brackets.
			m.link = ""
			if len(args) > 0 {
				m.link = m.text(args[0])
			}
		case name == "UE" || name == "ME":
			if m.link != "" {
				m.add("⟨"+m.link+"⟩", false)
				m.link = ""
			}
			if w := m.text(strings.Join(args, " ")); w != "" {
				m.add(w, mdocDelim(args[0]) == 'c' || strings.HasPrefix(w, ".") || strings.HasPrefix(w, ","))
			}
		case name == "Sm":
			// Spacing off: the words that follow are written without
			// spaces ("-L bind_address:port:host:hostport").
			m.smOff, m.smJoin = len(args) > 0 && args[0] == "off", false
		case mdocCallable[name] || mdocInlineOnly[name]:
			m.mdoc(append([]string{name}, args...))
		}
	}
	m.flush()
	return &Document{Title: m.title, Paragraphs: m.b.paras}
}

// tblTab is the cell separator a tbl options line names: "tab(;);" or
// "allbox tab (@);" gives ";" or "@".
func tblTab(line string) (string, bool) {
	i := strings.Index(line, "tab")
	if i < 0 || strings.HasSuffix(strings.TrimSpace(line), ".") {
		return "", false
	}
	rest := strings.TrimLeft(line[i+3:], " ")
	if len(rest) < 3 || rest[0] != '(' {
		return "", false
	}
	_, size := utf8.DecodeRuneInString(rest[1:])
	if len(rest) < 2+size || rest[1+size] != ')' {
		return "", false
	}
	return rest[1 : 1+size], true
}

// troffChars are the special characters of \(xx and \[xx], by their names
// in groff_char(7), less the accented Latin letters troffChar composes.
// Minus and hyphen stay ASCII, as a person types an option ("-v"), and a
// ligature is its letters, as a person searches for them.
var troffChars = map[string]string{
	// Latin letters an accent does not compose, and ligatures
	"-D": "Ð", "Sd": "ð", "TP": "Þ", "Tp": "þ", "ss": "ß", "ff": "ff", "fi": "fi", "fl": "fl", "Fi": "ffi", "Fl": "ffl",
	"/L": "Ł", "/l": "ł", "/O": "Ø", "/o": "ø", "AE": "Æ", "ae": "æ", "OE": "Œ", "oe": "œ", "IJ": "Ĳ", "ij": "ĳ",
	".i": "ı", ".j": "ȷ",
	// accents alone
	`a"`: "˝", "a-": "¯", "a.": "˙", "a^": "^", "aa": "´", "ga": "`", "ab": "˘", "ac": "¸", "ad": "¨", "ah": "ˇ",
	"ao": "˚", "a~": "~", "ho": "˛", "ha": "^", "ti": "~",
	// quotes
	"Bq": "„", "bq": "‚", "lq": "“", "rq": "”", "oq": "‘", "cq": "’", "aq": "'", "dq": `"`, "Fo": "«", "Fc": "»",
	"fo": "‹", "fc": "›",
	// punctuation, brackets, lines
	"r!": "¡", "r?": "¿", "em": "—", "en": "–", "hy": "-", "--": "—", "lB": "[", "rB": "]", "lC": "{", "rC": "}",
	"la": "⟨", "ra": "⟩", "bv": "|", "ba": "|", "or": "|", "br": "│", "ul": "_", "ru": "_", "rn": "‾", "bb": "¦",
	"sl": "/", "rs": `\`,
	// arrows
	"<-": "←", "->": "→", "<>": "↔", "da": "↓", "ua": "↑", "va": "↕", "lA": "⇐", "rA": "⇒", "hA": "⇔", "dA": "⇓",
	"uA": "⇑", "vA": "⇕", "an": "⎯",
	// marks and symbols
	"ci": "○", "bu": "•", "dd": "‡", "dg": "†", "lz": "◊", "sq": "□", "ps": "¶", "sc": "§", "lh": "☜", "rh": "☞",
	"shc": "", "at": "@", "sh": "#", "CR": "↵", "OK": "✓", "co": "©", "rg": "®", "tm": "™", "CL": "♣", "SP": "♠", "HE": "♥",
	"DI": "♦",
	// currency and units
	"Do": "$", "ct": "¢", "eu": "€", "Eu": "€", "Ye": "¥", "Po": "£", "Cs": "¤", "Fn": "ƒ", "de": "°", "%0": "‰",
	"fm": "′", "sd": "″", "mc": "µ", "Of": "ª", "Om": "º",
	// logic and mathematics
	"AN": "∧", "OR": "∨", "no": "¬", "tno": "¬", "te": "∃", "fa": "∀", "st": "∋", "3d": "∴", "tf": "∴",
	"12": "½", "14": "¼", "34": "¾", "18": "⅛", "38": "⅜", "58": "⅝", "78": "⅞", "S1": "¹", "S2": "²", "S3": "³",
	"pl": "+", "mi": "-", "-+": "∓", "+-": "±", "t+-": "±", "pc": "·", "md": "⋅", "mu": "×", "tmu": "×", "c*": "⊗",
	"c+": "⊕", "di": "÷", "tdi": "÷", "f/": "⁄", "**": "*", "<=": "≤", ">=": "≥", "<<": "≪", ">>": "≫", "!=": "≠",
	"eq": "=", "==": "≡", "ne": "≢", "=~": "≅", "|=": "≃", "ap": "∼", "~~": "≈", "~=": "≈", "pt": "∝", "es": "∅",
	"mo": "∈", "nm": "∉", "sb": "⊂", "nb": "⊄", "sp": "⊃", "nc": "⊅", "ib": "⊆", "ip": "⊇", "ca": "∩", "cu": "∪",
	"/_": "∠", "pp": "⊥", "is": "∫", "integral": "∫", "sum": "∑", "product": "∏", "coproduct": "∐", "gr": "∇",
	"sr": "√", "sqrt": "√", "lc": "⌈", "rc": "⌉", "lf": "⌊", "rf": "⌋", "if": "∞", "Ah": "ℵ", "Im": "ℑ", "Re": "ℜ",
	"wp": "℘", "pd": "∂", "-h": "ℏ", "hbar": "ℏ",
	// Greek
	"*A": "Α", "*B": "Β", "*G": "Γ", "*D": "Δ", "*E": "Ε", "*Z": "Ζ", "*Y": "Η", "*H": "Θ", "*I": "Ι", "*K": "Κ",
	"*L": "Λ", "*M": "Μ", "*N": "Ν", "*C": "Ξ", "*O": "Ο", "*P": "Π", "*R": "Ρ", "*S": "Σ", "*T": "Τ", "*U": "Υ",
	"*F": "Φ", "*X": "Χ", "*Q": "Ψ", "*W": "Ω", "*a": "α", "*b": "β", "*g": "γ", "*d": "δ", "*e": "ε", "*z": "ζ",
	"*y": "η", "*h": "θ", "*i": "ι", "*k": "κ", "*l": "λ", "*m": "μ", "*n": "ν", "*c": "ξ", "*o": "ο", "*p": "π",
	"*r": "ρ", "*s": "σ", "ts": "ς", "*t": "τ", "*u": "υ", "*f": "φ", "*x": "χ", "*q": "ψ", "*w": "ω", "+h": "ϑ",
	"+f": "ϕ", "+p": "ϖ", "+e": "ϵ",
}

// troffAccents are the combining marks of groff's accented letters, by the
// character that names the accent before the letter: \('e is "é", \(vs
// "š", \(oa "å", \(,c "ç".
var troffAccents = map[byte]rune{'\'': '\u0301', '`': '\u0300', '^': '\u0302', ':': '\u0308', '~': '\u0303', 'v': '\u030C', ',': '\u0327', 'o': '\u030A'}

// troffChar is the text of the special character named n (\(n, \[n]), and
// whether troff knows it: a name of troffChars, an accent's character and a
// letter it composes with, or a code point, \[u00E2], with the marks that
// follow it, \[u0061_0302], or a Latin-1 code, \[char94].
func troffChar(n string) (string, bool) {
	if r, ok := troffChars[n]; ok {
		return r, true
	}
	if len(n) == 2 {
		if mark, ok := troffAccents[n[0]]; ok && (n[1] >= 'a' && n[1] <= 'z' || n[1] >= 'A' && n[1] <= 'Z') {
			if c := norm.NFC.String(string(rune(n[1])) + string(mark)); utf8.RuneCountInString(c) == 1 {
				return c, true
			}
		}
		return "", false
	}
	if code, ok := strings.CutPrefix(n, "char"); ok {
		if c, err := strconv.Atoi(code); err == nil && c > 0 && c < 256 {
			return string(rune(c)), true // \[char94] is "^": a code of Latin-1
		}
		return "", false
	}
	if len(n) < 5 || n[0] != 'u' {
		return "", false
	}
	var b strings.Builder
	for _, hex := range strings.Split(n[1:], "_") {
		r := unicodeEscape(hex)
		if r == "" {
			return "", false
		}
		b.WriteString(r)
	}
	return norm.NFC.String(b.String()), true
}

// troffStrings are the predefined strings of \*(xx and \*[xx].
var troffStrings = map[string]string{`L"`: "“", `R"`: "”", "--": "—", "PI": "π", "R": "®", "Tm": "™", "lq": "“", "rq": "”", "C+": "C++", "Ba": "|", "q": `"`, "Lq": "“", "Rq": "”"}

// troffTextStrings turns a line of troff text into plain text, with the
// strings a page defined (.ds).
func troffTextStrings(s string, defined map[string]string, regs map[string]*troffReg) string {
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
		case 'n':
			step := 0
			if i < len(s) && (s[i] == '+' || s[i] == '-') {
				step = 1
				if s[i] == '-' {
					step = -1
				}
				i++
			}
			var n string
			n, i = name(i)
			if r := regs[n]; r != nil {
				r.val += step * r.inc
				b.WriteString(strconv.Itoa(r.val))
			}
		case 'f', 'F', 'g', 'k', 'm', 'M', 'V', 'Y':
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
			if r, ok := troffChar(n); ok {
				b.WriteString(r)
			}
		case '*':
			n, j := name(i)
			i = j
			if v, ok := defined[n]; ok {
				b.WriteString(v)
			} else {
				b.WriteString(troffStrings[n])
			}
		case 'h':
			// a motion to the right shows as a space (docbook's list
			// numbers: \h'-04' 1.\h'+01'\c)
			j := quoted(i)
			if arg := strings.Trim(s[min(i+1, j):max(i+1, j-1)], " +"); arg != "" && arg[0] != '-' && strings.Trim(arg, "0.") != "" {
				b.WriteByte(' ')
			}
			i = j
		case 'v', 'w', 'o', 'l', 'L', 'Z', 'X', 'N', 'D', 'b', 'x', 'A', 'B', 'C', 'R', 'S':
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

// refField is a field of an mdoc reference (.Rs … .Re): its letter (A for
// %A, the author) and its text.
type refField struct {
	key  byte
	text string
}

// refOrder is the order in which man (groff's mdoc, as mandoc) prints a
// reference's fields, whatever their order in the page: authors, title,
// book, issuer, journal, report, number, volume, address, page, institution,
// city, date, optional.
const refOrder = "ATBIJRNVUPQCDO"

// reference is the text of a reference as man prints it: ssh-keyscan(1)'s
// ".%D 2006", ".%R RFC 4255", ".%T Using DNS …" reads "Using DNS …, RFC
// 4255, 2006."; two authors are joined with "and", more with commas and
// ", and" ("Ann One, Bob Two, and Cy Three"); a title is quoted only in a
// book or a journal. (Words of English, as man prints them.)
func reference(fields []refField) string {
	fields = slices.Clone(fields)
	slices.SortStableFunc(fields, func(a, b refField) int {
		return cmp.Compare(refRank(a.key), refRank(b.key))
	})
	var authors, parts []string
	inBook := slices.ContainsFunc(fields, func(f refField) bool { return f.key == 'B' || f.key == 'J' })
	for _, f := range fields {
		switch {
		case f.key == 'A':
			authors = append(authors, f.text)
		case f.key == 'T' && inBook:
			parts = append(parts, "“"+f.text+"”")
		default:
			parts = append(parts, f.text)
		}
	}
	switch n := len(authors); {
	case n == 2:
		parts = append([]string{authors[0] + " and " + authors[1]}, parts...)
	case n > 2:
		parts = append([]string{strings.Join(authors[:n-1], ", ") + ", and " + authors[n-1]}, parts...)
	case n == 1:
		parts = append([]string{authors[0]}, parts...)
	}
	return strings.Join(parts, ", ") + "."
}

// refRank is a field's place in refOrder; an unknown field goes last.
func refRank(key byte) int {
	if i := strings.IndexByte(refOrder, key); i >= 0 {
		return i
	}
	return len(refOrder)
}
