package extract

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
)

func TestFetch(t *testing.T) {
	pdf := teaPDF(t)
	slow := make(chan struct{})
	defer close(slow)
	mux := http.NewServeMux()
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(teaArticle))
	})
	mux.HandleFunc("/paper", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(pdf)
	})
	mux.HandleFunc("/notes.md", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte(teaMarkdown))
	})
	mux.HandleFunc("/memo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("Buy more oolong.\n\nClean the kettle."))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("tea ", 1000)))
	})
	mux.HandleFunc("/big-declared", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		w.Write([]byte("tea"))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-slow:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux) // listens on 127.0.0.1
	defer srv.Close()
	ctx := context.Background()

	for _, tc := range []struct {
		path, kind, title string
	}{
		{"/article", item.KindHTML, "How to steep oolong"},
		{"/paper", item.KindPDF, "Notes on Tea"},
		{"/notes.md", item.KindMarkdown, "Brewing tea"},
		{"/memo", item.KindText, "memo"},
	} {
		u := srv.URL + tc.path
		body, ct, err := Fetch(ctx, u, FetchOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		d, err := Bytes(body, u, ct)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		checkDoc(t, d)
		if d.Kind != tc.kind || d.Title != tc.title {
			t.Errorf("%s: kind %q title %q, want %q %q", tc.path, d.Kind, d.Title, tc.kind, tc.title)
		}
	}

	for _, tc := range []struct {
		url  string
		opt  FetchOptions
		want string
	}{
		{srv.URL + "/missing", FetchOptions{}, srv.URL + "/missing: server answered 404 Not Found"},
		{srv.URL + "/slow", FetchOptions{Timeout: 200 * time.Millisecond}, srv.URL + "/slow: timed out after 200ms"},
		{srv.URL + "/big", FetchOptions{MaxBytes: 1000}, srv.URL + "/big: too large (more than the limit of 1000 bytes)"},
		{srv.URL + "/big-declared", FetchOptions{MaxBytes: 1000}, srv.URL + "/big-declared: too large (97 KiB; the limit is 1000 bytes)"},
		{"ftp://127.0.0.1/x", FetchOptions{}, "ftp://127.0.0.1/x: only http and https URLs can be fetched"},
		{"http://", FetchOptions{}, "http://: not a valid URL"},
	} {
		_, _, err := Fetch(ctx, tc.url, tc.opt)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Fetch(%s): %v\nwant %s", tc.url, err, tc.want)
		}
	}

	// A port nobody listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, _, err = Fetch(ctx, "http://"+addr+"/", FetchOptions{})
	if want := "http://" + addr + "/: connection refused"; err == nil || err.Error() != want {
		t.Errorf("refused: %v, want %s", err, want)
	}
}
