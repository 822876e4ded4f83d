package draft

import (
	"strings"
	"testing"
)

// TestCanEndAhead: a quote can end further on only at a word boundary
// where it is long enough and not a quote given already.
func TestCanEndAhead(t *testing.T) {
	t.Parallel()
	text := "White tea is the least processed."
	seen := map[string]bool{}
	ok := func(q string) bool {
		q = strings.TrimSpace(q)
		return len(strings.Fields(q)) >= 3 && !seen[q]
	}
	// From "the": "the least processed" (at the part's end) is the only end.
	at := strings.Index(text, "the")
	if !canEndAhead(text, at, len(text), "", ok) {
		t.Error("from the: no end found")
	}
	seen["the least processed"], seen["the least processed."] = true, true
	if canEndAhead(text, at, len(text), "", ok) {
		t.Error("from the: an end found though every one is a quote given already")
	}
	// Not inside a word: "White tea is the lea" is no end.
	seen = map[string]bool{"White tea is the least": true, "White tea is the least processed": true, "White tea is the least processed.": true}
	if at := strings.Index(text, "least") + 3; canEndAhead(text, at, len(text), "White tea is the lea", ok) {
		t.Error("an end found inside a word")
	}
	for i, want := range map[int]bool{0: false, 5: true, 6: true, 7: false, len(text) - 1: true, len(text): true} {
		if got := wordBoundary(text, i); got != want {
			t.Errorf("wordBoundary at %d (%q|%q) = %v", i, text[:i], text[i:], got)
		}
	}
	if !wordBoundary("绿茶很好", len("绿")) {
		t.Error("no boundary between two Han characters")
	}
}
