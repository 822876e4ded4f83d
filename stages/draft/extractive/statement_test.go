package extractive

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sponge-library/sponge/jsonl"
)

func TestIsStatement(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Green tea is steeped at eighty degrees.", true},
		{"The -g flag sets a global option, and C-b is the prefix key.", true},
		{"In 1973, about 3.5% of the oil came from the U.S. and Canada.", true},
		{"Don't rinse a well-seasoned pan with soap.", true},
		{"Green tea.", false}, // fewer than three words
		{"Next: Tables, Previous: Lists, Up: Top   [Contents][Index]", false},
		{"Next: Invoking tar, Previous: Tutorial, Up: Top", false},
		{"int main(int argc, char **argv) {\n    int i = 0;\n    for (i = 0; i < argc; i++) {\n        puts(argv[i]);\n    }\n}", false},
		{"C-b c      Create a new window.\nC-b n      Change to the next window.\nC-b p      Change to the previous window.\nC-b d      Detach the current client.", false},
		{"ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-B bind_interface] [-b bind_address] [-c cipher_spec] [-D [bind_address:]port] destination [command]", false},
		{"x = malloc(n * sizeof *x); if (x == NULL) return -1;", false},
		// A table of keys flattened into one line.
		{"C-b Send the prefix key C-o Rotate the panes forward C-z Suspend the client ! Break the pane out", false},
		{"Press C-b, then d, to detach the session.", true},
	} {
		if got := IsStatement(c.text); got != c.want {
			t.Errorf("IsStatement(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// A navigation line and a listing that hold the question's words are never
// quoted; the sentence that answers is.
func TestListingsAreNotStatements(t *testing.T) {
	listing := "Next: Cleaning, Previous: Tools, Up: Top [Contents][Index]\n\n" +
		"chain_clean(chain *c) {\n    lube = degreaser(c->chain, CHAIN_LUBE);\n    wipe(c->chain);\n    return chain_oil(c, lube);\n}"
	ps := []*jsonl.Passage{
		passage(1, "Chain care", listing),
		passage(2, "Chain care", "Oil the chain with a drop of lube on each roller after you clean it."),
	}
	q := "How do I lube and clean the chain?"
	for _, s := range draft(t, New(), q, ps) {
		if s.Passage == 1 {
			t.Errorf("quoted %q from the listing", s.Quote)
		}
	}
	// The rule, not the scores, keeps the listing out.
	d := New()
	d.Params.Sentences = true
	listed := false
	for _, s := range draft(t, d, q, ps) {
		listed = listed || s.Passage == 1
	}
	if !listed {
		t.Error("with whole sentences the listing is not quoted either: the test proves nothing")
	}
}

const longSentence = "The committee, which had met in the old town hall every spring since the charter was signed by the seven founding villages, " +
	"and which counted among its members the miller, the schoolmaster, two farmers and the widow of the former mayor, decided after a long debate; " +
	"the new bridge over the river would be built of stone from the quarry at Hollin Edge, not of timber, so that it would outlast the century, " +
	"and the toll would be one penny for a cart and nothing for a person on foot."

func TestLongSentenceQuotesItsClause(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Village history", longSentence)}
	q := "What stone was the new bridge built of?"
	got := draft(t, New(), q, ps)
	if len(got) == 0 {
		t.Fatal("no statement")
	}
	for _, s := range got {
		if n := utf8.RuneCountInString(s.Quote); n > MaxStatement {
			t.Errorf("a statement of %d characters: %q", n, s.Quote)
		}
		if !strings.Contains(longSentence, s.Quote) {
			t.Errorf("%q is not the saved words", s.Quote)
		}
	}
	if !strings.Contains(got[0].Quote, "Hollin Edge") {
		t.Errorf("first statement %q, want the clause about the bridge", got[0].Quote)
	}
	d := New()
	d.Params.Sentences = true
	if whole := draft(t, d, q, ps); len(whole) == 0 || utf8.RuneCountInString(whole[0].Quote) <= MaxStatement {
		t.Errorf("with whole sentences: %+v, want the long sentence", whole)
	}
}

func TestClauses(t *testing.T) {
	for _, sp := range Clauses(longSentence) {
		c := longSentence[sp.Start:sp.End]
		if utf8.RuneCountInString(c) > MaxStatement || strings.TrimSpace(c) != c || c == "" {
			t.Errorf("clause %q", c)
		}
	}
	if got := Clauses("A short one."); len(got) != 1 || got[0] != (Span{0, 12}) {
		t.Errorf("Clauses of a short sentence = %v", got)
	}
}

// A negated question is not answered by a sentence that says the opposite.
func TestRefusesANegatedQuestion(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Complexity", "For a precise definition of what it means to solve a problem in a given time, a deterministic Turing machine is used.")}
	q := "What is not used for a precise definition of what it means to solve a problem in a given time?"
	if got := draft(t, New(), q, ps); len(got) != 0 {
		t.Errorf("answered %q", got[0].Quote)
	}
	d := New()
	d.Params.Negation = false
	if got := draft(t, d, q, ps); len(got) == 0 {
		t.Error("refused without the rule too: the test proves nothing")
	}
	// A sentence that negates may answer.
	ps[0].Text = "A stack is not used for a precise definition of what it means to solve a problem in a given time."
	if got := draft(t, New(), q, ps); len(got) == 0 {
		t.Error("refused a sentence that negates")
	}
}

// The question's names and numbers must meet near its other words.
func TestRefusesWhenNamesDoNotMeet(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Normans", "The Normans were the people who in the 10th and 11th centuries gave their name to Normandy, a region in France.")}
	q := "Who gave their name to Normandy in the 1000s and 1100s?"
	if got := draft(t, New(), q, ps); len(got) != 0 {
		t.Errorf("answered %q", got[0].Quote)
	}
	d := New()
	d.Params.MaxNames = 0
	if got := draft(t, d, q, ps); len(got) == 0 {
		t.Error("refused without the rule too: the test proves nothing")
	}
	if got := draft(t, New(), "Who gave their name to Normandy in the 10th century?", ps); len(got) == 0 {
		t.Error("refused a question whose names and numbers meet")
	}
}

// Two sentences that say the same thing are one statement.
func TestSameThingOnce(t *testing.T) {
	ps := []*jsonl.Passage{
		passage(1, "Tea", "Green tea is steeped at eighty degrees for two minutes."),
		passage(2, "Tea again", "Green tea is steeped at eighty degrees for about two minutes."),
	}
	d := New()
	d.Params.MinRelative, d.Params.MinRelativeQuestion, d.Params.MinItemAnswer = 0, 0, 0
	q := "How is green tea steeped?"
	if got := draft(t, d, q, ps); len(got) != 1 {
		t.Errorf("%d statements, want the sentence once", len(got))
	}
	d.Params.Same = 0
	if got := draft(t, d, q, ps); len(got) != 2 {
		t.Errorf("without the rule: %d statements, want 2", len(got))
	}
}

// A first statement far above the rest stands alone.
func TestStrongFirstAlone(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Tea", "Green tea is steeped at eighty degrees for two minutes. Tea comes in tins. Some tea is green.")}
	q := "How long is green tea steeped at eighty degrees?"
	if got := draft(t, New(), q, ps); len(got) != 1 {
		t.Errorf("%d statements, want 1", len(got))
	}
	d := New()
	d.Params.MinRelative, d.Params.MinRelativeQuestion = 0, 0
	if got := draft(t, d, q, ps); len(got) < 2 {
		t.Errorf("without the rule: %d statements, want more", len(got))
	}
}

func TestExplains(t *testing.T) {
	a := Choose(Candidates("How hot should the water be for green tea?", teaAndCompost, &DefaultParams, nil), &DefaultParams)
	if len(a.Why) != len(a.Statements) || len(a.Statements) == 0 || !strings.Contains(a.Why[0], "«green»") {
		t.Errorf("why %q for %d statements", a.Why, len(a.Statements))
	}
	r := Choose(Candidates("Who gave their name to Normandy in the 1000s?", []*jsonl.Passage{passage(1, "Normans", "The Normans gave their name to Normandy in the 10th century.")}, &DefaultParams, nil), &DefaultParams)
	if len(r.Statements) != 0 || !strings.Contains(r.Refused, "«1000s»") {
		t.Errorf("refused %q, want the missing number named", r.Refused)
	}
}

// A claim to check is not a question: a sentence that contradicts it is
// the evidence a person wants, so the rules on the subject leave it be.
func TestClaimsAreNotRefusedOnTheSubject(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Complexity", "For a precise definition of what it means to solve a problem in a given time, a deterministic Turing machine is used.")}
	claim := "A deterministic Turing machine is not used for a precise definition of solving a problem in a given time."
	if got := draft(t, New(), claim, ps); len(got) == 0 {
		t.Error("refused a claim")
	}
	d := New()
	d.Params.ClaimsToo = true
	if got := draft(t, d, claim, ps); len(got) != 0 {
		t.Error("the rules on the subject do not refuse it even for claims: the test proves nothing")
	}
}

// A long sentence is not cut before a parenthesis when a dash or a comma
// will do: the clause holding "(especially Warsaw) was a major success"
// keeps its subject, the Three-Year Plan.
func TestClausesKeepAnAside(t *testing.T) {
	s := "Like many cities in Central and Eastern Europe, infrastructure in Warsaw suffered considerably during its time as an Eastern Bloc economy – though it is worth mentioning that the initial Three-Year Plan to rebuild Poland (especially Warsaw) was a major success, but what followed was very much the opposite."
	holds := func() bool {
		for _, sp := range Clauses(s) {
			c := s[sp.Start:sp.End]
			if strings.Contains(c, "Three-Year Plan") && strings.Contains(c, "major success") {
				return true
			}
		}
		return false
	}
	if !holds() {
		t.Errorf("no clause holds the plan and its success: %v", Clauses(s))
	}
	defer func(c int) { parenCut = c }(parenCut)
	parenCut = 1
	if holds() {
		t.Error("cut before the parenthesis too: the test proves nothing")
	}
}
