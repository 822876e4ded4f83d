package main

import (
	"fmt"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/quality"
	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// targetHit is issue 6's least evidence hit rate.
const targetHit = 0.78

// paddingRule is one way of stopping an answer before it is padded.
type paddingRule struct {
	name string
	set  func(p *extractive.Params)
}

// withoutPadding returns p with every rule against padding off.
func withoutPadding(p *extractive.Params) extractive.Params {
	pp := *p
	pp.MinRelative, pp.MinRelativeQuestion, pp.MinItemAnswer = 0, 0, 0
	return pp
}

func paddingRules() []paddingRule {
	var rules []paddingRule
	add := func(name string, set func(p *extractive.Params)) {
		rules = append(rules, paddingRule{name, set})
	}
	add("none (at most six statements)", func(p *extractive.Params) {})
	for _, m := range []int{1, 2, 3} {
		add(fmt.Sprintf("at most %d statements", m), func(p *extractive.Params) { p.Max = m })
	}
	for _, v := range []float64{0.5, 0.6, 0.7, 0.8} {
		add(fmt.Sprintf("score ≥ %.1f × the first's", v), func(p *extractive.Params) { p.MinRelative = v })
	}
	for _, v := range []float64{0.7, 0.8, 0.9, 1} {
		add(fmt.Sprintf("item's answer ≥ %.1f × the best item's", v), func(p *extractive.Params) { p.MinItemAnswer = v })
	}
	for _, it := range []float64{0.5, 0.6, 0.65, 0.7} {
		for _, v := range []float64{0.3, 0.4, 0.45, 0.5} {
			add(fmt.Sprintf("item ≥ %.2f and score ≥ %.2f", it, v), func(p *extractive.Params) { p.MinItemAnswer, p.MinRelative = it, v })
		}
	}
	return rules
}

// printPaddingRules measures every rule against padding on the claims,
// the short questions and the demo library (in process).
func printPaddingRules(s *sets, demo *demoSet, p *extractive.Params) {
	fmt.Println("Rules against padding, each added to the drafter with every other such rule off (the refusal thresholds as they are):")
	var rows [][]string
	for _, r := range paddingRules() {
		pp := withoutPadding(p)
		r.set(&pp)
		a := evaluate(s.all, nil, &pp)
		t := evaluate(s.tune, nil, &pp)
		sh := evaluate(s.short, nil, &pp)
		mark := ""
		if same(&pp, p) {
			mark = " ←"
		}
		cells := []string{r.name + mark, f3(a.hit), f3(t.hit), fmt.Sprintf("%.2f", a.meanStatements), f3(a.precision), f3(a.firstGold), f3(sh.hit)}
		if demo != nil {
			d := demo.Eval(&pp)
			cells = append(cells, fmt.Sprintf("%d of %d", d.OffAnswers, d.Questions), fmt.Sprintf("%d of %d", d.OffStatements, d.Statements),
				fmt.Sprintf("%.2f", d.MeanStatements()), fmt.Sprintf("%d of %d", d.WantShown, d.Answerable), fmt.Sprintf("%d of %d", d.FirstWant, d.Answerable))
		}
		rows = append(rows, cells)
	}
	header := []string{"rule", "evidence hit rate", "hit rate (tuning half)", "mean statements", "precision@shown", "first statement is evidence", "short: hit rate"}
	if demo != nil {
		header = append(header, "demo: answers with an off-topic sentence", "demo: off-topic statements", "demo: mean statements", "demo: an expected sentence shown", "demo: first statement expected")
	}
	fmt.Println(bench.Table(header, rows))
}

// same reports whether a and b pick sentences under the same rules
// against padding.
func same(a, b *extractive.Params) bool {
	return a.Max == b.Max && a.MinRelative == b.MinRelative && a.MinRelativeQuestion == b.MinRelativeQuestion && a.MinItemAnswer == b.MinItemAnswer
}

// refusalSweep measures the refusal thresholds on the tuning half and
// chooses the pair with the most right refusals less answerable refusals
// (Youden's J) whose hit rate stays at targetHit; only the chosen triple
// and the drafter's own are then measured on the held-out half.
func refusalSweep(s *sets, p *extractive.Params) {
	type point struct{ a, m float64 }
	type cell struct {
		pt  point
		row []string
	}
	var cells []cell
	best, bestJ := point{-1, -1}, -1.0
	for _, ta := range []float64{0, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7} {
		for _, tm := range []float64{0, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5} {
			pp := *p
			pp.MinAnswer, pp.MaxAbsent = ta, tm
			t := evaluate(s.tune, s.offTune, &pp)
			sh := evaluate(s.short, nil, &pp)
			pt := point{ta, tm}
			if j := t.rightRefusals - t.refusedAnswerable; t.hit >= targetHit && j > bestJ+1e-9 {
				best, bestJ = pt, j
			}
			cells = append(cells, cell{pt, []string{fmt.Sprintf("%.2f", ta), fmt.Sprintf("%.2f", tm), f3(t.hit), f3(t.refusedAnswerable), f3(t.rightRefusals),
				f3(t.rightRefusals - t.refusedAnswerable), f3(sh.refusedAnswerable)}})
		}
	}
	if bestJ < 0 {
		// No pair keeps the hit rate: show the drafter's own.
		fmt.Printf("No thresholds keep the tuning half's hit rate at %.2f; the table shows the drafter's.\n", targetHit)
		best = point{p.MinAnswer, p.MaxAbsent}
	}
	fmt.Println("Refusal thresholds, on the tuning half (no statement unless a passage's Answer reaches MinAnswer, and no more than MaxAbsent of the question's weight is in words the library lacks; 0: off):")
	drafter := point{p.MinAnswer, p.MaxAbsent}
	var rows [][]string
	for _, c := range cells {
		if c.pt == best {
			c.row[1] += " ← chosen"
		}
		if c.pt == drafter {
			c.row[1] += " (drafter)"
		}
		rows = append(rows, c.row)
	}
	fmt.Println(bench.Table([]string{"MinAnswer", "MaxAbsent", "hit rate", "answerable refused", "unanswerable rightly refused", "J", "short questions refused"}, rows))
	fmt.Println("The chosen thresholds and the drafter's, on both halves, and on the questions of unanswerable-2.txt alone (written after unanswerable.txt's failures were read):")
	var out [][]string
	for _, c := range []struct {
		name string
		pt   point
	}{{"chosen on the tuning half", best}, {"the drafter's (DefaultParams)", drafter}} {
		pp := *p
		pp.MinAnswer, pp.MaxAbsent = c.pt.a, c.pt.m
		for _, half := range []struct {
			name      string
			ans, offs []*quality.Question
		}{{"tuning", s.tune, s.offTune}, {"held-out", s.held, s.offHeld}, {"unanswerable-2.txt alone", nil, s.fresh}} {
			r := evaluate(half.ans, half.offs, &pp)
			hit, refused := f3(r.hit), f3(r.refusedAnswerable)
			if half.ans == nil {
				hit, refused = "–", "–"
			}
			out = append(out, []string{c.name, fmt.Sprintf("%.2f / %.2f", c.pt.a, c.pt.m), half.name, hit, refused, f3(r.rightRefusals)})
		}
	}
	fmt.Println(bench.Table([]string{"thresholds", "MinAnswer / MaxAbsent", "questions", "hit rate", "answerable refused", "unanswerable rightly refused"}, out))
}
