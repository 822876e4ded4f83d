package internal_test

import (
	"testing"

	"github.com/blevesearch/vellum/levenshtein"
)

// TestAutomatonBuildersCheap: bleve's scorch package builds two Levenshtein
// automaton builders (distances 1 and 2) in its init, so every sponge,
// sponge-search and sponge-full process pays for them, fuzzy queries or
// not. Upstream vellum hashes each automaton state through JSON (~25,800
// allocations for the two); the copy in internal/third_party/vellum does not
// (SPONGE.md). This fails if the replace in go.mod goes.
func TestAutomatonBuildersCheap(t *testing.T) {
	allocs := testing.AllocsPerRun(3, func() {
		for _, d := range []uint8{1, 2} {
			if _, err := levenshtein.NewLevenshteinAutomatonBuilder(d, true); err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Logf("%.0f allocations for the two builders", allocs)
	if allocs > 12000 {
		t.Errorf("building the two automaton builders takes %.0f allocations, want at most 12,000 (upstream vellum: ~25,800)", allocs)
	}
}
