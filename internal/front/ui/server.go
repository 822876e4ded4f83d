// Package ui is sponge ui: a web server on 127.0.0.1 for asking and
// reading. Its pages are plain HTML made on the server (html/template) with
// a little JavaScript, every asset embedded: the ask page streams the
// statements of the very pipeline sponge ask runs, each shown only once
// sponge-verify found its quote in the item; the library page lists the
// items; the item page shows an item's text, scrolled to a quote and with
// its words marked. Every title and text is outside input, escaped by
// html/template; no page runs inline script.
package ui

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"github.com/sponge-library/sponge/internal/model/openai"
)

// Prog is how the server names itself in messages and refusals.
const Prog = "sponge ui"

// Options are what a server is made with: the settings sponge ask would
// use, resolved by the front end.
type Options struct {
	// Library is the library folder.
	Library string
	// Models is the shared models folder ("" for none): the embedding
	// model of meaning search, the writing model of sponge-draft.
	Models string
	// Endpoint, Model and EndpointFrom are the server that writes the
	// statements (cmdline.DrafterSettings); empty: sponge-draft's choice.
	Endpoint, Model, EndpointFrom string
	// FindStage finds a stage's program (sponge-draft runs as a child, as
	// sponge ask runs it); nil: the ask page can show passages only.
	FindStage func(name string) (string, error)
	// Write lets the pages add and remove items (sponge ui --write), each
	// request carrying the token of this run.
	Write bool
	// Home is the person's home folder ("" none): the pages show the
	// library folder under it as ~/…, as a person names it.
	Home string
	// Stderr gets the server's own warnings (a drafter's, a failed page);
	// nil discards them.
	Stderr io.Writer
}

// Server serves the pages of one library.
type Server struct {
	opts  Options
	dir   string
	token string // the per-run token of the writing requests (Write)
	pages *template.Template
	mux   *http.ServeMux
	// answering holds a place for each answer being made (MaxAnswers).
	answering chan struct{}
}

//go:embed assets
var assets embed.FS

// routeAdders add the routes that other files of the package serve: the
// PDF page view (pdf*.go) adds /item/{id}/page/{n} and /item/{id}/source
// from its init, so that each file keeps its own routes.
var routeAdders []func(s *Server, mux *http.ServeMux)

// New makes the server of the library in opts.
func New(opts Options) (*Server, error) {
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	dir, err := filepath.Abs(opts.Library)
	if err != nil {
		return nil, err
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	pages, err := template.New("").Funcs(funcs).ParseFS(assets, "assets/templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("the page templates: %v", err)
	}
	s := &Server{opts: opts, dir: dir, token: hex.EncodeToString(b[:]), pages: pages, mux: http.NewServeMux(), answering: make(chan struct{}, MaxAnswers)}
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, err
	}
	s.mux.Handle("GET /assets/", http.StripPrefix("/assets/", noListing(http.FileServerFS(static))))
	s.routes(s.mux)
	for _, add := range routeAdders {
		add(s, s.mux)
	}
	return s, nil
}

// Dir is the library folder the server reads.
func (s *Server) Dir() string { return s.dir }

// Token is the token a writing request must carry (Options.Write).
func (s *Server) Token() string { return s.token }

// CSP is the Content-Security-Policy of every response: scripts, styles,
// workers (PDF.js) and media only from this server, no inline script or
// style, nothing framed, forms sent only here.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; " +
	"connect-src 'self'; media-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Handler is every route behind the loopback guard (Host and Origin, as
// sponge serve's) and the security headers.
func (s *Server) Handler() http.Handler {
	return openai.LocalOnly(secured(s.mux), Prog)
}

// secured sets the headers of every response, and refuses what a page of
// another site makes the browser fetch here without a person following a
// link (an <img> or a script's request, which carry no Origin when they
// GET): each question would cost a sponge-draft's work.
func secured(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if site := r.Header.Get("Sec-Fetch-Site"); (site == "cross-site" || site == "same-site") && r.Header.Get("Sec-Fetch-Mode") != "navigate" {
			http.Error(w, Prog+" answers no requests from web pages of other sites", http.StatusForbidden)
			return
		}
		hd := w.Header()
		hd.Set("Content-Security-Policy", CSP)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		hd.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.ServeHTTP(w, r)
	})
}

// noListing refuses a folder's listing.
func noListing(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || r.URL.Path[len(r.URL.Path)-1] == '/' {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Serve serves on ln until ctx ends; requests still running then are
// cancelled (an answer being written does not hold up Ctrl-C).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	base, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := openai.NewLocalServer(s.Handler())
	srv.BaseContext = func(net.Listener) context.Context { return base }
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	cancel()
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
