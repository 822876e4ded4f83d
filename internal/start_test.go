package internal_test

import (
	"strings"
	"testing"

	"github.com/blevesearch/geo/geojson"
	"github.com/blevesearch/vellum/levenshtein"
)

// TestAutomatonBuildersCheap: bleve's scorch package makes two Levenshtein
// automaton builders (distances 1 and 2) in its init, so every sponge,
// sponge-search and sponge-full process paid for them, fuzzy queries or
// not (upstream vellum: ~25,800 allocations, a JSON encoding of every
// automaton state). The copy in internal/third_party/vellum (SPONGE.md)
// builds them on first use, and keys states without JSON. This fails if
// the replace in go.mod goes.
func TestAutomatonBuildersCheap(t *testing.T) {
	var builders []*levenshtein.LevenshteinAutomatonBuilder
	allocs := testing.AllocsPerRun(3, func() {
		builders = builders[:0]
		for _, d := range []uint8{1, 2} {
			lb, err := levenshtein.NewLevenshteinAutomatonBuilder(d, true)
			if err != nil {
				t.Fatal(err)
			}
			builders = append(builders, lb)
		}
	})
	if allocs > 10 {
		t.Errorf("making the two automaton builders takes %.0f allocations, want them built on first use (upstream vellum: ~25,800)", allocs)
	}
	// Built on first use, they still match by edit distance.
	for i, lb := range builders {
		d := uint8(i + 1)
		if lb.MaxDistance() != d {
			t.Errorf("builder %d: MaxDistance %d", d, lb.MaxDistance())
		}
		dfa, err := lb.BuildDfa("kernel", d)
		if err != nil {
			t.Fatal(err)
		}
		for word, want := range map[string]bool{"kernel": true, "kernal": true, "kenrel": true, "krenal": d == 2, "colonel": false} {
			if ok, _ := dfa.MatchAndDistance(word); ok != want {
				t.Errorf("distance %d: %q matches %v, want %v", d, word, ok, want)
			}
		}
	}
}

// The first automaton of distance 2, made by a new builder, builds the
// parametric automaton: without JSON keys for its states.
func TestAutomatonStatesKeyedCheaply(t *testing.T) {
	allocs := testing.AllocsPerRun(2, func() {
		lb, err := levenshtein.NewLevenshteinAutomatonBuilder(2, true)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lb.BuildDfa("kernel", 2); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.0f allocations", allocs)
	if allocs > 12000 {
		t.Errorf("the first distance-2 automaton takes %.0f allocations, want at most 12,000 (upstream vellum's JSON keys: ~25,800)", allocs)
	}
}

// TestGeoJSONStandIn: geojson, the one importer of json-iterator, reads and
// writes shapes through the stand-in of internal/third_party/jsoniter
// (encoding/json), and their meaning is kept: a polygon holds the point
// inside it and not one outside.
func TestGeoJSONStandIn(t *testing.T) {
	square, err := geojson.ParseGeoJSONShape([]byte(`{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		point string
		in    bool
	}{{"[5,5]", true}, {"[20,5]", false}} {
		p, err := geojson.ParseGeoJSONShape([]byte(`{"type":"Point","coordinates":` + c.point + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if in, err := square.Contains(p); err != nil || in != c.in {
			t.Errorf("the square holds %s: %v (%v), want %v", c.point, in, err, c.in)
		}
	}
	b, err := square.Value()
	if err != nil || !strings.Contains(string(b), `"type":"Polygon"`) || !strings.Contains(string(b), "[10,10]") {
		t.Errorf("the square written: %s (%v)", b, err)
	}
}
