package cli

import (
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
