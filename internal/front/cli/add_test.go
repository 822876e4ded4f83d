package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

// TestUnfinishedHint: the hint after an index that could not be finished
// says items are saved only when this add saved some.
func TestUnfinishedHint(t *testing.T) {
	for added, want := range map[int]string{
		0: "nothing was saved; fix the cause, run 'sponge reindex', and add again",
		1: "the item added is saved; run 'sponge reindex' to put it in the index",
		7: "the 7 items added are saved; run 'sponge reindex' to put them in the index",
	} {
		if got := unfinishedHint(added); got != want {
			t.Errorf("%d added: %q, want %q", added, got, want)
		}
	}
}

// TestSkippedLines: a folder's many files skipped for one reason are one
// line; a few, or files skipped for different reasons, a line each, in the
// order the walk met them.
func TestSkippedLines(t *testing.T) {
	const bin = "not text (binary data), and not a format sponge reads"
	var skip []ingest.Skipped
	for _, n := range []string{"1.png", "10.png", "11.png", "12.png", "13.png"} {
		skip = append(skip, ingest.Skipped{Path: "docs/images/" + n, Why: bin})
	}
	skip = append(skip,
		ingest.Skipped{Path: "docs/logo.gif", Why: bin},
		ingest.Skipped{Path: "docs/empty.md", Why: "no readable text (the file is empty)"},
		ingest.Skipped{Path: "docs/images/old", Why: "a link to nothing"})
	want := []string{
		"docs/images/: 5 files skipped, " + bin + " (1.png, 10.png, 11.png and 2 more)",
		"docs/logo.gif: skipped, " + bin,
		"docs/empty.md: skipped, no readable text (the file is empty)",
		"docs/images/old: skipped, a link to nothing",
	}
	if diff := cmp.Diff(want, skippedLines(skip)); diff != "" {
		t.Errorf("skippedLines (-want +got):\n%s", diff)
	}
}

// A page of long menus around one sentence is saved with a warning that
// names it; adding it again with --all-text, as the warning suggests, finds
// its bytes saved: sponge add says that the item was kept as it was, and how
// to read it with every word, rather than only "already saved".
func TestAddAllTextAlreadySaved(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	page := filepath.Join(dir, "note.html")
	var b strings.Builder
	b.WriteString("<html><head><title>Short note</title></head><body><nav><ul>\n")
	for i := range 120 {
		fmt.Fprintf(&b, "<li><a href=\"/p%d.html\">Section number %d of the handbook</a></li>\n", i, i)
	}
	b.WriteString("</ul></nav><main><p>The kettle is descaled every Friday.</p></main></body></html>\n")
	os.WriteFile(page, []byte(b.String()), 0o644)
	_, errs, code := runSponge(t, "add", "--library", lib, page)
	if code != 0 || !strings.Contains(errs, "note.html: kept 36 of the") || !strings.Contains(errs, "(under 1%)") {
		t.Fatalf("add: exit %d, stderr:\n%s", code, errs)
	}
	out, errs, code := runSponge(t, "add", "--library", lib, "--all-text", page)
	if code != 0 || !strings.HasPrefix(out, "already saved ") ||
		!strings.Contains(errs, "sponge: warning: "+page+": saved before without --all-text, and kept as it was") ||
		!strings.Contains(errs, "and add it again with --all-text") {
		t.Errorf("add --all-text: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	// Added with --all-text in the first place, nothing more is said.
	lib2 := filepath.Join(dir, "lib2")
	runSponge(t, "add", "--library", lib2, "--all-text", page)
	if _, errs, _ := runSponge(t, "add", "--library", lib2, "--all-text", page); errs != "" {
		t.Errorf("add --all-text twice, stderr:\n%s", errs)
	}
}
