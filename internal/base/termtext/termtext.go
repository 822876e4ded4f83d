// Package termtext makes outside text safe to print on a terminal. Titles,
// file names, saved text and a model's words can hold control characters:
// an escape sequence that clears the screen, sets the window title or writes
// the clipboard (OSC 52), or a bidi override that shows text in another order
// than it is stored. Every string shown to a person in text mode goes through
// Safe; JSON output does not need it, since JSON escapes control characters.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Safe returns s with every character a terminal would act on rather than
// show written as a visible escape, the way Go and JSON write it: ESC is
// \x1b, a C1 control \u009b, a bidi override \u202e, a byte that is not
// UTF-8 \xff. These are plain ASCII, one column each, so widths stay right,
// and they say exactly what the text holds (a symbol such as ␛ exists only
// for C0 controls, and a person cannot type it back). Newline and tab are
// kept: a caller that wants one line collapses whitespace itself.
// Text that needs no escape is returned as it is, without copying.
func Safe(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r) && r < utf8.RuneSelf:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// firstUnsafe is the index of the first byte of s that Safe changes, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if unsafe(rune(c)) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || unsafe(r) {
			return i
		}
		i += n
	}
	return -1
}

// unsafe reports whether a terminal acts on r instead of showing it: the C0
// controls but newline and tab, DEL, the C1 controls (U+009B is CSI on many
// terminals), and the bidi embeddings, overrides and isolates.
func unsafe(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
