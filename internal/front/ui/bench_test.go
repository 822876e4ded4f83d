package ui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
)

// BenchmarkItemPage: the item page of a PDF of 300 pages, 16 paragraphs a
// page (texlive's interface3.pdf, 345 pages, has 4,890), whole and opened at
// a quote, served in process (go run ./internal/bench/ui times it through
// sponge ui).
func BenchmarkItemPage(b *testing.B) {
	var ps []item.Paragraph
	for page := 1; page <= 300; page++ {
		for i := 0; i < 16; i++ {
			ps = append(ps, item.Paragraph{Page: page, Heading: fmt.Sprintf("Section %d", page/10),
				Text: fmt.Sprintf("Paragraph %d of page %d: \\cs_new:Npn expands its argument <once> & defines the function, as the kernel's interface says in a sentence or two of some length.", i, page)})
		}
	}
	pdf := note("interface3", "pdf", "/docs/interface3.pdf", day, ps...)
	dir := newLibrary(b, pdf)
	s, err := New(Options{Library: dir})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	for _, c := range []struct{ name, path string }{
		{"whole", "/item/" + pdf.it.ID},
		{"at-quote", QuoteLink(pdf.it.ID, 2400, "expands its argument <once> & defines")},
	} {
		b.Run(c.name, func(b *testing.B) {
			size := 0
			for b.Loop() {
				w := httptest.NewRecorder()
				r := httptest.NewRequest("GET", "http://127.0.0.1:7702"+strings.SplitN(c.path, "#", 2)[0], nil)
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("%d %s", w.Code, w.Body.String())
				}
				size = w.Body.Len()
			}
			b.ReportMetric(float64(size)/1024, "KB")
		})
	}
}

// BenchmarkLibraryPage: the library page of 1,000 items (SciFact's size),
// its first and last page and a filter by kind, served in process.
func BenchmarkLibraryPage(b *testing.B) {
	var items []saved
	for i := range 1000 {
		kind := "note"
		if i%4 == 0 {
			kind = "pdf"
		}
		items = append(items, note(fmt.Sprintf("Abstract %d: on the binding of a protein to its receptor", i), kind, fmt.Sprintf("/home/ana/scifact/%04d.txt", i),
			day.Add(time.Duration(i)*time.Minute), texts(fmt.Sprintf("Abstract %d reports that the protein binds its receptor in vitro, in a sentence of some length.", i))...))
	}
	dir := newLibrary(b, items...)
	s, err := New(Options{Library: dir})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	for _, c := range []struct{ name, path string }{
		{"first", "/library"},
		{"last", "/library?page=10"},
		{"kind", "/library?kind=pdf"},
	} {
		b.Run(c.name, func(b *testing.B) {
			size := 0
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", "http://127.0.0.1:7702"+c.path, nil))
				if w.Code != http.StatusOK {
					b.Fatalf("%d %s", w.Code, w.Body.String())
				}
				size = w.Body.Len()
			}
			b.ReportMetric(float64(size)/1024, "KB")
		})
	}
}
