package extract

import (
	"github.com/sponge-library/sponge/internal/library/extract/pdf"
)

// cffEncoding is the encoding a CFF font program (a PDF's FontFile3 of
// subtype Type1C) carries, as the text of each code; nil when it has none
// that this reads (a CID-keyed font, the Expert encoding) or the data is
// damaged. Ghostscript's ps2pdf writes TeX's fonts so, with no Encoding in
// the PDF: without it their ligatures read as the codes' PDFDocEncoding
// characters, "specified" as "speci¯ed" and "affected" as "a®ected"
// (pspicture.pdf), the fi and ff of dvips's moved codes 175 and 174.
// The layout is Adobe's Technical Note #5176 (the CFF format).
func cffEncoding(data []byte) *[256]string {
	c := cffReader{data: data}
	if len(data) < 4 {
		return nil
	}
	at := int(data[2])     // the header's size
	_, at = c.index(at)    // Name INDEX
	top, at := c.index(at) // Top DICT INDEX
	strs, _ := c.index(at) // String INDEX (the Global Subr INDEX after it is not read)
	if c.bad || len(top) == 0 {
		return nil
	}
	ops := c.dict(top[0])
	if c.bad || ops[cffROS] != nil {
		return nil // CID-keyed: codes are no glyph names
	}
	enc, cs, set := 0, 0, 0
	if v := ops[16]; len(v) > 0 {
		enc = v[0]
	}
	if v := ops[17]; len(v) > 0 {
		cs = v[0]
	}
	if v := ops[15]; len(v) > 0 {
		set = v[0]
	}
	var texts [256]string
	switch enc {
	case 0: // the Standard encoding
		for code, r := range pdf.StandardEncoding {
			if r != 0 {
				texts[code] = string(r)
			}
		}
		return &texts
	case 1: // Expert: small capitals and old-style figures, not read here
		return nil
	}
	glyphs, _ := c.index(cs)
	n := len(glyphs)
	if c.bad || n == 0 {
		return nil
	}
	name := func(sid int) string {
		if sid < len(cffStandardStrings) {
			return cffStandardStrings[sid]
		}
		if sid-len(cffStandardStrings) < len(strs) {
			return string(strs[sid-len(cffStandardStrings)])
		}
		return ""
	}
	// the glyph name of each glyph id, by the charset
	sids := make([]int, n)
	switch set {
	case 0: // ISOAdobe: glyph i is string i
		for i := range sids {
			sids[i] = i
		}
	case 1, 2: // the Expert charsets
		return nil
	default:
		format := c.u8(set)
		p := set + 1
		for gid := 1; gid < n && !c.bad; {
			switch format {
			case 0:
				sids[gid] = c.u16(p)
				p += 2
				gid++
			case 1, 2:
				first, left := c.u16(p), 0
				if format == 1 {
					left = c.u8(p + 2)
					p += 3
				} else {
					left = c.u16(p + 2)
					p += 4
				}
				for k := 0; k <= left && gid < n; k++ {
					sids[gid] = first + k
					gid++
				}
			default:
				return nil
			}
		}
	}
	format := c.u8(enc)
	p := enc + 1
	switch format & 0x7f {
	case 0:
		codes := c.u8(p)
		for i := 0; i < codes && i+1 < n; i++ {
			texts[c.u8(p+1+i)] = pdf.GlyphText(name(sids[i+1]))
		}
		p += 1 + codes
	case 1:
		ranges, gid := c.u8(p), 1
		for i := 0; i < ranges; i++ {
			first, left := c.u8(p+1+2*i), c.u8(p+2+2*i)
			for code := first; code <= first+left && code < 256 && gid < n; code++ {
				texts[code] = pdf.GlyphText(name(sids[gid]))
				gid++
			}
		}
		p += 1 + 2*ranges
	default:
		return nil
	}
	if format&0x80 != 0 { // supplements: more codes for glyphs named
		sups := c.u8(p)
		for i := 0; i < sups; i++ {
			texts[c.u8(p+1+3*i)] = pdf.GlyphText(name(c.u16(p + 2 + 3*i)))
		}
	}
	if c.bad {
		return nil
	}
	return &texts
}

// maxCFFBytes bounds the CFF program read for its encoding: a font's
// glyphs, subset or whole, are far less.
const maxCFFBytes = 8 << 20

// cffROS is the Top DICT operator of a CID-keyed font (12 30).
const cffROS = 1200 + 30

// cffReader reads a CFF program's parts; a read past its end sets bad.
type cffReader struct {
	data []byte
	bad  bool
}

func (c *cffReader) u8(at int) int {
	if at < 0 || at >= len(c.data) {
		c.bad = true
		return 0
	}
	return int(c.data[at])
}

func (c *cffReader) u16(at int) int { return c.u8(at)<<8 | c.u8(at+1) }

// offset reads an offset of size bytes.
func (c *cffReader) offset(at, size int) int {
	n := 0
	for i := range size {
		n = n<<8 | c.u8(at+i)
	}
	return n
}

// index reads the INDEX at at: its items, and where it ends.
func (c *cffReader) index(at int) ([][]byte, int) {
	count := c.u16(at)
	if c.bad || count == 0 {
		return nil, at + 2
	}
	size := c.u8(at + 2)
	if size < 1 || size > 4 {
		c.bad = true
		return nil, at
	}
	base := at + 3 + (count+1)*size - 1 // offsets count from 1
	items := make([][]byte, 0, min(count, 1<<12))
	prev := c.offset(at+3, size)
	for i := 1; i <= count && !c.bad; i++ {
		next := c.offset(at+3+i*size, size)
		if next < prev || base+next > len(c.data) {
			c.bad = true
			break
		}
		items = append(items, c.data[base+prev:base+next])
		prev = next
	}
	return items, base + prev
}

// dict reads a DICT's integer operands by operator (an escaped operator
// 12 x is 1200+x); a real operand counts as 0.
func (c *cffReader) dict(d []byte) map[int][]int {
	ops := map[int][]int{}
	var args []int
	for i := 0; i < len(d); {
		b := int(d[i])
		switch {
		case b <= 21:
			op := b
			if b == 12 && i+1 < len(d) {
				op = 1200 + int(d[i+1])
				i++
			}
			ops[op] = args
			args = nil
			i++
		case b == 28 && i+2 < len(d):
			args = append(args, int(int16(uint16(d[i+1])<<8|uint16(d[i+2]))))
			i += 3
		case b == 29 && i+4 < len(d):
			args = append(args, int(int32(uint32(d[i+1])<<24|uint32(d[i+2])<<16|uint32(d[i+3])<<8|uint32(d[i+4]))))
			i += 5
		case b == 30: // a real: nibbles up to an f
			i++
			for i < len(d) && d[i]&0x0f != 0x0f && d[i]>>4 != 0x0f {
				i++
			}
			i++
			args = append(args, 0)
		case b >= 32 && b <= 246:
			args = append(args, b-139)
			i++
		case b >= 247 && b <= 250 && i+1 < len(d):
			args = append(args, (b-247)*256+int(d[i+1])+108)
			i += 2
		case b >= 251 && b <= 254 && i+1 < len(d):
			args = append(args, -(b-251)*256-int(d[i+1])-108)
			i += 2
		default:
			c.bad = true
			return ops
		}
	}
	return ops
}

// cffStandardStrings are the CFF format's standard strings, string ids 0 to
// 390 (Technical Note #5176, Appendix A).
var cffStandardStrings = [...]string{
	".notdef", "space", "exclam", "quotedbl", "numbersign", "dollar", "percent", "ampersand", "quoteright",
	"parenleft", "parenright", "asterisk", "plus", "comma", "hyphen", "period", "slash",
	"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"colon", "semicolon", "less", "equal", "greater", "question", "at",
	"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z",
	"bracketleft", "backslash", "bracketright", "asciicircum", "underscore", "quoteleft",
	"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z",
	"braceleft", "bar", "braceright", "asciitilde", "exclamdown", "cent", "sterling", "fraction", "yen", "florin",
	"section", "currency", "quotesingle", "quotedblleft", "guillemotleft", "guilsinglleft", "guilsinglright",
	"fi", "fl", "endash", "dagger", "daggerdbl", "periodcentered", "paragraph", "bullet", "quotesinglbase",
	"quotedblbase", "quotedblright", "guillemotright", "ellipsis", "perthousand", "questiondown", "grave",
	"acute", "circumflex", "tilde", "macron", "breve", "dotaccent", "dieresis", "ring", "cedilla",
	"hungarumlaut", "ogonek", "caron", "emdash", "AE", "ordfeminine", "Lslash", "Oslash", "OE",
	"ordmasculine", "ae", "dotlessi", "lslash", "oslash", "oe", "germandbls", "onesuperior", "logicalnot",
	"mu", "trademark", "Eth", "onehalf", "plusminus", "Thorn", "onequarter", "divide", "brokenbar", "degree",
	"thorn", "threequarters", "twosuperior", "registered", "minus", "eth", "multiply", "threesuperior",
	"copyright", "Aacute", "Acircumflex", "Adieresis", "Agrave", "Aring", "Atilde", "Ccedilla", "Eacute",
	"Ecircumflex", "Edieresis", "Egrave", "Iacute", "Icircumflex", "Idieresis", "Igrave", "Ntilde",
	"Oacute", "Ocircumflex", "Odieresis", "Ograve", "Otilde", "Scaron", "Uacute", "Ucircumflex",
	"Udieresis", "Ugrave", "Yacute", "Ydieresis", "Zcaron", "aacute", "acircumflex", "adieresis",
	"agrave", "aring", "atilde", "ccedilla", "eacute", "ecircumflex", "edieresis", "egrave", "iacute",
	"icircumflex", "idieresis", "igrave", "ntilde", "oacute", "ocircumflex", "odieresis", "ograve",
	"otilde", "scaron", "uacute", "ucircumflex", "udieresis", "ugrave", "yacute", "ydieresis", "zcaron",
	"exclamsmall", "Hungarumlautsmall", "dollaroldstyle", "dollarsuperior", "ampersandsmall",
	"Acutesmall", "parenleftsuperior", "parenrightsuperior", "twodotenleader", "onedotenleader",
	"zerooldstyle", "oneoldstyle", "twooldstyle", "threeoldstyle", "fouroldstyle", "fiveoldstyle",
	"sixoldstyle", "sevenoldstyle", "eightoldstyle", "nineoldstyle", "commasuperior",
	"threequartersemdash", "periodsuperior", "questionsmall", "asuperior", "bsuperior", "centsuperior",
	"dsuperior", "esuperior", "isuperior", "lsuperior", "msuperior", "nsuperior", "osuperior",
	"rsuperior", "ssuperior", "tsuperior", "ff", "ffi", "ffl", "parenleftinferior", "parenrightinferior",
	"Circumflexsmall", "hyphensuperior", "Gravesmall", "Asmall", "Bsmall", "Csmall", "Dsmall", "Esmall",
	"Fsmall", "Gsmall", "Hsmall", "Ismall", "Jsmall", "Ksmall", "Lsmall", "Msmall", "Nsmall", "Osmall",
	"Psmall", "Qsmall", "Rsmall", "Ssmall", "Tsmall", "Usmall", "Vsmall", "Wsmall", "Xsmall", "Ysmall",
	"Zsmall", "colonmonetary", "onefitted", "rupiah", "Tildesmall", "exclamdownsmall", "centoldstyle",
	"Lslashsmall", "Scaronsmall", "Zcaronsmall", "Dieresissmall", "Brevesmall", "Caronsmall",
	"Dotaccentsmall", "Macronsmall", "figuredash", "hypheninferior", "Ogoneksmall", "Ringsmall",
	"Cedillasmall", "questiondownsmall", "oneeighth", "threeeighths", "fiveeighths", "seveneighths",
	"onethird", "twothirds", "zerosuperior", "foursuperior", "fivesuperior", "sixsuperior",
	"sevensuperior", "eightsuperior", "ninesuperior", "zeroinferior", "oneinferior", "twoinferior",
	"threeinferior", "fourinferior", "fiveinferior", "sixinferior", "seveninferior", "eightinferior",
	"nineinferior", "centinferior", "dollarinferior", "periodinferior", "commainferior", "Agravesmall",
	"Aacutesmall", "Acircumflexsmall", "Atildesmall", "Adieresissmall", "Aringsmall", "AEsmall",
	"Ccedillasmall", "Egravesmall", "Eacutesmall", "Ecircumflexsmall", "Edieresissmall", "Igravesmall",
	"Iacutesmall", "Icircumflexsmall", "Idieresissmall", "Ethsmall", "Ntildesmall", "Ogravesmall",
	"Oacutesmall", "Ocircumflexsmall", "Otildesmall", "Odieresissmall", "OEsmall", "Oslashsmall",
	"Ugravesmall", "Uacutesmall", "Ucircumflexsmall", "Udieresissmall", "Yacutesmall", "Thornsmall",
	"Ydieresissmall", "001.000", "001.001", "001.002", "001.003", "Black", "Bold", "Book", "Light",
	"Medium", "Regular", "Roman", "Semibold",
}
