package extract

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

func gzipOf(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

func xzOf(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, err := xz.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// A compressed file (gzip, bzip2, xz) is read as what it holds, named or
// inside a folder alike: grep_NEWS.gz, with no extension under its .gz, was
// read when named and skipped in a folder as "not text (binary data)".
func TestCompressedInFolder(t *testing.T) {
	news := []byte("GNU grep NEWS\n\n* Noteworthy changes in release 3.8\n\nThe -P option is now based on PCRE2 instead of the older PCRE.\n")
	bz, err := os.ReadFile("testdata/notes.bz2") // bzip2 -c of a text written for this test
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"grep_NEWS.gz":  gzipOf(t, news),
		"NEWS.xz":       xzOf(t, news),
		"notes.bz2":     bz,
		"steep.1.xz":    xzOf(t, []byte(testMan)),
		"ChangeLog.bz2": bz,
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// The folder walk reads a file when Supported or SniffFile says so.
		if ok, why := SniffFile(p); !Supported(name) && !ok {
			t.Errorf("%s: skipped in a folder: %s", name, why)
		}
		d, err := Bytes(data, p, "")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		text := d.Paragraphs[len(d.Paragraphs)-1].Text
		switch {
		case strings.HasPrefix(name, "steep"):
			if d.Kind != "man" || d.Title != "STEEP(1)" {
				t.Errorf("%s: kind %q title %q", name, d.Kind, d.Title)
			}
		case strings.HasSuffix(name, ".bz2"):
			if text != "A second paragraph, so that there are two." {
				t.Errorf("%s: %q", name, text)
			}
		case text != "The -P option is now based on PCRE2 instead of the older PCRE.":
			t.Errorf("%s: %q", name, text)
		}
		// and again from its saved bytes (sponge reindex --extract)
		if _, err := Read(data, name, d.Kind, ""); err != nil {
			t.Errorf("%s read again: %v", name, err)
		}
	}
	// A compressed program is still not text, and says so.
	bin := append([]byte("\x7fELF\x02\x01\x01"), bytes.Repeat([]byte{0, 1, 2, 3, 0xff}, 2000)...)
	p := filepath.Join(dir, "program.gz")
	os.WriteFile(p, gzipOf(t, bin), 0o644)
	if ok, why := SniffFile(p); ok || !strings.Contains(why, "not text") {
		t.Errorf("program.gz: %v %q", ok, why)
	}
}

// A compressed file that unpacks to far more than its size (a
// decompression bomb) is refused once it passes its bound, with the bound
// in the error; a large file that compresses as text does is read.
func TestCompressedBomb(t *testing.T) {
	defer func(n int64) { minUnpackBound = n }(minUnpackBound)
	minUnpackBound = 64 << 10
	bomb := xzOf(t, make([]byte, 1<<20))
	_, err := Bytes(bomb, "zeros.txt.xz", "")
	if err == nil || !strings.Contains(err.Error(), "cannot read this xz file: it unpacks to more than") || !strings.Contains(err.Error(), "times its size") {
		t.Fatalf("bomb (%d bytes): %v", len(bomb), err)
	}
	var text strings.Builder
	for i := 0; text.Len() < 4<<20; i++ {
		text.WriteString("Line " + strings.Repeat("x", i%17) + " of a long log, number " + string(rune('a'+i%26)) + ".\n\n")
	}
	d, err := Bytes(gzipOf(t, []byte(text.String())), "big.log.gz", "")
	if err != nil || len(d.Paragraphs) < 1000 {
		t.Fatalf("a large log: %v", err)
	}
}

// A compressed file corrupt from its first bytes is read the same way in a
// folder as named: it fails, saying how ("corrupt gzip file: unexpected
// EOF"), where the folder walk skipped it as "a gzip file that holds
// nothing sponge can read"; one that holds nothing is skipped as empty.
func TestCompressedCorruptInFolder(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "NEWS.gz")
	os.WriteFile(corrupt, []byte("\x1f\x8b\x08\x00garbage"), 0o644)
	if ok, why := SniffFile(corrupt); !ok {
		t.Errorf("corrupt NEWS.gz skipped in a folder: %q", why)
	}
	if _, err := Bytes([]byte("\x1f\x8b\x08\x00garbage"), corrupt, ""); err == nil || !strings.Contains(err.Error(), "corrupt gzip file") {
		t.Errorf("corrupt NEWS.gz named: %v", err)
	}
	empty := filepath.Join(dir, "ChangeLog.gz")
	os.WriteFile(empty, gzipOf(t, nil), 0o644)
	if ok, why := SniffFile(empty); ok || why != "empty" {
		t.Errorf("empty ChangeLog.gz: %v %q", ok, why)
	}
}

// A folder's pictures written as text (SVG, X pixmaps, Encapsulated
// PostScript) are left out as images: the Debian Handbook's HTML folder
// saved 44 SVG icons and 5 XPM files as text items of path coordinates and
// pixel rows. A text file of another unknown extension is still read.
func TestSniffImagesAsText(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"note.svg":    `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><circle cx="16" cy="16" r="14"/></svg>`,
		"icon.svgz":   string(gzipOf(t, []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`))),
		"warning.xpm": "/* XPM */\nstatic char * warning_xpm[] = {\n\"16 16 2 1\",\n};\n",
		"figure.eps":  "%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nnewpath 0 0 moveto\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(data), 0o644)
		if ok, why := SniffFile(p); ok || why != "an image, not a format sponge reads" {
			t.Errorf("%s: %v %q", name, ok, why)
		}
	}
	p := filepath.Join(dir, "notes.weird")
	os.WriteFile(p, []byte("Plain words about tea.\n"), 0o644)
	if ok, why := SniffFile(p); !ok {
		t.Errorf("notes.weird: %q", why)
	}
}
