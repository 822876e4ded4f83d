package pdf

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// Code-to-rune tables of the PDF standard encodings (ISO 32000-1 Annex D);
// 0 where a code has no character.
//
// Where Annex D gives a code a second name for a character (WinAnsi 0xA0
// and MacRoman 0xCA "space", WinAnsi 0xAD "hyphen"), the table holds that
// character, not no-break space or soft hyphen. MacRomanEncoding also has
// the 14 Mac OS Roman characters (notequal, infinity, ..., lozenge) that
// Annex D leaves out (9.6.6.4 lists them as Mac OS only), since Mac
// producers mean them there; it keeps currency at 0xDB as the spec says,
// and the Apple logo at 0xF0 has no character.
var StandardEncoding, WinAnsiEncoding, MacRomanEncoding, PDFDocEncoding = standardEncoding(), winAnsiEncoding(), macRomanEncoding(), pdfDocEncoding()

// identityCodes maps codes lo through hi to the same code points, which is
// where the encodings agree with ASCII or ISO 8859-1.
func identityCodes(t *[256]rune, lo, hi int) {
	for c := lo; c <= hi; c++ {
		t[c] = rune(c)
	}
}

// setCodes puts runes at the codes from c on.
func setCodes(t *[256]rune, c int, rs ...rune) {
	copy(t[c:], rs)
}

func standardEncoding() (t [256]rune) {
	identityCodes(&t, 0x20, 0x7E)
	t[0x27] = 0x2019 // quoteright
	t[0x60] = 0x2018 // quoteleft
	setCodes(&t, 0xA1,
		0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7, // exclamdown cent sterling fraction yen florin section
		0x00A4, 0x0027, 0x201C, 0x00AB, 0x2039, 0x203A, 0xFB01, 0xFB02) // currency quotesingle quotedblleft guillemotleft guilsinglleft guilsinglright fi fl
	setCodes(&t, 0xB1,
		0x2013, 0x2020, 0x2021, 0x00B7, 0, 0x00B6, 0x2022, // endash dagger daggerdbl periodcentered - paragraph bullet
		0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030, 0, 0x00BF) // quotesinglbase quotedblbase quotedblright guillemotright ellipsis perthousand - questiondown
	setCodes(&t, 0xC1,
		0x0060, 0x00B4, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9, // grave acute circumflex tilde macron breve dotaccent
		0x00A8, 0, 0x02DA, 0x00B8, 0, 0x02DD, 0x02DB, 0x02C7, // dieresis - ring cedilla - hungarumlaut ogonek caron
		0x2014) // emdash
	t[0xE1] = 0x00C6 // AE
	t[0xE3] = 0x00AA // ordfeminine
	t[0xE8] = 0x0141 // Lslash
	t[0xE9] = 0x00D8 // Oslash
	t[0xEA] = 0x0152 // OE
	t[0xEB] = 0x00BA // ordmasculine
	t[0xF1] = 0x00E6 // ae
	t[0xF5] = 0x0131 // dotlessi
	t[0xF8] = 0x0142 // lslash
	t[0xF9] = 0x00F8 // oslash
	t[0xFA] = 0x0153 // oe
	t[0xFB] = 0x00DF // germandbls
	return t
}

func winAnsiEncoding() (t [256]rune) {
	identityCodes(&t, 0x20, 0x7E)
	setCodes(&t, 0x80,
		0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, // Euro - quotesinglbase florin quotedblbase ellipsis dagger daggerdbl
		0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0, // circumflex perthousand Scaron guilsinglleft OE - Zcaron -
		0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, // - quoteleft quoteright quotedblleft quotedblright bullet endash emdash
		0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178) // tilde trademark scaron guilsinglright oe - zcaron Ydieresis
	identityCodes(&t, 0xA0, 0xFF)
	t[0xA0] = ' '
	t[0xAD] = '-'
	return t
}

func macRomanEncoding() (t [256]rune) {
	identityCodes(&t, 0x20, 0x7E)
	setCodes(&t, 0x80,
		// Adieresis Aring Ccedilla Eacute Ntilde Odieresis Udieresis aacute
		0x00C4, 0x00C5, 0x00C7, 0x00C9, 0x00D1, 0x00D6, 0x00DC, 0x00E1,
		// agrave acircumflex adieresis atilde aring ccedilla eacute egrave
		0x00E0, 0x00E2, 0x00E4, 0x00E3, 0x00E5, 0x00E7, 0x00E9, 0x00E8,
		// ecircumflex edieresis iacute igrave icircumflex idieresis ntilde oacute
		0x00EA, 0x00EB, 0x00ED, 0x00EC, 0x00EE, 0x00EF, 0x00F1, 0x00F3,
		// ograve ocircumflex odieresis otilde uacute ugrave ucircumflex udieresis
		0x00F2, 0x00F4, 0x00F6, 0x00F5, 0x00FA, 0x00F9, 0x00FB, 0x00FC,
		// dagger degree cent sterling section bullet paragraph germandbls
		0x2020, 0x00B0, 0x00A2, 0x00A3, 0x00A7, 0x2022, 0x00B6, 0x00DF,
		// registered copyright trademark acute dieresis notequal AE Oslash
		0x00AE, 0x00A9, 0x2122, 0x00B4, 0x00A8, 0x2260, 0x00C6, 0x00D8,
		// infinity plusminus lessequal greaterequal yen mu partialdiff summation
		0x221E, 0x00B1, 0x2264, 0x2265, 0x00A5, 0x00B5, 0x2202, 0x2211,
		// product pi integral ordfeminine ordmasculine Omega ae oslash
		0x220F, 0x03C0, 0x222B, 0x00AA, 0x00BA, 0x03A9, 0x00E6, 0x00F8,
		// questiondown exclamdown logicalnot radical florin approxequal Delta guillemotleft
		0x00BF, 0x00A1, 0x00AC, 0x221A, 0x0192, 0x2248, 0x2206, 0x00AB,
		// guillemotright ellipsis space Agrave Atilde Otilde OE oe
		0x00BB, 0x2026, 0x0020, 0x00C0, 0x00C3, 0x00D5, 0x0152, 0x0153,
		// endash emdash quotedblleft quotedblright quoteleft quoteright divide lozenge
		0x2013, 0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0x00F7, 0x25CA,
		// ydieresis Ydieresis fraction currency guilsinglleft guilsinglright fi fl
		0x00FF, 0x0178, 0x2044, 0x00A4, 0x2039, 0x203A, 0xFB01, 0xFB02,
		// daggerdbl periodcentered quotesinglbase quotedblbase perthousand Acircumflex Ecircumflex Aacute
		0x2021, 0x00B7, 0x201A, 0x201E, 0x2030, 0x00C2, 0x00CA, 0x00C1,
		// Edieresis Egrave Iacute Icircumflex Idieresis Igrave Oacute Ocircumflex
		0x00CB, 0x00C8, 0x00CD, 0x00CE, 0x00CF, 0x00CC, 0x00D3, 0x00D4,
		// (apple) Ograve Uacute Ucircumflex Ugrave dotlessi circumflex tilde
		0, 0x00D2, 0x00DA, 0x00DB, 0x00D9, 0x0131, 0x02C6, 0x02DC,
		// macron breve dotaccent ring cedilla hungarumlaut ogonek caron
		0x00AF, 0x02D8, 0x02D9, 0x02DA, 0x00B8, 0x02DD, 0x02DB, 0x02C7)
	return t
}

// pdfDocEncoding follows ISO 32000-2 Table D.3, which gives 0x00-0x17
// their control characters (ISO 32000-1 named only tab, LF and CR).
func pdfDocEncoding() (t [256]rune) {
	identityCodes(&t, 0x00, 0xFF)
	setCodes(&t, 0x18, 0x02D8, 0x02C7, 0x02C6, 0x02D9, 0x02DD, 0x02DB, 0x02DA, 0x02DC) // breve caron circumflex dotaccent hungarumlaut ogonek ring tilde
	t[0x7F] = 0
	setCodes(&t, 0x80,
		0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044, // bullet dagger daggerdbl ellipsis emdash endash florin fraction
		0x2039, 0x203A, 0x2212, 0x2030, 0x201E, 0x201C, 0x201D, 0x2018, // guilsinglleft guilsinglright minus perthousand quotedblbase quotedblleft quotedblright quoteleft
		0x2019, 0x201A, 0x2122, 0xFB01, 0xFB02, 0x0141, 0x0152, 0x0160, // quoteright quotesinglbase trademark fi fl Lslash OE Scaron
		0x0178, 0x017D, 0x0131, 0x0142, 0x0153, 0x0161, 0x017E, 0) // Ydieresis Zcaron dotlessi lslash oe scaron zcaron -
	t[0xA0] = 0x20AC // Euro
	t[0xAD] = 0
	return t
}

//go:embed glyphlist.txt
var glyphListText string

var (
	glyphOnce sync.Once
	glyphs    map[string]string
)

// glyphList is the Adobe Glyph List, parsed on first use: most documents
// name no glyphs, and the list has over 4000 entries.
func glyphList() map[string]string {
	glyphOnce.Do(func() { glyphs = parseGlyphList(glyphListText) })
	return glyphs
}

// parseGlyphList reads "name;XXXX[ XXXX...]" lines; lines it cannot read
// are left out (the embedded list has none, which a test checks).
func parseGlyphList(text string) map[string]string {
	m := make(map[string]string, 4300)
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" || line[0] == '#' {
			continue
		}
		name, codes, ok := strings.Cut(line, ";")
		if !ok || name == "" {
			continue
		}
		var b strings.Builder
		for _, f := range strings.Fields(codes) {
			v, err := strconv.ParseUint(f, 16, 32)
			if err != nil || !utf8.ValidRune(rune(v)) {
				b.Reset()
				break
			}
			b.WriteRune(rune(v))
		}
		if b.Len() > 0 {
			m[name] = b.String()
		}
	}
	return m
}

// GlyphText is the text a glyph name stands for, by the AGL
// specification's rules: the list; "uniXXXX..." (groups of 4 hex digits,
// not surrogates); "uXXXX" to "uXXXXXX"; a suffix after the first '.' is
// dropped; components joined by '_' are each mapped and concatenated. ""
// when the name means nothing known.
func GlyphText(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	if !strings.Contains(name, "_") {
		return glyphComponent(name)
	}
	var b strings.Builder
	for c := range strings.SplitSeq(name, "_") {
		b.WriteString(glyphComponent(c))
	}
	return b.String()
}

func glyphComponent(c string) string {
	if c == "" {
		return ""
	}
	if s, ok := glyphList()[c]; ok {
		return s
	}
	if s, ok := texGlyphs[c]; ok {
		return s
	}
	// TeX's extensible delimiters and operators come in sizes:
	// parenleftbigg, summationdisplay, circleplustext; its wide accents
	// too: cmex's tildewide, hatwider over two letters or three (\widetilde).
	for _, size := range []string{"Bigg", "bigg", "Big", "big", "display", "text", "widest", "wider", "wide"} {
		if base, ok := strings.CutSuffix(c, size); ok && base != "" {
			if s := glyphComponent(base); s != "" {
				return s
			}
		}
	}
	if hex, ok := strings.CutPrefix(c, "uni"); ok && hex != "" && len(hex)%4 == 0 {
		rs := make([]rune, 0, len(hex)/4)
		for i := 0; i < len(hex); i += 4 {
			v, ok := upperHex(hex[i : i+4])
			if !ok || 0xD800 <= v && v <= 0xDFFF {
				rs = nil
				break
			}
			rs = append(rs, v)
		}
		if rs != nil {
			return string(rs)
		}
	}
	if hex, ok := strings.CutPrefix(c, "u"); ok && 4 <= len(hex) && len(hex) <= 6 {
		if v, ok := upperHex(hex); ok && utf8.ValidRune(v) {
			return string(v)
		}
	}
	return ""
}

// texGlyphs are names TeX's fonts (Computer Modern, AMS, textcomp) give
// glyphs that the Adobe Glyph List lacks or spells otherwise. TeX's
// compound word mark is a zero-width non-joiner, which it is.
var texGlyphs = map[string]string{
	"angbracketleft": "\u27E8", "angbracketright": "\u27E9", "Germandbls": "SS", "star": "\u22C6",
	"negationslash": "\u0338", "visiblespace": "\u2423", "cwm": "\u200C", "floorleft": "\u230A", "floorright": "\u230B",
	"ceilingleft": "\u2308", "ceilingright": "\u2309", "similarequal": "\u2243", "follows": "\u227B",
	"precedes": "\u227A", "prime": "\u2032", "tieaccentlowercase": "\u0361", "tieaccentcapital": "\u0361",
	"epsilon1": "\u03F5", "rho1": "\u03F1", "pi1": "\u03D6", "theta1": "\u03D1", "phi1": "\u03D5",
	"sigma1": "\u03C2", "omega1": "\u03D6", "mapsto": "\u21A6", "bardbl": "\u2016", "lscript": "\u2113",
	"Rfractur": "\u211C", "Ifractur": "\u2111", "lessmuch": "\u226A", "greatermuch": "\u226B",
	"triangle": "\u25B3", "triangleright": "\u25B7", "triangleleft": "\u25C1", "diamondmath": "\u22C4",
	"arrowhookleft": "\u21A9", "arrowhookright": "\u21AA", "arrownortheast": "\u2197",
	"arrowsoutheast": "\u2198", "arrowsouthwest": "\u2199", "arrownorthwest": "\u2196",
	"turnstileleft": "\u22A2", "turnstileright": "\u22A3", "latticetop": "\u22A4", "subsetsqequal": "\u2291",
	"supersetsqequal": "\u2292", "intersectionsq": "\u2293", "unionsq": "\u2294", "natural": "\u266E",
	"flat": "\u266D", "sharp": "\u266F", "smiley": "\u263A", "circlecopyrt": "\u00A9", "coproduct": "\u2210",
	"contintegral": "\u222E", "circledot": "\u2299", "logicaland": "\u2227", "logicalor": "\u2228",
	"intersection": "\u2229", "minusplus": "\u2213", "perpendicular": "\u22A5", "owner": "\u220B",
	"equivasymptotic": "\u224D", "dividemultiply": "\u22C7", "hyphendbl": "-", "perthousandzero": "0",
	// cmex's wide circumflex (hatwide) is the spacing accent, as the wide
	// tilde is AGL's tilde: the reader puts either on the letter it is
	// drawn over (composeAccents). A tall | or ‖ is drawn as pieces
	// (vextendsingle, vextenddouble), each a bar.
	"hat": "\u02C6", "vextendsingle": "|", "vextenddouble": "\u2016",
	// textcomp's TS1 fonts (tcrm, Latin Modern, the sans fonts' TS1 cuts)
	// name some glyphs by their command, \text…, less "text" ("peso" is
	// \textpeso; "gnaborretni" \textinterrobangdown, the interrobang
	// reversed), and its accents for capitals by capitalised names (the
	// AGL has Acute, Caron, Dieresis as private-use characters, Circumflex
	// not at all): each is the spacing accent, set on its letter as the
	// small one is (composeAccents). The characters are those public
	// LaTeX-to-Unicode tables give the commands (pylatexenc's latex2text,
	// MathJax's textcomp): \textpeso ₱, \textinterrobangdown ⸘.
	"permyriad": "\u2031", "peso": "\u20B1", "guarani": "\u20B2", "recipe": "\u211E", "discount": "\u2052",
	"gnaborretni": "\u2E18", "tildelow": "\u02F7", "Circumflex": "\u02C6", "Tilde": "\u02DC",
	"Ring": "\u02DA", "Breve": "\u02D8", "Dotaccent": "\u02D9", "SS": "SS",
	// The LH fonts of the cyrillic bundle (T2A, T2B, T2C, X2) name glyphs
	// by their LaTeX commands (CYRGDSC is \CYRGDSC), and most of them as
	// the AGL does (afii10017); these are the ones it lacks, with the
	// characters pylatexenc's latex2text gives the commands (\CYRGDSC Ӷ,
	// GHE WITH DESCENDER). Others (CYRDELTA, CYREPS, CYRNLHK …) are left
	// out: no table at hand says which character each is.
	"CYRGDSC": "\u04F6", "cyrgdsc": "\u04F7", "CYRGDSCHCRS": "\u04FA", "cyrgdschcrs": "\u04FB",
	"CYRHHK": "\u04FC", "cyrhhk": "\u04FD", "CYRHHCRS": "\u04FE", "cyrhhcrs": "\u04FF",
	"CYRLDSC": "\u04C5", "cyrldsc": "\u04C6", "CYRMDSC": "\u04CD", "cyrmdsc": "\u04CE",
}

// upperHex parses up to 6 hex digits; the AGL specification allows only
// uppercase ones, which keeps names like "uniface" from reading as numbers.
func upperHex(s string) (rune, bool) {
	var v rune
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | rune(c-'0')
		case 'A' <= c && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// TextString decodes a PDF text string (e.g. a document's /Title):
// UTF-16BE after a FE FF byte order mark, UTF-8 after EF BB BF (PDF 2.0),
// otherwise PDFDocEncoding. Language marks (ESC lang [country] ESC) in the
// Unicode forms are dropped. Some producers write UTF-16LE with an FF FE
// mark, which is read too; PDFDocEncoding's undefined codes read as
// ISO 8859-1, the encoding such strings were most likely written in.
func TextString(s string) string {
	switch {
	case strings.HasPrefix(s, "\xFE\xFF"):
		return utf16Text(s[2:], true)
	case strings.HasPrefix(s, "\xFF\xFE"):
		return utf16Text(s[2:], false)
	case strings.HasPrefix(s, "\xEF\xBB\xBF"):
		return utf8Text(s[3:])
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7F || PDFDocEncoding[c] != rune(c) {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	for i := 0; i < len(s); i++ {
		r := PDFDocEncoding[s[i]]
		if r == 0 {
			r = rune(s[i])
		}
		b.WriteRune(r)
	}
	return b.String()
}

// utf16Text decodes UTF-16 without language marks; a lone surrogate
// becomes U+FFFD and an odd last byte is dropped.
func utf16Text(s string, bigEndian bool) string {
	u := make([]uint16, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		hi, lo := s[i], s[i+1]
		if !bigEndian {
			hi, lo = lo, hi
		} else if hi == 0 && lo == 0x1B {
			if n := langMarkLen(s[i:], "\x00\x1B"); n > 0 {
				i += n - 2
				continue
			}
		}
		u = append(u, uint16(hi)<<8|uint16(lo))
	}
	return string(utf16.Decode(u))
}

// utf8Text drops language marks and replaces invalid bytes with U+FFFD.
func utf8Text(s string) string {
	if strings.IndexByte(s, 0x1B) >= 0 {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if n := langMarkLen(s[i:], "\x1B"); n > 0 {
				i += n - 1
				continue
			}
			b.WriteByte(s[i])
		}
		s = b.String()
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// langMarkLen is the length of the language mark s starts with, or 0: ESC,
// two ASCII letters of language and optionally two of country, ESC, where
// ESC is U+001B in the string's encoding but the letters are single bytes
// (ISO 32000 7.9.2.2).
func langMarkLen(s, esc string) int {
	e := len(esc)
	if !strings.HasPrefix(s, esc) {
		return 0
	}
	for _, n := range []int{2, 4} {
		if len(s) >= e+n+e && asciiLetters(s[e:e+n]) && s[e+n:e+n+e] == esc {
			return e + n + e
		}
	}
	return 0
}

func asciiLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
