package keywords

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Options returns the program options a question names, as it writes them:
// a word that is a hyphen and a letter ("-L"), or one or two hyphens and a
// word ("-mtime", "--delete", "--max-redirs"). The index keeps none of
// them whole ("-L" is a single letter, "--delete" the word "delete"), so
// rank and the drafter look for them in the text (WritesOption).
//
// At most maxOptions are returned, each once: rank reads every paragraph of
// the items found for each of them.
func Options(question string) []string {
	var out []string
	for _, w := range strings.Fields(question) {
		w = strings.TrimRight(strings.Trim(w, "\"'“”‘’()[],;:!?"), ".")
		if isOption(w) && !slices.Contains(out, w) {
			out = append(out, w)
			if len(out) == maxOptions {
				break
			}
		}
	}
	return out
}

// maxOptions is the most options of a question that are looked for.
const maxOptions = 4

func isOption(w string) bool {
	name := strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-")
	if name == w || name == "" || !unicode.IsLetter(rune(name[0])) {
		return false
	}
	for _, r := range name {
		if r >= utf8.RuneSelf || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// WritesOption reports whether text writes the option o as a word of its
// own: "-L," and "[-L" do; "-Lx" and "--delete-after" do not write "-L" and
// "--delete". A one-letter option is matched as written ("-l" is not
// "-L"); a longer one in any case.
func WritesOption(text, o string) bool {
	if len(o) > 2 {
		text, o = strings.ToLower(text), strings.ToLower(o)
	}
	for off := 0; ; {
		i := strings.Index(text[off:], o)
		if i < 0 {
			return false
		}
		i += off
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+len(o):])
		if (i == 0 || !optionRune(before)) && (i+len(o) == len(text) || !optionRune(after)) {
			return true
		}
		off = i + len(o)
	}
}

func optionRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_'
}

// DefinesOption reports whether text opens with the option o among the
// options it documents (LeadingOptions), as a manual's entry does.
func DefinesOption(text, o string) bool {
	opts, _ := LeadingOptions(text)
	for _, w := range opts {
		if WritesOption(w, o) {
			return true
		}
	}
	return false
}

// LeadingOptions returns the options text opens with, as a manual's entry
// for them does ("-z, --gzip, --gunzip Filter the archive through gzip",
// "-# --fast --best Regulate the speed", "--max-redirs=NUM Set the
// maximum"), without their values, and the text after them. Words are read
// until the first that does not start with a hyphen.
func LeadingOptions(text string) (opts []string, rest string) {
	rest = strings.TrimLeft(text, " \t\n")
	for rest != "" {
		end := strings.IndexAny(rest, " \t\n")
		if end < 0 {
			end = len(rest)
		}
		w := strings.TrimRight(rest[:end], ",;")
		if name, _, ok := strings.Cut(w, "="); ok {
			w = name
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			break
		}
		opts = append(opts, w)
		rest = strings.TrimLeft(rest[end:], " \t\n")
	}
	return opts, rest
}

// OptionsSection reports whether a heading path names a manual's section
// of options ("OPTIONS", "DESCRIPTION › Options"): an entry there is the
// program's own, where one under "SHELL BUILTIN COMMANDS" or "EXAMPLES"
// is a builtin's or a use.
func OptionsSection(heading string) bool {
	return strings.Contains(strings.ToLower(heading), "option")
}
