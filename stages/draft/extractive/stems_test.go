package extractive

import (
	"math"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/jsonl"
)

// The rules of refusal on the subject count a word held with another
// English ending: "negotiate" is in "negotiations", near the sentence.
func TestRulesMeetOtherEndings(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Oil crisis",
		"Some countries were uncooperative in the embargo. The prices rose for a year. Queues grew at the pumps. To address this, the Nixon Administration began multilateral negotiations with the combatants.")}
	lib := docFreqs{"nixon": 5, "administration": 900, "negotiate": 40, "negotiation": 30, "uncooperative": 4, "countries": 1500, "country": 1500,
		"multilateral": 3, "combatant": 10, "address": 500, "begin": 900, "price": 300, "pump": 90}
	const q = "How did the Nixon administration negotiate with the uncooperative countries?"
	d := New()
	d.Corpus = lib
	if got := draft(t, d, q, ps); len(got) == 0 || !strings.HasPrefix(got[0].Quote, "To address this") {
		t.Errorf("got %v, want the negotiations sentence", got)
	}
	d.Params.Stems = false
	if got := draft(t, d, q, ps); len(got) != 0 {
		t.Errorf("answered without Stems too: the test proves nothing (%q)", got[0].Quote)
	}
	if have := (&libraryWeights{order: []string{"negotiate"}}).stemHeld("multilateral negotiations"); !have["negotiate"] {
		t.Error("stemHeld: «negotiate» is not held in «negotiations»")
	}
}

// A hedge in the question ("typically", "commonly") weighs nothing: the
// answer seldom repeats it, and a library without the word would refuse.
func TestHedgesWeighNothing(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Machine models",
		"Many machine models have been proposed. The time and memory consumption of these alternate models may vary. Each can simulate the others.")}
	lib := docFreqs{"resource": 40, "consume": 30, "alternate": 20, "model": 300, "vary": 200, "machine": 100, "time": 900, "memory": 80}
	const plain = "What resources consumed by alternate models vary?"
	const hedged = "What resources commonly consumed by alternate models typically vary?"
	a := Candidates(plain, ps, &DefaultParams, lib)
	b := Candidates(hedged, ps, &DefaultParams, lib)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d and %d sentences", len(a), len(b))
	}
	for i := range a {
		if math.Abs(a[i].Answer-b[i].Answer) > 1e-9 || math.Abs(a[i].Covers-b[i].Covers) > 1e-9 {
			t.Errorf("«%s»: Answer %.3f, Covers %.3f with the hedges; %.3f, %.3f without", b[i].Quote, b[i].Answer, b[i].Covers, a[i].Answer, a[i].Covers)
		}
	}
	d := New()
	d.Corpus = lib
	if got := draft(t, d, hedged, ps); len(got) == 0 || !strings.Contains(got[0].Quote, "time and memory") {
		t.Errorf("got %v, want the time and memory sentence", got)
	}
}
