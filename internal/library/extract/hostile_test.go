package extract

import (
	"archive/zip"
	"bytes"
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
