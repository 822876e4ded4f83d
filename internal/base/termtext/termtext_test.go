package termtext

import (
	"testing"
	"unicode/utf8"
)

func TestSafe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Tea notes", "Tea notes"},
		{"", ""},
		{"line\nnext\tcell", "line\nnext\tcell"},
		{"Grüße, 日本語, “quotes” — ok", "Grüße, 日本語, “quotes” — ok"},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"\x1b]52;c;cHduZWQ=\x1b\\", `\x1b]52;c;cHduZWQ=\x1b\`},
		{"a\rb\bc\x00d\x7f", `a\x0db\x08c\x00d\x7f`},
		{"csi\u009b31m nel\u0085", `csi\u009b31m nel\u0085`},
		{"abc\u202edef\u2066x\u2069", `abc\u202edef\u2066x\u2069`},
		{"bad\xffbyte\xc2", `bad\xffbyte\xc2`},
		// Left alone: marks and zero-width characters do not reorder text.
		{"a\u200eb\u200bc", "a\u200eb\u200bc"},
	} {
		if got := Safe(c.in); got != c.want {
			t.Errorf("Safe(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzSafe: whatever the input, the output is valid UTF-8 with no character
// a terminal acts on, and Safe leaves it as it is.
func FuzzSafe(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]0;t\x07", "\u202e\u0085\xff", "a\nb\tc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Safe(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Safe(%q) = %q: not UTF-8", s, out)
		}
		for _, r := range out {
			if unsafe(r) {
				t.Fatalf("Safe(%q) = %q keeps %U", s, out, r)
			}
		}
		if Safe(out) != out {
			t.Fatalf("Safe is not stable on %q", out)
		}
		if firstUnsafe(s) < 0 && out != s {
			t.Fatalf("Safe(%q) changed safe text to %q", s, out)
		}
	})
}

func BenchmarkSafePlain(b *testing.B) {
	s := "Green tea is steeped at a lower temperature than black tea, usually around eighty degrees."
	b.ReportAllocs()
	for b.Loop() {
		Safe(s)
	}
}
