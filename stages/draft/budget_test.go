package draft

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft/sentences"
)

// budgetPassages are three passages of several sentences each; only some
// sentences hold the question's words ("green", "tea", "water", "hot").
var budgetPassages = []*jsonl.Passage{
	{Number: 1, Title: "Kettles", Text: "Kettles come in many shapes. An electric kettle switches itself off. Some let you choose the heat. Stovetop kettles whistle when the water boils. Copper ones look fine on a shelf."},
	{Number: 2, Title: "Brewing", Heading: "Green tea", Text: "The shop opened in 1921. Green tea wants water at about 80 degrees, well below boiling. Hotter water makes it bitter. The leaves can be steeped twice. The second cup is lighter."},
	{Number: 3, Title: "Coffee", Text: "Summary. Coffee is roasted before it is ground. A burr grinder gives an even grind. Espresso needs a fine grind and high pressure."},
}

const budgetQuestion = "How hot should the water be for green tea?"

// words counts words, a stand-in for a tokenizer: its counts add up over
// pieces of a text, as a tokenizer's nearly do.
func words(s string) int { return len(strings.Fields(s)) }

// shownWords is what the shown passages cost as cutPassages reckons it: the
// header and the words of each part.
func shownWords(shown []*shownPassage) int {
	n := 0
	for _, p := range shown {
		n += words(passageHeader(p.Passage))
		for _, pt := range p.Parts {
			n += words(p.Text[pt[0]:pt[1]])
		}
	}
	return n
}

func TestBudgetIsRespected(t *testing.T) {
	t.Parallel()
	total := 0
	for _, p := range budgetPassages {
		total += words(passageHeader(p)) + words(p.Text)
	}
	for budget := 10; budget <= total+10; budget += 3 {
		shown := cutPassages(budgetQuestion, budgetPassages, budget, words)
		if got := shownWords(shown); got > budget {
			t.Errorf("budget %d: the passages shown cost %d", budget, got)
		}
		checkCuts(t, shown)
		if budget >= total {
			// Room for everything: every passage whole, as given.
			if len(shown) != len(budgetPassages) {
				t.Fatalf("budget %d of %d: %d passages shown", budget, total, len(shown))
			}
			for i, p := range shown {
				if p.Passage != budgetPassages[i] {
					t.Errorf("budget %d of %d: passage %d was changed: %q", budget, total, p.Number, p.Text)
				}
			}
		}
	}
}

// checkCuts checks what the quote constraint relies on: each part of a
// shown passage is whole sentences of the passage, verbatim; the text
// between parts, and before and after them, is a cut mark and nothing else.
func checkCuts(t *testing.T, shown []*shownPassage) {
	t.Helper()
	for _, p := range shown {
		at := 0
		for i, pt := range p.Parts {
			between := strings.TrimSpace(p.Text[at:pt[0]])
			if between != "" && between != cutMark || i > 0 && between == "" {
				t.Errorf("passage %d: %q stands before part %d, want %q", p.Number, p.Text[at:pt[0]], i+1, cutMark)
			}
			part := p.Text[pt[0]:pt[1]]
			starts, ends := false, false
			for _, s := range sentences.Split(p.Source) {
				starts = starts || strings.HasPrefix(p.Source[s.Start:], part)
				ends = ends || strings.HasSuffix(p.Source[:s.End], part)
			}
			if !strings.Contains(p.Source, part) || !starts || !ends {
				t.Errorf("passage %d: part %q is not whole sentences of %q", p.Number, part, p.Source)
			}
			at = pt[1]
		}
		if rest := strings.TrimSpace(p.Text[at:]); rest != "" && rest != cutMark {
			t.Errorf("passage %d ends with %q", p.Number, p.Text[at:])
		}
	}
}

// TestBudgetKeepsTheQuestionsSentences: a small budget shows the sentences
// with the question's words, from each passage that has them in rank
// order, before any other; a passage without them comes last.
func TestBudgetKeepsTheQuestionsSentences(t *testing.T) {
	t.Parallel()
	cost := func(n int, s string) int { return words(passageHeader(budgetPassages[n])) + words(s) }
	// Passage 1's one sentence with "water", then passage 2's best (four
	// of the question's words).
	budget := cost(0, "Stovetop kettles whistle when the water boils.") + cost(1, "Green tea wants water at about 80 degrees, well below boiling.")
	shown := cutPassages(budgetQuestion, budgetPassages, budget, words)
	if len(shown) != 2 {
		t.Fatalf("%d passages shown, want 2: %v", len(shown), texts(shown))
	}
	want := []string{"… Stovetop kettles whistle when the water boils. …", "… Green tea wants water at about 80 degrees, well below boiling. …"}
	for i, p := range shown {
		if p.Text != want[i] {
			t.Errorf("passage %d shown as %q, want %q", p.Number, p.Text, want[i])
		}
	}
	// A little more: passage 2's other sentence with the question's words
	// comes before any neighbour, joined to its run.
	shown = cutPassages(budgetQuestion, budgetPassages, budget+words("Hotter water makes it bitter."), words)
	if got := shown[1].Text; got != "… Green tea wants water at about 80 degrees, well below boiling. Hotter water makes it bitter. …" {
		t.Errorf("passage 2 shown as %q", got)
	}
	checkCuts(t, shown)
	// The coffee passage has none of the question's words: its first
	// sentence comes only after the others' neighbours.
	for budget := 1; budget < 80; budget++ {
		shown := cutPassages(budgetQuestion, budgetPassages, budget, words)
		if shown[len(shown)-1].Number != 3 {
			continue
		}
		all := strings.Join(texts(shown), " ")
		for _, n := range []string{"Some let you choose the heat.", "Copper ones", "1921", "steeped twice"} {
			if !strings.Contains(all, n) {
				t.Errorf("budget %d: the coffee passage is shown before the neighbour %q: %v", budget, n, texts(shown))
			}
		}
	}
	// Its first sentence long enough to quote, not "Summary.", comes first.
	for budget := 1; budget < 80; budget++ {
		shown := cutPassages(budgetQuestion, budgetPassages, budget, words)
		if p := shown[len(shown)-1]; p.Number == 3 && len(p.Parts) == 1 && p.Text[p.Parts[0][0]:p.Parts[0][1]] == "Summary." {
			t.Errorf("budget %d: the coffee passage is shown as %q", budget, p.Text)
		}
	}
	// The first sentence is kept even when the budget holds nothing.
	if shown := cutPassages(budgetQuestion, budgetPassages, 1, words); len(shown) != 1 || shown[0].Number != 1 {
		t.Errorf("budget 1: %v", texts(shown))
	}
}

func texts(shown []*shownPassage) []string {
	var out []string
	for _, p := range shown {
		out = append(out, fmt.Sprintf("[%d] %s", p.Number, p.Text))
	}
	return out
}
