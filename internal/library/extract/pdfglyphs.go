package extract

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-pdf/fpdf"
	"github.com/sponge-library/sponge/internal/library/extract/pdf"
)

// This file interprets a page's content stream and yields every glyph with
// its position, size and advance width. Positions let layoutPage put
// spaces and line breaks where a reader sees them (a plain-text dump of
// the operators glues words together: measured with github.com/ledongthuc/pdf's
// Page.Content, 70% of tokens not in a dictionary against 26% for pdftotext).

// glyph is one shown character (or ligature) on a page, in user space.
type glyph struct {
	s    string  // decoded text, may be empty for unmapped codes
	x, y float64 // baseline origin
	w    float64 // advance width
	size float64 // effective font size
	bold bool
	mono bool // of a font whose glyphs are all as wide (pdfFont.mono)
}

// alongText turns a glyph's place on the page into one on the lines of
// its text, whose direction is (dx, dy): text turned a quarter (a
// landscape page whose content is rotated, a table's rotated column) or
// upside down reads along x, its lines going down y, as upright text does.
// A mirrored glyph (the reversed E of XeTeX's logo) is not turned; show
// places it by its left edge.
func alongText(x, y, dx, dy float64) (float64, float64) {
	n := math.Hypot(dx, dy)
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return x, y
	}
	dx, dy = dx/n, dy/n
	return x*dx + y*dy, y*dx - x*dy
}

// mat is a PDF transformation matrix [a b c d e f].
type mat [6]float64

var identity = mat{1, 0, 0, 1, 0, 0}

// mul returns m × n (apply m, then n).
func (m mat) mul(n mat) mat {
	return mat{
		m[0]*n[0] + m[1]*n[2],
		m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2],
		m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4],
		m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func translate(tx, ty float64) mat { return mat{1, 0, 0, 1, tx, ty} }

// pdfFont is what the interpreter needs of a font: how to cut a string into
// codes, what text a code stands for, and how wide it is.
type pdfFont struct {
	bold     bool
	mono     bool              // fixed pitch: a typewriter font, code's (monoFont)
	drawing  bool              // a font of a diagram's lines and circles, no text (pictureFont)
	twoByte  bool              // Type0 without a usable codespace: 2-byte codes
	spaces   [4][][2]string    // codespace ranges by code length, from ToUnicode
	toUni    map[string]string // code → text, from ToUnicode
	v        pdf.Value         // a simple font's dictionary: its Encoding reads codes the ToUnicode map lacks
	enc      *[256]string      // text of a simple font's codes by its Encoding, read on first use
	widths   map[int]float64   // code → width in text space units (already /1000)
	dw       float64           // default width
	type3    bool
	hasWidth bool
	std      *[256]float64     // widths of a standard 14 font without a Widths array
	hasSpace bool              // spaces has a range
	one      *[256]oneText     // text of one-byte codes, as asked for
	many     map[string]string // text of longer codes, as asked for
}

func loadFont(v pdf.Value) *pdfFont {
	f := &pdfFont{widths: map[int]float64{}}
	base := v.Key("BaseFont").Name()
	lb := strings.ToLower(base)
	f.bold = strings.Contains(lb, "bold") || strings.Contains(lb, "black") || strings.Contains(lb, "heavy") ||
		texBold(lb)
	f.mono = monoFont(lb, v.Key("FontDescriptor"))
	f.drawing = pictureFont(lb)
	sub := v.Key("Subtype").Name()
	if sub == "Type0" {
		f.twoByte = true
		desc := v.Key("DescendantFonts").Index(0)
		f.mono = f.mono || monoFont("", desc.Key("FontDescriptor"))
		f.dw = 1
		if d := desc.Key("DW"); d.Kind() == pdf.KindInteger || d.Kind() == pdf.KindReal {
			f.dw = d.Float64() / 1000
		}
		w := desc.Key("W")
		for i := 0; i < w.Len(); {
			first := int(w.Index(i).Int64())
			next := w.Index(i + 1)
			if next.Kind() == pdf.KindArray {
				for j := 0; j < next.Len() && j < 1<<16; j++ {
					f.widths[first+j] = next.Index(j).Float64() / 1000
				}
				i += 2
				continue
			}
			last := int(next.Int64())
			wd := w.Index(i+2).Float64() / 1000
			for c := first; c <= last && c-first < 1<<16; c++ {
				f.widths[c] = wd
			}
			i += 3
		}
		f.hasWidth = true
	} else {
		scale := 1.0 / 1000
		if sub == "Type3" {
			f.type3 = true
			if fm := v.Key("FontMatrix"); fm.Len() == 6 {
				scale = fm.Index(0).Float64()
			}
		}
		first := int(v.Key("FirstChar").Int64())
		ws := v.Key("Widths")
		for i := 0; i < ws.Len() && i < 1<<16; i++ {
			f.widths[first+i] = ws.Index(i).Float64() * scale
		}
		f.hasWidth = ws.Len() > 0
		if !f.hasWidth {
			f.std = standardWidths(lb)
			f.dw = 0.5 // an average letter, for fonts we know nothing of
		}
		f.v = v
	}
	if tu := v.Key("ToUnicode"); tu.Kind() == pdf.KindStream {
		f.readToUnicode(tu)
	}
	return f
}

// texBold recognises TeX's bold font names (cmbx10, lmbx, ptmb8t, …).
func texBold(name string) bool {
	if i := strings.IndexByte(name, '+'); i >= 0 {
		name = name[i+1:]
	}
	return strings.HasPrefix(name, "cmbx") || strings.HasPrefix(name, "lmbx") || strings.HasPrefix(name, "cmb1") ||
		strings.HasPrefix(name, "lmroman10-bold") || strings.HasPrefix(name, "sfbx")
}

// pictureFont says whether a font is one of LaTeX's picture fonts (line10,
// linew10, lcircle10, lcirclew10): its glyphs are the slanted lines, arrow
// heads and quarter circles of a diagram drawn with \line, \vector and
// \circle, no text. Read by their codes they were letters or U+FFFD
// ("i", "6", "?" in pdftotext; fancyhdr.pdf's and layout.pdf's page
// diagrams were saved as lines of "� 8", "� � 3").
func pictureFont(name string) bool {
	if i := strings.IndexByte(name, '+'); i >= 0 {
		name = name[i+1:]
	}
	switch name {
	case "line10", "linew10", "lcircle10", "lcirclew10":
		return true
	}
	return false
}

// monoFont says whether a font is fixed pitch, every glyph as wide, as a
// typewriter's and as code is set: its descriptor says so (the FixedPitch
// flag), or its name is one of TeX's or the standard typewriter fonts
// (cmtt10, LMMono10-Regular, Courier; subsets named "ABCDEF+…").
func monoFont(name string, fd pdf.Value) bool {
	if fd.Key("Flags").Int64()&1 != 0 {
		return true
	}
	if i := strings.IndexByte(name, '+'); i >= 0 {
		name = name[i+1:]
	}
	for _, p := range []string{"cmtt", "lmtt", "sftt", "txtt", "ectt", "tctt", "rm-lmtt", "lmmono", "courier", "nimbusmon", "beramono", "inconsolata"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return strings.Contains(name, "mono") && !strings.Contains(name, "monotype")
}

// standardWidths are the advance widths (per 1000 of the font size, by
// code) of the standard 14 fonts, which PDF writers may use without a
// Widths array. They come from the font metrics fpdf carries; nil when
// the font is not one of them.
func standardWidths(name string) *[256]float64 {
	if i := strings.IndexByte(name, '+'); i >= 0 {
		name = name[i+1:]
	}
	family := ""
	switch {
	case strings.Contains(name, "courier"):
		family = "courier"
	case strings.Contains(name, "times"):
		family = "times"
	case strings.Contains(name, "helvetica"), strings.Contains(name, "arial"):
		family = "helvetica"
	case strings.Contains(name, "symbol"):
		family = "symbol"
	case strings.Contains(name, "zapf"), strings.Contains(name, "dingbat"):
		family = "zapfdingbats"
	default:
		return nil
	}
	style := ""
	if family != "symbol" && family != "zapfdingbats" {
		if strings.Contains(name, "bold") {
			style += "B"
		}
		if strings.Contains(name, "italic") || strings.Contains(name, "oblique") {
			style += "I"
		}
	}
	key := family + style
	if w, ok := stdWidths.Load(key); ok {
		return w.(*[256]float64)
	}
	f := fpdf.New("P", "pt", "A4", "")
	f.SetFont(family, style, 10)
	if f.Err() {
		return nil
	}
	var w [256]float64
	for c := 1; c < 256; c++ {
		w[c] = float64(f.GetStringSymbolWidth(string([]byte{byte(c)}))) / 1000
	}
	stdWidths.Store(key, &w)
	return &w
}

var stdWidths sync.Map

// readToUnicode parses a ToUnicode CMap: codespace ranges, bfchar and
// bfrange. It reads the stream's tokens itself: pdf.Interpret stops at the
// "/CIDInit /ProcSet findresource begin" prologue that TeX and most writers emit.
func (f *pdfFont) readToUnicode(strm pdf.Value) {
	data, err := readStream(strm, 16<<20)
	if err != nil {
		return
	}
	m := map[string]string{}
	var spaces [4][][2]string
	var args []cmapToken
	section := ""
	for toks := (cmapLexer{data: data}); ; {
		t, ok := toks.next()
		if !ok {
			break
		}
		if t.kind != 'k' {
			args = append(args, t)
			continue
		}
		switch t.s {
		case "begincodespacerange", "beginbfchar", "beginbfrange":
			section, args = t.s, args[:0]
			continue
		case "endcodespacerange":
			if section == "begincodespacerange" {
				for i := 0; i+1 < len(args); i += 2 {
					lo, hi := args[i].s, args[i+1].s
					if len(lo) >= 1 && len(lo) <= 4 && len(lo) == len(hi) {
						spaces[len(lo)-1] = append(spaces[len(lo)-1], [2]string{lo, hi})
					}
				}
			}
		case "endbfchar":
			if section == "beginbfchar" {
				for i := 0; i+1 < len(args); i += 2 {
					m[args[i].s] = utf16BE(args[i+1].s)
				}
			}
		case "endbfrange":
			if section == "beginbfrange" {
				for i := 0; i+2 < len(args); {
					loV, hiV, dst := args[i].s, args[i+1].s, args[i+2]
					i += 3
					if dst.kind == '[' {
						// the array's strings follow up to the closing bracket
						var arr []string
						for i < len(args) && args[i].kind != ']' {
							arr = append(arr, args[i].s)
							i++
						}
						i++ // skip ]
						for k := 0; k < len(arr) && len(loV) > 0 && len(loV) <= 4; k++ {
							m[intCode(codeInt(loV)+k, len(loV))] = utf16BE(arr[k])
						}
						continue
					}
					if len(loV) == 0 || len(loV) != len(hiV) || len(loV) > 4 {
						continue
					}
					lo, hi := codeInt(loV), codeInt(hiV)
					if hi < lo || hi-lo > 1<<16 || dst.s == "" {
						continue
					}
					u := utf16Units([]byte(dst.s))
					for c := lo; c <= hi; c++ {
						v := append([]uint16(nil), u...)
						v[len(v)-1] += uint16(c - lo) // the last unit counts up along the range
						m[intCode(c, len(loV))] = string(utf16.Decode(v))
					}
				}
			}
		}
		section, args = "", args[:0]
	}
	if len(m) == 0 {
		return
	}
	f.toUni = m
	f.spaces = spaces
	for _, s := range spaces {
		f.hasSpace = f.hasSpace || len(s) > 0
	}
}

// readStream reads a stream's decoded bytes, up to max bytes.
func readStream(v pdf.Value, max int) ([]byte, error) {
	data, err := v.Data(max)
	if errors.Is(err, pdf.ErrTooLong) {
		err = nil
	}
	return data, err
}

// cmapToken is a token of a CMap: a string (kind 's', hex or literal, as
// raw bytes), a keyword ('k'), a number or name ('n'), or an array bracket.
type cmapToken struct {
	kind byte
	s    string
}

type cmapLexer struct {
	data []byte
	pos  int
}

func (l *cmapLexer) next() (cmapToken, bool) {
	d := l.data
	for l.pos < len(d) {
		c := d[l.pos]
		switch {
		case c == '%':
			for l.pos < len(d) && d[l.pos] != '\n' && d[l.pos] != '\r' {
				l.pos++
			}
		case c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0:
			l.pos++
		case c == '<' && l.pos+1 < len(d) && d[l.pos+1] == '<', c == '>' && l.pos+1 < len(d) && d[l.pos+1] == '>':
			l.pos += 2
			return cmapToken{kind: 'n', s: string(d[l.pos-2 : l.pos])}, true
		case c == '<':
			l.pos++
			var b []byte
			hi, half := byte(0), false
			for l.pos < len(d) && d[l.pos] != '>' {
				if v := pdf.Unhex(d[l.pos]); v >= 0 {
					if half {
						b = append(b, hi<<4|byte(v))
					} else {
						hi = byte(v)
					}
					half = !half
				}
				l.pos++
			}
			if half {
				b = append(b, hi<<4)
			}
			l.pos++
			return cmapToken{kind: 's', s: string(b)}, true
		case c == '(':
			l.pos++
			var b []byte
			depth := 1
			for l.pos < len(d) {
				c := d[l.pos]
				l.pos++
				if c == '\\' && l.pos < len(d) {
					b = append(b, d[l.pos])
					l.pos++
					continue
				}
				if c == '(' {
					depth++
				} else if c == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
				b = append(b, c)
			}
			return cmapToken{kind: 's', s: string(b)}, true
		case c == '[' || c == ']':
			l.pos++
			return cmapToken{kind: c}, true
		default:
			start := l.pos
			l.pos++
			for l.pos < len(d) && !strings.ContainsRune(" \n\r\t\f\x00<>[]()/%", rune(d[l.pos])) {
				l.pos++
			}
			w := string(d[start:l.pos])
			if c == '/' || c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9' || c == '{' || c == '}' {
				return cmapToken{kind: 'n', s: w}, true
			}
			return cmapToken{kind: 'k', s: w}, true
		}
	}
	return cmapToken{}, false
}

func codeInt(s string) int {
	c := 0
	for i := 0; i < len(s); i++ {
		c = c<<8 | int(s[i])
	}
	return c
}

func intCode(c, n int) string {
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = byte(c)
		c >>= 8
	}
	return string(b)
}

func utf16Units(b []byte) []uint16 {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	if len(b)%2 == 1 { // a one-byte destination is a bare code
		u = append(u, uint16(b[len(b)-1]))
	}
	return u
}

func utf16BE(s string) string { return string(utf16.Decode(utf16Units([]byte(s)))) }

// codeLen is the length of the character code that raw starts with.
func (f *pdfFont) codeLen(raw []byte) int {
	n := 1
	if f.hasSpace {
		n = 0
	Lengths:
		for l := 1; l <= 4 && l <= len(raw); l++ {
			for _, r := range f.spaces[l-1] {
				if r[0] <= string(raw[:l]) && string(raw[:l]) <= r[1] {
					n = l
					break Lengths
				}
			}
		}
		if n == 0 {
			n = 1
			if f.twoByte {
				n = 2
			}
		}
	} else if f.twoByte {
		n = 2
	}
	return min(n, len(raw))
}

// text is the text a code stands for. It is asked for every glyph, so
// answers are kept: a font's Encoding resolves its Differences anew at
// every call.
func (f *pdfFont) text(code []byte) string {
	if len(code) == 1 {
		if f.one == nil {
			f.one = new([256]oneText)
		}
		t := &f.one[code[0]]
		if !t.ok {
			t.s, t.ok = f.decode(string(code)), true
		}
		return t.s
	}
	if t, ok := f.many[string(code)]; ok {
		return t
	}
	t := f.decode(string(code))
	if f.many == nil {
		f.many = map[string]string{}
	}
	f.many[string(code)] = t
	return t
}

type oneText struct {
	s  string
	ok bool
}

func (f *pdfFont) decode(code string) string {
	if f.drawing {
		return ""
	}
	if f.toUni != nil {
		if t, ok := f.toUni[code]; ok {
			return t
		}
		if f.twoByte {
			return ""
		}
	}
	if f.twoByte {
		return "" // no mapping: CIDs are not Unicode
	}
	if f.v.IsNull() {
		return code
	}
	return f.encodingText(code)
}

// encodingText is the text of a simple font's code by its Encoding: a
// standard encoding, or Differences from a base encoding or from the
// encoding the font program itself carries.
func (f *pdfFont) encodingText(code string) string {
	if f.enc == nil {
		f.enc = simpleEncoding(f.v, f.toUni != nil)
	}
	var b strings.Builder
	for i := 0; i < len(code); i++ {
		if t := f.enc[code[i]]; t != "" {
			b.WriteString(t)
		} else {
			b.WriteRune(utf8.RuneError)
		}
	}
	return b.String()
}

// simpleEncoding is the text of each code of a simple font ("" where
// nothing says). hasMap says the font has a ToUnicode map, which then
// lacks the code: a font naming no encoding is read by the encoding its
// program carries, over PDFDocEncoding when it has no map.
func simpleEncoding(font pdf.Value, hasMap bool) *[256]string {
	var enc [256]string
	fill := func(t *[256]rune) {
		for c, r := range t {
			if r != 0 {
				enc[c] = string(r)
			}
		}
	}
	base := func(name string) bool {
		switch name {
		case "WinAnsiEncoding":
			fill(&pdf.WinAnsiEncoding)
		case "MacRomanEncoding":
			fill(&pdf.MacRomanEncoding)
		case "StandardEncoding":
			fill(&pdf.StandardEncoding)
		default:
			return false
		}
		return true
	}
	builtin := func() bool {
		texts := programEncoding(font)
		if texts == nil {
			return false
		}
		for c, t := range texts {
			if t != "" {
				enc[c] = t
			}
		}
		return true
	}
	e := font.Key("Encoding")
	switch e.Kind() {
	case pdf.KindName:
		if !base(e.Name()) {
			if !hasMap {
				fill(&pdf.PDFDocEncoding)
			}
			builtin()
		}
	case pdf.KindDict:
		if !base(e.Key("BaseEncoding").Name()) && !builtin() {
			for c := 32; c < 256; c++ {
				enc[c] = string(rune(c))
			}
		}
		for c, t := range differences(e.Key("Differences")) {
			enc[c] = t
		}
	default:
		if !hasMap {
			fill(&pdf.PDFDocEncoding)
		}
		builtin()
	}
	for c := 0; c < 32; c++ {
		if enc[c] != "" && enc[c][0] < 32 {
			enc[c] = "" // a control character is no glyph's text
		}
	}
	return &enc
}

// programEncoding is the encoding a Type 1 font program declares in its
// clear-text part ("dup 12 /fi put"), or a CFF program (Type1C) in its
// Encoding and charset (cffEncoding), as the text of each code; nil when
// the font has no such program or it declares none. TeX's fonts rely on
// it: without it their ligatures (fi, fl) and quotes read wrong.
func programEncoding(font pdf.Value) *[256]string {
	fd := font.Key("FontDescriptor")
	ff := fd.Key("FontFile")
	if ff.Kind() != pdf.KindStream {
		if f3 := fd.Key("FontFile3"); f3.Kind() == pdf.KindStream && f3.Key("Subtype").Name() == "Type1C" {
			if data, err := readStream(f3, maxCFFBytes); err == nil {
				return cffEncoding(data)
			}
		}
		return nil
	}
	n := int(ff.Key("Length1").Int64())
	if n <= 0 || n > 1<<20 {
		n = 64 << 10
	}
	data, err := readStream(ff, n)
	if err != nil {
		return nil
	}
	if i := bytes.Index(data, []byte("eexec")); i >= 0 {
		data = data[:i]
	}
	i := bytes.Index(data, []byte("/Encoding"))
	if i < 0 {
		return nil
	}
	var texts [256]string
	if bytes.HasPrefix(bytes.TrimLeft(data[i+len("/Encoding"):], " \t\r\n"), []byte("StandardEncoding")) {
		for c, r := range pdf.StandardEncoding {
			if r != 0 {
				texts[c] = string(r)
			}
		}
		return &texts
	}
	found := false
	for _, m := range dupPut.FindAllSubmatch(data[i:], 256) {
		c, err := strconv.Atoi(string(m[1]))
		if err != nil || c < 0 || c > 255 {
			continue
		}
		texts[c] = pdf.GlyphText(string(m[2]))
		found = true
	}
	if !found {
		return nil
	}
	return &texts
}

var dupPut = lazyRE(`dup\s+(\d+)\s*/([^\s/\[\]{}()<>%]+)\s+put`)

// differences reads an Encoding's Differences array: codes, each followed
// by the glyph names from that code on. The first known name of a code is
// its text.
func differences(a pdf.Value) map[byte]string {
	m := map[byte]string{}
	code := -1
	for i := 0; i < a.Len() && i < 1<<16; i++ {
		x := a.Index(i)
		switch x.Kind() {
		case pdf.KindInteger:
			code = int(x.Int64())
		case pdf.KindName:
			if code >= 0 && code < 256 {
				if _, ok := m[byte(code)]; !ok {
					if t := pdf.GlyphText(x.Name()); t != "" {
						m[byte(code)] = t
					}
				}
			}
			code++
		}
	}
	return m
}

func (f *pdfFont) width(code []byte) float64 {
	c := 0
	for _, b := range code {
		c = c<<8 | int(b)
	}
	if w, ok := f.widths[c]; ok {
		return w
	}
	if f.std != nil && len(code) == 1 {
		return f.std[code[0]]
	}
	if !f.hasWidth && len(code) == 1 && code[0] == ' ' {
		return 0.25
	}
	return f.dw
}

// docCache holds what a document's pages share: its loaded fonts, buffers
// reused from page to page, and what the pages read so far have cost.
type docCache struct {
	src    *pdf.Doc
	fonts  map[any]*pdfFont
	lexers [maxFormDepth + 1]contentLexer // by form XObject depth
	glyphs []glyph
	ops    int // operators run in the document
	shown  int // glyphs of the pages read
}

func newDocCache(src *pdf.Doc) *docCache { return &docCache{src: src, fonts: map[any]*pdfFont{}} }

// textState is the PDF text state plus the graphics state parts that move glyphs.
type textState struct {
	ctm                     mat
	tc, tw, th, tl, ts, tfs float64
	font                    *pdfFont
}

// interp walks content streams and collects glyphs.
type interp struct {
	glyphs   []glyph
	doc      *docCache
	fonts    map[any]*pdfFont // the document's fonts, by object (pdf.Value.ID)
	noFont   *pdfFont         // for text shown before any Tf
	trm      glyphMatrix
	size     hypot // of the glyphs' text space, kept: a string's glyphs share it
	xscale   hypot
	depth    int
	ops      int // operators run on the page, a form's each time it is drawn
	room     int // glyphs the page may show: its budget, or what is left of the document's
	deadline time.Time
}

// glyphMatrix computes a glyph's text rendering matrix,
// [tfs·th 0 0 tfs 0 ts] × tm × ctm, to the bit as mat.mul does. From one
// glyph to the next only tm's translation moves, so the products that do
// not depend on it are kept while their inputs stay the same.
type glyphMatrix struct {
	key    [13]uint64 // tfs, th, ts, tm[0:4], ctm
	ok     bool
	lin    [4]float64 // the result's linear part
	p4, p5 float64    // the first product's translation before tm's is added
}

func (g *glyphMatrix) of(st *textState, tm *mat) mat {
	key := [13]uint64{math.Float64bits(st.tfs), math.Float64bits(st.th), math.Float64bits(st.ts),
		math.Float64bits(tm[0]), math.Float64bits(tm[1]), math.Float64bits(tm[2]), math.Float64bits(tm[3])}
	for i, c := range st.ctm {
		key[7+i] = math.Float64bits(c)
	}
	c := &st.ctm
	if !g.ok || key != g.key {
		r := mat{st.tfs * st.th, 0, 0, st.tfs, 0, st.ts}.mul(*tm)
		g.lin = [4]float64{r[0]*c[0] + r[1]*c[2], r[0]*c[1] + r[1]*c[3], r[2]*c[0] + r[3]*c[2], r[2]*c[1] + r[3]*c[3]}
		g.p4 = 0*tm[0] + st.ts*tm[2]
		g.p5 = 0*tm[1] + st.ts*tm[3]
		g.key, g.ok = key, true
	}
	r4, r5 := g.p4+tm[4], g.p5+tm[5]
	return mat{g.lin[0], g.lin[1], g.lin[2], g.lin[3], r4*c[0] + r5*c[2] + c[4], r4*c[1] + r5*c[3] + c[5]}
}

// advance is translate(tx, 0).mul(m) without its products by one.
func (m mat) advance(tx float64) mat {
	return mat{
		m[0] + 0*m[2],
		m[1] + 0*m[3],
		0*m[0] + m[2],
		0*m[1] + m[3],
		tx*m[0] + 0*m[2] + m[4],
		tx*m[1] + 0*m[3] + m[5],
	}
}

// hypot is math.Hypot with its last answer kept.
type hypot struct {
	p, q, h float64
	ok      bool
}

func (c *hypot) of(p, q float64) float64 {
	if !c.ok || p != c.p || q != c.q {
		c.p, c.q, c.h, c.ok = p, q, math.Hypot(p, q), true
	}
	return c.h
}

// Budgets for what one PDF may cost, whatever its size on disk: a few KB
// of forms drawing forms ten times over, or of flated zeros, would take
// gigabytes and minutes. Past one the file is refused whole. In brackets, for the others,
// the most any of the 269 texlive-latex-base-doc PDFs needs.
const (
	maxFormDepth     = 8           // form XObjects drawn inside form XObjects; deeper ones are not drawn, as before
	maxOpsPerPage    = 2_000_000   // operators run, a form's each time it is drawn [6,334]
	maxOpsPerDoc     = 100_000_000 // [1.3 million]: seconds of work
	maxGlyphsPerPage = 1_000_000   // [5,383]: 56 MB of glyphs
	maxGlyphsPerDoc  = 20_000_000  // [3.2 million]
	maxDecodedPerDoc = 1 << 30     // bytes the stream filters make, a stream each time it is read [26 MB]
)

// budgetError is a PDF that would cost more than a budget: a damaged or
// hostile file, refused whole.
type budgetError struct {
	page int // 1-based, set by the page loop
	what string
}

func (e *budgetError) Error() string {
	return fmt.Sprintf("p.%d: %s (a damaged or hostile file); stopped", e.page, e.what)
}

func overBudget(format string, a ...any) *budgetError {
	return &budgetError{what: fmt.Sprintf(format, a...)}
}

// pageGlyphs returns the glyphs of a page in content-stream order. doc
// holds the fonts loaded so far in the document; the glyphs are valid
// until the next call with the same doc.
func pageGlyphs(p pdf.Page, doc *docCache, deadline time.Time) (gs []glyph, err error) {
	in := &interp{glyphs: doc.glyphs[:0], doc: doc, fonts: doc.fonts, deadline: deadline,
		room: min(maxGlyphsPerPage, maxGlyphsPerDoc-doc.shown)}
	defer func() {
		doc.glyphs = in.glyphs
		doc.shown += len(in.glyphs)
		if r := recover(); r != nil {
			// Keep what was read before the damage: a page with a broken
			// tail still has its first paragraphs.
			gs = in.glyphs
			over, isOver := r.(*budgetError)
			switch {
			case r == errTooSlow:
				err = errTooSlow
			case isOver:
				gs, err = nil, over
			case len(gs) == 0:
				err = panicError(r)
			}
		}
	}()
	contents := p.V.Key("Contents")
	if contents.IsNull() {
		return nil, nil
	}
	in.run(contents, p.Resources(), textState{ctm: identity, th: 1})
	return in.glyphs, nil
}

func (in *interp) run(strm, res pdf.Value, st textState) {
	var stack []textState
	tm, tlm := identity, identity
	// Pages share font objects, and loading one (widths, ToUnicode) is
	// most of the cost of a page: fonts are kept by object.
	var fontDict pdf.Value
	fontCache := func(name string) *pdfFont {
		if fontDict.IsNull() {
			fontDict = res.Key("Font")
		}
		fv := fontDict.Key(name)
		if fv.IsNull() {
			return nil
		}
		key := fv.ID()
		if f, ok := in.fonts[key]; ok && key != nil {
			return f
		}
		f := loadFont(fv)
		if key != nil {
			in.fonts[key] = f
		}
		return f
	}
	show := func(raw []byte) {
		f := st.font
		if f == nil {
			if in.noFont == nil {
				in.noFont = &pdfFont{dw: 0.5, widths: map[int]float64{}}
			}
			f = in.noFont
		}
		for len(raw) > 0 {
			if len(in.glyphs) >= in.room {
				if in.room == maxGlyphsPerPage {
					panic(overBudget("the page shows more than %d million characters", maxGlyphsPerPage/1_000_000))
				}
				panic(overBudget("the document shows more than %d million characters", maxGlyphsPerDoc/1_000_000))
			}
			n := f.codeLen(raw)
			code := raw[:n]
			raw = raw[n:]
			trm := in.trm.of(&st, &tm)
			w0 := f.width(code)
			size := in.size.of(trm[2], trm[3])
			xscale := in.xscale.of(trm[0], trm[1])
			adv := w0*st.tfs + st.tc
			if len(code) == 1 && code[0] == ' ' {
				adv += st.tw
			}
			x, y := trm[4], trm[5]
			w := w0 * xscale
			switch det := trm[0]*trm[3] - trm[1]*trm[2]; {
			case (trm[1] != 0 || trm[0] < 0) && det > 0:
				x, y = alongText(x, y, trm[0], trm[1])
			case trm[0] < 0 && det < 0:
				x -= w // mirrored: drawn leftward from its origin (XeTeX's reversed E)
			}
			in.glyphs = append(in.glyphs, glyph{
				s: f.text(code), x: x, y: y,
				w: w, size: size, bold: f.bold, mono: f.mono,
			})
			tm = tm.advance(adv * st.th)
		}
	}
	nextLine := func() {
		tlm = translate(0, -st.tl).mul(tlm)
		tm = tlm
	}
	// Each form XObject level reads with its own lexer: the page's
	// operands stay valid while a form is drawn.
	lx := &in.doc.lexers[in.depth]
	data, rerr := contentBytes(strm, lx.data)
	if rerr == errContentTooLong {
		panic(overBudget("a content stream inflates to more than %d MiB", maxContentBytes>>20))
	}
	*lx = contentLexer{data: data, err: rerr, text: lx.text[:0], args: lx.args[:0], elems: lx.elems[:0]}
	afterBI := false
	for {
		op, ok := lx.next()
		if !ok {
			break
		}
		in.ops++
		in.doc.ops++
		switch {
		case in.ops > maxOpsPerPage:
			panic(overBudget("the page draws more than %d million objects", maxOpsPerPage/1_000_000))
		case in.doc.ops > maxOpsPerDoc:
			panic(overBudget("the document draws more than %d million objects", maxOpsPerDoc/1_000_000))
		case in.doc.src.Decoded() > maxDecodedPerDoc:
			panic(overBudget("the document's streams inflate to more than %d MiB", maxDecodedPerDoc>>20))
		}
		if in.ops%4096 == 0 && !in.deadline.IsZero() && time.Now().After(in.deadline) {
			panic(errTooSlow)
		}
		args := lx.args
		inlineImage := afterBI // an inline image's dictionary lies between BI and ID
		afterBI = string(op) == "BI"
		switch string(op) {
		case "q":
			if len(stack) < 256 {
				stack = append(stack, st)
			}
		case "Q":
			if len(stack) > 0 {
				st = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			}
		case "cm":
			if len(args) == 6 {
				st.ctm = mat{argNum(args, 0), argNum(args, 1), argNum(args, 2), argNum(args, 3), argNum(args, 4), argNum(args, 5)}.mul(st.ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tc":
			st.tc = argNum(args, 0)
		case "Tw":
			st.tw = argNum(args, 0)
		case "Tz":
			st.th = argNum(args, 0) / 100
		case "TL":
			st.tl = argNum(args, 0)
		case "Ts":
			st.ts = argNum(args, 0)
		case "Tf":
			if len(args) == 2 {
				st.font = fontCache(lx.argName(args[0]))
				st.tfs = argNum(args, 1)
			}
		case "Td", "TD":
			if len(args) == 2 {
				if op[1] == 'D' {
					st.tl = -argNum(args, 1)
				}
				tlm = translate(argNum(args, 0), argNum(args, 1)).mul(tlm)
				tm = tlm
			}
		case "Tm":
			if len(args) == 6 {
				tlm = mat{argNum(args, 0), argNum(args, 1), argNum(args, 2), argNum(args, 3), argNum(args, 4), argNum(args, 5)}
				tm = tlm
			}
		case "T*":
			nextLine()
		case "Tj":
			if len(args) == 1 {
				show(lx.argString(args[0]))
			}
		case "'":
			if len(args) == 1 {
				nextLine()
				show(lx.argString(args[0]))
			}
		case "\"":
			if len(args) == 3 {
				st.tw, st.tc = argNum(args, 0), argNum(args, 1)
				nextLine()
				show(lx.argString(args[2]))
			}
		case "TJ":
			if len(args) == 1 && args[0].kind == csArray {
				for _, x := range lx.elems[args[0].lo:args[0].hi] {
					if x.kind == csString {
						show(lx.argString(x))
					} else {
						tm = translate(-x.float()/1000*st.tfs*st.th, 0).mul(tm)
					}
				}
			}
		case "ID":
			if inlineImage {
				lx.skipInlineImage() // images are not read
			}
		case "Do":
			if len(args) == 1 && in.depth < maxFormDepth {
				in.drawForm(lx.argName(args[0]), res, st)
			}
		}
	}
}

// drawForm runs the form XObject a Do operator names; other XObjects
// (images) are not read.
func (in *interp) drawForm(name string, res pdf.Value, st textState) {
	xo := res.Key("XObject").Key(name)
	if xo.Key("Subtype").Name() != "Form" {
		return
	}
	fst := st
	if m := xo.Key("Matrix"); m.Len() == 6 {
		fst.ctm = mat{m.Index(0).Float64(), m.Index(1).Float64(), m.Index(2).Float64(),
			m.Index(3).Float64(), m.Index(4).Float64(), m.Index(5).Float64()}.mul(st.ctm)
	}
	fres := xo.Key("Resources")
	if fres.IsNull() {
		fres = res
	}
	in.depth++
	in.run(xo, fres, fst)
	in.depth--
}
