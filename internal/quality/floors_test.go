package quality_test

// The quality floors: the answers of the extractive drafter measured in
// this process, each figure held to what it was on the day it was measured
// less a small margin, so that a change that breaks a language or a rule
// fails here with the figure that fell. When a change makes a figure
// better, the test says so: measure again and raise the floor (the date and
// the command of each table are above it).

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/quality"
	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// A floor is one figure as measured, and how far it may move the wrong
// way before the test fails.
type floor struct {
	measure string
	was     float64
	margin  float64
}

// lowerIsBetter are the measures whose floor is a ceiling.
var lowerIsBetter = map[string]bool{
	"off-topic statements":         true,
	"answerable questions refused": true,
	"longest quote (characters)":   true,
}

// measured is when and how a table of floors was measured.
type measured struct{ date, command string }

// hold checks each figure of got against its floor and says which fell,
// from what to what.
func hold(t testing.TB, set string, how measured, format string, floors []floor, got map[string]float64) {
	t.Helper()
	num := func(v float64) string { return fmt.Sprintf(format, v) }
	for _, f := range floors {
		g, ok := got[f.measure]
		if !ok {
			t.Fatalf("%s: no figure %q measured", set, f.measure)
		}
		const eps = 1e-9
		switch {
		case lowerIsBetter[f.measure] && g > f.was+f.margin+eps:
			t.Errorf("%s: %s rose from %s to %s, above its ceiling %s (measured %s with %s)",
				set, f.measure, num(f.was), num(g), num(f.was+f.margin), how.date, how.command)
		case !lowerIsBetter[f.measure] && g < f.was-f.margin-eps:
			t.Errorf("%s: %s fell from %s to %s, below its floor %s (measured %s with %s)",
				set, f.measure, num(f.was), num(g), num(f.was-f.margin), how.date, how.command)
		case lowerIsBetter[f.measure] && g < f.was-eps, !lowerIsBetter[f.measure] && g > f.was+eps:
			t.Logf("%s: %s is better than when measured (%s, was %s): measure again and move its floor", set, f.measure, num(g), num(f.was))
		}
	}
}

// TestHoldSaysWhatFell: a figure that falls below its floor (or rises
// above its ceiling) fails with the figure, from what to what; one within
// its margin passes.
func TestHoldSaysWhatFell(t *testing.T) {
	floors := []floor{{"answers showing an expected sentence", 22, 1}, {"answerable questions refused", 0.08, 0.03}}
	for _, c := range []struct {
		got  map[string]float64
		want []string
	}{
		{map[string]float64{"answers showing an expected sentence": 21, "answerable questions refused": 0.11}, nil},
		{map[string]float64{"answers showing an expected sentence": 20, "answerable questions refused": 0.08},
			[]string{"demo: answers showing an expected sentence fell from 22.00 to 20.00, below its floor 21.00 (measured today with a command)"}},
		{map[string]float64{"answers showing an expected sentence": 22, "answerable questions refused": 0.2},
			[]string{"demo: answerable questions refused rose from 0.08 to 0.20, above its ceiling 0.11 (measured today with a command)"}},
	} {
		r := &recorder{TB: t}
		hold(r, "demo", measured{"today", "a command"}, "%.2f", floors, c.got)
		if !slices.Equal(r.errors, c.want) {
			t.Errorf("with %v: said %q, want %q", c.got, r.errors, c.want)
		}
	}
}

// recorder keeps what a test would say is wrong.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(string, ...any) {}

// report logs every figure, so that -v shows what a new floor would be.
func report(t *testing.T, set string, format string, floors []floor, got map[string]float64) {
	t.Helper()
	var says []string
	for _, f := range floors {
		says = append(says, fmt.Sprintf("%s "+format, f.measure, got[f.measure]))
	}
	t.Logf("%s: %s", set, strings.Join(says, ", "))
}

// The demo library (testdata/docs) asked the 29 questions of
// internal/bench/extractive/demo-questions.txt, counted in questions and
// statements; the same figures as the benchmark's check through the built
// sponge ask (go run ./internal/bench/extractive -demo-only -bin bin). The
// demo is no sample: each question was written with the sentences that
// answer it, and make demo shows them, so its margin is none. With one
// question's margin, turning off JoinBack, DefinitionFirst or UnitFirst
// (each of which moves one demo answer's expected sentence from first)
// would pass.
var (
	demoMeasured = measured{"2026-12-07", "go test ./internal/quality -run TestDemoFloor -v"}
	demoFloors   = []floor{
		{"off-topic statements", 0, 0},                       // of 60
		{"answers showing an expected sentence", 22, 0},      // of 24 answerable
		{"answers whose first statement is expected", 19, 0}, // of 24
		{"unanswerable questions refused", 5, 0},             // of 5
		{"answerable questions refused", 0, 0},               // of 24
	}
)

// TestDemoFloor: the demo questions get the sentences a person expects,
// first, and nothing off their topic; the questions the demo library
// cannot answer are refused. It needs nothing but the repository.
// skipUnderRace skips a floor in a -race build: a floor's figures do not
// depend on the race detector, which makes them take five times as long;
// make test runs the floors again without it (the Makefile's test target).
func skipUnderRace(t *testing.T) {
	if raceEnabled {
		t.Skip("-race: the floors run without the race detector (make test runs go test ./internal/quality after the -race run)")
	}
}

func TestDemoFloor(t *testing.T) {
	skipUnderRace(t)
	p := extractive.DefaultParams
	d, err := quality.LoadDemo(filepath.Join(t.TempDir(), "library"), &p)
	if err != nil {
		t.Fatal(err)
	}
	r := d.Eval(&p)
	got := map[string]float64{
		"off-topic statements":                      float64(r.OffStatements),
		"answers showing an expected sentence":      float64(r.WantShown),
		"answers whose first statement is expected": float64(r.FirstWant),
		"unanswerable questions refused":            float64(r.RightRefusals),
		"answerable questions refused":              float64(r.WrongRefusals),
	}
	report(t, "demo", "%.0f", demoFloors, got)
	hold(t, "demo", demoMeasured, "%.0f", demoFloors, got)
	if t.Failed() {
		// Which answers are not as a person expects: their verdicts
		// and statements.
		for _, dq := range d.Questions {
			a := d.Answer(dq, &p)
			v := dq.Verdict(a)
			if v == "expected sentence first" || v == "refused (right)" {
				continue
			}
			t.Logf("%q: %s", dq.Q.Text, v)
			for _, s := range a {
				t.Logf("    “%s” [%s]", s.Quote, s.Title)
			}
		}
	}
}

// SQuAD 2.0's floor: 100 answerable and 100 unanswerable questions,
// evenly spaced over ../shared/bench/squad2 (quality.SquadFloorSample),
// asked of one library of its 16 articles. The bench reported them until
// issue 40 and its misses were studied then, so they read higher than the
// bench's reported half (go run ./internal/bench/extractive -squad-report);
// they stay the floor's so that it is not lowered.
var (
	squadMeasured = measured{"2026-12-07", "go test ./internal/quality -run TestSquadFloor -v"}
	squadFloors   = []floor{
		{"gold answer in some quote", 0.88, 0.03},
		{"gold answer in the first statement", 0.78, 0.03},
		{"quotes that hold a gold answer", 0.571, 0.03},
		{"unanswerable questions refused", 0.42, 0.03},
		{"answerable questions refused", 0.08, 0.03},
		{"longest quote (characters)", 300, 0},
	}
)

// TestSquadFloor holds the drafter to its SQuAD 2.0 figures.
func TestSquadFloor(t *testing.T) {
	skipUnderRace(t)
	path, err := quality.SquadPath()
	if errors.Is(err, quality.ErrNoShared) {
		t.Skipf("skipped: the shared data is not beside the repository (%v); the SQuAD 2.0 floor needs ../shared/bench/squad2, the demo floor runs without it", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	f, err := quality.ReadSquadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	all := quality.ItemsOf(f, "squad2")
	dir := filepath.Join(t.TempDir(), "library")
	if err := quality.SaveItems(dir, all.Items, all.Sources); err != nil {
		t.Fatal(err)
	}
	ans := quality.SquadFloorSample(all.Ans)
	un := quality.SquadFloorSample(all.Un)
	p := extractive.DefaultParams
	lib, x, err := quality.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	err = quality.AskAll(lib, x, append(append([]*quality.SquadQuestion{}, ans...), un...), &p, false)
	x.Close()
	if err != nil {
		t.Fatal(err)
	}
	r := quality.EvalSquad(ans, un, &p)
	got := map[string]float64{
		"gold answer in some quote":          r.InSome,
		"gold answer in the first statement": r.InFirst,
		"quotes that hold a gold answer":     r.Precision,
		"unanswerable questions refused":     r.UnRefused,
		"answerable questions refused":       r.AnsRefused,
		"longest quote (characters)":         float64(r.Longest),
	}
	set := fmt.Sprintf("SQuAD 2.0 (%d answerable, %d unanswerable)", len(ans), len(un))
	report(t, set, "%.3f", squadFloors, got)
	hold(t, set, squadMeasured, "%.3f", squadFloors, got)
}

// The multilingual sets of ../shared/bench/multilingual (SQuAD's format,
// one language each): of each, multiAnswerable answerable questions evenly
// spaced over the file, asked of a library of the articles they were asked
// on, and multiHeldOut questions of its held-out articles, which the
// library does not hold. A figure may move the wrong way by one question.
const multiAnswerable, multiHeldOut = 16, 8

var (
	multiMeasured = measured{"2026-12-07", "go test ./internal/quality -run TestMultilingualFloor -v"}
	// Of each set's 16 answerable questions, how many have their gold
	// answer in a quote of at most 300 characters and how many are
	// refused; of its 8 held-out questions, how many are refused.
	// Measured again after the drafter learned the letters of Indic words
	// and Thai questions (issue 40): Bengali is answered (0 -> 5 of 16),
	// Telugu and Thai refuse what the library does not hold (4 -> 7, 1 -> 7
	// of 8); Telugu and Russian refuse one answerable question more.
	// Measured again after the drafter weighed a question's words in its
	// own language (issue 40, stages/draft/extractive/language.go): more
	// answers and fewer answerable questions refused in ar, bn, de, ko, ru,
	// te, zh; Bengali and Telugu refuse fewer held-out questions (7 -> 4,
	// 7 -> 2 of 8): their question words no longer count as missing, and
	// a script without capitals marks no name for the names rule.
	// Measured again after the Thai sentence split (516507d): Thai 12 -> 15.
	// Raised on 2026-12-07 (session 24) to what the drafter gives after
	// Korean particles (5cae14a), spaceless questions' names (a5ca750),
	// ё as е (19311f2) and forms counted in languages without a stemmer
	// (958bfcc): ja 11 -> 13 and 2 -> 0 refused, ko 9 -> 11 and 7 -> 5,
	// te 10 -> 11 and held-out 2 -> 3, zh-Hant 11 -> 13 and 4 -> 1, zh
	// 1 -> 0 refused, bn 5 -> 4 refused and held-out 4 -> 5. Figures that
	// moved the wrong way by one (de 12 -> 11 answers, ja 8 -> 7 held-out,
	// te 2 -> 3 answerable refused) keep their floors: never lowered.
	// Raised on 2026-12-07 (session 25) after Russian с. (dc04f46) and
	// Telugu కి. మీ. (eda4555) stopped cutting sentences: ru 8 -> 9, te
	// 11 -> 13.
	// Raised on 2026-12-07 (session 26) after the index stemmed Russian
	// words (3162413): ru 9 -> 10 answers, 4 -> 3 answerable refused;
	// and after the floor of short Korean questions (6b0a4e4): ko 11 ->
	// 12 answers, 5 -> 3 answerable refused.
	// Raised on 2026-12-07 (session 26): en 14 -> 15 answers and 2 -> 1
	// answerable refused, as it has been since before 0e942bf (seven runs
	// at 0e942bf and 43aab61 alike). Bengali's held-out refusals, 5 or 6
	// of 8 from one run to the next, keep 5.
	// Raised on 2026-12-07 (session 27) after a dash, a name's dot or a
	// curly quote between Chinese or Japanese words stopped making the
	// sentence "not prose" (stages/draft/extractive betweenWords): ja
	// 13 -> 14 answers. Raised again after the index and the drafter took
	// Bengali case endings off a word (lang.BareGlued): bn 10 -> 11
	// answers, 4 -> 3 answerable refused.
	// Raised on 2026-12-07 (session 28) after a Chinese sentence that opens
	// with a word pointing back ("他的喜劇…", "這是…") is quoted with the
	// sentence before (lexicons/zh/back-words.txt): zh-Hant 13 -> 14.
	// Raised again after the lists of de, ja, ko, ar, bn and te: ar 13 -> 14.
	multiToday = map[string][3]int{
		"ar-arcd":       {14, 0, 5},
		"bn-tydiqa":     {11, 3, 5},
		"de-germanquad": {12, 2, 8},
		"en-tydiqa":     {15, 1, 8},
		"ja-jsquad":     {14, 0, 8},
		"ko-tydiqa":     {12, 3, 8},
		"ru-tydiqa":     {10, 3, 8},
		"te-tydiqa":     {13, 2, 3},
		"th-iapp":       {15, 1, 6},
		"zh-Hant-drcd":  {14, 1, 8},
		"zh-cmrc2018":   {15, 0, 7},
	}
)

// TestMultilingualFloor holds each language's answers to its figures, so
// that a change that stops answering (or refusing) in one language fails.
func TestMultilingualFloor(t *testing.T) {
	skipUnderRace(t)
	files, err := quality.MultilingualFiles()
	if errors.Is(err, quality.ErrNoShared) {
		t.Skipf("skipped: the shared data is not beside the repository (%v); the multilingual floor needs ../shared/bench/multilingual, the demo floor runs without it", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			today, ok := multiToday[name]
			if !ok {
				t.Fatalf("%s has no floors: measure it (%s) and add them", name, multiMeasured.command)
			}
			m, err := quality.LoadMultilingual(path, t.TempDir(), multiAnswerable, multiHeldOut)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Ans) != multiAnswerable || len(m.Un) != multiHeldOut {
				t.Fatalf("%s: %d answerable and %d held-out questions, not %d and %d", name, len(m.Ans), len(m.Un), multiAnswerable, multiHeldOut)
			}
			p := extractive.DefaultParams
			lib, x, err := quality.Open(m.Dir)
			if err != nil {
				t.Fatal(err)
			}
			err = quality.AskAll(lib, x, append(append([]*quality.SquadQuestion{}, m.Ans...), m.Un...), &p, false)
			x.Close()
			if err != nil {
				t.Fatal(err)
			}
			r := quality.EvalSquad(m.Ans, m.Un, &p)
			count := func(share float64, of int) float64 { return math.Round(share * float64(of)) }
			got := map[string]float64{
				"gold answer in a quote of ≤ 300 characters": count(r.InShort, len(m.Ans)),
				"answerable questions refused":               count(r.AnsRefused, len(m.Ans)),
				"held-out questions refused":                 count(r.UnRefused, len(m.Un)),
			}
			all := []floor{
				{"gold answer in a quote of ≤ 300 characters", float64(today[0]), 1},
				{"answerable questions refused", float64(today[1]), 1},
				{"held-out questions refused", float64(today[2]), 1},
			}
			set := fmt.Sprintf("%s (%s; of %d answerable, %d held-out)", name, m.Language, len(m.Ans), len(m.Un))
			report(t, set, "%.0f", all, got)
			var floors []floor
			for _, f := range all {
				// A figure held only where it can move the wrong way
				// by more than its margin.
				of := len(m.Ans)
				if f.measure == "held-out questions refused" {
					of = len(m.Un)
				}
				if lowerIsBetter[f.measure] && f.was+f.margin >= float64(of) || !lowerIsBetter[f.measure] && f.was-f.margin <= 0 {
					t.Logf("%s: %s is %.0f of %d today: no floor", set, f.measure, f.was, of)
					continue
				}
				floors = append(floors, f)
			}
			hold(t, set, multiMeasured, "%.0f", floors, got)
		})
	}
	for name := range multiToday {
		if !seen[name] {
			t.Errorf("%s has floors but no file in the shared data", name)
		}
	}
}
