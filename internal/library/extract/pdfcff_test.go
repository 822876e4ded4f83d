package extract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// cffIndex is a CFF INDEX of items, with one-byte offsets.
func cffIndex(items ...[]byte) []byte {
	if len(items) == 0 {
		return []byte{0, 0}
	}
	out := binary.BigEndian.AppendUint16(nil, uint16(len(items)))
	out = append(out, 1)
	off := 1
	out = append(out, byte(off))
	for _, it := range items {
		off += len(it)
		out = append(out, byte(off))
	}
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}

// cffProgram is a CFF font program of the glyphs f, i and fi (string ids
// 71, 74, 109), whose own Encoding gives them codes f, i and 175, as
// ps2pdf writes TeX's fonts (dvips moves the fi of code 12 to 175).
func cffProgram() []byte {
	num := func(n int) []byte { return append([]byte{29}, binary.BigEndian.AppendUint32(nil, uint32(n))...) }
	head := []byte{1, 0, 4, 1}
	names := cffIndex([]byte("CMR10"))
	charStrings := cffIndex([]byte{14}, []byte{14}, []byte{14}, []byte{14}) // .notdef, f, i, fi: endchar
	charset := []byte{0, 0, 71, 0, 74, 0, 109}
	encoding := []byte{0, 3, 'f', 'i', 175}
	dictLen := 3 * 6
	topLen := len(cffIndex(make([]byte, dictLen)))
	at := len(head) + len(names) + topLen + 2 + 2 // then the String and Global Subr INDEXes, empty
	top := append(append(append(append(append(num(at+len(charStrings)), 15), num(at+len(charStrings)+len(charset))...), 16), num(at)...), 17)
	var b bytes.Buffer
	for _, part := range [][]byte{head, names, cffIndex(top), cffIndex(), cffIndex(), charStrings, charset, encoding} {
		b.Write(part)
	}
	return b.Bytes()
}

// A CFF font (FontFile3, Type1C) with no Encoding in the PDF is read by
// the encoding its program carries: TeX's fi at code 175 was read as
// PDFDocEncoding's ¯, "specified" saved as "speci¯ed" (pspicture.pdf, as
// Ghostscript writes TeX's fonts), and the word was never found.
func TestPDFCFFEncoding(t *testing.T) {
	font := cffProgram()
	content := `BT /F1 12 Tf 100 700 Td (Lines may be speci\257ed, and the \257le is fine.) Tj ET`
	pdf := onePagePDFFont(content,
		"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+CMR10 /FirstChar 32 /LastChar 175 /Widths ["+strings.Repeat("500 ", 144)+"] /FontDescriptor 6 0 R >>",
		"<< /Type /FontDescriptor /FontName /ABCDEF+CMR10 /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 700 /Descent -200 /CapHeight 700 /StemV 80 /FontFile3 7 0 R >>",
		fmt.Sprintf("<< /Subtype /Type1C /Length %d >>\nstream\n%s\nendstream", len(font), font))
	d := mustExtract(t, pdf, "cff.pdf")
	got := texts(d)
	if want := []string{"Lines may be specified, and the file is fine."}; !cmp.Equal(want, got) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// A damaged CFF program gives no encoding, and no panic.
func TestCFFEncodingDamaged(t *testing.T) {
	p := cffProgram()
	if enc := cffEncoding(p); enc == nil || enc[175] != "ﬁ" || enc['f'] != "f" {
		t.Fatalf("cffEncoding of the test program: %v", enc)
	}
	for n := range len(p) {
		cffEncoding(p[:n])
	}
	if cffEncoding(p[:20]) != nil {
		t.Error("a cut program gave an encoding")
	}
}
