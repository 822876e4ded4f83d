// Command multilingual asks every question of each file of
// ../shared/bench/multilingual of a library of the file's articles, in
// process, through search, rank and the extractive drafter (no model), and
// prints one half of the questions' figures per file: the tuning half (the
// questions at even positions, answerable and held-out counted apart) or
// the report half (odd positions). Decide on the tuning half; report the
// other.
//
//	go run ./internal/bench/multilingual -half tune
//	go run ./internal/bench/multilingual -half report -json after.json
//	go run ./internal/bench/multilingual -half report -before before.json
//
// With -before (a -json of another build, e.g. one made in a git worktree of
// the commit before a change), each figure is shown as before → now. On the
// tuning half, -why counts the refusals of answerable and of held-out
// questions by rule and -dump FILE writes each question's outcome (one
// JSON a line), to compare two builds question by question:
//
//	go run ./internal/bench/multilingual -half tune -only ru-tydiqa -dump after.jsonl
//
// -off turns the drafter's rules of those names off for the run (as
// internal/bench/extractive's -off, by extractive.SwitchOff), to measure
// what a rule gains in each language:
//
//	go run ./internal/bench/multilingual -half tune -off "names,passage floor"
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/quality"
	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// row is one file's figures on one half.
type row struct {
	Name, Language      string
	Answerable, Held    int
	InShort, AnsRefused float64 // of the answerable questions
	InFirst, Precision  float64 // gold answer in the first statement; share of quotes holding it
	Statements          float64 // statements per answer
	UnRefused           float64 // of the held-out questions
	Gold4               float64 // gold paragraph in the first 4 passages
}

func main() {
	half := flag.String("half", "tune", "which questions: tune (even positions) or report (odd)")
	only := flag.String("only", "", "comma-separated file names (bn-tydiqa,…); all when empty")
	out := flag.String("json", "", "also write the figures to this file")
	before := flag.String("before", "", "figures of another build (its -json) to show beside these")
	why := flag.Bool("why", false, "also count the refusals of answerable and of held-out questions by their rule (tuning half only)")
	dump := flag.String("dump", "", "also write each question's outcome to this file, one JSON a line (tuning half only)")
	flag.Func("off", "turn off the drafter's rules of these names for this run, separated by commas (\"names,join back\"; as internal/bench/extractive's -off)", offRules.set)
	flag.Parse()
	if (*why || *dump != "") && *half != "tune" {
		fmt.Fprintln(os.Stderr, "multilingual: -why and -dump are for the tuning half: never study the report half's misses")
		os.Exit(2)
	}
	whyRefused, dumpTo = *why, *dump
	if *half != "tune" && *half != "report" {
		fmt.Fprintln(os.Stderr, "multilingual: -half is tune or report")
		os.Exit(2)
	}
	if err := run(*half, *only, *out, *before); err != nil {
		fmt.Fprintln(os.Stderr, "multilingual:", err)
		os.Exit(1)
	}
}

func run(half, only, out, before string) error {
	files, err := quality.MultilingualFiles()
	if err != nil {
		return err
	}
	var old map[string]row
	if before != "" {
		data, err := os.ReadFile(before)
		if err != nil {
			return err
		}
		var rows []row
		if err := json.Unmarshal(data, &rows); err != nil {
			return fmt.Errorf("%s: %v", before, err)
		}
		old = map[string]row{}
		for _, r := range rows {
			old[r.Name] = r
		}
	}
	work, err := os.MkdirTemp("", "sponge-multilingual-halves-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	p := offRules.params()
	var rows []row
	start := time.Now()
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if only != "" && !contains(strings.Split(only, ","), name) {
			continue
		}
		m, err := quality.LoadMultilingual(f, filepath.Join(work, name), 0, 0)
		if err != nil {
			return err
		}
		ans, un := pick(m.Ans, half), pick(m.Un, half)
		lib, x, err := quality.Open(m.Dir)
		if err != nil {
			return err
		}
		err = quality.AskAll(lib, x, append(append([]*quality.SquadQuestion{}, ans...), un...), &p, false)
		x.Close()
		if err != nil {
			return err
		}
		r := quality.EvalSquad(ans, un, &p)
		if whyRefused {
			countRefusals(name, ans, &p)
			countRefusals(name+" held-out", un, &p)
		}
		if dumpTo != "" {
			if err := dumpOutcomes(dumpTo, name, ans, un, &p); err != nil {
				return err
			}
		}
		found := 0
		for _, sq := range ans {
			if quality.GoldPassageIn(sq, 4) {
				found++
			}
		}
		rows = append(rows, row{Name: name, Language: m.Language, Answerable: len(ans), Held: len(un),
			InShort: r.InShort, AnsRefused: r.AnsRefused, InFirst: r.InFirst, Precision: r.Precision, Statements: r.MeanStatements,
			UnRefused: r.UnRefused, Gold4: quality.Share(found, len(ans))})
		fmt.Fprintf(os.Stderr, "%s asked in %v\n", name, time.Since(start).Round(time.Millisecond))
	}
	if out != "" {
		data, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return err
		}
	}
	var table [][]string
	for _, r := range rows {
		o, had := old[r.Name]
		fig := func(now, was float64) string {
			if !had {
				return fmt.Sprintf("%.3f", now)
			}
			return fmt.Sprintf("%.3f → %.3f", was, now)
		}
		table = append(table, []string{r.Name, r.Language, fmt.Sprint(r.Answerable), fig(r.InShort, o.InShort),
			fig(r.InFirst, o.InFirst), fig(r.Precision, o.Precision), fig(r.Statements, o.Statements),
			fig(r.AnsRefused, o.AnsRefused), fmt.Sprint(r.Held), fig(r.UnRefused, o.UnRefused), fig(r.Gold4, o.Gold4)})
	}
	fmt.Printf("The multilingual sets of ../shared/bench/multilingual, the %s half (%s positions of each file's answerable and of its held-out questions), asked in process without a model%s:\n\n",
		half, map[string]string{"tune": "even", "report": "odd"}[half], offRules.said())
	fmt.Println(bench.Table([]string{"set", "language", "answerable", "gold answer in a quote of ≤ 300 characters",
		"in the first statement", "precision", "statements", "answerable refused", "held-out", "held-out refused", "gold paragraph in the first 4 passages"}, table))
	return nil
}

// offRules are the names of the rules -off turns off.
var offRules ruleNames

// ruleNames are names of the drafter's rules (extractive.Rules).
type ruleNames []string

// set adds the names of v, separated by commas, each checked to be a
// rule's by extractive.SwitchOff.
func (l *ruleNames) set(v string) error {
	var names []string
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	p := extractive.DefaultParams
	if err := extractive.SwitchOff(&p, names); err != nil {
		return err
	}
	*l = append(*l, names...)
	return nil
}

// params are the drafter's default parameters with the rules l names off.
func (l ruleNames) params() extractive.Params {
	p := extractive.DefaultParams
	if err := extractive.SwitchOff(&p, l); err != nil {
		panic(err) // set checked them
	}
	return p
}

// said names the rules turned off, for the table's title.
func (l ruleNames) said() string {
	if len(l) == 0 {
		return ""
	}
	return fmt.Sprintf(", with the rules %q off", []string(l))
}

// pick keeps the questions of the half: even positions for tune, odd for
// report.
func pick(qs []*quality.SquadQuestion, half string) []*quality.SquadQuestion {
	var out []*quality.SquadQuestion
	for i, q := range qs {
		if (i%2 == 0) == (half == "tune") {
			out = append(out, q)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// whyRefused: count the refusals of answerable and held-out questions by
// rule (-why).
var whyRefused bool

// countRefusals prints, on stderr, how many of the questions qs (the
// answerable ones, or the held-out ones) each rule refused: the first words
// of the drafter's reason.
func countRefusals(name string, qs []*quality.SquadQuestion, p *extractive.Params) {
	n := map[string]int{}
	for _, sq := range qs {
		a := extractive.Choose(sq.Q.CandidatesFor(p), p)
		if len(a.Statements) > 0 {
			continue
		}
		w := strings.Fields(a.Refused)
		n[strings.Join(w[:min(7, len(w))], " ")]++
	}
	for why, k := range n {
		fmt.Fprintf(os.Stderr, "%s refused %d: %s\n", name, k, why)
	}
}

// dumpTo is the file -dump writes each question's outcome to.
var dumpTo string

// outcome is what the drafter did with one question (-dump):
// to compare two builds question by question, and to count misses by
// cause, on the tuning half only.
type outcome struct {
	File, Question string
	Gold           []string
	Hit            bool     // the gold answer in a quote of at most quality.MaxQuote characters
	Refused        string   // the drafter's reason, when it refused
	Quotes         []string // the statements' quotes, in order
	Gold4          bool     // the gold paragraph in the first 4 passages
	Held           bool     // a held-out question: its article is not in the library
}

// dumpOutcomes appends the outcomes of the answerable questions ans and
// of the held-out questions un of the file name to the file path, one JSON
// a line.
func dumpOutcomes(path, name string, ans, un []*quality.SquadQuestion, p *extractive.Params) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for i, sq := range append(append([]*quality.SquadQuestion{}, ans...), un...) {
		a := extractive.Choose(sq.Q.CandidatesFor(p), p)
		o := outcome{File: name, Question: sq.Q.Text, Gold: sq.Answers, Refused: a.Refused, Held: i >= len(ans)}
		if !o.Held {
			o.Gold4 = quality.GoldPassageIn(sq, 4)
		}
		for _, st := range a.Statements {
			o.Quotes = append(o.Quotes, st.Quote)
			o.Hit = o.Hit || quality.HoldsAnswer(st.Quote, sq.Answers) && len([]rune(quality.Norm(st.Quote))) <= quality.MaxQuote
		}
		if err := enc.Encode(o); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
