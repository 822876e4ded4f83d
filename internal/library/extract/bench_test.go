package extract

import (
	"fmt"
	"strings"
	"testing"
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
