package keywords

import (
	"maps"
	"testing"
)

// TestStopTermsTogether: the stop words analysed in one text give the terms
// each gives alone, no more and no fewer.
func TestStopTermsTogether(t *testing.T) {
	want := map[string]bool{}
	for w := range StopWords {
		for _, term := range Terms(w) {
			want[term] = true
		}
	}
	if got := stopTerms(); !maps.Equal(got, want) {
		t.Errorf("%d stop terms, each word alone gives %d", len(got), len(want))
		for term := range want {
			if !got[term] {
				t.Errorf("missing %q", term)
			}
		}
		for term := range got {
			if !want[term] {
				t.Errorf("extra %q", term)
			}
		}
	}
	if len(want) < len(StopWords)/2 {
		t.Fatalf("only %d stop terms", len(want))
	}
}
