package ui

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/stages/search"
)

// routes adds the pages of this file and of ask.go, media.go and write.go.
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", s.askPage)
	mux.HandleFunc("GET /ask", s.askStream)
	mux.HandleFunc("GET /library", s.libraryPage)
	mux.HandleFunc("GET /item/{id}", s.itemPage)
	mux.HandleFunc("GET /item/{id}/media", s.media)
	mux.HandleFunc("POST /add", s.add)
	mux.HandleFunc("POST /item/{id}/remove", s.remove)
	mux.HandleFunc("GET /favicon.ico", favicon)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, "there is no page "+r.URL.Path, "the pages are Ask (/), Library (/library) and each item's")
	})
}

// favicon is the icon a browser asks for at /favicon.ico (of a page that
// names none, or of the server alone): the pages' own, assets/icon.svg, a
// sponge drawn for it. Every browser that asks for it draws SVG.
func favicon(w http.ResponseWriter, r *http.Request) {
	data, err := assets.ReadFile("assets/icon.svg")
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "max-age=86400")
	w.Write(data)
}

// Page is what every page's template gets: the page's own data in Data.
type Page struct {
	Title string // the page's title, before " · sponge"
	Nav   string // the menu entry of the page: "ask", "library" or ""
	Lib   string // the library folder, under the home folder as ~/…
	Write bool   // adding and removing are allowed (sponge ui --write)
	Token string // the token of the writing forms, when Write
	Data  any
}

// funcs are the templates' helpers.
var funcs = template.FuncMap{
	"short": item.Short,
	"where": item.Where,
	"day":   func(t time.Time) string { return t.Local().Format("2006-01-02 15:04") },
	"iso":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"clock": func(sec int64) string { return item.FormatTime(sec * 1000) },
}

// homeShort is path as a person names it: under home ~/…, else whole.
func homeShort(path, home string) string {
	if home == "" || !filepath.IsAbs(home) {
		return path
	}
	rel, err := filepath.Rel(filepath.Clean(home), path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	if rel == "." {
		return "~"
	}
	return "~" + string(filepath.Separator) + rel
}

// render writes the page made by the template name, whole or not at all:
// a template that fails is a plain 500, not half a page.
func (s *Server) render(w http.ResponseWriter, status int, name string, p *Page) {
	p.Lib, p.Write = homeShort(s.dir, s.opts.Home), s.opts.Write
	if s.opts.Write {
		p.Token = s.token
	}
	var b bytes.Buffer
	if err := s.pages.ExecuteTemplate(&b, name, p); err != nil {
		console.PrintWarning(s.opts.Stderr, Prog, fmt.Sprintf("the page %s: %v", name, err))
		http.Error(w, "the page could not be made: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// failure is the data of the error page.
type failure struct {
	Message, Hint string
}

// fail shows an error page; its words are for people, as the CLI's.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg, hint string) {
	s.render(w, status, "error.html", &Page{Title: "Error", Data: failure{msg, hint}})
}

// failErr shows err with the hint sponge would print with it: a missing
// library or item as not found, a bad id as a bad request.
func (s *Server) failErr(w http.ResponseWriter, r *http.Request, err error) {
	code, hint := console.Explain(err)
	status := http.StatusInternalServerError
	switch {
	case fault.Is(err, fault.NoLibrary, fault.NoItem, fault.SetAside) || errors.Is(err, os.ErrNotExist):
		status = http.StatusNotFound
	case code == console.ExitUsage || fault.Is(err, fault.Ambiguous):
		status = http.StatusBadRequest
	}
	s.fail(w, r, status, err.Error(), hint)
}

// open opens the library.
func (s *Server) open() (*library.Library, error) {
	return library.Open(s.dir)
}

// libraryEntry is one item of the library page.
type libraryEntry struct {
	ID, Label, Source, Kind string
	Added                   time.Time
	Pages                   int
	Gist                    string // the first statement of its summary
}

// libraryData is the library page's.
type libraryData struct {
	Items []libraryEntry // those of this page
	Kinds []string       // the kinds of the library's items, to filter by
	Kind  string         // the kind filtered by; "" all
	Words string         // the words filtered by (the search stage); "" none
	Total int            // items in the library
	Notes []string       // warnings of the search (a damaged item, no index yet)
	// Matching are the items the filter lets through, of which Items are
	// From to To (from 1) on page Page of Pages; Prev and Next are the
	// addresses of the pages before and after ("" none).
	Matching, From, To, Page, Pages int
	Prev, Next                      string
}

// LibraryPageSize is how many items a library page lists: a page of 1,000
// items was 350 KB.
const LibraryPageSize = 100

// MaxWords bounds the words of a question or a filter, in bytes: far more
// than a question takes, and what a page may make the server search for.
const MaxWords = 2000

// libraryPage lists the items, newest first, or those the search stage
// finds for the words (best first), of one kind or all.
func (s *Server) libraryPage(w http.ResponseWriter, r *http.Request) {
	lib, err := s.open()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	words := strings.TrimSpace(r.URL.Query().Get("q"))
	if len(words) > MaxWords {
		s.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the words are longer than %d bytes", MaxWords), "search for fewer words")
		return
	}
	d := libraryData{Kind: r.URL.Query().Get("kind"), Words: words, Page: 1}
	if p := r.URL.Query().Get("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a page number", p), "the library's pages are numbered from 1: /library?page=2")
			return
		}
		d.Page = n
	}
	ids, err := lib.IDs()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	metas := map[string]*library.Meta{}
	kinds := map[string]bool{}
	var order []*library.Meta
	for _, id := range ids {
		m, err := lib.Meta(id)
		if err != nil {
			d.Notes = append(d.Notes, err.Error())
			continue
		}
		metas[id] = m
		kinds[m.Kind] = true
		order = append(order, m)
	}
	d.Total = len(order)
	for k := range kinds {
		d.Kinds = append(d.Kinds, k)
	}
	sort.Strings(d.Kinds)
	if words != "" {
		res, err := search.Find(s.dir, s.opts.Models, words, search.MaxLimit)
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		for _, wn := range res.Warnings {
			if !wn.Setup {
				d.Notes = append(d.Notes, wn.Message)
			}
		}
		order = order[:0]
		for _, h := range res.Hits {
			if m := metas[h.ItemID]; m != nil {
				order = append(order, m)
			}
		}
	} else {
		sort.SliceStable(order, func(i, j int) bool { return order[i].Added.After(order[j].Added) })
	}
	var shown []*library.Meta
	for _, m := range order {
		if d.Kind == "" || m.Kind == d.Kind {
			shown = append(shown, m)
		}
	}
	titles, sources := make([]string, len(shown)), make([]string, len(shown))
	for i, m := range shown {
		titles[i], sources[i] = m.Title, m.Source
	}
	labels := item.Labels(titles, sources)
	d.Matching = len(shown)
	d.Pages = max(1, (len(shown)+LibraryPageSize-1)/LibraryPageSize)
	if d.Page > d.Pages {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("the library has no page %d: it lists %d items on %d pages", d.Page, len(shown), d.Pages), "its first page is /library")
		return
	}
	from, to := (d.Page-1)*LibraryPageSize, min(d.Page*LibraryPageSize, len(shown))
	d.From, d.To = from+1, to
	for i, m := range shown[from:to] {
		d.Items = append(d.Items, libraryEntry{ID: m.ID, Label: labels[from+i], Source: m.Source, Kind: m.Kind, Added: m.Added, Pages: m.Pages, Gist: lib.Gist(m)})
	}
	if d.Page > 1 {
		d.Prev = libraryLink(words, d.Kind, d.Page-1)
	}
	if d.Page < d.Pages {
		d.Next = libraryLink(words, d.Kind, d.Page+1)
	}
	s.render(w, http.StatusOK, "library.html", &Page{Title: "Library", Nav: "library", Data: d})
}

// libraryLink is the address of a page of the library, filtered as it is.
func libraryLink(words, kind string, page int) string {
	v := url.Values{}
	if words != "" {
		v.Set("q", words)
	}
	if kind != "" {
		v.Set("kind", kind)
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return "/library"
	}
	return "/library?" + v.Encode()
}
