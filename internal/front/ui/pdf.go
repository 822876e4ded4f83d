package ui

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
)

// The PDF page: /item/{id}/page/{n} shows page n of an item saved from a
// PDF as the page it is, drawn by PDF.js (assets/pdfjs: npm's pdfjs-dist,
// vendored by make pdfjs and embedded, so the page fetches nothing from
// anywhere but this server), with its text layer over the drawing and the
// quote of ?q= marked on that text layer (assets/pdfpage.js).
// /item/{id}/source serves the PDF itself, and only a PDF's: no other
// saved source is sent to the browser as it was saved.

func init() { routeAdders = append(routeAdders, (*Server).pdfRoutes) }

// pdfRoutes adds the PDF page, a PDF item's source, and PDF.js.
func (s *Server) pdfRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /item/{id}/page/{n}", s.pdfPage)
	mux.HandleFunc("GET /item/{id}/source", s.pdfSource)
	mux.HandleFunc("GET /assets/pdfjs/{file}", servePDFJS)
}

// pdfjsTags are the ETags of PDF.js's files: their SHA-256, made once.
var pdfjsTags = sync.OnceValue(func() map[string]string {
	tags := map[string]string{}
	files, _ := fs.ReadDir(assets, "assets/pdfjs")
	for _, f := range files {
		data, err := assets.ReadFile("assets/pdfjs/" + f.Name())
		if err == nil {
			sum := sha256.Sum256(data)
			tags[f.Name()] = `"` + hex.EncodeToString(sum[:16]) + `"`
		}
	}
	return tags
})

// servePDFJS serves a file of PDF.js with its ETag, so that the browser
// keeps it (and the code it compiled from it: 1.9 MB of script) from one
// page to the next, asking only whether it is still the same.
func servePDFJS(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	tag, ok := pdfjsTags()[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	data, _ := assets.ReadFile("assets/pdfjs/" + name)
	w.Header().Set("ETag", tag)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
}

// PageLink is the address of page n of a PDF item, with quote (if any)
// marked on it.
func PageLink(id string, n int, quote string) string {
	u := "/item/" + id + "/page/" + strconv.Itoa(n)
	if quote != "" {
		u += "?" + url.Values{"q": {quote}}.Encode()
	}
	return u
}

// quotePage is where a quote on page n of a PDF item is shown on its page
// (PageLink); "" when n is 0, as for every other kind.
func quotePage(id string, n int, quote string) string {
	if n <= 0 {
		return ""
	}
	return PageLink(id, n, quote)
}

// pdfPageData is the PDF page's.
type pdfPageData struct {
	ID, Title string
	Page      int
	Pages     int    // the last page the item's text names (the PDF may have more)
	Quote     string // the quote to mark (q)
	Prev      string // the previous page's address, "" on the first
	Next      string // the next page's address (the script removes it past the PDF's last page)
	PrevPage  int
	NextPage  int
	Text      string // the item page at this page's text
	// Problem says why the page cannot be drawn (a linked file changed or
	// gone), and Hint what to do; the page then shows them, not the
	// drawing.
	Problem, Hint string
}

// pdfPage is the page that draws page n of a PDF item.
func (s *Server) pdfPage(w http.ResponseWriter, r *http.Request) {
	it, ok := s.pdfItem(w, r)
	if !ok {
		return
	}
	raw := r.PathValue("n")
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || strconv.Itoa(n) != raw {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a page number", raw), "pages are numbered from 1: /item/ID/page/1")
		return
	}
	q := r.URL.Query().Get("q")
	if len(q) > MaxWords {
		s.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the quote is longer than %d bytes", MaxWords), "")
		return
	}
	d := pdfPageData{ID: it.ID, Title: it.Title, Page: n, Pages: lastPage(it), Quote: q, Next: PageLink(it.ID, n+1, q), PrevPage: n - 1, NextPage: n + 1,
		Text: "/item/" + it.ID + "#page" + strconv.Itoa(pageShown(it, n))}
	if n > 1 {
		d.Prev = PageLink(it.ID, n-1, q)
	}
	if it.Linked {
		d.Problem, d.Hint = s.linkedProblem(it)
	}
	s.render(w, http.StatusOK, "pdfpage.html", &Page{Title: fmt.Sprintf("%s, page %d", it.Title, n), Data: d})
}

// linkedProblem says why the file of an item saved with --link cannot be
// drawn, before the page tries to (the PDF's address would answer 404):
// changed since it was saved, or gone; "" when it is as saved. It reads
// the file and hashes it, as /item/{id}/source will.
func (s *Server) linkedProblem(it *item.Item) (problem, hint string) {
	lib, err := s.open()
	if err == nil {
		_, err = lib.Original(it)
	}
	switch {
	case err == nil:
		return "", ""
	case !errors.Is(err, library.ErrLinked):
		return fmt.Sprintf("the PDF of this item cannot be read: %v", err), ""
	}
	if _, serr := os.Stat(it.Source); serr == nil {
		return fmt.Sprintf("the file %s changed since it was saved (with --link): this is not the PDF its text was read from", it.Source),
			"sponge update reads it again, its new version replacing the old; the text saved before is under “The text”"
	}
	return fmt.Sprintf("the file %s cannot be read: it was saved with --link, and the library keeps no copy", it.Source),
		"if it moved, 'sponge add --link' it where it is now, and 'sponge update --prune' removes the old; the text saved before is under “The text”"
}

// pdfSource serves a PDF item's original bytes, for PDF.js to draw.
func (s *Server) pdfSource(w http.ResponseWriter, r *http.Request) {
	it, ok := s.pdfItem(w, r)
	if !ok {
		return
	}
	lib, err := s.open()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	src, err := lib.Original(it)
	if err != nil {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("the PDF of item %s cannot be read: %v", item.Short(it.ID), err), "")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	// The bytes of an id never change (the id is their hash): the browser
	// may keep them.
	h.Set("Cache-Control", "private, max-age=86400, immutable")
	h.Set("ETag", `"`+it.ID+`"`)
	// Shown by PDF.js, never by the browser's own viewer from this address;
	// a link to it saves the file under its own name.
	name := path.Base(filepath.ToSlash(it.Source))
	if !strings.EqualFold(path.Ext(name), ".pdf") {
		name = item.Short(it.ID)[:item.ShortLen] + ".pdf"
	}
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(src))
}

// pdfItem is the item of the request's {id}, if it is a PDF; it answers
// the request itself when not (a prefix of an id redirects to the full one).
func (s *Server) pdfItem(w http.ResponseWriter, r *http.Request) (*item.Item, bool) {
	lib, err := s.open()
	if err != nil {
		s.failErr(w, r, err)
		return nil, false
	}
	id := r.PathValue("id")
	full, err := lib.Resolve(id)
	if err != nil {
		s.failErr(w, r, err)
		return nil, false
	}
	if full != id {
		u := url.URL{Path: "/item/" + full + r.URL.Path[len("/item/"+id):], RawQuery: r.URL.RawQuery}
		http.Redirect(w, r, u.String(), http.StatusFound)
		return nil, false
	}
	it, err := lib.Item(full)
	if err != nil {
		s.failErr(w, r, err)
		return nil, false
	}
	if it.Kind != item.KindPDF {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("item %s is not a PDF (it is %s): it has no pages to show", item.Short(it.ID), it.Kind),
			"its text is at /item/"+it.ID)
		return nil, false
	}
	return it, true
}

// lastPage is the last page the item's text is on.
func lastPage(it *item.Item) int {
	last := 0
	for _, p := range it.Paragraphs {
		last = max(last, p.Page)
		for _, ps := range p.Pages {
			last = max(last, ps.Page)
		}
	}
	return last
}

// pageShown is the page marker of the item page nearest before page n: a
// page with no text of its own has none.
func pageShown(it *item.Item, n int) int {
	best := 0
	for _, p := range it.Paragraphs {
		for _, pg := range append([]int{p.Page}, pageNumbers(p.Pages)...) {
			if pg <= n && pg > best {
				best = pg
			}
		}
	}
	return best
}

func pageNumbers(ps []item.PageStart) []int {
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = p.Page
	}
	return out
}
