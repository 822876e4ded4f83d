package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/quality"
	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// targetHit is issue 6's least evidence hit rate.
const targetHit = 0.78

// ruleList is the -off flag: names of the drafter's rules
// (extractive.Rules) to turn off for this run, separated by commas.
type ruleList []string

// offRules are the -off flag's.
var offRules ruleList

func (l *ruleList) String() string { return strings.Join(*l, ",") }

func (l *ruleList) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if extractive.RuleNamed(name) == nil {
			var names []string
			for _, r := range extractive.Rules() {
				names = append(names, r.Name)
			}
			return fmt.Errorf("no rule is named %q (the rules: %s)", name, strings.Join(names, ", "))
		}
		*l = append(*l, name)
	}
	return nil
}

// gainFigures are the figures of one row of the table of rules' gains.
type gainFigures struct {
	sci   result
	squad quality.SquadResult
	ml    quality.SquadResult // the mean over the multilingual files
	demo  quality.DemoResult
}

// better says on which sets def (the drafter's) does better than off
// (one rule off) on some figure: what the rule gains. Fewer statements an
// answer is a gain too: a statement more is padding unless the figures
// beside it rise.
func (def gainFigures) better(off gainFigures) []string {
	const eps = 1e-9
	var on []string
	if def.sci.hit > off.sci.hit+eps || def.sci.firstGold > off.sci.firstGold+eps || def.sci.precision > off.sci.precision+eps ||
		def.sci.rightRefusals > off.sci.rightRefusals+eps || def.sci.refusedAnswerable < off.sci.refusedAnswerable-eps ||
		def.sci.meanStatements < off.sci.meanStatements-eps {
		on = append(on, "SciFact")
	}
	for _, s := range []struct {
		name      string
		def, offr quality.SquadResult
	}{{"SQuAD", def.squad, off.squad}, {"multilingual", def.ml, off.ml}} {
		d, o := s.def, s.offr
		if d.InSome > o.InSome+eps || d.InShort > o.InShort+eps || d.InFirst > o.InFirst+eps || d.Precision > o.Precision+eps ||
			d.UnRefused > o.UnRefused+eps || d.AnsRefused < o.AnsRefused-eps || d.MeanStatements < o.MeanStatements-eps {
			on = append(on, s.name)
		}
	}
	d, o := def.demo, off.demo
	if d.WantShown > o.WantShown || d.FirstWant > o.FirstWant || d.RightRefusals > o.RightRefusals || d.OffStatements < o.OffStatements ||
		d.WrongRefusals < o.WrongRefusals || d.MeanStatements() < o.MeanStatements()-eps {
		on = append(on, "demo")
	}
	return on
}

// mlTune is the tuning half (even positions) of each multilingual file,
// asked in process.
type mlTune struct{ ans, un []*quality.SquadQuestion }

// loadMultilingualTune asks the tuning half of every multilingual file.
func loadMultilingualTune(p *extractive.Params) ([]mlTune, func(), error) {
	files, err := quality.MultilingualFiles()
	if err != nil {
		return nil, nil, err
	}
	work, err := os.MkdirTemp("", "sponge-rule-gains-")
	if err != nil {
		return nil, nil, err
	}
	done := func() { os.RemoveAll(work) }
	var out []mlTune
	for _, f := range files {
		m, err := quality.LoadMultilingual(f, filepath.Join(work, filepath.Base(f)), 0, 0)
		if err != nil {
			done()
			return nil, nil, err
		}
		t := mlTune{ans: evenPositions(m.Ans), un: evenPositions(m.Un)}
		lib, x, err := quality.Open(m.Dir)
		if err != nil {
			done()
			return nil, nil, err
		}
		err = quality.AskAll(lib, x, append(append([]*quality.SquadQuestion{}, t.ans...), t.un...), p, false)
		x.Close()
		if err != nil {
			done()
			return nil, nil, err
		}
		out = append(out, t)
	}
	return out, done, nil
}

// evenPositions keeps the questions at even positions: the tuning half of
// a multilingual file, as internal/bench/multilingual -half tune takes it.
func evenPositions(qs []*quality.SquadQuestion) []*quality.SquadQuestion {
	var out []*quality.SquadQuestion
	for i := 0; i < len(qs); i += 2 {
		out = append(out, qs[i])
	}
	return out
}

// mlMean is the mean of each figure over the multilingual files.
func mlMean(ml []mlTune, p *extractive.Params) quality.SquadResult {
	var m quality.SquadResult
	for _, t := range ml {
		r := quality.EvalSquad(t.ans, t.un, p)
		m.InShort += r.InShort
		m.InFirst += r.InFirst
		m.Precision += r.Precision
		m.AnsRefused += r.AnsRefused
		m.UnRefused += r.UnRefused
		m.MeanStatements += r.MeanStatements
	}
	if n := float64(len(ml)); n > 0 {
		m.InShort, m.InFirst, m.Precision = m.InShort/n, m.InFirst/n, m.Precision/n
		m.AnsRefused, m.UnRefused, m.MeanStatements = m.AnsRefused/n, m.UnRefused/n, m.MeanStatements/n
	}
	return m
}

// printRuleGains measures what each of the drafter's rules gains: the
// drafter with every rule on, then with each rule off in turn, on the
// SciFact claims and off-topic questions (all), SQuAD 2.0's tuning half and
// the tuning half of every multilingual file (the mean over the files), and
// the demo library's questions (asked in process; demo may be nil). A rule
// that gains on no set is to be deleted (issue 40).
func printRuleGains(s *sets, sq *squadSets, demo *demoSet, p *extractive.Params) error {
	ml, done, err := loadMultilingualTune(p)
	if err != nil {
		return err
	}
	defer done()
	if demo == nil {
		if demo, err = loadDemo(p); err != nil {
			return err
		}
		defer os.RemoveAll(filepath.Dir(demo.Dir))
	}
	measure := func(pp *extractive.Params) gainFigures {
		return gainFigures{sci: evaluate(s.all, s.offTopic, pp), squad: quality.EvalSquad(sq.tuneAns, sq.tuneUn, pp), ml: mlMean(ml, pp), demo: demo.Eval(pp)}
	}
	cells := func(name string, g gainFigures, gains string) []string {
		return []string{name, f3(g.sci.hit), f3(g.sci.firstGold), f3(g.sci.precision), fmt.Sprintf("%.2f", g.sci.meanStatements), f3(g.sci.rightRefusals),
			f3(g.squad.InSome), f3(g.squad.InFirst), f3(g.squad.Precision), f3(g.squad.UnRefused), f3(g.squad.AnsRefused), fmt.Sprintf("%.2f", g.squad.MeanStatements),
			f3(g.ml.InShort), f3(g.ml.InFirst), f3(g.ml.Precision), f3(g.ml.AnsRefused), f3(g.ml.UnRefused), fmt.Sprintf("%.2f", g.ml.MeanStatements),
			fmt.Sprintf("%d of %d", g.demo.WantShown, g.demo.Answerable), fmt.Sprintf("%d of %d", g.demo.FirstWant, g.demo.Answerable),
			fmt.Sprintf("%d of %d", g.demo.RightRefusals, g.demo.Questions-g.demo.Answerable), fmt.Sprintf("%d of %d", g.demo.OffStatements, g.demo.Statements), gains}
	}
	def := measure(p)
	rows := [][]string{cells("every rule on (the drafter)", def, "")}
	for _, r := range extractive.Rules() {
		if !r.On(p) {
			continue
		}
		pp := *p
		r.Off(&pp)
		gains := strings.Join(def.better(measure(&pp)), ", ")
		if gains == "" {
			gains = "none"
		}
		rows = append(rows, cells(r.String()+" off", measure(&pp), gains))
	}
	fmt.Println("The drafter's rules (extractive.Rules), each turned off in turn (-off name turns one off for a run): SciFact, all claims with evidence and all off-topic questions; SQuAD 2.0, the tuning half; the multilingual sets, the tuning half of each file, the mean over the files; the demo library's questions, in process; 'gains on': the sets where the drafter with the rule does better on some figure:")
	fmt.Println(bench.Table([]string{"drafter", "SciFact evidence hit", "SciFact first is evidence", "SciFact precision", "SciFact statements", "SciFact off-topic refused",
		"SQuAD gold in some quote", "SQuAD in first", "SQuAD precision", "SQuAD unanswerable refused", "SQuAD answerable refused", "SQuAD statements",
		"multilingual gold in a quote ≤ 300", "multilingual in first", "multilingual precision", "multilingual answerable refused", "multilingual held-out refused", "multilingual statements",
		"demo: an expected sentence shown", "demo: first statement expected", "demo: rightly refused", "demo: off-topic statements", "gains on"}, rows))
	return nil
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
