package extract

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Each fuzzer feeds outside data to one extractor: it must not panic, and
// what it returns must keep the paragraph promises (checkDoc).

func fuzzExtract(t *testing.T, data []byte, name string) {
	d, err := Bytes(data, name, "")
	if err != nil {
		if strings.Contains(err.Error(), "internal error") {
			t.Fatalf("extractor failed inside: %v", err)
		}
		if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\x00") || strings.HasPrefix(msg, "error:") {
			t.Fatalf("bad error message %q", msg)
		}
		return
	}
	checkDoc(t, d)
	if d.Title == "" {
		t.Fatal("no title")
	}
}

func FuzzMarkdown(f *testing.F) {
	f.Add(teaMarkdown)
	f.Add("# a\n\n## b\n\ntext *x* _y_ `z` [l](u) ![i](p)\n\nsetext\n===\n\n- a\n- b\n\n> q\n")
	f.Add("---\ntitle: t\n---\n```\ncode\n")
	f.Add("| a | b |\n|---|---|\n| 1 | 2 |\n")
	f.Add("\\*x\\* ``a ` b`` **bold *nested* bold** ~~gone~~ <b>tag</b> &amp; [^1]\n\n[^1]: note\n[ref]: http://x\n")
	f.Fuzz(func(t *testing.T, s string) { fuzzExtract(t, []byte(s), "f.md") })
}

func FuzzText(f *testing.F) {
	f.Add("a\n\nb\r\n\r\nc")
	f.Add("\xff\xfeh\x00i\x00")
	f.Fuzz(func(t *testing.T, s string) { fuzzExtract(t, []byte(s), "f.txt") })
}

func FuzzHTML(f *testing.F) {
	f.Add(teaArticle)
	f.Add(`<html><head><meta charset="iso-8859-1"><title>x</title></head><body><main><h1>a</h1><p>b<br><br>c</p></main></body></html>`)
	f.Add(`<div><div><p>one</p></div><table><tr><td>a<td>b</table><pre>x
y</pre></div>`)
	f.Add("<p>" + strings.Repeat("word ", 1000) + "</p>")
	f.Fuzz(func(t *testing.T, s string) { fuzzExtract(t, []byte(s), "f.html") })
}

func FuzzVTT(f *testing.F) {
	f.Add(talkVTT)
	f.Add("WEBVTT\n\n00:01.000 --> 00:02.000\n<v A>x</v>\n00:02.000 --> 00:03.000\n>> y\n")
	f.Add("WEBVTT\n\n00:00.000 --> 00:02.000\na b\n\n00:02.000 --> 00:04.000\na b\nc d\n")
	f.Fuzz(func(t *testing.T, s string) { fuzzExtract(t, []byte(s), "f.vtt") })
}

func FuzzSRT(f *testing.F) {
	f.Add("1\n00:00:01,000 --> 00:00:02,000\nBOB: hi <i>there</i>\n\n2\n00:00:05,000 --> 00:00:06,000\n- a\n- b\n")
	f.Add("1\r\n00:00:01,000 --> 00:00:02,000\r\n{\\an8}x\r\n2\r\n00:00:02,000 --> 00:00:03,000\r\ny\r\n")
	f.Fuzz(func(t *testing.T, s string) { fuzzExtract(t, []byte(s), "f.srt") })
}

// FuzzPDF runs the reader under a deadline of its own.
func FuzzPDF(f *testing.F) {
	f.Add(teaPDF(f))
	f.Add([]byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
		"3 0 obj<</Type/Page/Parent 2 0 R/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n" +
		"4 0 obj<</Length 44>>stream\nBT /F1 12 Tf 72 700 Td [(Hel)-20(lo)] TJ ET\nendstream endobj\n" +
		"5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\n" +
		"xref\n0 6\n0000000000 65535 f \ntrailer<</Size 6/Root 1 0 R>>\nstartxref\n0\n%%EOF\n"))
	f.Add([]byte("%PDF-1.7\n%%EOF\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		type result struct {
			d   *Document
			err error
		}
		done := make(chan result, 1)
		go func() {
			d, err := readPDF(data, time.Now().Add(5*time.Second))
			done <- result{d, err}
		}()
		var d *Document
		var err error
		select {
		case r := <-done:
			d, err = r.d, r.err
		case <-time.After(10 * time.Second):
			// Keep the input: the reader went past its own deadline.
			t.Fatalf("stuck on %d bytes", len(data))
		}
		if err != nil {
			if errors.Is(err, errTooSlow) {
				t.Fatalf("too slow: %d bytes", len(data))
			}
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("reader failed inside: %v", err)
			}
			return
		}
		checkDoc(t, d)
	})
}

func FuzzEPUB(f *testing.F) {
	f.Add(testEPUB(f))
	f.Add(zipOf(f, "META-INF/container.xml", `<container><rootfiles><rootfile full-path="x.opf"/></rootfiles></container>`,
		"x.opf", `<package><spine toc="n"><itemref idref="a"/></spine><manifest><item id="a" href="a.html"/><item id="n" href="t.ncx"/></manifest></package>`,
		"a.html", "<h2>x</h2><p>y", "t.ncx", `<ncx><navMap><navPoint><navLabel><text>C</text></navLabel><content src="a.html#p"/></navPoint></navMap></ncx>`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzExtract(t, data, "f.epub") })
}

func FuzzDOCX(f *testing.F) {
	f.Add(testDOCX(f))
	f.Add(zipOf(f, "word/document.xml", `<w:document><w:body><w:tbl><w:tr><w:tc><w:tbl><w:tr><w:tc><w:p><w:r><w:t>in</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl></w:body></w:document>`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzExtract(t, data, "f.docx") })
}

func FuzzODT(f *testing.F) {
	f.Add(testODT(f))
	f.Add(zipOf(f, "content.xml", `<office:text><text:h text:outline-level="99">h</text:h><text:p>a<text:s text:c="99999"/>b</text:p></office:text>`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzExtract(t, data, "f.odt") })
}

func FuzzRST(f *testing.F) {
	f.Add(testRST)
	f.Add("===\nx\n===\n\n..\n\n.. a::\n   b\n:f:\n| a | b |\n+---+\n`x <y>`__ **z** [#]_\n")
	f.Fuzz(func(t *testing.T, s string) { fuzzExtract(t, []byte(s), "f.rst") })
}

func FuzzOrg(f *testing.F) {
	f.Add(testOrg)
	f.Add("* \n** TODO [#A] :a:\n:END:\n:X:\n#+TITLE:\n|-\n[[a][b]] */x/* =y=\n")
	f.Fuzz(func(t *testing.T, s string) { fuzzExtract(t, []byte(s), "f.org") })
}

func FuzzMan(f *testing.F) {
	f.Add(testMan)
	f.Add(".TH\n.SH\n\n.de x\n..\n.TS\n.TE\n\\(\\[\\*[x\\s+\\h'\\fB\\u\\[u1F600]\\[uFFFFFFFF] .BR \"a\"\"b\" \"c\n.It Fl\n.Xr a\n")
	f.Fuzz(func(t *testing.T, s string) { fuzzExtract(t, []byte(s), "f.1") })
}
