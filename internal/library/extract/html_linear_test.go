package extract

import (
	"strings"
	"testing"
)

// TestHTMLLinear: reading HTML, and an EPUB's XHTML chapters, takes time
// linear in the size (issue 42: a 2.7 KB EPUB with one long table row
// took 20.5 s, the row's buffer trimmed again at each cell).
func TestHTMLLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's own work does not grow linearly with memory")
	}
	if testing.Short() {
		t.Skip("-short (make check): the linearity test times large inputs; make test runs it")
	}
	cases := []struct {
		name string
		epub bool               // also read as an EPUB's chapter
		make func(n int) string // about n bytes of a page's body
	}{
		{"one long table row", true, func(n int) string { return "<table><tr>" + strings.Repeat("<td>tea ", n/8) }},
		{"white space, then cells", true, func(n int) string {
			return "<table><tr>" + strings.Repeat(" ", n/2) + strings.Repeat("<td>", n/8)
		}},
		{"many rows", false, func(n int) string { return "<table>" + strings.Repeat("<tr><td>a<td>b", n/14) + "</table>" }},
		{"nested divs", false, func(n int) string { return strings.Repeat("<div>tea ", n/9) }},
		{"sibling divs", false, func(n int) string { return strings.Repeat("<div class=note><p>tea leaves</p></div>", n/39) }},
		{"links", false, func(n int) string { return strings.Repeat(`<p><a href="/x">menu</a></p>`, n/27) }},
		{"one long paragraph", false, func(n int) string { return "<p>" + strings.Repeat("tea ", n/4) }},
	}
	for _, c := range cases {
		t.Run("html/"+c.name, func(t *testing.T) {
			checkLinear(t, "slow.html", func(n int) []byte {
				return []byte("<!DOCTYPE html><html><head><title>t</title></head><body>" + c.make(n))
			})
		})
		if !c.epub {
			continue
		}
		t.Run("epub/"+c.name, func(t *testing.T) {
			checkLinear(t, "slow.epub", func(n int) []byte {
				return zipOf(t,
					"META-INF/container.xml", `<container><rootfiles><rootfile full-path="b.opf"/></rootfiles></container>`,
					"b.opf", `<package><metadata><title>Slow</title></metadata><manifest><item id="c" href="c.xhtml"/></manifest><spine><itemref idref="c"/></spine></package>`,
					"c.xhtml", `<html xmlns="http://www.w3.org/1999/xhtml"><body>`+c.make(n)+`</body></html>`)
			})
		})
	}
}
