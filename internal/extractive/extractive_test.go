package extractive

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sponge-library/sponge/jsonl"
)

func passage(n int, title, text string) *jsonl.Passage {
	return &jsonl.Passage{Number: n, ItemID: strings.Repeat("ab", 32), Title: title, Text: text, Score: 1 / float64(n)}
}

var teaPassages = []*jsonl.Passage{
	passage(1, "Tea notes", "Tea is the most popular drink after water. Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter. Store it in a tin."),
	passage(2, "Brewing handbook", "Black tea is brewed with water just off the boil. Water at eighty degrees suits green tea best, e.g. sencha or gyokuro. Soft water brings out sweetness."),
	passage(3, "Coffee notes", "Coffee is brewed at ninety to ninety-six degrees, hotter than any tea. Espresso needs nine bars of pressure."),
	passage(4, "Tea notes (copy)", "Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter."),
}

// docFreqs is a library of 5,000 documents in which the words of the tea
// passages are rare and words of other topics absent.
type docFreqs map[string]int

func (d docFreqs) DocFreqs(terms []string) (map[string]int, int, error) {
	out := map[string]int{}
	for _, t := range terms {
		out[t] = d[t]
	}
	return out, 5000, nil
}

var teaLibrary = docFreqs{"green": 40, "tea": 60, "temperature": 300, "steep": 10, "steeped": 10, "degree": 200, "black": 90, "water": 800, "brew": 20, "brewed": 20, "coffee": 30}

func draft(t *testing.T, d *Drafter, question string, ps []*jsonl.Passage) []*jsonl.Statement {
	t.Helper()
	var got []*jsonl.Statement
	err := d.Draft(context.Background(), question, ps, func(s *jsonl.Statement) error {
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestAnswers(t *testing.T) {
	for _, corpus := range []Corpus{nil, teaLibrary} {
		d := New()
		d.Corpus = corpus
		got := draft(t, d, "At what temperature should green tea be steeped?", teaPassages)
		if len(got) == 0 {
			t.Fatalf("corpus %v: no statement", corpus)
		}
		if len(got) > DefaultParams.Max {
			t.Errorf("%d statements, more than %d", len(got), DefaultParams.Max)
		}
		want := "Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter."
		if got[0].Quote != want || got[0].Passage != 1 {
			t.Errorf("corpus %v: first statement %+v, want the green tea sentence of passage 1", corpus, got[0])
		}
		seen := map[string]bool{}
		byNumber := map[int]*jsonl.Passage{}
		for _, p := range teaPassages {
			byNumber[p.Number] = p
		}
		for _, s := range got {
			if s.Text != s.Quote {
				t.Errorf("text %q is not the quote %q", s.Text, s.Quote)
			}
			p := byNumber[s.Passage]
			if p == nil || !strings.Contains(p.Text, s.Quote) {
				t.Errorf("quote %q is not in passage %d", s.Quote, s.Passage)
			}
			// Passage 4 repeats passage 1's sentence: it is quoted once.
			if seen[s.Quote] {
				t.Errorf("quote %q written twice", s.Quote)
			}
			seen[s.Quote] = true
		}
	}
}

// Questions about what the passages do not hold get no statement.
func TestRefuses(t *testing.T) {
	for _, q := range []string{
		"How do I change a flat tyre on a bicycle?",
		"Who won the 2014 FIFA World Cup final?",
		"What temperature should sourdough bread be baked at?",
		"the of and",
		"",
	} {
		for _, corpus := range []Corpus{nil, teaLibrary} {
			d := New()
			d.Corpus = corpus
			if got := draft(t, d, q, teaPassages); len(got) != 0 {
				t.Errorf("%q (corpus %v): %d statements, first %q; want none", q, corpus, len(got), got[0].Quote)
			}
		}
	}
}

func TestNoPassages(t *testing.T) {
	if got := draft(t, New(), "how hot should green tea be?", nil); len(got) != 0 {
		t.Errorf("statements without passages: %+v", got)
	}
}

// With two passages that answer equally, the answer quotes both rather than
// two sentences of one.
func TestPrefersDifferentPassages(t *testing.T) {
	ps := []*jsonl.Passage{
		passage(1, "Oolong", "Oolong tea is partly oxidised. Oolong tea is rolled by hand. Oolong tea comes from Taiwan."),
		passage(2, "Oolong notes", "Oolong tea is brewed several times in a small pot."),
	}
	got := draft(t, New(), "How is oolong tea made and brewed?", ps)
	passages := map[int]bool{}
	for _, s := range got {
		passages[s.Passage] = true
	}
	if !passages[1] || !passages[2] {
		t.Errorf("statements from passages %v, want both", passages)
	}
}

func TestMax(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 30; i++ {
		sb.WriteString("Green tea number ")
		sb.WriteString(strings.Repeat("x", i+1))
		sb.WriteString(" is steeped at eighty degrees. ")
	}
	d := New()
	d.Params.Max = 3
	got := draft(t, d, "green tea steeped degrees", []*jsonl.Passage{passage(1, "Tea", sb.String())})
	if len(got) != 3 {
		t.Errorf("%d statements, want 3", len(got))
	}
}

func TestEmitError(t *testing.T) {
	stop := errors.New("downstream closed")
	calls := 0
	err := New().Draft(context.Background(), "green tea temperature", teaPassages, func(*jsonl.Statement) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("err %v after %d calls; want the emit error after 1", err, calls)
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := New().Draft(ctx, "green tea temperature", teaPassages, func(*jsonl.Statement) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func TestName(t *testing.T) {
	if New().Name() != jsonl.ModelExtractive {
		t.Errorf("name %q", New().Name())
	}
}

func TestTerms(t *testing.T) {
	got := terms("How should the leaves be steeped? Don't over-steep IL-2's 3.5 leaves!")
	want := []string{"leav", "steep", "steep", "il", "2", "3", "5", "leav"} // "over" is a stop word
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("terms (-want +got):\n%s", d)
	}
}

// A quote keeps the passage's bytes exactly, line breaks and all.
func TestQuotesAreVerbatim(t *testing.T) {
	text := "The kettle should come off the\nboil before the water meets the green tea leaves, at “eighty degrees”. Then wait."
	got := draft(t, New(), "when should the kettle come off the boil for green tea?", []*jsonl.Passage{passage(1, "Tea", text)})
	if len(got) == 0 || !strings.HasPrefix(text, got[0].Quote) || !strings.Contains(got[0].Quote, "\n") {
		t.Errorf("statements %+v", got)
	}
}

func BenchmarkDraft(b *testing.B) {
	// Twelve passages of about 1,000 characters: what sponge-rank gives.
	var ps []*jsonl.Passage
	for i := 1; i <= 12; i++ {
		ps = append(ps, passage(i, "Tea notes", strings.Repeat(teaPassages[(i-1)%3].Text+" ", 5)))
	}
	d := New()
	d.Corpus = teaLibrary
	for b.Loop() {
		d.Draft(context.Background(), "At what temperature should green tea be steeped?", ps, func(*jsonl.Statement) error { return nil })
	}
}
