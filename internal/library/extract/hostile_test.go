package extract

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wlynxg/chardet"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// encryptedZip is a zip whose entries are encrypted as zip -P does it: the
// flag says so and the bytes are ciphertext (random here: the reader must
// not try to read them).
func encryptedZip(t *testing.T, names ...string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, name := range names {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, Flags: 0x1,
			CompressedSize64: 40, UncompressedSize64: 100, CRC32: uint32(i)})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(bytes.Repeat([]byte{0x9c, 0x31, 0xe7, byte(i)}, 10))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// An encrypted EPUB, DOCX or ODT is refused as encrypted, as a PDF is,
// not as corrupt ("flate: corrupt input before offset 1"; issue 42).
func TestEncryptedContainers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		names []string
		want  string
	}{
		{"secret.docx", []string{"[Content_Types].xml", "word/document.xml"}, "encrypted DOCX: sponge cannot read it"},
		{"secret.odt", []string{"mimetype", "content.xml"}, "encrypted ODT: sponge cannot read it"},
		{"secret.epub", []string{"mimetype", "META-INF/container.xml", "c.opf"}, "encrypted EPUB: sponge cannot read it"},
		{"secret", []string{"[Content_Types].xml", "word/document.xml"}, "encrypted DOCX: sponge cannot read it"},
	} {
		_, err := Bytes(encryptedZip(t, tc.names...), tc.name, "")
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// Windows-1251 Russian is read as Russian in a text file, a transcript
// and a page; the detector calls these Mac Cyrillic, whose capitals are
// Windows-1251's symbols: "¬ октябре" was saved for "В октябре" (issue 42).
func TestWindows1251(t *testing.T) {
	lines := []string{
		"В октябре 2015 года крымскотатарскими и украинскими активистами была организована блокада.",
		"Металлургический завод начал действовать в 1932 году.",
		"Тифлокомментирование (аудиодескрипция) — это описание того, что происходит на экране.",
	}
	if got := chardet.Detect(encode(t, charmap.Windows1251, lines[1])).Charset; got != "x-mac-cyrillic" {
		t.Logf("the detector now says %s for %q, not x-mac-cyrillic", got, lines[1])
	}
	srt := ""
	for i, l := range lines {
		srt += fmt.Sprintf("%d\r\n00:00:0%d,000 --> 00:00:0%d,500\r\n%s\r\n\r\n", i+1, i+1, i+1, l)
	}
	for _, tc := range []struct{ name, text string }{
		{"war.txt", lines[0]},
		{"war2.txt", lines[1]},
		{"war.srt", srt},
		{"war.html", "<html><body><main><p>" + lines[0] + "</p><p>" + lines[2] + "</p></main></body></html>"},
	} {
		d := mustExtract(t, encode(t, charmap.Windows1251, tc.text), tc.name)
		got := strings.Join(texts(d), " ")
		for _, l := range lines {
			if w := strings.Fields(l)[0]; strings.Contains(tc.text, l) && !strings.Contains(got, l) {
				t.Errorf("%s: %q is not read as %q: %q", tc.name, w, l, got)
			}
		}
	}
}

// A UTF-16 byte-order mark before random bytes is refused: they decoded
// to 50 paragraphs of CJK-like text (issue 42). UTF-16 text is read.
func TestUTF16Random(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 4000)
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	for _, bom := range []string{"\xff\xfe", "\xfe\xff"} {
		for _, name := range []string{"noise.txt", "noise.html", "noise.srt"} {
			_, err := Bytes(append([]byte(bom), noise...), name, "")
			if err == nil || !strings.HasPrefix(err.Error(), "cannot decode the text: it starts with a UTF-16 byte-order mark") {
				t.Errorf("%q %s: error %v", bom, name, err)
			}
		}
	}
	for _, text := range []string{"今日はとても良い天気ですね。私は東京に住んでいます。", "Война и мир", "Café crème 🍵 ☕", "안녕하세요, 만나서 반갑습니다."} {
		data := encode(t, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), text)
		if d := mustExtract(t, data, "u16.txt"); texts(d)[0] != text {
			t.Errorf("UTF-16 %q read as %q", text, texts(d)[0])
		}
	}
}

// A UTF-8 byte-order mark before bytes that are not UTF-8 (Latin-1) is
// read by what the bytes are: it was saved with U+FFFD for each é (issue 42).
func TestLyingBOM(t *testing.T) {
	latin := encode(t, charmap.ISO8859_1, "Café crème, naïve façade: où est le garçon? Ça va très bien.")
	for _, name := range []string{"cafe.txt", "cafe.md", "cafe.html"} {
		data := append([]byte("\xef\xbb\xbf"), latin...)
		if name == "cafe.html" {
			data = append(append([]byte("\xef\xbb\xbf<html><body><main><p>"), latin...), "</p></main></body></html>"...)
		}
		d := mustExtract(t, data, name)
		if got := texts(d)[0]; got != "Café crème, naïve façade: où est le garçon? Ça va très bien." {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// A DOCX or ODT whose XML declares UTF-16 or ISO-8859-1 is read in that
// encoding: it was refused as corrupt (issue 42).
func TestDeclaredXMLEncodings(t *testing.T) {
	doc := `<?xml version="1.0" encoding="%s"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Café au lait, s'il vous plaît</w:t></w:r></w:p></w:body></w:document>`
	odt := `<?xml version="1.0" encoding="%s"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text><text:p>Café au lait, s'il vous plaît</text:p></office:text></office:body></office:document-content>`
	for _, tc := range []struct {
		label string
		enc   encoding.Encoding
	}{
		{"UTF-16", unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)},
		{"utf-16", unicode.UTF16(unicode.BigEndian, unicode.UseBOM)},
		{"ISO-8859-1", charmap.ISO8859_1},
		{"windows-1252", charmap.Windows1252},
	} {
		files := map[string][]byte{
			"a.docx": zipOf(t, "[Content_Types].xml", `<?xml version="1.0"?><Types/>`, "word/document.xml", string(encode(t, tc.enc, fmt.Sprintf(doc, tc.label)))),
			"a.odt":  zipOf(t, "mimetype", "application/vnd.oasis.opendocument.text", "content.xml", string(encode(t, tc.enc, fmt.Sprintf(odt, tc.label)))),
		}
		for name, data := range files {
			d, err := Bytes(data, name, "")
			if err != nil {
				t.Errorf("%s in %s: %v", name, tc.label, err)
				continue
			}
			if got := texts(d); len(got) != 1 || got[0] != "Café au lait, s'il vous plaît" {
				t.Errorf("%s in %s: %q", name, tc.label, got)
			}
		}
	}
}

// A file that expands past a bound is refused, naming the bound (issue
// 42: a 41 KB EPUB of tiny paragraphs made 1.7 million paragraphs and
// took 818 MB, a 50 MB text 7.5 million and 2 GB).
func TestExpansionBounds(t *testing.T) {
	t.Parallel()
	tiny := strings.Repeat("a\n\n", maxParagraphs+1)
	epub := zipOf(t, "mimetype", "application/epub+zip",
		"META-INF/container.xml", `<container><rootfiles><rootfile full-path="c.opf"/></rootfiles></container>`,
		"c.opf", `<package><manifest><item id="a" href="a.xhtml"/></manifest><spine><itemref idref="a"/></spine></package>`,
		"a.xhtml", "<html><body>"+strings.Repeat("<p>a</p>", maxParagraphs+1)+"</body></html>")
	// A macro of one long line, called on every line: 2.5 MB of text from 12 KB.
	macro := ".TH A 1\n.de X\n" + strings.Repeat("tea ", 250) + "\n..\n" + strings.Repeat(".X\n", 2500)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"tiny.txt", []byte(tiny), "cannot read this text: it makes more than 200000 paragraphs, the most one item may have (split the file)"},
		{"tiny.txt.gz", gzipOf(t, []byte(tiny)), "cannot read this text: it makes more than 200000 paragraphs, the most one item may have (split the file)"},
		{"tiny.md", []byte(tiny), "cannot read this markdown: it makes more than 200000 paragraphs, the most one item may have (split the file)"},
		{"tiny.epub", epub, "cannot read this epub: it makes more than 200000 paragraphs, the most one item may have (split the file)"},
		{"macro.1", []byte(macro), "cannot read this man: its 8 KiB make 2.4 MiB of text, more than 8 times its size"},
	} {
		d, err := Bytes(tc.data, tc.name, "")
		if err == nil || err.Error() != tc.want {
			n := 0
			if d != nil {
				n = len(d.Paragraphs)
			}
			t.Errorf("%s: error %v (%d paragraphs), want %q", tc.name, err, n, tc.want)
		}
	}
	// Just within the bound is fine.
	if d := mustExtract(t, []byte(strings.Repeat("a\n\n", maxParagraphs)), "many.txt"); len(d.Paragraphs) != maxParagraphs {
		t.Errorf("%d paragraphs, want %d", len(d.Paragraphs), maxParagraphs)
	}
}

// A manual page's strings are bounded: one that appends itself to itself
// doubles at each line (22 lines: 4 MiB, read ten times 40 MiB of text).
func TestManStringBound(t *testing.T) {
	page := ".TH A 1\n.ds a tea\n" + strings.Repeat(".as a \\*a\n", 22) + strings.Repeat("\\*a\n.PP\n", 10)
	d := mustExtract(t, []byte(page), "double.1")
	n := 0
	for _, p := range d.Paragraphs {
		n += len(p.Text)
	}
	if n > 10*maxManString+100 {
		t.Errorf("%d bytes of text from %d", n, len(page))
	}
}

// ODT's <text:s text:c="100"/> is one space in the paragraph being read,
// as cleanText would make it: a 153 KB file of them took 587 MB (issue 42).
func TestODTSpaces(t *testing.T) {
	body := `<text:p>` + strings.Repeat(`a<text:s text:c="100"/>`, 1000) + `</text:p>`
	d, err := xmlTokens([]byte(`<?xml version="1.0"?><x xmlns:text="t">` + body + `</x>`))
	if err != nil {
		t.Fatal(err)
	}
	for {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "p" {
			break
		}
	}
	var b strings.Builder
	if err := odtText(d, &b); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 2000 {
		t.Errorf("%d bytes held for 1000 letters", b.Len())
	}
	if got := cleanText(b.String()); got != strings.TrimSpace(strings.Repeat("a ", 1000)) {
		t.Errorf("text %.40q…", got)
	}
}

// A detected encoding whose words mix alphabets is wrong: German in
// Latin-1 that the detector calls Greek was saved as "Grφίe Ζrψ" (issue
// 42); the Latin encodings are tried instead.
func TestMixedAlphabets(t *testing.T) {
	for _, text := range []string{"Größe", "Größe Ærø"} {
		data := encode(t, charmap.ISO8859_1, text)
		if got := chardet.Detect(data).Charset; got != "ISO-8859-7" {
			t.Logf("the detector now says %s for %q, not ISO-8859-7", got, text)
		}
		if d := mustExtract(t, data, "a.txt"); texts(d)[0] != text {
			t.Errorf("%q read as %q", text, texts(d)[0])
		}
	}
	if mixed, words := mixedWords("Grφίe Ζrψ, Война и мир, Café"); mixed != 2 || words != 6 {
		t.Errorf("mixedWords: %d of %d", mixed, words)
	}
}

// A format read as a slice of lines refuses more than maxLines of them:
// 256 MiB of line breaks would take 4 GiB of slice (issue 42).
func TestLineBound(t *testing.T) {
	t.Parallel()
	breaks := strings.Repeat("\n", maxLines) + "tea\n"
	for _, name := range []string{"a.rst", "a.1", "a.srt", "a.vtt"} {
		data := breaks
		switch name {
		case "a.vtt":
			data = "WEBVTT\n" + data
		case "a.1":
			data = ".TH A 1\n" + data
		}
		_, err := Bytes([]byte(data), name, "")
		if err == nil || !strings.HasSuffix(err.Error(), "it has more than 2000000 lines, the most sponge reads in this format (split the file)") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := len(splitLines(strings.Repeat("\n", maxLines-1))); n != maxLines {
		t.Errorf("%d lines, want %d", n, maxLines)
	}
}
