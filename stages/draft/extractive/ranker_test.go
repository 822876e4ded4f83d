package extractive

import (
	"sort"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/jsonl"
)

// The demo library's tea guide, as sponge-rank passes its paragraphs.
var teaGuide = []*jsonl.Passage{
	{Number: 1, ItemID: strings.Repeat("ab", 32), Title: "Brewing tea at home", Heading: "Green tea", Score: 1,
		Text: "Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter. Pour the water over the leaves and wait one to two minutes. Japanese sencha prefers seventy degrees; Chinese pan-fired teas such as Dragon Well can take a little more heat."},
	{Number: 2, ItemID: strings.Repeat("ab", 32), Title: "Brewing tea at home", Heading: "Black tea", Score: 0.9,
		Text: "Black tea wants water just off the boil and three to five minutes. Longer steeping extracts more tannins: the cup gets stronger, then harsh. If you add milk, add it after the tea, so you can judge the colour."},
}

const blackTea = "Black tea wants water just off the boil and three to five minutes."

// The learned ranker puts the sentence that answers above one that only
// shares more of the question's words: the hand-made score puts "Longer
// steeping extracts more tannins" (it holds «steep») above it, the ranker
// weighs the minutes it holds for "How long".
func TestRankerPutsTheAnswerFirst(t *testing.T) {
	q := "How long should black tea steep?"
	place := func(p *Params) int {
		cands := Candidates(q, teaGuide, p, nil)
		sort.SliceStable(cands, func(a, b int) bool { return p.Score(cands[a]) > p.Score(cands[b]) })
		for i, c := range cands {
			if c.Quote == blackTea {
				return i + 1
			}
		}
		return 0
	}
	p := DefaultParams
	ranked := place(&p)
	p.Ranker = false
	if hand := place(&p); ranked == 0 || ranked >= hand {
		t.Errorf("the ranker puts it %d., the hand-made score %d.", ranked, hand)
	}
	a := Choose(Candidates(q, teaGuide, &DefaultParams, nil), &DefaultParams)
	for i, c := range a.Statements {
		if c.Quote == blackTea && !strings.Contains(a.Why[i], "a measure in the unit asked for") {
			t.Errorf("why %q, want the unit named", a.Why[i])
		}
	}
	// Without the library's weights the ranker scores the green tea
	// sentence (eighty degrees) best; the minutes asked for are in the
	// black tea one, which UnitFirst shows first.
	if len(a.Statements) < 2 || a.Statements[0].Quote != blackTea {
		t.Errorf("statements %d, want the black tea sentence first", len(a.Statements))
	}
	if !strings.Contains(a.Why[1], "the learned ranker's chance") {
		t.Errorf("why %q, want the score said to be the ranker's", a.Why[1])
	}
	p = DefaultParams
	p.UnitFirst = false
	if a := Choose(Candidates(q, teaGuide, &p, nil), &p); len(a.Statements) < 2 || a.Statements[1].Quote != blackTea {
		t.Errorf("without UnitFirst: statements %d, want the black tea sentence second", len(a.Statements))
	}
}

// A claim keeps the hand-made score, whatever Params.Ranker says.
func TestRankerOnlyForQuestions(t *testing.T) {
	p := DefaultParams
	for _, c := range Candidates("Black tea is brewed for three to five minutes.", teaGuide, &p, nil) {
		if p.Score(c) != p.handScore(c) {
			t.Fatalf("a claim's sentence %q scores %.3f, the hand-made score %.3f", c.Quote, p.Score(c), p.handScore(c))
		}
	}
	n := 0
	for _, c := range Candidates("How long should black tea steep?", teaGuide, &p, nil) {
		if p.Score(c) == c.Ranked {
			n++
		}
	}
	if n == 0 {
		t.Error("no question's sentence scored by the ranker")
	}
}

func TestQuestionUnits(t *testing.T) {
	for _, tc := range []struct {
		q, sentence string
		want        bool
	}{
		{"How long should black tea steep?", blackTea, true},
		{"How long should black tea steep?", "Green tea is steeped at around eighty degrees.", false},
		{"How hot should the water be?", "Green tea is steeped at around eighty degrees.", true},
		{"What temperature is sencha brewed at?", "Sencha: 70 °C, 1 minute", true},
		{"How much did the bridge cost?", "It cost $5 million.", true},
		{"What percentage of voters stayed home?", "Some 40% stayed home.", true},
		{"How many infusions does oolong give?", "Good oolong gives five or six infusions.", false},
		{"Who brewed it?", "He brewed it for five minutes.", false},
		{"How many minutes?", "Five minutes.", false}, // the question's own unit
	} {
		if got := holdsUnit(tc.sentence, questionUnits(tc.q), tc.q); got != tc.want {
			t.Errorf("%q / %q: %v, want %v", tc.q, tc.sentence, got, tc.want)
		}
	}
}

func TestProximity(t *testing.T) {
	q := map[string]bool{"black": true, "tea": true, "steep": true}
	for _, tc := range []struct {
		toks []string
		want float64
	}{
		{[]string{"black", "tea", "steep"}, 1},
		{[]string{"black", "x", "tea", "steep"}, 0.75},
		{[]string{"black", "x", "x", "x", "tea", "black"}, 1},
		{[]string{"tea", "x"}, 0},
	} {
		if got := proximity(tc.toks, q); got != tc.want {
			t.Errorf("%v: %.2f, want %.2f", tc.toks, got, tc.want)
		}
	}
}

// Lead, Rarest and Unit are measured: the black tea sentence opens with
// the question's words and holds the unit it asks for; the sencha sentence
// holds the rarest word of a question on sencha.
func TestRankFeaturesMeasured(t *testing.T) {
	cs := sentencesOf(t, "How long should black tea steep?", blackTea, "Green tea is steeped", "Pour the water")
	black, green, pour := cs[0], cs[1], cs[2]
	if black.Unit != 1 || green.Unit != 0 {
		t.Errorf("Unit %.0f and %.0f, want 1 and 0", black.Unit, green.Unit)
	}
	if black.Lead <= 0 || pour.Lead != 0 {
		t.Errorf("Lead %.2f and %.2f, want more than 0 and 0", black.Lead, pour.Lead)
	}
	for _, c := range Candidates("What does sencha prefer?", teaGuide, &DefaultParams, nil) {
		want := 0.0
		if strings.HasPrefix(c.Quote, "Japanese sencha") {
			want = 1
		}
		if c.Rarest != want {
			t.Errorf("%q: Rarest %.0f, want %.0f", c.Quote, c.Rarest, want)
		}
	}
	if f := RankFeatures(black); len(f) != NumRankFeatures {
		t.Errorf("%d features, want %d", len(f), NumRankFeatures)
	}
}

// The answerability model gives a question's best sentences a chance
// between 0 and 1 (Answer.Answerable, for the bench).
func TestAnswerabilityChance(t *testing.T) {
	q := "How long should black tea steep?"
	p := DefaultParams
	a := Choose(Candidates(q, teaGuide, &p, nil), &p)
	if len(a.Statements) == 0 || a.Answerable <= 0 || a.Answerable >= 1 {
		t.Fatalf("refused %q, chance %.2f", a.Refused, a.Answerable)
	}
}

// Before, After, Refers and Novel are measured: "Longer steeping extracts
// more tannins" follows the black tea sentence, which holds the question's
// words; "If you add milk" comes after it; a sentence that opens with "It"
// points back; the black tea sentence holds words the question lacks.
func TestNeighbourFeaturesMeasured(t *testing.T) {
	cs := sentencesOf(t, "How long should black tea steep?", blackTea, "Longer steeping", "If you add milk")
	black, longer, milk := cs[0], cs[1], cs[2]
	if black.Before != 0 || longer.Before <= 0 || longer.Before != black.Covers {
		t.Errorf("Before %.2f and %.2f, want 0 and the black tea sentence's %.2f", black.Before, longer.Before, black.Covers)
	}
	if black.After != longer.Covers || milk.After != 0 {
		t.Errorf("After %.2f and %.2f, want %.2f and 0", black.After, milk.After, longer.Covers)
	}
	if black.Novel <= 0 || black.Novel >= 1 {
		t.Errorf("Novel %.2f, want between 0 and 1", black.Novel)
	}
	for s, want := range map[string]bool{"It was founded in 1209.": true, "They settled there.": true,
		"\"This\" is a word.": true, "Italy is a country.": false, "Black tea wants water.": false} {
		if got := refersBack(s); got != want {
			t.Errorf("refersBack(%q) = %v, want %v", s, got, want)
		}
	}
	// The kind of answer asked for is its own feature for names and numbers.
	if black.Type != 1 {
		t.Fatalf("Type %.0f, want 1: the black tea sentence holds a number", black.Type)
	}
	f := RankFeatures(black)
	names := RankFeatureNames()
	for i, n := range names {
		if n == "holds a number, and the question asks for one" && f[i] != black.Type {
			t.Errorf("%s: %.0f, want the sentence's Type %.0f", n, f[i], black.Type)
		}
	}
}

// Joined: a sentence that points back is measured with the sentence
// before, which names its subject; any other sentence has none.
func TestJoinedWithTheSentenceBefore(t *testing.T) {
	ps := []*jsonl.Passage{{Number: 1, ItemID: strings.Repeat("ab", 32), Title: "Yuan dynasty", Score: 1,
		Text: "Möngke Khan succeeded Güyük as Great Khan in 1251. He was killed in 1259 at Diaoyu."}}
	var succeeded, died *Candidate
	for _, c := range Candidates("When was Mongke Khan killed?", ps, &DefaultParams, nil) {
		switch {
		case strings.HasPrefix(c.Quote, "Möngke"):
			succeeded = c
		case strings.HasPrefix(c.Quote, "He was killed"):
			died = c
		}
	}
	if succeeded == nil || died == nil {
		t.Fatal("the two sentences are not candidates")
	}
	if succeeded.Joined != 0 {
		t.Errorf("Joined %.2f for a sentence that does not point back, want 0", succeeded.Joined)
	}
	if died.Joined < 0.99 || died.Joined <= died.Covers {
		t.Errorf("Joined %.2f (Covers %.2f), want the whole question's weight: «Mongke Khan» before, «killed» in it", died.Joined, died.Covers)
	}
	if why := DefaultParams.alsoHolds(died); !strings.Contains(why, "points back to the sentence before") {
		t.Errorf("--explain says %q, want that it points back", why)
	}
	if why := DefaultParams.alsoHolds(succeeded); strings.Contains(why, "points back") {
		t.Errorf("--explain says %q of a sentence that does not point back", why)
	}
	f := RankFeatures(died)
	joined := -1
	for i, n := range RankFeatureNames() {
		if strings.HasPrefix(n, "points back: share of the question's weight with the sentence before") {
			joined = i
		}
	}
	if joined < 0 || f[joined] != died.Joined {
		t.Errorf("the ranker's Joined feature (%d) is not Joined %.2f: %v", joined, died.Joined, f)
	}
}

// sentencesOf returns the tea guide's candidates for question q that
// begin with each of starts, in that order.
func sentencesOf(t *testing.T, q string, starts ...string) []*Candidate {
	t.Helper()
	out := make([]*Candidate, len(starts))
	for _, c := range Candidates(q, teaGuide, &DefaultParams, nil) {
		for i, s := range starts {
			if strings.HasPrefix(c.Quote, s) {
				out[i] = c
			}
		}
	}
	for i, c := range out {
		if c == nil {
			t.Fatalf("no sentence begins with %q", starts[i])
		}
	}
	return out
}

// TestArabicAsClaims: an Arabic question is answered as a claim is (the
// hand score, not the learned ranker; asClaims), as it was before item.Asks
// knew ؟; questions in English and Chinese take the question path.
func TestArabicAsClaims(t *testing.T) {
	passages := []*jsonl.Passage{{Number: 1, Text: "القاهرة هي عاصمة مصر. Green tea is steeped at eighty degrees. 长城很长。"}}
	for _, tc := range []struct {
		question string
		want     bool
	}{
		{"ما هي عاصمة مصر؟", false},
		{"How hot should the water be for green tea?", true},
		{"长城有多长？", true},
	} {
		if got := newLibraryWeights(tc.question, passages, nil, 0).asks; got != tc.want {
			t.Errorf("%q: on the question path %v, want %v", tc.question, got, tc.want)
		}
	}
}
