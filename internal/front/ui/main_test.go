package ui

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
	"github.com/sponge-library/sponge/internal/testsupport"
)

// TestMain runs the package's tests (the pages' and the browser tests) in
// an environment of their own (testsupport): no test reads the person's
// library, settings or models.
func TestMain(m *testing.M) { testsupport.Main(m) }

// saved is an item for a test library, and the bytes it was saved from.
type saved struct {
	it     *item.Item
	source string
}

// note is an item of one kind with paragraphs of text; its id is that of
// the text, as sponge add makes it.
func note(title, kind, source string, added time.Time, paragraphs ...item.Paragraph) saved {
	var b strings.Builder
	for _, p := range paragraphs {
		b.WriteString(p.Text + "\n\n")
	}
	it := &item.Item{ID: library.ItemID([]byte(b.String())), Title: title, Source: source, Kind: kind, Added: added, Paragraphs: paragraphs}
	return saved{it, b.String()}
}

// texts are paragraphs of text alone.
func texts(ts ...string) []item.Paragraph {
	ps := make([]item.Paragraph, len(ts))
	for i, t := range ts {
		ps[i] = item.Paragraph{Text: t}
	}
	return ps
}

// newLibrary saves the items in a new library (indexed, as sponge add
// leaves it) and returns its folder.
func newLibrary(t testing.TB, items ...saved) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "library")
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range items {
		if err := w.Add(s.it, []byte(s.source)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newServer serves opts on a test server of 127.0.0.1.
func newServer(t testing.TB, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

// get fetches a page and returns its status, body and headers.
func get(t testing.TB, url string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

var (
	draftOnce sync.Once
	draftPath string
	draftErr  error
)

// findDraft finds sponge-draft for the ask page: built once for the tests
// without cgo (the extractive drafter, no embedded model), as the MCP
// server's tests build it, into the test binary's own temporary folder
// (testsupport's, removed when the tests end: a run leaves nothing behind).
// Other stages run in this process.
func findDraft(t testing.TB) func(string) (string, error) {
	t.Helper()
	draftOnce.Do(func() {
		root := os.Getenv(settings.IsolatedEnv)
		if root == "" {
			draftErr = fmt.Errorf("the tests run without testsupport's folder (%s)", settings.IsolatedEnv)
			return
		}
		draftPath = filepath.Join(root, "sponge-ui-draft", "sponge-draft")
		cmd := exec.Command("go", "build", "-o", draftPath, "github.com/sponge-library/sponge/cmd/sponge-draft")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			draftErr = fmt.Errorf("go build sponge-draft: %v\n%s", err, out)
		}
	})
	if draftErr != nil {
		t.Fatal(draftErr)
	}
	return func(name string) (string, error) {
		if name != "sponge-draft" {
			return "", fmt.Errorf("the tests have no %s", name)
		}
		return draftPath, nil
	}
}

// TestDraftInTestFolder: the sponge-draft the tests build lies in
// testsupport's folder of this test binary, which is removed when the tests
// end, not in a folder of its own left in the system's temporary folder
// (33 of them were, one a run).
func TestDraftInTestFolder(t *testing.T) {
	find := findDraft(t)
	p, err := find("sponge-draft")
	if err != nil {
		t.Fatal(err)
	}
	root := os.Getenv(settings.IsolatedEnv)
	if rel, err := filepath.Rel(root, p); err != nil || strings.HasPrefix(rel, "..") {
		t.Errorf("sponge-draft built at %s, outside the tests' folder %s", p, root)
	}
}
