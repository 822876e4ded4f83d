package extractive

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
	"github.com/sponge-library/sponge/stages/draft/sentences"
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
// it has quote.MinWords words or more, no rule of neverStatement holds it
// (a code listing, a shell session, a table's row, a heading, a table of
// contents, a page's navigation line) and it reads as prose. Every
// extractive answer and summary asks this of each sentence.
func IsStatement(text string) bool { return isStatement(text, false) }

// isStatement is IsStatement of a whole sentence, or of a clause cut from
// a long one (Clauses): a clause ends at a comma or a semicolon, so the
// rules that read whether a text ends as a sentence does (sentenceRule)
// are not asked of it.
func isStatement(text string, clause bool) bool {
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
	return notStatement(text, clause) == "" && proseShare(prose) >= minProse
}

// A shapeRule is a kind of text that is never a statement, told by its
// shape: its symbols, its lines, its digits, its case. Scripts says which
// scripts the rule sees the shape in: a rule that reads letter case sees
// nothing in Chinese or Arabic, and a rule that reads an English word sees
// nothing in Russian; elsewhere it holds for none, and says so here
// rather than failing silently.
type shapeRule struct {
	Name, Scripts string
	Is            func(text string) bool
	// Sentence: the rule reads whether a text ends as a sentence does
	// (sentences.Ends), and is asked of whole sentences only, not of a
	// clause cut from one.
	Sentence bool
}

// neverStatement are the rules of what is never quoted as a statement, in
// any language (each with its table test in statement_test.go).
var neverStatement = []shapeRule{
	{"a navigation line", "Latin (English link words: Next, Previous, Up, [Contents])", isNavigation, false},
	{"a table's row", "any (cells joined by \" | \", as sponge saves a row of HTML, Markdown, man, office, reStructuredText and Org tables; a row of Thai, Lao or Khmer, which write no sentence end, only of three cells or more)", isTableRow, true},
	{"a code listing", "any (it reads lines and code's ASCII marks)", isListing, false},
	{"code that lost its lines", "any (code's ASCII marks)", isFlatCode, false},
	{"numbered lines of code", "any (line numbers in any script's digits, code's ASCII marks)", isNumberedCode, true},
	{"TeX code", "any (TeX's control words are ASCII)", isTeXCode, false},
	{"a shell session", "any (a prompt of $, # or user@host before a command; an interpreter's >>>)", isShellSession, false},
	{"a table of keys", "Latin (C-b, M-x, ^X, Ctrl-a)", func(text string) bool { return keys(text) >= maxKeys }, false},
	{"a table's header", "scripts with letter case (Latin, Cyrillic, Greek, Armenian); none in others", isTableHeader, false},
	{"a table of contents", "any for dot leaders and numbers of three levels (2.1.1); page numbers and two-level numbers before a capital only in scripts with letter case", isContents, true},
	{"a table's row of numbers", "any but Thai, Lao and Khmer, which write no sentence end (any script's digits)", isNumberRow, true},
	{"a table's row of keys", "any but Thai, Lao and Khmer, which write no sentence end (paths, options and patterns in ASCII)", isKeyRow, true},
	{"a table's row of commands", "scripts with letter case (a quoted command, then a capital opening the next cell's description)", isCommandRow, false},
	{"a table's empty cells", "any that writes a comma (a lone \",\" is an empty cell of a PDF's table)", isEmptyCells, false},
	{"a record of fields", "any that writes a colon after a word (: or ：); not Thai, Lao and Khmer, which write no sentence end", isFieldRecord, true},
	{"a piece of a sentence", "scripts with letter case (a small letter first); none in others", isPiece, true},
	{"a heading", "any when numbered (2.1, §3, IV., 第二章, 제2장, 一、; a caption's Table 2: in scripts with letter case); title case and a box's title (NOTE More profiles) in scripts with letter case; short Chinese, Japanese and Korean lines; any between MediaWiki's equals signs (== Kultur ==)", isHeading, true},
}

// NotStatement names the rule of neverStatement that holds text ("a
// heading"), "" when none does.
func NotStatement(text string) string { return notStatement(text, false) }

// notStatement is NotStatement of a sentence, or of a clause without the
// rules that read a sentence's end.
func notStatement(text string, clause bool) string {
	text = strings.TrimSpace(text)
	for _, r := range neverStatement {
		if clause && r.Sentence {
			continue
		}
		if r.Is(text) {
			return r.Name
		}
	}
	return ""
}

// cellSep is how sponge's readers join a table's cells into one
// paragraph (internal/library/extract: "sudo | execute sudo without their
// password").
const cellSep = " | "

// minCellSentence is the fewest words of a cell that is a sentence of
// prose, "dev=tmpfs | The device hosting the target object is a tmpfs".
const minCellSentence = 6

// isTableRow reports whether text is a table's row as sponge saves one,
// its cells joined by " | ": a key and its description ("sudo | execute
// sudo without their password", "Pin-Priority | apt-pinning effects to
// the package"), a package's line ("smartmontools | V:189, I:236 | 2199 |
// control and monitor …"). A row of two cells whose second is a sentence
// of prose (it ends as a sentence does and has minCellSentence words or
// more) may stay: it reads as a term and its definition ("dev=tmpfs | The
// device hosting the target object is a tmpfs …"), and so does a sentence
// that names a shell's pipe ("the "ps aux | grep exim4" command above
// enables grep to …"). Of the 2,117 paragraphs with cells in the Debian
// Reference and the Debian Handbook, 54 hold such a cell. A row of Thai,
// Lao or Khmer, which write no sentence end, is a row when it has three
// cells or more.
func isTableRow(text string) bool {
	cells := tableCells(text)
	switch {
	case len(cells) < 2:
		return false
	case len(cells) > 2:
		return true
	case writesNoEnd(text):
		return false
	}
	last := strings.TrimSpace(cells[1])
	return !(sentences.Ends(last) && len(strings.Fields(last)) >= minCellSentence)
}

// tableCells cuts text at each cellSep that stands outside quotes and
// brackets: the pipe of a command quoted in prose ("the "ps aux | grep
// exim4" command", "(denoted by the | character)") joins no cells.
func tableCells(text string) []string {
	var cells []string
	depth, straight, start := 0, false, 0
	for i, r := range text {
		switch r {
		case '"':
			straight = !straight
		case '“', '«', '(', '[', '「':
			depth++
		case '”', '»', ')', ']', '」':
			depth = max(0, depth-1)
		case '|':
			// An empty cell (" | | ") shares its space with the cellSep
			// before it: the cell ends where it starts.
			if !straight && depth == 0 && strings.HasPrefix(text[max(0, i-1):], cellSep) {
				cells = append(cells, text[start:max(start, i-1)])
				start = i + 2
			}
		}
	}
	return append(cells, text[min(start, len(text)):])
}

// isNumberedCode reports whether text is lines of code with their numbers,
// flattened into one line, as a program's documented source prints them
// ("78 \ifnum\col@number>20 79 \PackageError{multicol}% …"): two or more
// line numbers that count up by one, standing alone as words, with a word
// of code's marks between them. A sentence that names two numbers in a row
// ("pages 78 and 79") holds no code.
func isNumberedCode(text string) bool {
	fields := strings.Fields(text)
	prev, code, runs := -1, false, 0
	for _, w := range fields {
		n, ok := lineNumber(w)
		switch {
		case ok && prev >= 0 && n == prev+1 && code:
			runs++
			prev, code = n, false
		case ok:
			prev, code = n, false
		case strings.ContainsAny(w, codeChars):
			code = true
		}
	}
	if runs >= 1 {
		return true
	}
	// An index of a program's source, one line: "for balancing 23
	// \c@minrows: Provide minrows counter for".
	for i, w := range fields[:max(0, len(fields)-1)] {
		if _, ok := lineNumber(w); ok && controlWord(fields[i+1]) && !sentences.Ends(text) {
			return true
		}
	}
	return false
}

// controlWord: a word that starts with a TeX control word, "\c@minrows:".
func controlWord(w string) bool {
	return len(w) > 1 && w[0] == '\\' && (isASCIILetter(w[1]) || w[1] == '@')
}

// codeChars are marks that prose seldom writes inside a word and code
// does: TeX's backslash, braces, a comment's percent after a brace …
const codeChars = "\\{}@;=<>|"

// lineNumber reads w as a whole number of at most five digits of any
// script.
func lineNumber(w string) (int, bool) {
	if w == "" || utf8.RuneCountInString(w) > 5 {
		return 0, false
	}
	n := 0
	for _, r := range w {
		d := digitValue(r)
		if d < 0 {
			return 0, false
		}
		n = 10*n + d
	}
	return n, true
}

// digitValue is the value of a decimal digit of any script, -1 for any
// other rune.
func digitValue(r rune) int {
	if !unicode.IsDigit(r) {
		return -1
	}
	// Unicode's decimal digits come in runs of ten, zero first (some runs
	// of ten stand side by side: the mathematical digits).
	z := r
	for unicode.IsDigit(z - 1) {
		z--
	}
	return int(r-z) % 10
}

// isTeXCode reports whether text is TeX or LaTeX code rather than prose
// about it: three or more words hold a control word (a backslash and a
// letter: \usepackage, \col@number) and they are two fifths of its words,
// or two or more words are a control word and a colon, as an index or a
// change log of a package's source labels its entries ("\docolaction:
// Support star … \balance@columns: Provide minrows counter"). "Add
// \UseRawInputEncoding as the first line" names one.
func isTeXCode(text string) bool {
	fields := strings.Fields(text)
	n, labels := 0, 0
	for _, w := range fields {
		if i := strings.IndexByte(w, '\\'); i >= 0 && i+1 < len(w) && (isASCIILetter(w[i+1]) || w[i+1] == '@') {
			n++
		}
		if controlWord(w) && strings.HasSuffix(w, ":") {
			labels++
		}
	}
	return n >= 3 && 5*n >= 2*len(fields) || labels >= 2
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isShellSession reports whether text is a shell session: it opens with a
// prompt ("$ tar -xf …", "# apt-get update", "user@host:~$ ls") and a
// command in ASCII lower case, or holds two prompts with a command after
// each ("$ cd src $ make"). A prompt's sign alone in prose ("costs $ 5")
// is followed by no command. An interactive interpreter's session opens
// with its prompt, ">>>" (Python's), before any code (">>> f.seek(5)",
// ">>> # The argument to repr() may be any Python object:"): prose never
// opens with it.
func isShellSession(text string) bool {
	fields := strings.Fields(text)
	if len(fields) > 1 && fields[0] == ">>>" {
		return true
	}
	prompts := 0
	for i, w := range fields {
		if i+1 >= len(fields) || !isCommand(fields[i+1]) {
			continue
		}
		if w == "$" || w == "#" && i == 0 || promptOf(w) {
			if i == 0 {
				return true
			}
			prompts++
		}
	}
	return prompts >= 2
}

// isCommand: a program's name as a shell reads it, ASCII lower case,
// digits, dots, dashes and slashes ("apt-get", "./configure", "sudo").
func isCommand(w string) bool {
	if w == "" || !(w[0] >= 'a' && w[0] <= 'z' || w[0] == '.' || w[0] == '/') {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '/') {
			return false
		}
	}
	return true
}

// promptOf: a prompt naming its user and host, "user@host:~$" or
// "root@box:/etc#".
func promptOf(w string) bool {
	at := strings.IndexByte(w, '@')
	colon := strings.IndexByte(w, ':')
	return at > 0 && colon > at && (strings.HasSuffix(w, "$") || strings.HasSuffix(w, "#"))
}

// minQuotedCells is the fewest quoted commands, each followed by the next
// cell's description, of a table's row of commands.
const minQuotedCells = 2

// isCommandRow reports whether text is a table of what to do and the
// command that does it, flattened into one line as a PDF saves it: a
// description, its command in quotes, the next description opening with a
// capital ("Unset job environment ”variable” ”systemctl unset-environment
// variable” Reload all unit files and daemons ”systemctl daemon-reload”
// Shut down the system ”systemctl poweroff”"). Prose quotes a command and
// goes on in lower case or with a mark ("type ”reset” at the command
// prompt", "”Settings” → ”Region & Language”"). Scripts with letter case.
func isCommandRow(text string) bool {
	fields := strings.Fields(text)
	quotes, cells := 0, 0
	for i, w := range fields {
		quotes += strings.Count(w, "”") + strings.Count(w, "\"")
		if i+1 < len(fields) && (strings.HasSuffix(w, "”") || strings.HasSuffix(w, "\"")) && len(w) > len("”") {
			next := []rune(fields[i+1])
			if len(next) >= 2 && unicode.IsUpper(next[0]) && unicode.IsLower(next[1]) {
				cells++
			}
		}
	}
	return cells >= minQuotedCells && quotes >= 2*(minQuotedCells+1)
}

// isEmptyCells reports whether text holds a table's empty cells as a PDF
// flattens them, a comma standing alone twice or more ("New Packages , ,
// Installed Packages , ,", "wpasupplicant V:332, I:486 3851 , , client
// support for WPA"): prose writes a comma after a word.
func isEmptyCells(text string) bool {
	n := 0
	for _, w := range strings.Fields(text) {
		if w == "," {
			n++
		}
	}
	return n >= 2
}

// isTableHeader reports whether text holds a table's header flattened into
// a line: three or more words in a row written in capitals only, making a
// third of its words or more ("NUMBER DATE DESCRIPTION NAME Debian
// Reference iv", "ИМЯ ДАТА ОПИСАНИЕ НОМЕР"). It sees only scripts with
// letter case; a sentence with an acronym or two ("NASA and ESA") is not
// one.
func isTableHeader(text string) bool {
	fields := strings.Fields(text)
	run, best, caps := 0, 0, 0
	for _, w := range fields {
		if isCapitals(w) {
			run++
			caps++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best >= 3 && 3*caps >= len(fields)
}

// isCapitals: a word of two letters or more, all of them capitals.
func isCapitals(w string) bool {
	w = strings.Trim(w, ",;:()[]\"'")
	letters := 0
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
		if !unicode.IsUpper(r) {
			return false
		}
		letters++
	}
	return letters >= 2
}

// isNumberRow reports whether text is a table's row of numbers, not a
// sentence: it does not end as a sentence does (sentences.Ends), and three
// or more of its words, two fifths of them or more, are numbers in any
// script's digits ("aptitude V:4 I:62 4455 3.2", "2019 4,1 3,8 2,9"), or
// three of them stand in a row, the cells between a table's name and its
// description ("mercurial V:5, I:37 2013 Mercurial distributed DVCS in
// Python and some C"). A row that ends as a sentence does ("jfsutils V:0,
// I:10 1577 utilities for the JFS filesystem.") is left alone: prose
// writes numbers in a row too ("Sept 25, 1997, 160 921 participants"). A
// number one more than the one before it does not lengthen a row: it
// counts citations ("recruitment9 10 11 12 13 14 ;") or lines.
func isNumberRow(text string) bool {
	if sentences.Ends(text) || writesNoEnd(text) {
		return false
	}
	fields := strings.Fields(text)
	n, run, best, prev := 0, 0, 0, -2
	for _, w := range fields {
		if !isNumberish(w) {
			run, prev = 0, -2
			continue
		}
		n++
		v, ok := lineNumber(w)
		if !ok || v != prev+1 {
			run++
		}
		best = max(best, run)
		if prev = -2; ok {
			prev = v
		}
	}
	return n >= 3 && (5*n >= 2*len(fields) || best >= 3)
}

// minFields is the fewest fields ("Package:", "Pin:", "Pin-Priority:")
// that make a text a record of fields.
const minFields = 3

// isFieldRecord reports whether text is a record of fields flattened into
// a line, as a configuration file or a control file writes one: it does
// not end as a sentence does, and minFields or more of its words, a third
// of them or more, are a field's name, a word of letters and a colon
// ("Package: debian-reference-common Pin: release a=unstable
// Pin-Priority: 700", "Archive: experimental Origin: Debian Label:
// Debian", "软件包：debian-reference-zh 版本：2.100 优先级：可选"). A
// sentence that names a field or two ("Note: the Pin: line comes first.")
// ends as a sentence does. A list of measures or an infobox, whose values
// run to several words each, is left to the drafter's other rules: a fifth
// of the words refused one more question of en-tydiqa's tuning half, whose
// answer, "60lb", stands in "Oats: US: 32lb[4] (14.5150kg) Canada: …
// Wheat at 13.5% moisture by weight: 60lb[4] …". A record whose values
// are sentences is one too when it has more than minFields fields and
// names one of them twice, not in lower case (a field's name is a
// capitalised word where letters have case), as records of one kind do,
// one after another ("Explanation: The package … provided Explanation: in
// experimental can be used safely Package: xserver-xorg-video-intel Pin:
// release a=experimental Pin-Priority: 500"); a list of measures names its
// capitalised fields once (it writes "by weight:" twice).
func isFieldRecord(text string) bool {
	if sentences.Ends(text) || writesNoEnd(text) {
		return false
	}
	fields := strings.Fields(text)
	n, again := 0, false
	seen := map[string]bool{}
	for _, w := range fields {
		// Chinese and Japanese write no space after their full-width
		// colon: "版本：2.100".
		name, ok := strings.CutSuffix(w, ":")
		if !ok {
			name, _, ok = strings.Cut(w, "：")
		}
		r, _ := utf8.DecodeRuneInString(name)
		if ok && unicode.IsLetter(r) && strings.IndexFunc(name, func(r rune) bool { return !isWordRune(r) && r != '-' && r != '_' }) < 0 {
			n++
			again = again || seen[name] && !unicode.IsLower(r)
			seen[name] = true
		}
	}
	return n >= minFields && (3*n >= len(fields) || again && n > minFields)
}

// minKeyRow is the fewest words of a table's row of keys: a shorter text
// that does not end as a sentence is a heading or a list's item.
const minKeyRow = 8

// isKeyRow reports whether text is rows of a table whose cells are keys
// and their descriptions, flattened into a line: it does not end as a
// sentence does (sentences.Ends), has minKeyRow words or more, and a key
// stands inside it, after its first two words: a path, an option, a
// pattern ("… on this SSH server ~/.ssh/id_rsa secret SSH-2 RSA key of the
// user", "… of type ~DB[type:]pattern match packages …"). A manual's
// entry opens with its key and ends as a sentence. Thai, Lao and Khmer,
// which write no sentence end, are left alone.
func isKeyRow(text string) bool {
	if sentences.Ends(text) || strings.HasSuffix(text, ":") {
		return false
	}
	fields := strings.Fields(text)
	if len(fields) < minKeyRow {
		return false
	}
	if writesNoEnd(text) {
		return false
	}
	for _, w := range fields[2:] {
		if isKey(w) {
			return true
		}
	}
	return false
}

// isKey: a table's key in ASCII: a path ("~/.ssh/id_rsa", "/etc/fstab"),
// a long option ("--config"), an aptitude pattern ("~DB[type:]pattern").
// Not a pronunciation between slashes ("/ˈlʌndən/") nor a citation.
func isKey(w string) bool {
	if len(w) < 3 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return false
		}
	}
	switch {
	case strings.HasPrefix(w, "--"):
		return isASCIILetter(w[2])
	case w[0] == '~':
		return w[1] == '/' || isASCIILetter(w[1]) && unicode.IsUpper(rune(w[1]))
	case w[0] == '/':
		return strings.Count(w, "/") >= 2 && !strings.HasSuffix(w, "/")
	}
	return false
}

// writesNoEnd reports whether text is in a script that writes no
// sentence end (Thai, Lao, Khmer): that it does not end as a sentence
// does tells nothing there.
func writesNoEnd(text string) bool {
	for _, r := range text {
		if unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer) {
			return true
		}
	}
	return false
}

// isNumberish: a word of digits with at most the marks numbers are written
// with (3.5, 1,000, 20%, V:4, 12/05).
func isNumberish(w string) bool {
	digits, other := 0, 0
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			digits++
		case strings.ContainsRune(".,:%/-+()", r):
		default:
			other++
		}
	}
	return digits > 0 && other <= 1
}

// leader is a table of contents' dot leader between a title and its page.
var leaders = []string{". . . .", "....", "…", "·····", "．．．"}

// isContents reports whether text is (or holds) a table of contents: a dot
// leader before a page number ("The new default . . . . . 2"), two section
// numbers or more each before a title ("2.1.1 What is wrong … 23 2.1.2
// Live systems …"), or, in a text that does not end as a sentence does,
// two page numbers or more each after a title ("The new default 2
// Compatibility 2 BOM: byte order mark handling 2").
func isContents(text string) bool {
	for _, l := range leaders {
		if i := strings.Index(text, l); i >= 0 {
			rest := strings.TrimLeft(text[i:], ". …·．")
			if r, _ := utf8.DecodeRuneInString(rest); unicode.IsDigit(r) || isRomanPage(rest) {
				return true
			}
		}
	}
	fields := strings.Fields(text)
	n, pages := 0, 0
	for i, w := range fields {
		// A title after a page number starts with a capital; in a script
		// without letter case a number before a word is no page's.
		next := i+1 == len(fields) || startsUpper(fields[i+1])
		if i+1 < len(fields) && sectionNumber(w) && (strings.Count(strings.TrimSuffix(w, "."), ".") >= 2 ||
			strings.Contains(w, ".") && startsUpper(fields[i+1])) {
			n++
		}
		if _, ok := lineNumber(w); ok && i > 0 && next {
			pages++
		}
	}
	return n >= 2 || pages >= 2 && !sentences.Ends(text)
}

// isRomanPage: a page number in roman numerals, as a book's front matter
// has them ("iv", "xii").
func isRomanPage(s string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return w != "" && strings.Trim(strings.ToLower(w), "ivxlc") == ""
}

// sectionNumber: a section's number, "2", "2.1", "2.1.1." in any
// script's digits.
func sectionNumber(w string) bool {
	w = strings.TrimSuffix(w, ".")
	if w == "" {
		return false
	}
	for _, part := range strings.Split(w, ".") {
		if _, ok := lineNumber(part); !ok || utf8.RuneCountInString(part) > 3 {
			return false
		}
	}
	return true
}

// startsTitle: a word that may open a title: a capital in scripts with
// letter case, any letter in scripts without it.
func startsTitle(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) || unicode.IsLetter(r) && !unicode.IsLower(r)
}

// maxHeadingWords is the most words of a heading: a longer text that does
// not end as a sentence does is a sentence whose end was lost.
const maxHeadingWords = 14

// isHeading reports whether text is a heading, not a sentence: it does not
// end as a sentence does (sentences.Ends), is short, and is numbered as a
// section is ("2.1.1 What is wrong with current live systems", "3.2
// Установка пакетов", "§ 4 Scope", "IV. Results", "第二章 安装", "제2장
// 설치", "一、概述"), or written in title case in a script with letter case
// ("Changes to Packages in the Tools Category"), or a short line of
// Chinese, Japanese or Korean (they end their sentences with 。 or a full
// stop). Thai, which writes no sentence end, has only numbered headings.
// A heading between MediaWiki's runs of equals signs ("=== Kultur ===") is
// one in any script.
func isHeading(text string) bool {
	if sentences.Ends(text) || strings.HasSuffix(text, ":") || strings.HasSuffix(text, "：") {
		return false
	}
	fields := strings.Fields(text)
	if len(fields) == 0 || len(fields) > maxHeadingWords {
		return false
	}
	if numbered(fields) || titleCase(fields) || boxTitle(fields) || wikiTitle(fields) {
		return true
	}
	return utf8.RuneCountInString(text) <= 20 && cjkShare(text) >= 0.5
}

// wikiTitle reports whether words are a heading as MediaWiki writes one,
// between runs of two or more equals signs ("=== 2. Weltkrieg ===",
// "==== Museo Frida Kahlo ====").
func wikiTitle(fields []string) bool {
	equals := func(w string) bool { return len(w) >= 2 && strings.Trim(w, "=") == "" }
	return len(fields) >= 3 && equals(fields[0]) && equals(fields[len(fields)-1])
}

// isPiece reports whether text is a piece of a sentence rather than one:
// it opens with a small letter and does not end as a sentence does, nor
// with a colon (an announcing sentence, see introduces) or a semicolon
// (an item of a list, a clause that ends there). A PDF cuts a
// sentence where a column or a page ends ("documents using only ascii in
// the input file and", the rest after a page's footer), and flattens a
// table's row into a line of its cells ("sudo execute sudo without their
// password lpadmin execute commands to add, modify, and remove printers
// from printer databases"). Scripts with letter case only; a manual
// page's NAME line ("scp — OpenSSH secure file copy": a name, a dash,
// what it is; nameBefore) says what the command is and is left alone. A clause cut
// from a long sentence (Clauses) is not asked.
func isPiece(text string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimLeft(text, "\"'“‘«(["))
	if !unicode.IsLower(r) || sentences.Ends(text) || strings.HasSuffix(text, ":") || strings.HasSuffix(text, "：") || strings.HasSuffix(text, ";") {
		return false
	}
	for _, dash := range []string{" - ", " — ", " – "} {
		if i := strings.Index(text, dash); i >= 0 && nameBefore(text[:i]) {
			return false
		}
	}
	return true
}

// isCell reports whether sentence, under heading, is a table's cell or a
// row of cells: a PDF's reader saves a table's header as the heading of
// the cells under it ("package popcon size command description"), each
// cell or row a paragraph ("SSH server (secure)", "Unix System V style
// archiver, use with find(1)"), and a cell does not end as a sentence
// does. A header is told from a section's heading by its first letter, a
// small one (a section's is a capital or its number: "10.2.1 Backup and
// recovery policy"); a sentence that ends as one is quoted under any
// heading. Scripts with letter case; a manual's entry for an option
// ("-k, --key=KEYDEF sort via a key") is no cell.
func isCell(heading, sentence string) bool {
	if i := strings.LastIndex(heading, "›"); i >= 0 {
		heading = heading[i+len("›"):]
	}
	heading = strings.TrimSpace(heading)
	r, _ := utf8.DecodeRuneInString(heading)
	if !unicode.IsLower(r) || len(strings.Fields(heading)) < 2 || sentences.Ends(heading) {
		return false
	}
	sentence = strings.TrimSpace(sentence)
	if opts, _ := keywords.LeadingOptions(sentence); len(opts) > 0 {
		return false
	}
	return !sentences.Ends(sentence) && !strings.HasSuffix(sentence, ":")
}

// isNameLine reports whether text is a manual page's NAME line: the
// commands' names (nameBefore, each a command as a shell reads it), a
// dash, and what they are or do, with no sentence end ("tar - an
// archiving utility", "grep, egrep, fgrep, rgrep - print lines that match
// patterns", "ssh-keygen — OpenSSH authentication key utility").
func isNameLine(text string) bool {
	text = strings.TrimSpace(text)
	if sentences.Ends(text) {
		return false
	}
	for _, dash := range []string{" - ", " — ", " – "} {
		i := strings.Index(text, dash)
		if i <= 0 || !nameBefore(text[:i]) {
			continue
		}
		names := true
		for _, w := range strings.Fields(text[:i]) {
			names = names && isCommand(strings.TrimSuffix(w, ","))
		}
		return names && strings.TrimSpace(text[i+len(dash):]) != ""
	}
	return false
}

// maxNameWords is the most words before a manual page's NAME line's dash:
// the names it documents ("grep, egrep, fgrep, rgrep - print lines that
// match patterns").
const maxNameWords = 4

// nameBefore reports whether text, before a dash, is the names of a
// manual page's NAME line: a few words and no colon. A table's row
// flattened into a line ("documentation packages: no special requirements
// – interpreter program packages: …") has keys and their colons before
// its dash.
func nameBefore(text string) bool {
	return len(strings.Fields(text)) <= maxNameWords && !strings.ContainsAny(text, ":：")
}

// boxTitle reports whether words are the title of a box beside the text,
// as DocBook writes a note, a tip or a sidebar: its kind in capitals, then
// its title from a capital ("NOTE More AppArmor profiles", "BACK TO BASICS
// To each computer, its architecture", "ANMERKUNG Weitere
// AppArmor-Profile"), or two words of capitals, then its title in any
// case ("SPECIAL CASE cron and daylight savings time"). Scripts with
// letter case; an acronym that opens a sentence goes on in lower case or
// with a number ("NASA launched …", "USB 3.0 …") and is no box's title.
func boxTitle(fields []string) bool {
	caps, long := 0, false
	for _, w := range fields {
		letters, upper := 0, 0
		for _, r := range w {
			if unicode.IsLetter(r) {
				letters++
				if unicode.IsUpper(r) {
					upper++
				}
			}
		}
		if letters < 2 || upper != letters || letters != utf8.RuneCountInString(w) {
			break
		}
		caps++
		long = long || letters >= 3
	}
	if caps == 0 || caps == len(fields) || !long {
		return false
	}
	next := fields[caps]
	r, _ := utf8.DecodeRuneInString(next)
	if caps >= 2 && unicode.IsLower(r) {
		// Two words of capitals name the box's kind, whatever follows:
		// "SPECIAL CASE cron and daylight savings time".
		return true
	}
	return unicode.IsUpper(r) && strings.IndexFunc(next, unicode.IsLower) > 0
}

// numbered reports whether a heading's words open with a section's number.
func numbered(fields []string) bool {
	first := fields[0]
	if len(fields) > 1 && gluedSection(first) {
		return true
	}
	if len(fields) > 1 && (sectionNumber(first) || first == "§" || isRoman(first) && strings.HasSuffix(first, ".")) {
		// A number of two levels or more heads a section whatever word
		// follows: "4.7.1. sudo", a command's name.
		return startsTitle(fields[1]) || unicode.IsDigit([]rune(fields[1])[0]) || sectionNumber(first) && strings.Contains(strings.TrimSuffix(first, "."), ".")
	}
	// A chapter's, section's or part's name and its number, in a script
	// with letter case: "Chapter 11. Data conversion", "Глава 3. Пакеты",
	// "Appendix B. Tips"; a caption's, its number before a colon too:
	// "Table 1.22: Command exit codes", "Table 2: Text symbols formerly
	// from the textcomp package" (quoted first over the Debian Reference
	// and LaTeX News).
	num := ""
	if len(fields) > 2 {
		num = strings.TrimSuffix(fields[1], ":")
	}
	if len(fields) > 2 && startsTitle(first) && unicode.IsUpper([]rune(first)[0]) && (sectionNumber(num) || isRoman(num) || utf8.RuneCountInString(num) == 2 && unicode.IsUpper([]rune(num)[0])) && (strings.HasSuffix(fields[1], ".") || num != fields[1]) {
		return true
	}
	if strings.HasPrefix(first, "§") {
		return true
	}
	// 第二章, 第3节, 제2장: a chapter's or section's number in Chinese,
	// Japanese and Korean; 一、 a numbered point in Chinese.
	rs := []rune(first)
	if len(rs) >= 3 && (rs[0] == '第' || rs[0] == '제') && strings.ContainsRune("章節节篇部장절편", rs[len(rs)-1]) {
		return true
	}
	if i := strings.IndexRune(first, '、'); i > 0 {
		return strings.Trim(first[:i], "一二三四五六七八九十百0123456789") == ""
	}
	return false
}

// gluedSection reports whether w is a section's number of two levels or
// more glued to the capitalised word of its title (a capital, then small
// letters: not a unit, "1.5Mb of memory"): a PDF's list of
// tables loses the space after a wide number ("10.10List of source code
// merge tools 193", "12.16List of build tool packages 228": 23 lines of
// the Debian Reference, one quoted first for "Does range() build a list
// in memory?"). Scripts with letter case (the title's capital).
func gluedSection(w string) bool {
	i := strings.IndexFunc(w, func(r rune) bool { return r != '.' && !unicode.IsDigit(r) })
	if i <= 0 {
		return false
	}
	num, rest := w[:i], []rune(w[i:])
	return sectionNumber(num) && strings.Contains(strings.TrimSuffix(num, "."), ".") &&
		len(rest) >= 3 && unicode.IsUpper(rest[0]) && unicode.IsLower(rest[1]) && unicode.IsLower(rest[2])
}

// isRoman: a number in capital roman numerals with its full stop, "IV.".
func isRoman(w string) bool {
	w = strings.TrimSuffix(w, ".")
	return w != "" && strings.Trim(w, "IVXLC") == ""
}

// titleCase reports whether words are a title in title case: three words
// or more, every word of four letters or more capitalised, in a script
// with letter case.
func titleCase(fields []string) bool {
	long := 0
	for _, w := range fields {
		w = strings.Trim(w, "\"'“”‘’()[],;")
		if utf8.RuneCountInString(w) < 4 {
			continue
		}
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return false
		}
		long++
	}
	return len(fields) >= 3 && long >= 2
}

// cjkShare is the share of text's letters that are Chinese, Japanese or
// Korean.
func cjkShare(text string) float64 {
	cjk, letters := 0, 0
	for _, r := range text {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			cjk++
		}
	}
	if letters == 0 {
		return 0
	}
	return float64(cjk) / float64(letters)
}

// introduces reports whether a sentence announces what follows it: a
// list, a table, a listing or a command. It ends in a colon (":", or the
// full-width "：" of Chinese and Japanese), or, in English only, in "the
// following", "as follows" or "below" before its full stop ("You can
// change it by the following."). Alone it says nothing; with a short
// block after it in its passage it is quoted whole (blockAfter).
func introduces(sentence string) bool {
	s := strings.TrimSpace(sentence)
	if strings.HasSuffix(s, ":") || strings.HasSuffix(s, "：") {
		return true
	}
	s = strings.ToLower(strings.TrimSuffix(s, "."))
	for _, end := range announcingEnds {
		if strings.HasSuffix(s, " "+end) {
			return true
		}
	}
	return false
}

// announcingEnds end an English sentence that announces what follows.
var announcingEnds = enWords("announcing-ends")

// maxBlock is the longest block, in characters, that an announcing
// sentence is quoted with: a command or a few lines of code. A longer one
// is no statement's part, and the announcer alone is no statement.
const maxBlock = 200

// blockAfter returns where the block that the announcing sentence
// text[:end] is followed by ends in text (its passage): the lines after
// it that are not prose (a command, lines of code; each line holds a rule
// of neverStatement or does not end as a sentence), up to a blank line or
// a line of prose. One blank line may stand between the sentence and the
// block: how a block of code is saved with its announcer (item.CodeOf). ok is false when no such block follows, or when it is
// longer than maxBlock or makes a quote longer than MaxStatement with the
// sentence that starts at start.
func blockAfter(text string, start, end int) (int, bool) {
	rest := text[end:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 || strings.TrimSpace(rest[:nl]) != "" {
		return 0, false // the block starts on a line of its own
	}
	at := end + nl + 1
	if strings.HasPrefix(text[at:], "\n") {
		at++ // a block of code saved with its announcer follows a blank line (item.CodeOf)
	}
	blockEnd := -1
	for at < len(text) {
		lineEnd := strings.IndexByte(text[at:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text)
		} else {
			lineEnd += at
		}
		line := strings.TrimSpace(text[at:lineEnd])
		if line == "" || NotStatement(line) == "" && sentences.Ends(line) {
			break
		}
		blockEnd = at + len(strings.TrimRight(text[at:lineEnd], " \t\r"))
		at = lineEnd + 1
	}
	if blockEnd < 0 || utf8.RuneCountInString(text[end:blockEnd]) > maxBlock ||
		utf8.RuneCountInString(text[start:blockEnd]) > MaxStatement {
		return 0, false
	}
	return blockEnd, true
}

// isFlatCode reports whether text is code that lost its lines (a listing
// of an HTML page whose <pre> became one line, or a declaration in a
// reference page): it holds maxCodeMarks or more of code's marks standing alone as words:
// braces, comment markers, pointers, comparisons ("struct s { const
// char * name; }", "// An interface … interface { ~int }"). Prose about
// code names functions ("a call to ffi_prep_cif_var with n=3") but does
// not hold its braces.
func isFlatCode(text string) bool {
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
var navWords = enWords("navigation-words")

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
	// (，、。), so those split words here as a space does, and so do the
	// marks they write between words without a space (betweenWords).
	words := strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || isWidePunct(r) || betweenWords(r) })
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

// betweenWords reports whether r is a mark that Chinese and Japanese write
// between two words with no space beside it, as English writes an em dash:
// the dashes of an aside ("無脊椎動物—如昆蟲—的循環系統", "昔名——燕京"),
// the dots between the parts of a foreign name ("何塞·加布里埃爾",
// traditional Chinese also "‧", Japanese "・"), an ellipsis and the curly
// quotes of simplified Chinese (“铁娘子”). Inside such a run of
// characters each made the whole run "not plain", and a sentence of two
// clauses, one of them with a name, fell under minProse: the drafter never
// quoted it. For every language (English writes "house—which" too); not
// the apostrophe ’, which is inside English words.
func betweenWords(r rune) bool {
	switch r {
	case '—', '―', '⸺', '…', '·', '‧', '・', '“', '”':
		return true
	}
	return false
}

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
