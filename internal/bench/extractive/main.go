// Command extractive measures the extractive drafter (issue 6) on BEIR
// SciFact: it saves the 5,183 abstracts as items, asks each of the 505
// training claims that have evidence through the real search and rank
// stages, and reports
//
//   - the evidence hit rate: the share of claims for which at least one
//     quote is a gold evidence sentence;
//   - how precise the answers are, since any of six quotes may hit: the
//     mean number of statements, the share of statements quoted from a gold
//     abstract (precision@shown), and the share of answers whose first
//     statement is a gold evidence sentence;
//   - how often an answerable claim is refused, and how often a question
//     the library cannot answer (unanswerable.txt) is rightly refused, on a
//     tuning half and a held-out half of both sets (fixed seed): the refusal
//     thresholds are chosen on the tuning half only.
//
// It compares the drafter with a plain BM25 sentence picker, measures rules
// that stop an answer being padded with loosely related sentences, sweeps
// the refusal thresholds, and, given the built binaries (-bin), asks the
// demo library (testdata/docs) the hand-made questions of
// demo-questions.txt through `sponge ask --extractive` and times it as a
// whole process.
//
//	go run ./internal/bench/extractive -bin bin        # after make build
//	go run ./internal/bench/extractive -tune           # also search the weights
//	go run ./internal/bench/extractive -multilingual   # the sets of ../shared/bench/multilingual only
//	go run ./internal/bench/extractive -squad-tuning   # SQuAD 2.0's tuning half (even positions) only
//	go run ./internal/bench/extractive -squad-report -squad-before REV  # its reported half (odd), beside REV's
//	go run ./internal/bench/extractive -bin bin -realdocs .bench/realdocs  # real documentation (issue 40)
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/quality"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft/extractive"
	"github.com/sponge-library/sponge/stages/draft/sentences"
	"github.com/sponge-library/sponge/stages/render"
)

// splitSeed fixes which claims and off-topic questions fall in the tuning
// half: the refusal thresholds are chosen there and reported on the other.
const splitSeed = 20240611

// benchDir holds the question files.
var benchDir = filepath.Join("internal", "bench", "extractive")

func main() {
	libDir := flag.String("library", ".bench/scifact", "where to build (or find) the SciFact library")
	binDir := flag.String("bin", "", "folder with the built sponge binaries, for the demo check and the latency of sponge ask --extractive (skipped when empty)")
	runs := flag.Int("runs", 60, "how many sponge ask processes to time")
	tune := flag.Bool("tune", false, "search the score weights on the training claims")
	show := flag.Int("show", 0, "print the answers to this many claims and unanswerable questions")
	squadLib := flag.String("squad-library", ".bench/squad2", "where to build (or find) the SQuAD 2.0 library")
	squadOnly := flag.Bool("squad-only", false, "measure SQuAD 2.0 only (no SciFact, no demo)")
	quick := flag.Bool("quick", false, "leave out the tables of the rules' gains (each rule off in turn) and of refusal thresholds on SciFact")
	squadDump := flag.String("squad-dump", "", "write every SQuAD question's candidate sentences and their features to this file (JSON lines), to study; with -squad-tuning, the tuning half's only")
	trainOut := flag.String("train-ranker", "", "train the learned ranker on SQuAD 2.0's tuning half (the even positions of each kind: questions the bench does not report) and write its weights to this Go file, then stop")
	flag.IntVar(&rankerTop, "ranker-top", rankerTop, "with -train-ranker: learn from each question's this many best sentences by the hand-made score only (0: all)")
	flag.BoolVar(&rankerListwise, "ranker-listwise", rankerListwise, "with -train-ranker: fit the ranker to put a sentence holding a gold answer first among its question's (a conditional logit), then scale it to a chance; false: a logistic regression over all sentences")
	flag.BoolVar(&rankerGoldParagraph, "ranker-gold-paragraph", rankerGoldParagraph, "with -train-ranker: learn that a sentence holds the answer only in the paragraph the question was asked on (the figures still count a gold answer anywhere)")
	flag.BoolVar(&rankerUnanswerable, "ranker-unanswerable", rankerUnanswerable, "with -train-ranker: learn from the unanswerable questions' sentences too")
	manuals := flag.String("manuals", "", "with -bin: ask manual-questions.txt of a library of Debian manual pages (fetched with apt-get into this folder) and Go's docs, then stop")
	realdocs := flag.String("realdocs", "", "with -bin: ask "+realDocQuestions+" of a library of real documentation (Debian packages fetched with apt-get into this folder), then stop")
	flag.Var(&offRules, "off", "turn off the drafter's rules of these names for this run, separated by commas (\"names,join back\"; the table of the rules' gains lists them)")
	flag.Var(&settings, "set", "change the drafter's parameters for this run: Name=value pairs of extractive.Params, separated by commas (\"NamesTop=1,StemFloor=true\")")
	tuningOnly := flag.Bool("squad-tuning", false, "measure the drafter on SQuAD 2.0's tuning half only (the even positions of each kind: the questions whose misses may be studied), then stop")
	squadEvery := flag.Int("squad-every", 1, "with -squad-tuning or -squad-only: ask every this-many-th question of the tuning half only (quicker, coarser); the ranker still learns from all of it")
	squadReport := flag.Bool("squad-report", false, "measure the drafter on SQuAD 2.0's reported half only (every odd position of each kind), then stop; read it once at the start and once at the end, never to tune")
	squadBefore := flag.String("squad-before", "", "with -squad-report: a commit whose drafter is measured beside the working tree's, in a git worktree (removed after)")
	squadJSON := flag.Bool("squad-json", false, "with -squad-report: write the figures as JSON (what -squad-before reads)")
	training := flag.Bool("squad-training", false, "with -squad-only: also measure the drafter on the questions the ranker learns from (the tuning half, asked whole)")
	demoOnly := flag.Bool("demo-only", false, "with -bin: ask demo-questions.txt of the demo library (testdata/docs) only, then stop")
	multilingual := flag.Bool("multilingual", false, "measure the sets of ../shared/bench/multilingual only (each a library of its own, asked in process), then stop")
	multilingualN := flag.Int("multilingual-n", 0, "with -multilingual: ask this many answerable questions of each set, evenly spaced (and a fifth as many held-out ones); 0: all")
	flag.Parse()
	if *demoOnly {
		if err := askDemo(*binDir); err != nil {
			fmt.Fprintln(os.Stderr, "extractive:", err)
			os.Exit(1)
		}
		return
	}
	if *manuals != "" {
		if err := askManuals(*manuals, *binDir); err != nil {
			fmt.Fprintln(os.Stderr, "extractive:", err)
			os.Exit(1)
		}
		return
	}
	if *realdocs != "" {
		if err := askRealDocs(*realdocs, *binDir); err != nil {
			fmt.Fprintln(os.Stderr, "extractive:", err)
			os.Exit(1)
		}
		return
	}
	if err := settings.apply(&extractive.Params{}); err != nil {
		fmt.Fprintln(os.Stderr, "extractive:", err)
		os.Exit(2)
	}
	p := drafterParams()
	if *multilingual {
		if err := askMultilingual(*multilingualN, &p); err != nil {
			fmt.Fprintln(os.Stderr, "extractive:", err)
			os.Exit(1)
		}
		return
	}
	if *squadReport {
		if err := reportSquad(*squadLib, &p, *squadBefore, *squadJSON); err != nil {
			fmt.Fprintln(os.Stderr, "extractive:", err)
			os.Exit(1)
		}
		return
	}
	// Only -squad-report asks the reported half: every other run (SciFact's,
	// -quick, -squad-only) is one a change may be tuned on, so it measures
	// SQuAD on the tuning half and never shows the reported half's figures.
	s, x, err := loadSquad(*squadLib, &p, squadAsks{tune: true, every: *squadEvery})
	if err == nil && *trainOut != "" {
		err = trainRanker(s, x, &p, *trainOut)
		x.Close()
	} else if err == nil && *tuningOnly {
		printSquadTuning(s, &p)
		if *squadDump != "" {
			// The training questions are the tuning half's: once is enough.
			tuning := *s
			tuning.trainAns, tuning.trainUn = nil, nil
			err = dumpSquad(*squadDump, &tuning, &p)
		}
		x.Close()
	} else if err == nil {
		printSquad(s, &p)
		if *training {
			err = squadTraining(s, x, &p)
		}
		if err == nil && *squadDump != "" {
			err = dumpSquad(*squadDump, s, &p)
		}
		x.Close()
		if !*squadOnly {
			err = run(*libDir, *binDir, *runs, *tune, *show, *quick, s)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "extractive:", err)
		os.Exit(1)
	}
}

type claim struct {
	ID       int    `json:"id"`
	Claim    string `json:"claim"`
	Evidence []struct {
		DocID     int      `json:"doc_id"`
		Sentences []string `json:"sentences"`
	} `json:"evidence"`
}

func run(libDir, binDir string, runs int, tune bool, show int, quick bool, squad *squadSets) error {
	dir, docs, err := bench.SciFactCorpus()
	if err != nil {
		return err
	}
	start := time.Now()
	ids, err := bench.BuildLibrary(libDir, docs)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "library of %d abstracts ready in %v\n", len(ids), time.Since(start).Round(time.Millisecond))

	claims, err := readClaims(filepath.Join(dir, "claims-train-evidence.jsonl"))
	if err != nil {
		return err
	}
	unans, err := quality.ReadLines(filepath.Join(benchDir, "unanswerable.txt"), true)
	if err != nil {
		return err
	}
	unans2, err := quality.ReadLines(filepath.Join(benchDir, "unanswerable-2.txt"), true)
	if err != nil {
		return err
	}
	var answerable, offTopic []*quality.Question
	for _, c := range claims {
		if len(c.Evidence) == 0 {
			continue
		}
		q := &quality.Question{Text: c.Claim, GoldDocs: map[string]bool{}}
		for _, e := range c.Evidence {
			q.GoldDocs[fmt.Sprint(e.DocID)] = true
			for _, s := range e.Sentences {
				q.Gold = append(q.Gold, quality.Norm(s))
			}
		}
		answerable = append(answerable, q)
	}
	for _, u := range unans {
		offTopic = append(offTopic, &quality.Question{Text: u})
	}
	var fresh []*quality.Question
	for _, u := range unans2 {
		fresh = append(fresh, &quality.Question{Text: u})
	}
	short, err := readShort(filepath.Join(benchDir, "short-questions.tsv"), answerable, claims)
	if err != nil {
		return err
	}
	s := &sets{all: answerable, short: short, fresh: fresh}
	s.tune, s.held = halves(answerable, splitSeed)
	// Each file of off-topic questions is halved on its own, so the halves
	// of the first stay as they were when the second was written.
	t1, h1 := halves(offTopic, splitSeed+1)
	t2, h2 := halves(fresh, splitSeed+2)
	s.offTune, s.offHeld = append(t1, t2...), append(h1, h2...)
	offTopic = append(offTopic, fresh...)
	s.offTopic = offTopic

	if err := remakeOutdated(libDir); err != nil {
		return err
	}
	lib, err := library.Open(libDir)
	if err != nil {
		return err
	}
	x, err := index.Open(lib.IndexDir())
	if err != nil {
		return err
	}
	defer x.Close()
	all := append(append(append([]*quality.Question{}, answerable...), offTopic...), short...)
	inTop := 0
	for _, q := range all {
		if err := quality.Ask(lib, x, q); err != nil {
			return err
		}
		for n := range q.DocOf {
			q.DocOf[n] = ids[q.DocOf[n]]
		}
		found := false
		for _, d := range q.DocOf {
			found = found || q.GoldDocs[d]
		}
		if found && q.Gold != nil && !q.Short {
			inTop++
		}
	}
	fmt.Printf("Passages from sponge-search | sponge-rank (8 items): a gold abstract is among them for %d of %d claims (%.3f): the ceiling of the hit rate.\n\n",
		inTop, len(answerable), float64(inTop)/float64(len(answerable)))

	fmt.Printf("Sentence splitting: %s of the SciFact gold evidence sentences come out of stages/draft/sentences exactly.\n\n", splitAgreement(dir, claims))

	p := drafterParams()
	if tune {
		p = tuneParams(s.tune, s.offTune, p, x)
		fmt.Printf("tuned: %+v\n\n", p)
	}
	quality.Prepare(all, &p, x, true)
	closestTable("SciFact, the claims with evidence, its own items: the abstracts holding its evidence", s.tune, s.held, &p,
		func(q *quality.Question, h *jsonl.Hit) bool { return q.GoldDocs[ids[h.ItemID]] })

	// The demo library, asked in process for the padding rules, then
	// through the real binaries.
	var demo *demoSet
	if binDir != "" {
		demo, err = loadDemo(&p)
		if demo != nil {
			defer os.RemoveAll(filepath.Dir(demo.Dir))
		}
		if err != nil {
			return err
		}
	} else {
		fmt.Println("(no -bin: the demo library check and the latency are skipped)")
		fmt.Println()
	}

	baseline := extractive.Params{K1: p.K1, B: p.B, Max: 6}
	fmt.Printf("%d SciFact training claims with evidence (tuning half %d, held-out half %d); %d questions the library cannot answer (unanswerable.txt and unanswerable-2.txt; tuning half %d, held-out half %d).\n\n",
		len(answerable), len(s.tune), len(s.held), len(offTopic), len(s.offTune), len(s.offHeld))
	rows := [][]string{
		row("plain BM25 sentence picker (6 best sentences)", s, &baseline),
		row("sponge-draft --extractive", s, &p),
	}
	noRefusal := p
	noRefusal.MinAnswer = 0
	rows = append(rows, row("  the same without refusing", s, &noRefusal))
	fmt.Println(bench.Table([]string{"drafter", "evidence hit rate", "exact-sentence hit rate", "mean statements", "precision@shown", "first statement is evidence", "answerable refused (tune / held-out)", "unanswerable rightly refused (tune / held-out)"}, rows))
	rs := evaluate(short, nil, &p)
	fmt.Printf("Short questions about %d of those claims (short-questions.tsv): evidence hit rate %.3f, refused %.3f, mean statements %.2f, first statement is evidence %.3f.\n\n",
		len(short), rs.hit, rs.refusedAnswerable, rs.meanStatements, rs.firstGold)

	ablation(s, squad, demo, &p)
	if !quick {
		if err := printRuleGains(s, squad, demo, &p); err != nil {
			return err
		}
		refusalSweep(s, &p)
	}

	if show > 0 {
		showAnswers(answerable, offTopic, &p, show)
	}
	if binDir != "" {
		if err := demo.check(binDir); err != nil {
			return err
		}
		if runs > 0 {
			return latency(binDir, libDir, answerable, offTopic, runs)
		}
	}
	return nil
}

// askDemo asks the demo library its questions with the built binaries, as
// the full bench does at its end.
func askDemo(binDir string) error {
	if binDir == "" {
		return fmt.Errorf("-demo-only needs -bin")
	}
	p := drafterParams()
	demo, err := loadDemo(&p)
	if demo != nil {
		defer os.RemoveAll(filepath.Dir(demo.Dir))
	}
	if err != nil {
		return err
	}
	return demo.check(binDir)
}

// beforeIssue13 are the drafter's parameters before issue 13's rules
// (short statements, fewer statements, refusals on the subject).
func beforeIssue13() extractive.Params {
	p := extractive.DefaultParams
	p.Sentences = true
	p.SentenceWeight, p.MinRelative, p.MinRelativeQuestion = 0, 0.4, 0
	p.Negation, p.MaxNames, p.NamesTop, p.Same, p.MinWindow = false, 0, 0, 0, 0
	p.Ranker, p.UnitFirst, p.Hearsay = false, false, 1
	p.SectionMeasure, p.Spelled = false, false
	return p
}

// sets are the questions asked of the SciFact library.
type sets struct {
	all, tune, held            []*quality.Question // claims with evidence
	offTopic, offTune, offHeld []*quality.Question // questions it cannot answer
	fresh                      []*quality.Question // those of unanswerable-2.txt
	short                      []*quality.Question
}

// halves shuffles qs with a fixed seed and cuts it in two.
func halves(qs []*quality.Question, seed uint64) (tune, held []*quality.Question) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	perm := r.Perm(len(qs))
	for i, j := range perm {
		if i < (len(qs)+1)/2 {
			tune = append(tune, qs[j])
		} else {
			held = append(held, qs[j])
		}
	}
	return tune, held
}

type result struct {
	hit, exact, meanStatements, refusedAnswerable, rightRefusals float64
	// precision is the share of statements quoted from a gold abstract;
	// firstGold the share of answers whose first statement is evidence.
	precision, firstGold float64
}

func row(name string, s *sets, p *extractive.Params) []string {
	r := evaluate(s.all, s.offTopic, p)
	t := evaluate(s.tune, s.offTune, p)
	h := evaluate(s.held, s.offHeld, p)
	return []string{name, f3(r.hit), f3(r.exact), fmt.Sprintf("%.2f", r.meanStatements), f3(r.precision), f3(r.firstGold),
		f3(t.refusedAnswerable) + " / " + f3(h.refusedAnswerable), f3(t.rightRefusals) + " / " + f3(h.rightRefusals)}
}

func f3(f float64) string { return fmt.Sprintf("%.3f", f) }

// evaluate picks sentences for every question under p (candidates must be
// prepared with the same K1 and B).
func evaluate(answerable, offTopic []*quality.Question, p *extractive.Params) result {
	var r result
	statements, answered, fromGold := 0, 0, 0
	for _, q := range answerable {
		picked := extractive.Select(q.CandidatesFor(p), p)
		if len(picked) == 0 {
			r.refusedAnswerable++
			continue
		}
		answered++
		statements += len(picked)
		hit, exact := false, false
		for i, c := range picked {
			h, e := isGold(c.Quote, q.Gold)
			hit = hit || h
			exact = exact || e
			if i == 0 && h {
				r.firstGold++
			}
			if q.GoldDocs[q.DocOf[c.Passage]] {
				fromGold++
			}
		}
		if hit {
			r.hit++
		}
		if exact {
			r.exact++
		}
	}
	n := math.Max(1, float64(len(answerable)))
	r.hit /= n
	r.exact /= n
	r.refusedAnswerable /= n
	if answered > 0 {
		r.meanStatements = float64(statements) / float64(answered)
		r.precision = float64(fromGold) / float64(statements)
		r.firstGold /= float64(answered)
	}
	for _, q := range offTopic {
		if len(extractive.Select(q.CandidatesFor(p), p)) == 0 {
			r.rightRefusals++
		}
	}
	if len(offTopic) > 0 {
		r.rightRefusals /= float64(len(offTopic))
	}
	return r
}

// isGold: hit when the quote is a gold evidence sentence; SciFact's own
// sentence list sometimes joins two sentences or cuts one in two, so a quote
// inside a gold sentence (or holding one) counts too; exact when equal.
func isGold(quote string, gold []string) (hit, exact bool) {
	q := quality.Norm(quote)
	for _, g := range gold {
		if q == g {
			return true, true
		}
		if len(q) >= 20 && len(g) >= 20 && (strings.Contains(g, q) || strings.Contains(q, g)) {
			hit = true
		}
	}
	return hit, false
}

// tuneParams does coordinate ascent over the weights on the tuning half of
// the claims, maximising the mean of the hit rates with at most 1, 2, …, 6
// statements: a weight that puts the evidence first scores more than one
// that only keeps it among six. The refusal thresholds and the rules
// against padding stay as they are (they are chosen afterwards).
func tuneParams(answerable, offTopic []*quality.Question, p extractive.Params, corpus extractive.Corpus) extractive.Params {
	all := append(append([]*quality.Question{}, answerable...), offTopic...)
	quality.Prepare(all, &p, corpus, true)
	objective := func(pp *extractive.Params) float64 {
		sum := 0.0
		for k := 1; k <= pp.Max; k++ {
			pk := *pp
			pk.Max = k
			sum += evaluate(answerable, nil, &pk).hit
		}
		return sum / float64(pp.Max)
	}
	grid := map[string][]float64{
		"Coverage":     {0, 0.25, 0.5, 1, 1.5, 2},
		"PassageRank":  {0, 0.1, 0.25, 0.5, 0.75, 1, 1.5},
		"PassageScore": {0, 0.15, 0.3, 0.6, 1},
		// Abstracts end with their findings, so SciFact rewards later
		// sentences; notes and guides put their point first. Position and
		// ShortLen stay in a range that suits both.
		"Position":    {-0.1, 0, 0.05, 0.1},
		"ShortLen":    {0, 3, 6},
		"SamePassage": {0, 0.05, 0.1, 0.2, 0.4},
		"Covers":      {0, 0.25, 0.5, 1, 1.5},
	}
	names := []string{"Coverage", "PassageRank", "PassageScore", "Position", "ShortLen", "SamePassage", "Covers"}
	set := func(pp *extractive.Params, name string, v float64) {
		switch name {
		case "Coverage":
			pp.Coverage = v
		case "PassageRank":
			pp.PassageRank = v
		case "PassageScore":
			pp.PassageScore = v
		case "Position":
			pp.Position = v
		case "ShortLen":
			pp.ShortLen = int(v)
		case "SamePassage":
			pp.SamePassage = v
		case "Covers":
			pp.Covers = v
		}
	}
	best := objective(&p)
	for round := 0; round < 3; round++ {
		improved := false
		for _, name := range names {
			for _, v := range grid[name] {
				pp := p
				set(&pp, name, v)
				if o := objective(&pp); o > best+1e-9 {
					best, p, improved = o, pp, true
				}
			}
		}
		fmt.Fprintf(os.Stderr, "tune round %d: mean hit rate with 1 to %d statements %.3f\n", round+1, p.Max, best)
		if !improved {
			break
		}
	}
	return p
}

func showAnswers(answerable, offTopic []*quality.Question, p *extractive.Params, n int) {
	for _, qs := range [][]*quality.Question{answerable[:min(n, len(answerable))], offTopic[:min(n, len(offTopic))]} {
		for _, q := range qs {
			fmt.Printf("Q: %s\n", q.Text)
			picked := extractive.Select(q.Cands, p)
			if len(picked) == 0 {
				fmt.Println("   Nothing in your library answers that.")
			}
			for _, c := range picked {
				h, _ := isGold(c.Quote, q.Gold)
				mark := " "
				if h {
					mark = "*"
				}
				fmt.Printf(" %s [%d covers %.2f, answer %.2f] %s\n", mark, c.Passage, c.Covers, c.Answer, c.Quote)
			}
			fmt.Println()
		}
	}
}

// latency times `sponge ask --extractive` as a whole process, a new process
// for each question, alternating answerable and unanswerable questions.
func latency(binDir, libDir string, answerable, offTopic []*quality.Question, runs int) error {
	sponge := filepath.Join(binDir, "sponge")
	for _, b := range []string{"sponge", "sponge-search", "sponge-rank", "sponge-draft", "sponge-verify", "sponge-render"} {
		if _, err := os.Stat(filepath.Join(binDir, b)); err != nil {
			return fmt.Errorf("no %s in %s: run make build first", b, binDir)
		}
	}
	var ds []time.Duration
	var rss []int64
	var qs []*quality.Question
	for i := 0; len(qs) < runs; i++ {
		qs = append(qs, answerable[i%len(answerable)])
		if len(qs) < runs {
			qs = append(qs, offTopic[i%len(offTopic)])
		}
	}
	// One run first to warm the page cache.
	exec.Command(sponge, "ask", "--extractive", "--library", libDir, qs[0].Text).Run()
	verifiedAll := true
	for _, q := range qs {
		cmd := exec.Command(sponge, "ask", "--extractive", "--json", "--library", libDir, q.Text)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		t := time.Now()
		// Exit code 4 is a refusal: nothing in the library answers.
		if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != console.ExitNothing {
			return fmt.Errorf("sponge ask %q: %v\n%s", q.Text, err, errb.String())
		}
		ds = append(ds, time.Since(t))
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = append(rss, ru.Maxrss)
		}
		if strings.Contains(out.String(), `"quote-not-found"`) {
			verifiedAll = false
		}
	}
	sort.Slice(rss, func(i, j int) bool { return rss[i] < rss[j] })
	fmt.Printf("Latency of `sponge ask --extractive --json` as a whole process (%d runs, a new process each, warm page cache, %d cores):\n\n", len(ds), runtime.NumCPU())
	fmt.Println(bench.Table([]string{"median", "p95", "max", "peak RSS (largest child)"},
		[][]string{{ms(bench.Percentile(ds, 50)), ms(bench.Percentile(ds, 95)), ms(bench.Percentile(ds, 100)), fmt.Sprintf("%.0f MB", float64(rss[len(rss)-1])/1024)}}))
	if !verifiedAll {
		fmt.Println("WARNING: some extractive quote was not found by sponge-verify")
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

// splitAgreement is the share of gold evidence sentences that the splitter
// returns exactly, from their abstracts.
func splitAgreement(dir string, claims []claim) string {
	docs, err := bench.Corpus(dir)
	if err != nil {
		return "?"
	}
	text := map[string]string{}
	for _, d := range docs {
		text[d.ID] = d.Text
	}
	n, ok := 0, 0
	for _, c := range claims {
		for _, e := range c.Evidence {
			got := map[string]bool{}
			for _, s := range sentences.Sentences(text[fmt.Sprint(e.DocID)]) {
				got[s] = true
			}
			for _, s := range e.Sentences {
				n++
				if got[strings.TrimSpace(s)] {
					ok++
				}
			}
		}
	}
	return fmt.Sprintf("%d of %d (%.3f)", ok, n, float64(ok)/math.Max(1, float64(n)))
}

func readClaims(path string) ([]claim, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []claim
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c claim
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

// readShort reads the short questions, each with the gold sentences of the
// claim it is about.
func readShort(path string, answerable []*quality.Question, claims []claim) ([]*quality.Question, error) {
	lines, err := quality.ReadLines(path, true)
	if err != nil {
		return nil, err
	}
	byID := map[int]string{}
	for _, c := range claims {
		byID[c.ID] = c.Claim
	}
	byText := map[string]*quality.Question{}
	for _, q := range answerable {
		byText[q.Text] = q
	}
	var out []*quality.Question
	for _, l := range lines {
		id, text, ok := strings.Cut(l, "\t")
		var n int
		if _, err := fmt.Sscan(id, &n); err != nil || !ok {
			return nil, fmt.Errorf("%s: bad line %q", path, l)
		}
		c := byText[byID[n]]
		if c == nil {
			return nil, fmt.Errorf("%s: claim %d has no evidence", path, n)
		}
		out = append(out, &quality.Question{Text: strings.TrimSpace(text), Gold: c.Gold, GoldDocs: c.GoldDocs, Short: true})
	}
	return out, nil
}

// closestTable prints, for the floors a refusal's list of closest items
// could have (render.ClosestAbove), how often the list names one of the
// question's own items and how long it is: over every question of each
// half (what a refusal would list) and over those the drafter refuses;
// with rep nil, of the tuning half alone.
func closestTable(what string, tune, rep []*quality.Question, p *extractive.Params, own func(*quality.Question, *jsonl.Hit) bool) {
	type tally struct{ n, listed, items int }
	count := func(qs []*quality.Question, floor float64, refused bool) tally {
		var t tally
		for _, q := range qs {
			if refused && len(extractive.Select(q.Cands, p)) > 0 {
				continue
			}
			t.n++
			found := false
			for _, h := range render.ClosestAbove(q.Hits, floor) {
				t.items++
				found = found || own(q, h)
			}
			if found {
				t.listed++
			}
		}
		return t
	}
	cell := func(t tally) string {
		if t.n == 0 {
			return "-"
		}
		return fmt.Sprintf("%.3f / %.2f (%d)", float64(t.listed)/float64(t.n), float64(t.items)/float64(t.n), t.n)
	}
	var rows [][]string
	for _, floor := range []float64{0, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6} {
		mark := ""
		if floor == render.MinClosest {
			mark = " ← render"
		}
		row := []string{fmt.Sprintf("%.2f", floor) + mark, cell(count(tune, floor, false)), cell(count(tune, floor, true))}
		if rep != nil {
			row = append(row, cell(count(rep, floor, false)), cell(count(rep, floor, true)))
		}
		rows = append(rows, row)
	}
	head := []string{"floor", "tuning: every question", "tuning: refused"}
	if rep != nil {
		head = append(head, "reported: every question", "reported: refused")
	}
	fmt.Printf("Closest items of a refusal (%s; at most %d items; floor: an item is listed when its search score is at least this share of the best hit's, 0 off): the share of questions with an own item listed / items listed per question (questions):\n", what, render.MaxClosest)
	fmt.Println(bench.Table(head, rows))
}
