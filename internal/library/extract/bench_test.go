package extract

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// BenchmarkPDF reads a generated 3-page PDF with the pure-Go reader.
func BenchmarkPDF(b *testing.B) {
	data := teaPDF(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Bytes(data, "tea.pdf", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHTML reads a generated page of about 100 KB of article text in clutter.
func BenchmarkHTML(b *testing.B) {
	var page strings.Builder
	page.WriteString(`<html><head><title>Bench</title><script>var x = 1;</script></head><body><nav><a href="/">Home</a></nav><article>`)
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&page, "<h2>Section %d</h2><p>Paragraph %d of the benchmark page: tea leaves unfurl in hot water, "+
			"and the <em>flavour</em> changes with every minute &amp; every degree. Oolong rewards several short infusions.</p>"+
			"<ul><li>First point</li><li>Second point</li></ul>", i, i)
	}
	page.WriteString(`</article><footer>© Bench</footer></body></html>`)
	data := []byte(page.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Bytes(data, "bench.html", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarkdown reads the tea note repeated to about 100 KB.
func BenchmarkMarkdown(b *testing.B) {
	data := []byte(strings.Repeat(teaMarkdown, 60))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Bytes(data, "tea.md", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVTT reads a generated transcript of 2,000 cues.
func BenchmarkVTT(b *testing.B) {
	var t strings.Builder
	t.WriteString("WEBVTT\n\n")
	for i := int64(0); i < 2000; i++ {
		fmt.Fprintf(&t, "%s --> %s\n<v Speaker %d>Cue number %d says something about tea and water.</v>\n\n",
			vttTime(i*2000), vttTime(i*2000+1900), i/20%3, i)
	}
	data := []byte(t.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Bytes(data, "talk.vtt", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEPUB reads a generated book of 50 chapters, about 100 KB of text.
func BenchmarkEPUB(b *testing.B) {
	manifest, spine := "", ""
	files := []string{"META-INF/container.xml", `<container><rootfiles><rootfile full-path="b.opf"/></rootfiles></container>`}
	for c := range 50 {
		var ch strings.Builder
		fmt.Fprintf(&ch, "<html><body><h1>Chapter %d</h1>", c)
		for p := range 10 {
			fmt.Fprintf(&ch, "<p>Paragraph %d of chapter %d: tea leaves unfurl in hot water, and the <em>flavour</em> changes with every minute and every degree. Oolong rewards several short infusions.</p>", p, c)
		}
		ch.WriteString("</body></html>")
		name := fmt.Sprintf("c%d.xhtml", c)
		files = append(files, name, ch.String())
		manifest += fmt.Sprintf(`<item id="c%d" href="%s"/>`, c, name)
		spine += fmt.Sprintf(`<itemref idref="c%d"/>`, c)
	}
	files = append(files, "b.opf", `<package><metadata><title>Bench</title></metadata><manifest>`+manifest+`</manifest><spine>`+spine+`</spine></package>`)
	data := zipOf(b, files...)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Bytes(data, "bench.epub", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDOCX reads a generated document of 500 paragraphs under 50
// headings, about 100 KB of text.
func BenchmarkDOCX(b *testing.B) {
	var body strings.Builder
	for h := range 50 {
		fmt.Fprintf(&body, `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Section %d</w:t></w:r></w:p>`, h)
		for p := range 10 {
			fmt.Fprintf(&body, `<w:p><w:r><w:t>Paragraph %d of section %d: tea leaves unfurl in hot water, and the </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>flavour</w:t></w:r><w:r><w:t xml:space="preserve"> changes with every minute and every degree.</w:t></w:r></w:p>`, p, h)
		}
	}
	data := zipOf(b, "word/document.xml", `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+body.String()+`</w:body></w:document>`)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Bytes(data, "bench.docx", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLegacyText reads about 1 MB of Windows-1251 text, which the
// encoding detector reads first, beside BenchmarkUTF8Text, the same text
// in UTF-8, which it does not.
func BenchmarkLegacyText(b *testing.B) {
	text := strings.Repeat("Сегодня очень хорошая погода, и мы пойдём гулять в парк.\n\n", 10000)
	data, _ := charmap.Windows1251.NewEncoder().Bytes([]byte(text))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Bytes(data, "bench.txt", ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUTF8Text(b *testing.B) {
	data := []byte(strings.Repeat("Сегодня очень хорошая погода, и мы пойдём гулять в парк.\n\n", 10000))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Bytes(data, "bench.txt", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKernelDocs reads the Markdown pages of kernel-docs ×1 (the
// issue-20 add bench's input, 3,183 pages, 24 MB) when they are in the
// repository's .bench/inputs (made by make bench-latency, git-ignored), or
// in $SPONGE_BENCH_MARKDOWN: what sponge add's workers extract, page by page.
func BenchmarkKernelDocs(b *testing.B) {
	dir := os.Getenv("SPONGE_BENCH_MARKDOWN")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", ".bench", "inputs", "kernel-docs-x1")
	}
	var pages [][]byte
	var names []string
	size := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			if data, err := os.ReadFile(p); err == nil {
				pages, names = append(pages, data), append(names, p)
				size += len(data)
			}
		}
		return nil
	})
	if len(pages) == 0 {
		b.Skipf("no Markdown pages under %s", dir)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for i, data := range pages {
			if _, err := Bytes(data, names[i], ""); err != nil && !errors.Is(err, ErrNoText) {
				b.Fatal(err)
			}
		}
	}
}
