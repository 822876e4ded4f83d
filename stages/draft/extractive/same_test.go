package extractive

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sponge-library/sponge/jsonl"
)

// TestSummarySentencesSame: a summary is the same every time. The
// passages' middle sentences hold the same words in other orders, so their
// scores tie but for the last bits of the sums, which came out differently
// from run to run when they were summed in a map's order.
func TestSummarySentencesSame(t *testing.T) {
	words := strings.Fields("granite basalt magma crust mantle quartz feldspar mica obsidian pumice lava ash plume vent caldera fissure")
	var ps []*jsonl.Passage
	for i := range 12 {
		var b strings.Builder
		b.WriteString("Volcanoes of the northern ridge are studied by the survey. ")
		for j := range 4 {
			w := make([]string, len(words))
			for k := range words {
				w[k] = words[(k*(i+j+3))%len(words)]
			}
			fmt.Fprintf(&b, "The survey measured %s in every sample it took. ", strings.Join(w, " and "))
		}
		ps = append(ps, &jsonl.Passage{Number: i + 1, Text: strings.TrimSpace(b.String())})
	}
	quotes := func() []string {
		var q []string
		for _, s := range SummarySentences(ps, SummaryStatements) {
			q = append(q, fmt.Sprint(s.Passage, s.Index))
		}
		return q
	}
	want := quotes()
	for range 50 {
		if diff := cmp.Diff(want, quotes()); diff != "" {
			t.Fatalf("the summary differs from one run to the next (-first +later):\n%s", diff)
		}
	}
}

// TestCoversSame: the share of a question's weight a sentence holds is the
// same every time it is measured. Summed in a map's order, two sentences
// holding the same words differed in its last bits, and the map's order
// ranked one above the other.
func TestCoversSame(t *testing.T) {
	q := "Which granite basalt magma crust mantle quartz feldspar mica obsidian pumice lava plume vent caldera fissure did the survey measure?"
	lib := docFreqs{}
	for i, w := range strings.Fields(strings.TrimSuffix(q, "?")) {
		lib[strings.ToLower(w)] = 3 + 7*i
	}
	lw := newLibraryWeights(q, nil, lib, DefaultParams.PriorDocs)
	text := "The survey measured granite, basalt, magma, the crust, quartz, mica, pumice, lava and every vent of the caldera."
	want, _ := lw.covers(text)
	for range 200 {
		if got, _ := lw.covers(text); got != want {
			t.Fatalf("the sentence holds %v of the question's weight, then %v", want, got)
		}
	}
}
