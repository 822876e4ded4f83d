package llama

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// allowedByTesting is what Span.Allowed must equal: every token whose piece
// continues the span at one of its places, inside the place's part (ending
// at end[i]), found by testing each token.
func allowedByTesting(pieces []string, text string, at, end []int) []int {
	var out []int
	for t, p := range pieces {
		if p == "" {
			continue
		}
		for i, a := range at {
			if strings.HasPrefix(text[a:end[i]], p) {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

func TestSpanMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "c", " ", "é", "\n", "”"}
	randText := func(n int) string {
		var sb strings.Builder
		for range n {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return sb.String()
	}
	for round := range 50 {
		pieces := []string{""} // token 0 is a control token
		for range 300 {
			pieces = append(pieces, randText(1+rng.IntN(5)))
		}
		// Single bytes too, so a span can always grow while the text lasts.
		for b := range 256 {
			pieces = append(pieces, string([]byte{byte(b)}))
		}
		v := NewVocab(pieces)
		text := randText(200)
		// Every other round the text is in parts with gaps between them
		// (text cut from a passage), which a span must not run into.
		parts := [][2]int{{0, len(text)}}
		if round%2 == 1 {
			parts = nil
			for i := rng.IntN(5); i < len(text); {
				j := min(len(text), i+1+rng.IntN(40))
				parts = append(parts, [2]int{i, j})
				i = j + 1 + rng.IntN(8)
			}
		}
		partEnd := func(p int) int {
			for _, pt := range parts {
				if p >= pt[0] && p < pt[1] {
					return pt[1]
				}
			}
			return -1
		}
		var starts, at, end []int
		for i := 0; i < len(text); i += 1 + rng.IntN(6) {
			starts = append(starts, i)
			if e := partEnd(i); e >= 0 {
				at, end = append(at, i), append(end, e)
			}
		}
		span := v.NewSpanIn(text, parts, starts)
		for step := 0; ; step++ {
			got := span.Allowed(nil)
			slices.Sort(got)
			got = slices.Compact(got)
			want := allowedByTesting(pieces, text, at, end)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d step %d: Allowed = %v, want %v", round, step, got, want)
			}
			if len(want) == 0 {
				break
			}
			tok := want[rng.IntN(len(want))]
			if !span.Advance(tok) {
				t.Fatalf("Advance(%q) refused an allowed token", pieces[tok])
			}
			var next, nextEnd []int
			for i, a := range at {
				if strings.HasPrefix(text[a:end[i]], pieces[tok]) {
					next, nextEnd = append(next, a+len(pieces[tok])), append(nextEnd, end[i])
				}
			}
			at, end = next, nextEnd
			w := span.Written()
			for _, pl := range span.Places() {
				if text[pl[0]:pl[1]] != w {
					t.Fatalf("place %v holds %q, not the span %q", pl, text[pl[0]:pl[1]], w)
				}
				if e := partEnd(pl[0]); e < 0 || pl[1] > e {
					t.Fatalf("place %v runs out of its part (parts %v)", pl, parts)
				}
			}
		}
		if w := span.Written(); !strings.Contains(text, w) {
			t.Fatalf("span %q is not in the text", w)
		}
	}
}

// TestSpanStaysInItsPart: text cut between two parts is never written,
// though the words on either side of the cut would join into a span.
func TestSpanStaysInItsPart(t *testing.T) {
	v := NewVocab([]string{"", "green", " tea", " is", " hot", " … "})
	text := "green tea … is hot"
	s := v.NewSpanIn(text, [][2]int{{0, 9}, {14, len(text)}}, []int{0, 5, 14})
	if !s.Advance(1) || !s.Advance(2) {
		t.Fatal("refused green tea")
	}
	if got := s.Allowed(nil); len(got) != 0 {
		t.Errorf("at the end of a part, allowed %v, want none", got)
	}
	if s.Advance(5) {
		t.Error("accepted the cut mark")
	}
}

func TestSpanRefusesWhatDoesNotContinue(t *testing.T) {
	v := NewVocab([]string{"", "green", " tea", " coffee", "gr", "een"})
	s := v.NewSpan("green tea is green", []int{0, 13})
	if s.Advance(3) { // " coffee"
		t.Fatal("accepted a piece that is not in the text")
	}
	if !s.Advance(1) || s.Written() != "green" || len(s.Places()) != 2 {
		t.Fatalf("after green: %q at %v", s.Written(), s.Places())
	}
	if got := s.Allowed(nil); !slices.Equal(got, []int{2}) {
		t.Fatalf("after green, allowed %v, want [2] ( tea)", got)
	}
	if !s.Advance(2) || s.Written() != "green tea" || len(s.Places()) != 1 {
		t.Fatalf("after tea: %q at %v", s.Written(), s.Places())
	}
	if got := v.Prefixes(nil, "green tea"); !slices.Equal(got, []int{4, 1}) {
		t.Errorf("Prefixes = %v", got)
	}
}

func TestPartialRune(t *testing.T) {
	for s, want := range map[string]int{
		"":                  0,
		"abc":               0,
		"caf\xc3":           1,
		"café":              0,
		"\xe8\x8c":          2,
		"茶":                 0,
		"x\xf0\x9f\x8d":     3,
		"x\xf0\x9f\x8d\xb5": 0,
		"\x80":              0, // a stray byte is no unfinished character
	} {
		if got := partialRune(s); got != want {
			t.Errorf("partialRune(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestSampler(t *testing.T) {
	logits := []float32{0, 5, 1, 4, -2}
	if got := Greedy().choose(logits, nil, nil); got != 1 {
		t.Errorf("greedy = %d", got)
	}
	if got := Greedy().choose(logits, []int{0, 2, 3}, nil); got != 3 {
		t.Errorf("greedy among 0,2,3 = %d", got)
	}
	if got := Greedy().choose(logits, nil, func(t int) bool { return t == 1 }); got != 3 {
		t.Errorf("greedy skipping 1 = %d", got)
	}
	// Top-p 0.5 keeps only the likeliest token here (p(1) ≈ 0.7).
	sp := NewSampler(1, 0.5, 3)
	for range 100 {
		if got := sp.choose(logits, nil, nil); got != 1 {
			t.Fatalf("top-p 0.5 chose %d", got)
		}
	}
	// Temperature sampling reaches the other tokens, by their weight.
	sp = NewSampler(1, 0, 3)
	count := map[int]int{}
	for range 2000 {
		count[sp.choose(logits, nil, nil)]++
	}
	if count[1] < count[3] || count[3] < count[2] || count[3] == 0 || count[4] > count[0] {
		t.Errorf("sampled counts %v do not follow the logits", count)
	}
}
