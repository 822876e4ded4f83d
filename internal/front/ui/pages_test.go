package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

var day = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// TestPagesServe: each page answers, with the security headers.
func TestPagesServe(t *testing.T) {
	t.Parallel()
	tea := note("Green tea", "note", "/notes/tea.md", day, texts("Green tea is steeped at 80 degrees for two minutes.")...)
	dir := newLibrary(t, tea)
	_, ts := newServer(t, Options{Library: dir})
	for _, path := range []string{"/", "/library", "/item/" + tea.it.ID, "/assets/style.css", "/assets/ui.js"} {
		code, body, h := get(t, ts.URL+path)
		if code != http.StatusOK {
			t.Errorf("%s: status %d: %s", path, code, body)
		}
		if got := h.Get("Content-Security-Policy"); got != CSP {
			t.Errorf("%s: Content-Security-Policy %q", path, got)
		}
	}
	if code, body, _ := get(t, ts.URL+"/no-such-page"); code != http.StatusNotFound || !strings.Contains(body, "there is no page /no-such-page") {
		t.Errorf("a missing page: %d %s", code, body)
	}
}
