package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/library/ingest"
	"github.com/sponge-library/sponge/internal/quality"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// squadSets are the questions of SQuAD 2.0's dev half, each kind dealt by
// quality.SquadHalves: the reported half (odd positions, all of them), and
// the even half, which the learned ranker learns from (train: all of it)
// and the drafter is tuned on (tune: all of it, or a sample, -squad-every).
// A set loadSquad was not asked to ask is nil.
type squadSets struct {
	trainAns, trainUn, tuneAns, tuneUn, repAns, repUn []*quality.SquadQuestion
	lib                                               *library.Library
}

// squadAsks says which of the sets loadSquad asks: the tuning half
// (every every-th question of it, each kind, when every > 1), the
// reported half. The training set is kept for the ranker, which asks it
// itself (trainRanker, squadTraining).
type squadAsks struct {
	tune, rep bool
	every     int
}

// loadSquad builds the library (one item per article: its title as the
// heading, its paragraphs in order) in dir and asks the chosen sets'
// questions through the real search and rank stages.
func loadSquad(dir string, p *extractive.Params, asks squadAsks) (*squadSets, *index.Index, error) {
	path, err := quality.SquadPath()
	if err != nil {
		return nil, nil, err
	}
	f, err := quality.ReadSquadFile(path)
	if err != nil {
		return nil, nil, err
	}
	all := quality.ItemsOf(f, "squad2")
	if err := quality.SaveItems(dir, all.Items, all.Sources); err != nil {
		return nil, nil, err
	}
	s := &squadSets{}
	s.trainAns, s.repAns = quality.SquadHalves(all.Ans)
	s.trainUn, s.repUn = quality.SquadHalves(all.Un)
	s.tuneAns, s.tuneUn = s.trainAns, s.trainUn
	s.tuneAns, s.tuneUn = everyKth(s.tuneAns, asks.every), everyKth(s.tuneUn, asks.every)
	if !asks.tune {
		s.tuneAns, s.tuneUn = nil, nil
	}
	if !asks.rep {
		s.repAns, s.repUn = nil, nil
	}
	lib, x, err := quality.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	s.lib = lib
	for _, set := range [][]*quality.SquadQuestion{s.tuneAns, s.tuneUn, s.repAns, s.repUn} {
		if err := quality.AskAll(lib, x, set, p, true); err != nil {
			x.Close()
			return nil, nil, err
		}
	}
	return s, x, nil
}

// everyKth keeps qs[0], qs[k], qs[2k], … (all when k <= 1).
func everyKth(qs []*quality.SquadQuestion, k int) []*quality.SquadQuestion {
	if k <= 1 {
		return qs
	}
	var out []*quality.SquadQuestion
	for i := 0; i < len(qs); i += k {
		out = append(out, qs[i])
	}
	return out
}

// remakeOutdated remakes the index of the library at dir when it was made
// under other word rules than this sponge's (a writer does that when it
// opens), so that a bench library made before a change of the endings is
// measured with today's words, not refused.
func remakeOutdated(dir string) error {
	lib, err := library.Open(dir)
	if err != nil || !index.Outdated(lib.IndexDir()) {
		return nil
	}
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		return err
	}
	return w.Close()
}

func squadRow(name string, s *squadSets, p *extractive.Params) []string {
	r := quality.EvalSquad(s.tuneAns, s.tuneUn, p)
	return []string{name, f3(r.InSome), f3(r.InFirst), f3(r.Precision), f3(r.UnRefused), f3(r.AnsRefused),
		fmt.Sprintf("%.2f", r.MeanStatements), fmt.Sprintf("%.0f / %d", r.MeanChars, r.Longest)}
}

// printSquad prints the issue's table and the refusal trade-off on the
// tuning half; the reported half is read by -squad-report alone
// (reportSquad), once a change is made.
func printSquad(s *squadSets, p *extractive.Params) {
	fmt.Printf("SQuAD 2.0 dev half, one item per article (16 items), each kind of question dealt by its position among its kind: the ranker trained on the even ones (%d + %d), measured here on them (the tuning half: %d answerable + %d unanswerable asked); the odd ones are the reported half, read by -squad-report only:\n\n",
		len(s.trainAns), len(s.trainUn), len(s.tuneAns), len(s.tuneUn))
	baseline := extractive.Params{K1: p.K1, B: p.B, Max: 6, Sentences: true}
	best1 := extractive.Params{K1: p.K1, B: p.B, Max: 1, Sentences: true}
	before := beforeIssue13()
	onMain := mainParams()
	ranked := *p
	squadRanker(s, p).apply(&ranked)
	rows := [][]string{
		squadRow("plain BM25 sentence picker (6 best sentences)", s, &baseline),
		squadRow("plain BM25 sentence picker (best sentence only)", s, &best1),
		squadRow("extractive before issue 13", s, &before),
		squadRow("extractive on main before this branch (its parameters)", s, &onMain),
		squadRow("sponge-draft --extractive", s, p),
		squadRow("learned ranker, thresholds chosen on the tuning half", s, &ranked),
		{"target (issue 40, on the reported half)", "≥ 0.86", "≥ 0.80", "≥ 0.55", "≥ 0.45", "≤ 0.10", "", ""},
	}
	squadRefusals(s, p)
	squadClosest(s, p)
	fmt.Println(bench.Table([]string{"drafter", "gold answer in some quote", "in the first statement", "precision (quotes holding a gold answer)", "unanswerable refused", "answerable refused", "statements per answer", "quote length: mean / longest (chars)"}, rows))
}

// printSquadTuning prints the drafter's row of the issue's table on the
// tuning half (even positions), the half a change is measured on before
// the reported half is read once.
func printSquadTuning(s *squadSets, p *extractive.Params) {
	r := quality.EvalSquad(s.tuneAns, s.tuneUn, p)
	fmt.Printf("SQuAD 2.0 dev half, the tuning half (even positions): %d answerable and %d unanswerable questions:\n\n", len(s.tuneAns), len(s.tuneUn))
	fmt.Println(bench.Table([]string{"drafter", "gold answer in some quote", "in the first statement", "precision (quotes holding a gold answer)", "unanswerable refused", "answerable refused", "statements per answer", "quote length: mean / longest (chars)"},
		[][]string{{"sponge-draft --extractive", f3(r.InSome), f3(r.InFirst), f3(r.Precision), f3(r.UnRefused), f3(r.AnsRefused),
			fmt.Sprintf("%.2f", r.MeanStatements), fmt.Sprintf("%.0f / %d", r.MeanChars, r.Longest)}}))
}

// dumpSquad writes each question with its candidates' features (Features:
// the learned ranker's, in the order of extractive.RankFeatureNames, so
// that a feature can be tried against the shipped weights before it is
// written in Go) and its passages' titles by number.
func dumpSquad(path string, s *squadSets, p *extractive.Params) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	type cand struct {
		Quote                                                                        string
		Passage, Rank, Index, Terms                                                  int
		Score, Own, BM25, Covers, Answer, SentenceAnswer, Window, Gap, Names, Absent float64
		Type, Refers, Ranked                                                         float64
		Holds, Question                                                              bool
		Features                                                                     []float64
	}
	// half: 0 tuning, 1 reported, 2 the ranker's training questions
	// (when -squad-training asked them).
	for half, sets := range [][2][]*quality.SquadQuestion{{s.tuneAns, s.tuneUn}, {s.repAns, s.repUn}, {s.trainAns, s.trainUn}} {
		for kind, set := range sets {
			for _, sq := range set {
				var cs []cand
				for _, c := range sq.Q.Cands {
					cs = append(cs, cand{c.Quote, c.Passage, c.Rank, c.Index, c.Terms, p.Score(c), p.Own(c), c.BM25, c.Covers, c.Answer, c.SentenceAnswer,
						c.Window, c.Gap, c.Names, c.Absent, c.Type, c.Refers, c.Ranked, quality.HoldsAnswer(c.Quote, sq.Answers), strings.HasSuffix(strings.TrimSpace(c.Quote), "?"), extractive.RankFeatures(c)})
				}
				titles := map[int]string{}
				for _, ps := range sq.Q.Passages {
					titles[ps.Number] = ps.Title
				}
				a := extractive.Choose(sq.Q.Cands, p)
				var picked []string
				for _, c := range a.Statements {
					picked = append(picked, c.Quote)
				}
				if err := enc.Encode(map[string]any{"half": half, "answerable": kind == 0, "question": sq.Q.Text, "answers": sq.Answers, "cands": cs,
					"refused": a.Refused, "picked": picked, "why": a.Why, "titles": titles}); err != nil {
					f.Close()
					return err
				}
			}
		}
	}
	return f.Close()
}

// squadRefusals prints the trade-off between refusing unanswerable and
// answerable questions as the rules of refusal on the subject vary, on
// the tuning half, and marks the drafter's point; the point is chosen on the
// tuning half: the most unanswerable questions refused while at most
// maxAnsRefused of the answerable ones are (then the fewest answerable
// refused, then the most answers in the first statement).
func squadRefusals(s *squadSets, p *extractive.Params) {
	// The issue's own bound. At 0.08 the choice is the same without
	// MinWindow, the rule that refuses the demo's coffee question.
	const maxAnsRefused = 0.10
	type point struct {
		top                 int
		maxNames, minWindow float64
		typeRefusal         bool // the answer-type rule, on the top best
	}
	typeSays := func(on bool) string {
		if !on {
			return "off"
		}
		return "on"
	}
	var rows [][]string
	var best point
	var bestT quality.SquadResult
	found := false
	for _, top := range []int{1, 2, 3} {
		for _, mn := range []float64{0, 0.3, 0.4} {
			for _, mw := range []float64{0, 0.4} {
				for _, ty := range []bool{false, true} {
					pp := *p
					pp.NamesTop, pp.MaxNames, pp.MinWindow, pp.TypeRefusal = top, mn, mw, ty
					t := quality.EvalSquad(s.tuneAns, s.tuneUn, &pp)
					pt := point{top, mn, mw, ty}
					if t.AnsRefused <= maxAnsRefused+1e-9 && (!found || t.UnRefused > bestT.UnRefused+1e-9 ||
						(t.UnRefused > bestT.UnRefused-1e-9 && (t.AnsRefused < bestT.AnsRefused-1e-9 ||
							(t.AnsRefused < bestT.AnsRefused+1e-9 && t.InFirst > bestT.InFirst+1e-9)))) {
						best, bestT, found = pt, t, true
					}
					mark := ""
					if pp.NamesTop == p.NamesTop && pp.MaxNames == p.MaxNames && pp.MinWindow == p.MinWindow && ty == p.TypeRefusal {
						mark = " ← drafter"
					}
					rows = append(rows, []string{fmt.Sprint(top), fmt.Sprintf("%.1f", mn), fmt.Sprintf("%.1f", mw), typeSays(ty) + mark,
						f3(t.UnRefused), f3(t.AnsRefused), f3(t.InFirst)})
				}
			}
		}
	}
	fmt.Printf("Refusals on SQuAD 2.0: the trade-off (MinAnswer %.2f throughout: lower, SciFact's off-topic questions are answered; negation rule on; top: how many of the best sentences are looked at; MaxNames: refuse when each of their windows lacks more than this share of the question's names, numbers and ordinals, 0 off; MinWindow: refuse when none of those windows holds this share of the question's weight, 0 off; answer type: refuse a question asking for a number or a date when none of the top best sentences holds one it does not hold itself):\n", p.MinAnswer)
	fmt.Println(bench.Table([]string{"top", "MaxNames", "MinWindow", "answer type", "tuning: unanswerable refused", "tuning: answerable refused", "tuning: gold in first statement"}, rows))
	fmt.Printf("Chosen on the tuning half (most unanswerable refused with at most %.2f answerable refused): top %d, MaxNames %.1f, MinWindow %.1f, answer type %s.\n\n", maxAnsRefused, best.top, best.maxNames, best.minWindow, typeSays(best.typeRefusal))
}

// ablation turns each of issue 13's rules off in turn, the others on, and
// measures SciFact, the demo library and SQuAD 2.0's reported half.
func ablation(s *sets, sq *squadSets, demo *demoSet, p *extractive.Params) {
	before := beforeIssue13()
	rules := []struct {
		name string
		set  func(pp *extractive.Params)
	}{
		{"the drafter (every rule on)", func(pp *extractive.Params) {}},
		{"the rules of refusal without other English endings (Stems off, main's)", func(pp *extractive.Params) { pp.Stems = false }},
		{"a later statement from another passage may hold fewer of the question's words (Narrower off, main's)", func(pp *extractive.Params) { pp.Narrower = false }},
		{"the names rule without a name's other forms (Kin off, main's)", func(pp *extractive.Params) { pp.Kin = false }},
		{"the floor and window rule without a section's measure (SectionMeasure off, main's)", func(pp *extractive.Params) { pp.SectionMeasure = false }},
		{"a section's measure whatever it measures (MeasureScale off)", func(pp *extractive.Params) { pp.MeasureScale = false }},
		{"a later statement may measure something else (OtherScale off)", func(pp *extractive.Params) { pp.OtherScale = false }},
		{"the answer-type rule without numbers and dates in words (Spelled off, main's)", func(pp *extractive.Params) { pp.Spelled = false }},
		{"main's rules of refusal (SectionMeasure and Spelled off)", func(pp *extractive.Params) { pp.SectionMeasure, pp.Spelled = false, false }},
		{"a question's later statements at 0.4 of the first's chance (the twelfth round's start)", func(pp *extractive.Params) { pp.MinRelativeQuestion = 0.4 }},
		{"whole sentences, listings too (no short statements)", func(pp *extractive.Params) { pp.Sentences = true }},
		{"no negation rule", func(pp *extractive.Params) { pp.Negation = false }},
		{"no names-and-numbers rule", func(pp *extractive.Params) { pp.MaxNames = 0 }},
		{"with the window rule (MinWindow 0.4, main's)", func(pp *extractive.Params) { pp.MinWindow = 0.4 }},
		{"redundant sentences kept (Same 0)", func(pp *extractive.Params) { pp.Same = 0 }},
		{"a later statement from another item with one of the question's words (MinOtherWords 0, main's)", func(pp *extractive.Params) { pp.MinOtherWords = 0 }},
		{"what others say weighs as much (Hearsay 1; lead-ins still read)", func(pp *extractive.Params) { pp.Hearsay = 1 }},
		{"the passage floor at 0.5 (MinAnswer), not " + fmt.Sprint(p.MinAnswer), func(pp *extractive.Params) { pp.MinAnswer = 0.5 }},
		{"a question's later statements at 0.4 of the first's score (as a claim's), not " + fmt.Sprint(p.MinRelativeQuestion), func(pp *extractive.Params) { pp.MinRelativeQuestion = 0 }},
		{"no SentenceAnswer in the score", func(pp *extractive.Params) { pp.SentenceWeight = 0 }},
		{"SentenceAnswer weighs 1 (puts the demo's water sentence first)", func(pp *extractive.Params) { pp.SentenceWeight = 1 }},
		{"no answer-type rule (TypeRefusal off)", func(pp *extractive.Params) { pp.TypeRefusal = false }},
		{"a question's later statements at 0.75 of the first's score, not " + fmt.Sprint(p.MinRelativeQuestion), func(pp *extractive.Params) { pp.MinRelativeQuestion = 0.75 }},
		{"no ordinals among the names and numbers", func(pp *extractive.Params) { pp.Ordinals = false }},
		{"the ranker's order kept when the first holds no measure asked for (UnitFirst off)", func(pp *extractive.Params) { pp.UnitFirst = false }},
		{"the learned ranker with the answer type, names and window rules on (main's)", func(pp *extractive.Params) { pp.TypeRefusal, pp.MaxNames, pp.MinWindow = true, 0.4, 0.4 }},
		{"main's parameters (before this branch: the hand-made score for questions too)", func(pp *extractive.Params) { *pp = mainParams() }},
		{"every rule off (before issue 13)", func(pp *extractive.Params) { *pp = before }},
	}
	var rows [][]string
	for _, r := range rules {
		pp := *p
		r.set(&pp)
		a := evaluate(s.all, s.offTopic, &pp)
		row := []string{r.name, f3(a.hit), f3(a.firstGold), fmt.Sprintf("%.2f", a.meanStatements), f3(a.refusedAnswerable), f3(a.rightRefusals)}
		if demo != nil {
			d := demo.Eval(&pp)
			row = append(row, fmt.Sprintf("%d of %d", d.WantShown, d.Answerable), fmt.Sprintf("%d of %d", d.RightRefusals, d.Questions-d.Answerable), fmt.Sprintf("%.2f", d.MeanStatements()))
		} else {
			row = append(row, "–", "–", "–")
		}
		if sq != nil {
			q := quality.EvalSquad(sq.tuneAns, sq.tuneUn, &pp)
			row = append(row, f3(q.InSome), f3(q.InFirst), f3(q.Precision), f3(q.UnRefused), f3(q.AnsRefused), fmt.Sprintf("%.2f", q.MeanStatements))
		}
		rows = append(rows, row)
	}
	fmt.Println("Issue 13's rules, each turned off in turn (SciFact: all claims and all off-topic questions; SQuAD 2.0: the tuning half):")
	fmt.Println(bench.Table([]string{"drafter", "SciFact evidence hit", "SciFact first is evidence", "SciFact statements", "SciFact answerable refused", "SciFact off-topic refused",
		"demo: expected sentence shown", "demo: rightly refused", "demo: statements",
		"SQuAD gold in some quote", "SQuAD in first", "SQuAD precision", "SQuAD unanswerable refused", "SQuAD answerable refused", "SQuAD statements"}, rows))
}

// mainParams are the drafter's parameters on main before this branch: the
// hand-made score for questions too, no answerability model, a question's
// later statements at 0.7 of the first's score.
func mainParams() extractive.Params {
	p := extractive.DefaultParams
	p.Ranker, p.MinRelativeQuestion, p.TypeRefusal, p.MinWindow = false, 0.7, true, 0.4
	p.SectionMeasure, p.Spelled = false, false
	return p
}

// squadTraining measures the drafter, and its rules of refusal each turned
// off, on the questions the learned ranker learns from (trainingQuestions):
// the ranker's order is fitted on their answerable ones, so "first" and
// "some" flatter it there, but no rule of refusal was chosen on them, so
// the refusals are a fair third measure, fourteen times the size of a half.
func squadTraining(s *squadSets, x *index.Index, p *extractive.Params) error {
	ans, un := trainingQuestions(s)
	for _, set := range [][]*quality.SquadQuestion{ans, un} {
		if err := quality.AskAll(s.lib, x, set, p, false); err != nil {
			return err
		}
	}
	variants := []struct {
		name string
		set  func(pp *extractive.Params)
	}{
		{"the drafter", func(pp *extractive.Params) {}},
		{"the rules of refusal without other English endings (Stems off, main's)", func(pp *extractive.Params) { pp.Stems = false }},
		{"a later statement from another passage may hold fewer of the question's words (Narrower off, main's)", func(pp *extractive.Params) { pp.Narrower = false }},
		{"the names rule without a name's other forms (Kin off, main's)", func(pp *extractive.Params) { pp.Kin = false }},
		{"the floor and window rule without a section's measure (SectionMeasure off, main's)", func(pp *extractive.Params) { pp.SectionMeasure = false }},
		{"a section's measure whatever it measures (MeasureScale off)", func(pp *extractive.Params) { pp.MeasureScale = false }},
		{"the answer-type rule without numbers and dates in words (Spelled off, main's)", func(pp *extractive.Params) { pp.Spelled = false }},
		{"main's rules of refusal (SectionMeasure and Spelled off)", func(pp *extractive.Params) { pp.SectionMeasure, pp.Spelled = false, false }},
		{"no negation rule", func(pp *extractive.Params) { pp.Negation = false }},
		{"no names-and-numbers rule", func(pp *extractive.Params) { pp.MaxNames = 0 }},
		{"no window rule", func(pp *extractive.Params) { pp.MinWindow = 0 }},
		{"no answer-type rule", func(pp *extractive.Params) { pp.TypeRefusal = false }},
		{"every subject rule off", func(pp *extractive.Params) {
			pp.Negation, pp.MaxNames, pp.MinWindow, pp.TypeRefusal = false, 0, 0, false
		}},
		{"the rules look at the three best sentences (NamesTop 3)", func(pp *extractive.Params) { pp.NamesTop = 3 }},
		{"names-and-numbers rule at 0.5", func(pp *extractive.Params) { pp.MaxNames = 0.5 }},
		{"names-and-numbers rule at 0.3", func(pp *extractive.Params) { pp.MaxNames = 0.3 }},
		{"MinOtherWords off (main's)", func(pp *extractive.Params) { pp.MinOtherWords = 0 }},
		{"MinOtherWords 3", func(pp *extractive.Params) { pp.MinOtherWords = 3 }},
		{"what others say weighs as much (Hearsay 1; lead-ins still read)", func(pp *extractive.Params) { pp.Hearsay = 1 }},
		{"Hearsay 0.25", func(pp *extractive.Params) { pp.Hearsay = 0.25 }},
		{"Hearsay 0.75", func(pp *extractive.Params) { pp.Hearsay = 0.75 }},
		// The trade-off of "some" against precision and statements as a
		// question's later statements are let in at a smaller share of the
		// first's chance (issue 13's "some" target).
		{"MinRelativeQuestion 0.35", func(pp *extractive.Params) { pp.MinRelativeQuestion = 0.35 }},
		{"MinRelativeQuestion 0.3", func(pp *extractive.Params) { pp.MinRelativeQuestion = 0.3 }},
		{"MinRelativeQuestion 0.25", func(pp *extractive.Params) { pp.MinRelativeQuestion = 0.25 }},
		{"MinRelativeQuestion 0.2", func(pp *extractive.Params) { pp.MinRelativeQuestion = 0.2 }},
		{"MinAnswer 0.5", func(pp *extractive.Params) { pp.MinAnswer = 0.5 }},
	}
	var rows [][]string
	for _, v := range variants {
		pp := *p
		v.set(&pp)
		row := []string{v.name}
		for _, set := range [][2][]*quality.SquadQuestion{{s.tuneAns, s.tuneUn}, {ans, un}} {
			r := quality.EvalSquad(set[0], set[1], &pp)
			row = append(row, f3(r.InSome), f3(r.InFirst), f3(r.Precision), f3(r.UnRefused), f3(r.AnsRefused), fmt.Sprintf("%.2f", r.MeanStatements))
		}
		rows = append(rows, row)
	}
	var head []string
	head = append(head, "drafter")
	for _, set := range []string{"tuning", "training"} {
		for _, m := range []string{"some", "first", "precision", "unans. refused", "ans. refused", "statements"} {
			head = append(head, set+": "+m)
		}
	}
	fmt.Printf("The drafter on the tuning half and the %d answerable and %d unanswerable questions the ranker learns from (its order is fitted on them; its refusals are not):\n", len(ans), len(un))
	fmt.Println(bench.Table(head, rows))
	return nil
}

// squadClosest prints the closest items' trade-off on SQuAD: the own item
// of a question is the article it was asked on.
func squadClosest(s *squadSets, p *extractive.Params) {
	own := map[*quality.Question]string{}
	var tune []*quality.Question
	for _, set := range [][]*quality.SquadQuestion{s.tuneAns, s.tuneUn} {
		for _, sq := range set {
			own[sq.Q] = sq.Article
		}
	}
	for _, sq := range append(append([]*quality.SquadQuestion{}, s.tuneAns...), s.tuneUn...) {
		tune = append(tune, sq.Q)
	}
	closestTable("SQuAD 2.0, every question of the tuning half (answerable and not), its own item: the article it was asked on", tune, nil, p,
		func(q *quality.Question, h *jsonl.Hit) bool { return h.Title == own[q] })
}

// squadFigures are one build's figures on the reported half, as
// -squad-json writes them and -squad-before reads them.
type squadFigures struct {
	Build  string
	Result quality.SquadResult
}

// reportSquad measures the drafter under p on the reported half (every odd
// position of each kind) and prints its row, beside commit before's when
// before is set (measured in a worktree of it), or writes the figures as
// JSON.
func reportSquad(dir string, p *extractive.Params, before string, asJSON bool) error {
	s, x, err := loadSquad(dir, p, squadAsks{rep: true})
	if err != nil {
		return err
	}
	x.Close()
	builds := []squadFigures{{"working tree", quality.EvalSquad(s.repAns, s.repUn, p)}}
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(builds[0])
	}
	if before != "" {
		b, err := squadBefore(before)
		if err != nil {
			return err
		}
		b.Build = before
		builds = append([]squadFigures{*b}, builds...)
	}
	var rows [][]string
	for _, b := range builds {
		r := b.Result
		rows = append(rows, []string{b.Build, f3(r.InSome), f3(r.InFirst), f3(r.Precision), f3(r.UnRefused), f3(r.AnsRefused),
			fmt.Sprintf("%.2f", r.MeanStatements), fmt.Sprintf("%.0f / %d", r.MeanChars, r.Longest), fmt.Sprintf("%d + %d", r.Answerable, r.Unanswerable)})
	}
	rows = append(rows, []string{"target (issue 40)", "≥ 0.86", "≥ 0.80", "≥ 0.55", "≥ 0.45", "≤ 0.10", "", "", ""})
	fmt.Println("SQuAD 2.0 dev half, the reported half: every odd position of each kind (one item per article, 16 items):")
	fmt.Println(bench.Table([]string{"drafter", "gold answer in some quote", "in the first statement", "precision (quotes holding a gold answer)", "unanswerable refused", "answerable refused", "statements per answer", "quote length: mean / longest (chars)", "questions (answerable + unanswerable)"}, rows))
	return nil
}

// squadBefore measures the reported half with the drafter of commit rev:
// in a git worktree of it beside a link to ../shared (removed after),
// whose own bench writes its figures as JSON (rev must know -squad-report).
func squadBefore(rev string) (*squadFigures, error) {
	root, err := quality.ModuleRoot()
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "squad-before-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	if err := os.Symlink(filepath.Join(filepath.Dir(root), "shared"), filepath.Join(work, "shared")); err != nil {
		return nil, err
	}
	tree := filepath.Join(work, "main")
	if out, err := exec.Command("git", "-C", root, "worktree", "add", "--detach", tree, rev).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("git worktree add %s: %v: %s", rev, err, out)
	}
	cmd := exec.Command("go", "run", "./internal/bench/extractive", "-squad-report", "-squad-json")
	cmd.Dir, cmd.Stderr = tree, os.Stderr
	out, err := cmd.Output()
	// The worktree goes when measured: a checkout others see in git
	// worktree list is not left behind.
	if rm, rerr := exec.Command("git", "-C", root, "worktree", "remove", "--force", tree).CombinedOutput(); rerr != nil {
		fmt.Fprintf(os.Stderr, "extractive: git worktree remove %s: %v: %s\n", tree, rerr, rm)
	}
	if err != nil {
		return nil, fmt.Errorf("the bench at %s: %v", rev, err)
	}
	var f squadFigures
	if err := json.Unmarshal(out, &f); err != nil {
		return nil, fmt.Errorf("the bench at %s: %v", rev, err)
	}
	return &f, nil
}
