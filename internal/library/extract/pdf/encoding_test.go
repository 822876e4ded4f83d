package pdf

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

func TestWinAnsiEncodingAgainstWindows1252(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := charmap.Windows1252.DecodeByte(byte(c))
		switch {
		case c < 0x20 || c == 0x7F:
			want = 0 // control codes: Annex D names no character
		case want == utf8.RuneError:
			want = 0 // 0x81 0x8D 0x8F 0x90 0x9D, undefined in cp1252 too
		case c == 0xA0:
			want = ' ' // Annex D: a second code for space
		case c == 0xAD:
			want = '-' // Annex D: a second code for hyphen
		}
		if got := WinAnsiEncoding[c]; got != want {
			t.Errorf("WinAnsiEncoding[%#02x] = %U, want %U", c, got, want)
		}
	}
}

func TestMacRomanEncodingAgainstMacintosh(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := charmap.Macintosh.DecodeByte(byte(c))
		switch c {
		case 0xCA:
			want = ' ' // Annex D: a second code for space
		case 0xDB:
			want = 0xA4 // currency: PDF kept it when Apple moved the euro here
		case 0xF0:
			want = 0 // the Apple logo, private use
		}
		if c < 0x20 || c == 0x7F {
			want = 0
		}
		if got := MacRomanEncoding[c]; got != want {
			t.Errorf("MacRomanEncoding[%#02x] = %U, want %U", c, got, want)
		}
	}
}

// checkNames compares table entries from code `from` on with the Annex D
// glyph names ("" for no character), read through the glyph list.
func checkNames(t *testing.T, table string, enc *[256]rune, from int, names string) {
	t.Helper()
	for i, name := range strings.Split(names, " ") {
		want := rune(0)
		if name != "-" {
			s := GlyphText(name)
			if utf8.RuneCountInString(s) != 1 {
				t.Fatalf("glyph %q is %q, not one character", name, s)
			}
			want, _ = utf8.DecodeRuneInString(s)
		}
		if got := enc[from+i]; got != want {
			t.Errorf("%s[%#02x] = %U, want %U (%s)", table, from+i, got, want, name)
		}
	}
}

func TestStandardEncoding(t *testing.T) {
	// Annex D by code; "-" is a code with no character.
	checkNames(t, "StandardEncoding", &StandardEncoding, 0xA0,
		"- exclamdown cent sterling fraction yen florin section currency quotesingle quotedblleft guillemotleft guilsinglleft guilsinglright fi fl "+
			"- endash dagger daggerdbl periodcentered - paragraph bullet quotesinglbase quotedblbase quotedblright guillemotright ellipsis perthousand - questiondown "+
			"- grave acute circumflex tilde macron breve dotaccent dieresis - ring cedilla - hungarumlaut ogonek caron "+
			"emdash - - - - - - - - - - - - - - - "+
			"- AE - ordfeminine - - - - Lslash Oslash OE ordmasculine - - - - "+
			"- ae - - - dotlessi - - lslash oslash oe germandbls - - - -")
	for c := 0; c < 0xA0; c++ {
		want := rune(0)
		switch {
		case c == 0x27:
			want = '\u2019'
		case c == 0x60:
			want = '\u2018'
		case 0x20 <= c && c <= 0x7E:
			want = rune(c)
		}
		if got := StandardEncoding[c]; got != want {
			t.Errorf("StandardEncoding[%#02x] = %U, want %U", c, got, want)
		}
	}
}

func TestPDFDocEncoding(t *testing.T) {
	checkNames(t, "PDFDocEncoding", &PDFDocEncoding, 0x18,
		"breve caron circumflex dotaccent hungarumlaut ogonek ring tilde")
	checkNames(t, "PDFDocEncoding", &PDFDocEncoding, 0x80,
		"bullet dagger daggerdbl ellipsis emdash endash florin fraction guilsinglleft guilsinglright minus perthousand quotedblbase quotedblleft quotedblright quoteleft "+
			"quoteright quotesinglbase trademark fi fl Lslash OE Scaron Ydieresis Zcaron dotlessi lslash oe scaron zcaron - Euro")
	for c := 0; c < 256; c++ {
		if 0x18 <= c && c <= 0x1F || 0x80 <= c && c <= 0xA0 {
			continue
		}
		want := charmap.ISO8859_1.DecodeByte(byte(c))
		if c == 0x7F || c == 0xAD {
			want = 0
		}
		if got := PDFDocEncoding[c]; got != want {
			t.Errorf("PDFDocEncoding[%#02x] = %U, want %U", c, got, want)
		}
	}
}

func TestGlyphListParsed(t *testing.T) {
	lines := 0
	for line := range strings.Lines(glyphListText) {
		if !strings.HasPrefix(line, "#") && strings.TrimSpace(line) != "" {
			lines++
		}
	}
	if n := len(glyphList()); n != lines || n != 4281 {
		t.Errorf("glyph list has %d entries from %d lines, want 4281 (AGL 2.0)", n, lines)
	}
	if !strings.Contains(glyphListText, "# Copyright 2002-2019 Adobe (http://www.adobe.com/).") {
		t.Error("glyph list lost its license header")
	}
	if got := parseGlyphList("# c\nA;0041\nbad\nx;ZZZZ\nsur;D800\npair;0041 0301\n"); len(got) != 2 || got["A"] != "A" || got["pair"] != "A\u0301" {
		t.Errorf("parseGlyphList = %q", got)
	}
}

func TestGlyphText(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"A", "A"},
		{"fi", "\uFB01"},
		{"ff", "\uFB00"},
		{"ffi", "\uFB03"},
		{"quoteright", "\u2019"},
		{"zukatakana", "\u30BA"},
		{"dalethatafpatah", "\u05D3\u05B2"}, // one name, two code points
		{"uni0041", "A"},
		{"uni00410042", "AB"},
		{"uni00410042.alt", "AB"},
		{"uniE000", "\uE000"},
		{"uniD800", ""},     // surrogate
		{"uni0041D800", ""}, // one surrogate group spoils the name
		{"uni004", ""},      // not groups of four
		{"uni00e9", ""},     // lowercase digits are not AGL hex
		{"uni", ""},
		{"u0041", "A"},
		{"u1F600", "\U0001F600"},
		{"u10FFFF", "\U0010FFFF"},
		{"u110000", ""},
		{"uDFFF", ""},
		{"u041", ""},
		{"u0001F600", ""}, // more than six digits
		{"a.sc", "a"},
		{"a.", "a"},
		{".notdef", ""},
		{"f_f_i", "ffi"}, // each component, not the ffi ligature
		{"f_f_i.liga", "ffi"},
		{"a_uni0301", "a\u0301"},
		{"a__b", "ab"},
		{"a_nosuchglyph_b", "ab"},
		{"", ""},
		{"nosuchglyph", ""},
		{"g123", ""},
		{"cid42", ""},
		// TeX's math extension font (cmex) names glyphs the AGL lacks
		{"tildewide", "\u02DC"},
		{"hatwider", "\u02C6"},
		{"tildewidest", "\u02DC"},
		{"vextendsingle", "|"},
		{"vextenddouble", "\u2016"},
		{"summationdisplay", "\u2211"},
		// textcomp's and the LH Cyrillic fonts' names the AGL lacks
		// (encguide.pdf's code tables saved them as U+FFFD)
		{"permyriad", "\u2031"},
		{"gnaborretni", "\u2E18"},
		{"Circumflex", "\u02C6"},
		{"CYRGDSC", "\u04F6"},
		{"cyrhhk", "\u04FD"},
	} {
		if got := GlyphText(tc.name); got != tc.want {
			t.Errorf("GlyphText(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func FuzzGlyphText(f *testing.F) {
	for _, s := range []string{"A", "fi", "uni00410042", "u1F600", "a.sc", "f_f_i", "uniD800", "u110000", "_", ".", "uni0041_u0042.x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		s := GlyphText(name)
		if !utf8.ValidString(s) {
			t.Fatalf("GlyphText(%q) = %q, not valid UTF-8", name, s)
		}
	})
}

func TestTextString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Plain title", "Plain title"},
		{"", ""},
		{"\xFE\xFF", ""},
		{"\xFE\xFF\x00A\xD8\x3D\xDE\x00\x00z", "A\U0001F600z"}, // surrogate pair
		{"\xFE\xFF\x00A\xD8\x3D\x00B", "A\uFFFDB"},             // lone high surrogate
		{"\xFE\xFF\x00A\x00", "A"},                             // odd last byte
		{"\xFE\xFF\x00\x1Bde\x00\x1B\x00H\x00i", "Hi"},         // ESC "de" ESC
		{"\xFE\xFF\x00\x1BenUS\x00\x1B\x00H", "H"},             // ESC "enUS" ESC
		{"\xFE\xFF\x00\x1B\x00H", "\x1BH"},                     // a lone ESC stays
		{"\xFE\xFF\x00\x1Be1\x00\x1B\x00H", "\x1B\u6531\x1BH"}, // not letters: no mark
		{"\xFF\xFEA\x00\x3D\xD8\x00\xDE", "A\U0001F600"},       // UTF-16LE
		{"\xEF\xBB\xBFCaf\xC3\xA9", "Café"},
		{"\xEF\xBB\xBF\x1Bfr\x1BCaf\xC3\xA9", "Café"},
		{"\xEF\xBB\xBFa\xFFb", "a\uFFFDb"},
		{"\x80\x18", "\u2022\u02D8"},
		{"Caf\xE9 \xA0\x93", "Café €\uFB01"},
		{"\x9F\xAD\x7F", "\u009F\u00AD\u007F"}, // undefined codes read as Latin-1
		{"a\tb\nc", "a\tb\nc"},
	} {
		got := TextString(tc.in)
		if got != tc.want {
			t.Errorf("TextString(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("TextString(%q) = %q, not valid UTF-8", tc.in, got)
		}
	}
}

func FuzzTextString(f *testing.F) {
	for _, s := range []string{"title", "\xFE\xFF\x00A", "\xEF\xBB\xBF\xFF", "\x80\x1B\x18", "\xFE\xFF\x00\x1Bde\x00\x1B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := TextString(s); !utf8.ValidString(got) {
			t.Fatalf("TextString(%q) = %q, not valid UTF-8", s, got)
		}
	})
}
