package extract

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
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

var _ = strings.Repeat
