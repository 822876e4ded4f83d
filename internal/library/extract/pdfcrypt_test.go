package extract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Encrypted PDFs made by qpdf (internal/pdf/testdata/README.md): those
// that open with an empty password are read; those that need one are
// refused with a clear message.
func TestPDFEncrypted(t *testing.T) {
	files, _ := filepath.Glob("pdf/testdata/encrypted-*.pdf")
	if len(files) < 10 {
		t.Fatalf("%d encrypted fixtures", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		doc, err := readPDF(data, farDeadline())
		if strings.Contains(name, "userpw") {
			if err == nil || err.Error() != "encrypted PDF: sponge cannot read it" {
				t.Errorf("%s: %v, want the encrypted-PDF error", name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(doc.Paragraphs) == 0 || !strings.Contains(doc.Paragraphs[0].Text, "Sponge encryption test") {
			t.Errorf("%s: read %+v", name, doc.Paragraphs)
		}
	}
}
