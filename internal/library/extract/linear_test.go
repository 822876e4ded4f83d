package extract

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestMarkdownLinear: reading Markdown takes time linear in its size, even
// for input made to be slow (issue 19: 200 KB of nested '>' took a minute).
// Each case is timed at sizes n, 2n, 4n and 8n: the time of a linear
// reader grows as size^1, of a quadratic one as size^2, and of one that
// searches the rest of the text for each of √n openers as size^1.5; the
// test allows size^1.3 (2.46 times the time for twice the size).
func TestMarkdownLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's own work does not grow linearly with memory")
	}
	if testing.Short() {
		t.Skip("-short (make check): the linearity test times large inputs; make test runs it")
	}
	cases := []struct {
		name string
		make func(n int) string // about n bytes of Markdown
	}{
		{"nested quote", func(n int) string { return strings.Repeat(">", n) + " deep\n" }},
		{"nested quote with spaces", func(n int) string { return strings.Repeat("> ", n/2) + "deep\n" }},
		{"quote lines", func(n int) string { return strings.Repeat("> > > a quoted line\n", n/20) }},
		{"code span openers", func(n int) string { return codeRuns(n) }},
		{"emphasis openers, then closers", func(n int) string {
			return strings.Repeat("**x ", n/8) + strings.Repeat("x* ", n/6)
		}},
		{"link openers", func(n int) string { return strings.Repeat("[a](b ", n/6) }},
		{"brackets", func(n int) string { return strings.Repeat("[", n) }},
		{"image openers", func(n int) string { return strings.Repeat("![a](", n/5) }},
		{"tag openers", func(n int) string { return strings.Repeat("<a b ", n/5) }},
		{"comment openers", func(n int) string { return strings.Repeat("<!-- ", n/5) }},
		{"escapes", func(n int) string { return strings.Repeat(`\*`, n/2) }},
		{"entities", func(n int) string { return strings.Repeat("&amp", n/4) }},
		{"list items", func(n int) string { return strings.Repeat("- item\n", n/7) }},
		{"table rows", func(n int) string { return "| a | b |\n|---|---|\n" + strings.Repeat("| 1 | 2 |\n", n/10) }},
		{"headings", func(n int) string { return strings.Repeat("# h\n## g\n", n/9) }},
		{"one long line", func(n int) string { return strings.Repeat("tea ", n/4) }},
		{"one long word", func(n int) string { return strings.Repeat("t", n) }},
		{"unclosed fence", func(n int) string { return "```\n" + strings.Repeat("code\n", n/5) }},
		{"front matter", func(n int) string { return "---\n" + strings.Repeat("k: v\n", n/5) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLinear(t, "slow.md", func(n int) []byte { return []byte(c.make(n)) })
		})
	}
}

// checkLinear times reading the document make gives for a size (about n
// bytes of input, or of what a zip or gzip file holds) at sizes n, 2n, 4n
// and 8n, and fails when the time grows faster than size^1.3.
func checkLinear(t *testing.T, name string, make func(n int) []byte) {
	t.Helper()
	read := func(n int) time.Duration {
		data := make(n)
		return cpuTime(func() {
			Bytes(data, name, "") // an error (empty document) is fine: the time is what counts
		})
	}
	n := 16 << 10
	for n < 1<<20 && read(n) < 5*time.Millisecond {
		n *= 2
	}
	// The growth is the slope of log time over log size, fitted
	// over three doublings: a step in the speed per byte at some size
	// (a cache outgrown, regexp trading its backtracker for the NFA)
	// weighs a third of what it would over one doubling. On a busy
	// machine the bigger sizes can lose their caches to other
	// programs and fit a slope of ~1.4 for a linear reader: the fit is
	// made again, up to three times, and the least slope counts. A
	// reader that is not linear never fits below its own growth.
	fit := func() (float64, string) {
		var xs, ys []float64
		var report strings.Builder
		for k := range 4 {
			tk := read(n << k)
			xs, ys = append(xs, float64(k)), append(ys, math.Log2(float64(max(tk, time.Microsecond))))
			fmt.Fprintf(&report, " %d bytes %v,", n<<k, tk.Round(time.Microsecond))
			if tk > 2*time.Second {
				break // already far too slow: no need to wait for more
			}
		}
		if len(xs) < 2 {
			return math.Inf(1), report.String() // one size alone took seconds
		}
		return slope(xs, ys), strings.TrimSuffix(report.String(), ",")
	}
	growth, report := fit()
	for try := 1; try < 3 && growth > 1.3; try++ {
		if g, r := fit(); g < growth {
			growth, report = g, r
		}
	}
	if growth > 1.3 {
		t.Errorf("time grows as size^%.2f, not linearly:%s", growth, report)
	}
	t.Logf("size^%.2f:%s", growth, report)
}

// TestReadersLinear: every reader takes time linear in its input (issue
// 42: a DOCX table cell of 40,000 paragraphs, 10 KB zipped, took 12.5 s;
// an ODT one 17.6 s; a 2.4 KB gzipped manual page of .Sm off words 23 s).
// HTML and EPUB have tests of their own (html_*_test.go). PDFs are not
// timed here: the PDF reader works in a goroutine of its own, whose time
// cpuTime (this thread's) does not see, and has a time budget instead.
func TestReadersLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's own work does not grow linearly with memory")
	}
	if testing.Short() {
		t.Skip("-short (make check): the linearity test times large inputs; make test runs it")
	}
	rep := func(s string, n int) string { return strings.Repeat(s, max(1, n/len(s))) }
	cases := []struct {
		name, file string
		make       func(n int) []byte
	}{
		{"text paragraphs", "a.txt", func(n int) []byte { return []byte(rep("a line of text\n\n", n)) }},
		{"text lines", "a.txt", func(n int) []byte { return []byte(rep("a line of text\n", n)) }},
		{"text one long line", "a.txt", func(n int) []byte { return []byte(rep("tea ", n)) }},
		{"text one long word", "a.txt", func(n int) []byte { return []byte(rep("t", n)) }},
		{"org headings", "a.org", func(n int) []byte { return []byte(rep("* Heading\nSome *bold* text.\n", n)) }},
		{"org one long line", "a.org", func(n int) []byte { return []byte(rep("tea /and/ ", n)) }},
		{"org table rows", "a.org", func(n int) []byte { return []byte(rep("| a | b |\n", n)) }},
		{"rst sections", "a.rst", func(n int) []byte { return []byte(rep("Title\n=====\n\nSome *text*.\n\n", n)) }},
		{"rst one long line", "a.rst", func(n int) []byte { return []byte(rep("tea ``and`` ", n)) }},
		{"rst indented block", "a.rst", func(n int) []byte { return []byte(".. note::\n\n" + rep("   a line\n", n)) }},
		{"man lines", "a.1", func(n int) []byte { return []byte(".TH A 1\n.SH NAME\n" + rep("a line of text\n", n)) }},
		{"man paragraphs", "a.1", func(n int) []byte { return []byte(".TH A 1\n.SH NAME\n" + rep(".PP\nsome \\fBtext\\fR\n", n)) }},
		{"man one long line", "a.1", func(n int) []byte { return []byte(".TH A 1\n.SH NAME\n" + rep("tea ", n)) }},
		{"man macro calls", "a.1", func(n int) []byte { return []byte(".TH A 1\n.de XX\n\\$1 and \\$2\n..\n" + rep(".XX tea leaf\n", n)) }},
		{"mdoc Sm off", "a.1", func(n int) []byte { return []byte(".Dt A 1\n.Sh NAME\n.Sm off\n" + rep(".Ar tea\n", n)) }},
		{"mdoc Sm off, gzipped", "a.1.gz", func(n int) []byte {
			return gzipOf(t, []byte(".Dt A 1\n.Sh NAME\n.Sm off\n"+rep(".Ar tea\n", n)))
		}},
		{"mdoc words joined", "a.1", func(n int) []byte { return []byte(".Dt A 1\n.Sh NAME\n" + rep(".Ar tea Ns\n", n)) }},
		{"man table", "a.1", func(n int) []byte { return []byte(".TH A 1\n.TS\nl l.\n" + rep("a\tb\n", n) + ".TE\n") }},
		{"docx paragraphs", "a.docx", func(n int) []byte { return docxOf(t, rep(`<w:p><w:r><w:t>tea leaf</w:t></w:r></w:p>`, n)) }},
		{"docx one long paragraph", "a.docx", func(n int) []byte { return docxOf(t, `<w:p>`+rep(`<w:r><w:t>tea leaf </w:t></w:r>`, n)+`</w:p>`) }},
		{"docx table cell", "a.docx", func(n int) []byte {
			return docxOf(t, `<w:tbl><w:tr><w:tc>`+rep(`<w:p><w:r><w:t>tea leaf</w:t></w:r></w:p>`, n)+`</w:tc></w:tr></w:tbl>`)
		}},
		{"docx table rows", "a.docx", func(n int) []byte {
			return docxOf(t, `<w:tbl>`+rep(`<w:tr><w:tc><w:p><w:r><w:t>tea</w:t></w:r></w:p></w:tc></w:tr>`, n)+`</w:tbl>`)
		}},
		{"odt paragraphs", "a.odt", func(n int) []byte { return odtOf(t, rep(`<text:p>tea leaf</text:p>`, n)) }},
		{"odt spaces", "a.odt", func(n int) []byte { return odtOf(t, `<text:p>`+rep(`a<text:s text:c="100"/>`, n)+`</text:p>`) }},
		{"odt table cell", "a.odt", func(n int) []byte {
			return odtOf(t, `<table:table><table:table-row><table:table-cell>`+rep(`<text:p>tea leaf</text:p>`, n)+`</table:table-cell></table:table-row></table:table>`)
		}},
		{"vtt cues", "a.vtt", func(n int) []byte {
			return []byte("WEBVTT\n\n" + rep("00:00:01.000 --> 00:00:02.000\nA line of speech.\n\n", n))
		}},
		{"vtt one long cue", "a.vtt", func(n int) []byte { return []byte("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n" + rep("tea\n", n)) }},
		{"srt cues", "a.srt", func(n int) []byte { return []byte(rep("1\n00:00:01,000 --> 00:00:02,000\nA line of speech.\n\n", n)) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkLinear(t, c.file, c.make) })
	}
}

// docxOf is a DOCX whose body is body.
func docxOf(t testing.TB, body string) []byte {
	return zipOf(t, "[Content_Types].xml", `<?xml version="1.0"?><Types/>`,
		"word/document.xml", `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+body+`</w:body></w:document>`)
}

// odtOf is an ODT whose office:text is body.
func odtOf(t testing.TB, body string) []byte {
	return zipOf(t, "mimetype", "application/vnd.oasis.opendocument.text",
		"content.xml", `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"><office:body><office:text>`+body+`</office:text></office:body></office:document-content>`)
}

// cpuTime is the best of a few runs of f, each timed in the CPU time of
// its thread where the system says it (Linux), so that other programs
// busy on a shared machine do not count; the collector is off while f runs,
// so that its work, done on other threads, does not come and go.
func cpuTime(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	best := time.Duration(1 << 62)
	for range 3 {
		runtime.GC()
		start := threadTime()
		f()
		best = min(best, threadTime()-start)
		if best > time.Second {
			break // slow enough to time once (the old reader of nested quotes)
		}
	}
	return best
}

// slope is the least-squares slope of ys over xs.
func slope(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx += xs[i] / float64(len(xs))
		my += ys[i] / float64(len(xs))
	}
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	return sxy / sxx
}

// codeRuns is backtick runs of growing length, none of which is closed:
// each opener looks for a closer of its own length.
func codeRuns(n int) string {
	var b strings.Builder
	for k := 1; b.Len() < n; k++ {
		fmt.Fprintf(&b, "%s x ", strings.Repeat("`", k))
	}
	return b.String()
}
