package extractive

import (
	"strings"
	"testing"

	"github.com/sponge-library/sponge/jsonl"
)

func TestOneEditApart(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"obsevable", "observable", true}, // one dropped
		{"abilene", "ableine", false},     // two apart
		{"tefu", "tfeu", true},            // two swapped
		{"hamaz", "hamza", true},
		{"debat", "debate", true},
		{"angle", "angel", true},
		{"tea", "tea", false},
		{"store", "storage", false},
		{"möngke", "mongke", true},
	} {
		if got := oneEditApart(c.a, c.b); got != c.want {
			t.Errorf("oneEditApart(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// quarks is a passage of SQuAD 2.0's physics article, and a library in
// which its words are rare and "obsevable", a typo, is absent.
var (
	quarks = []*jsonl.Passage{passage(1, "Force",
		"The failure of many searches for free quarks has shown that the elementary particles affected are not directly observable. This phenomenon is called color confinement.")}
	quarkLibrary = docFreqs{"failure": 40, "search": 60, "free": 300, "quark": 5, "elementary": 20, "particle": 50, "affect": 90,
		"directly": 200, "observable": 10, "phenomenon": 30, "call": 800, "color": 40, "confinement": 3, "term": 900, "lack": 100}
)

// A question's word the library lacks is read as the passages' word one
// letter away: a typo does not refuse a question the library answers.
func TestRespell(t *testing.T) {
	const q = "What is the term for the lack of obsevable free quarks?"
	if got := respell(q, quarks, quarkLibrary); got != "What is the term for the lack of observable free quarks?" {
		t.Errorf("respell = %q", got)
	}
	d := New()
	d.Corpus, d.Params.Respell = quarkLibrary, true
	if got := draft(t, d, q, quarks); len(got) == 0 {
		t.Error("refused a question with a typo")
	}
	var why strings.Builder
	d.Explain = &why
	draft(t, d, q, quarks)
	if !strings.Contains(why.String(), `read as "What is the term for the lack of observable free quarks?"`) {
		t.Errorf("--explain does not say how the question was read:\n%s", why.String())
	}
	d.Params.Respell = false
	if got := draft(t, d, q, quarks); len(got) != 0 {
		t.Errorf("answered without respelling too: the test proves nothing (%q)", got[0].Quote)
	}
	// A word the library holds is not respelt, nor is one two words fit.
	if got := respell("Is the angle free?", append(quarks, passage(2, "Angels", "An angel and an angle.")), docFreqs{"angle": 3, "free": 300}); got != "Is the angle free?" {
		t.Errorf("respelt a word the library holds: %q", got)
	}
	two := []*jsonl.Passage{passage(1, "Cats", "The cats sat on the mats.")}
	if got := respell("Where did the cat sit on the mqts?", append(two, passage(2, "Moats", "The mots and the mits.")), docFreqs{"cat": 3, "sit": 20}); got != "Where did the cat sit on the mqts?" {
		t.Errorf("respelt a word two words fit: %q", got)
	}
	// Without the library's counts nothing is respelt.
	if got := respell(q, quarks, nil); got != q {
		t.Errorf("respelt without the library: %q", got)
	}
}

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
