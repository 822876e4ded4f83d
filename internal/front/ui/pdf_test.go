package ui

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/library/ingest"
)

// TestPDFRoutes: a PDF item's source is served as a PDF, and no other
// item's; the page's number is checked; PDF.js is served with its ETag and
// a browser that has it gets 304.
func TestPDFRoutes(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "library")
	pdf := lighthousePDF(t)
	ids := addFiles(t, dir, map[string][]byte{"keeper.pdf": pdf, "tea.md": []byte("# Tea\n\nGreen tea is steeped at eighty degrees.\n")}, nil)
	_, ts := newServer(t, Options{Library: dir})
	id, tea := ids["keeper.pdf"], ids["tea.md"]

	code, body, h := get(t, ts.URL+"/item/"+id+"/source")
	if code != http.StatusOK || h.Get("Content-Type") != "application/pdf" || !bytes.Equal([]byte(body), pdf) {
		t.Errorf("the PDF's source: %d %s, %d bytes; want 200 application/pdf, the saved %d", code, h.Get("Content-Type"), len(body), len(pdf))
	}
	if h.Get("Content-Security-Policy") != CSP || h.Get("Content-Disposition") != `attachment; filename=keeper.pdf` {
		t.Errorf("the PDF's source: CSP %q, Content-Disposition %q", h.Get("Content-Security-Policy"), h.Get("Content-Disposition"))
	}
	if code, body, _ := get(t, ts.URL+"/item/"+tea+"/source"); code != http.StatusNotFound || !strings.Contains(body, "is not a PDF (it is markdown)") {
		t.Errorf("a note's source: %d %s; want 404, not a PDF", code, body)
	}
	for path, want := range map[string]int{
		"/item/" + id + "/page/2":                      http.StatusOK,
		"/item/" + id + "/page/0":                      http.StatusBadRequest,
		"/item/" + id + "/page/02":                     http.StatusBadRequest,
		"/item/" + id + "/page/two":                    http.StatusBadRequest,
		"/item/" + tea + "/page/1":                     http.StatusNotFound,
		"/item/" + strings.Repeat("0", 64) + "/page/1": http.StatusNotFound,
	} {
		if code, body, _ := get(t, ts.URL+path); code != want {
			t.Errorf("%s: %d, want %d: %s", path, code, want, body)
		}
	}
	_, body, _ = get(t, ts.URL+PageLink(id, 2, `a "quote" <b>`))
	for _, want := range []string{`data-quote="a &#34;quote&#34; &lt;b&gt;"`, `data-source="/item/` + id + `/source"`, `rel="prev" href="/item/` + id + `/page/1?q=`,
		`<script type="module" src="/assets/pdfpage.js"></script>`} {
		if !strings.Contains(body, want) {
			t.Errorf("page 2 has no %s:\n%s", want, body)
		}
	}
	// A prefix of the id goes to the full id's page.
	resp, err := http.Get(ts.URL + "/item/" + id[:12] + "/page/3?q=x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Request.URL.Path != "/item/"+id+"/page/3" || resp.Request.URL.RawQuery != "q=x" {
		t.Errorf("a prefix of the id went to %s", resp.Request.URL)
	}

	code, _, h = get(t, ts.URL+"/assets/pdfjs/pdf.worker.min.mjs")
	tag := h.Get("ETag")
	if code != http.StatusOK || tag == "" || !strings.HasPrefix(h.Get("Content-Type"), "text/javascript") {
		t.Fatalf("the worker: %d, ETag %q, %s", code, tag, h.Get("Content-Type"))
	}
	req, _ := http.NewRequest("GET", ts.URL+"/assets/pdfjs/pdf.worker.min.mjs", nil)
	req.Header.Set("If-None-Match", tag)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified {
		t.Errorf("the worker asked for again with its ETag: %d, want 304", resp.StatusCode)
	}
	if code, _, _ := get(t, ts.URL+"/assets/pdfjs/nothing.mjs"); code != http.StatusNotFound {
		t.Errorf("a file PDF.js has not: %d", code)
	}
}

// TestLinkedPDFChanged: the PDF page of an item saved with --link whose
// file changed, or is gone, says so and what to do, and does not try to
// draw a page from a source the server would answer with 404.
func TestLinkedPDFChanged(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "library")
	file := filepath.Join(t.TempDir(), "keeper.pdf")
	pdf := lighthousePDF(t)
	if err := os.WriteFile(file, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var id string
	err = ingest.Add(context.Background(), w, []ingest.Input{{Name: file, Path: file}}, ingest.AddOptions{Link: true}, func(a ingest.Added) {
		if a.Err != nil {
			t.Errorf("adding %s: %v", file, a.Err)
		}
		id = a.ID
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	_, ts := newServer(t, Options{Library: dir})
	page := ts.URL + PageLink(id, 1, "")

	// As saved: drawn.
	if _, body, _ := get(t, page); !strings.Contains(body, `data-source="/item/`+id+`/source"`) || strings.Contains(body, "cannot be drawn") {
		t.Errorf("the linked PDF as saved is not drawn:\n%s", body)
	}
	changed := append(bytes.Clone(pdf), "\n% changed\n"...)
	if err := os.WriteFile(file, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	code, body, _ := get(t, page)
	for _, want := range []string{"This page cannot be drawn: the file " + file + " changed since it was saved", "sponge update reads it again", `<a href="/item/` + id + `#page1">The text</a>`} {
		if !strings.Contains(body, want) {
			t.Errorf("changed: no %q in\n%s", want, body)
		}
	}
	if code != http.StatusOK || strings.Contains(body, "pdfpage.js") || strings.Contains(body, "data-source") {
		t.Errorf("changed: %d, and the page still tries to draw:\n%s", code, body)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	_, body, _ = get(t, page)
	if !strings.Contains(body, "This page cannot be drawn: the file "+file+" cannot be read") || !strings.Contains(body, "sponge add --link") || strings.Contains(body, "pdfpage.js") {
		t.Errorf("gone: the page says\n%s", body)
	}
}
