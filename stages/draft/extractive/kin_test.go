package extractive

import (
	"strings"
	"testing"

	"github.com/sponge-library/sponge/jsonl"
)

func TestKin(t *testing.T) {
	for _, c := range [][2]string{{"persian", "persia"}, {"british", "britain"}, {"european", "europe"},
		{"israeli", "israel"}, {"chinese", "china"}, {"britain", "british"}, {"canadian", "canada"}} {
		if !kin(c[0], c[1]) {
			t.Errorf("kin(%q, %q) = false, want true", c[0], c[1])
		}
	}
	for _, c := range [][2]string{{"sullivan", "sully"}, {"japan", "jasper"}, {"iran", "irish"}, {"paris", "parliament"}} {
		if kin(c[0], c[1]) {
			t.Errorf("kin(%q, %q) = true, want false", c[0], c[1])
		}
	}
}

func TestInitialsOf(t *testing.T) {
	words := func(s string) []string { return strings.Fields(s) }
	for _, c := range []struct {
		acronym, text string
		want          bool
	}{
		{"EU", "the law of the European Union applies", true},
		{"WWII", "after World War II ended", true},
		{"MSP", "a Member of the Scottish Parliament may", true},
		{"EU", "the European union applies", false},
		{"UN", "United States", false},
		{"US", "the US adult population", true},
		{"US", "the USSR", false},
	} {
		if got := initialsOf(c.acronym, c.acronym, words(c.text)); got != c.want {
			t.Errorf("initialsOf(%q, %q) = %v, want %v", c.acronym, c.text, got, c.want)
		}
	}
	if initialsOf("UN", "Un", words("United Nations")) {
		t.Error("a word not written in capitals by the question is read as initials")
	}
	for w, want := range map[string]string{"U.S": "US", "D.C.": "DC", "U.K": "UK", "Ph.D": "", "U": "", "e.g": "", "3.5": ""} {
		if got := dottedInitials(w); got != want {
			t.Errorf("dottedInitials(%q) = %q, want %q", w, got, want)
		}
	}
}

// The names rule counts a question's name held in another form a name
// takes: "Persian" in "Persia", "EU" in "European Union".
func TestNamesMeetTheirKin(t *testing.T) {
	for _, c := range []struct{ q, text, want string }{
		{"What was the Yuan's Persian ally?",
			"The Yuan court sent envoys west every year. Its closest ally was the Ilkhanate, which ruled Persia from Tabriz. Trade followed the envoys.",
			"Its closest ally"},
		{"Which laws predate EU law?",
			"The courts weigh several sources. International law and public law predate the law of the European Union, which draws on both. Judges cite them often.",
			"International law"},
		{"What share of the U.S. population smokes?",
			"Surveys measure habits every year. About 14% of the US adult population smokes, down from 21% in 2005. Rates vary by age.",
			"About 14%"},
		{"When was Columbus, GA founded?",
			"Columbus, Georgia lies on the Chattahoochee River. Founded in 1828 by an act of the Georgia Legislature, Columbus grew around its mills. Its port carried cotton.",
			"Founded in 1828"},
	} {
		ps := []*jsonl.Passage{passage(1, "Notes", c.text)}
		lib := docFreqs{"yuan": 20, "persian": 8, "persia": 8, "ally": 60, "law": 900, "predate": 5, "eu": 400,
			"european": 80, "union": 90, "envoy": 30, "ilkhanate": 3, "court": 400, "tabriz": 2, "international": 300, "public": 500,
			"u": 300, "share": 200, "population": 150, "smoke": 20, "columbus": 6, "ga": 4, "founded": 90, "found": 90}
		d := New()
		d.Corpus = lib
		if got := draft(t, d, c.q, ps); len(got) == 0 || !strings.Contains(got[0].Quote, c.want) {
			t.Errorf("%s: got %v, want %q first", c.q, got, c.want)
		}
		d.Params.Kin = false
		if got := draft(t, d, c.q, ps); len(got) != 0 {
			t.Errorf("%s: answered without Kin too: the test proves nothing (%q)", c.q, got[0].Quote)
		}
	}
}
