package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// demoQuestion is a question of demo-questions.txt with what a person
// expects of its answer.
type demoQuestion struct {
	q      *question
	items  map[string]bool // titles of the items it may quote
	want   []string        // parts of sentences that answer it
	not    []string        // parts of sentences of those items that must not appear
	refuse bool
}

// demoSet is the demo library (testdata/docs, saved by `sponge add`), or
// another library saved the same way, and the questions asked of it.
type demoSet struct {
	dir string // the library
	qs  []*demoQuestion
	// what names the library and its questions file in check's output.
	what string
}

// statement is what an answer shows: the quote and its item's title.
type statement struct{ title, quote string }

// demoResult counts what a person would notice in the demo answers.
type demoResult struct {
	questions, answerable int
	answered, statements  int // statements of answered questions
	offAnswers            int // answers with at least one off-topic sentence
	offStatements         int
	wantShown, firstWant  int // answers showing an expected sentence; first
	rightRefusals         int // of the questions it cannot answer
	refusals              int
	wrongRefusals         int // answerable questions refused
}

func (d demoResult) meanStatements() float64 {
	if d.answered == 0 {
		return 0
	}
	return float64(d.statements) / float64(d.answered)
}

// loadDemo saves testdata/docs in a new library with the built `sponge
// add`, and asks each question through the search and rank stages in
// process, for the padding rules.
func loadDemo(binDir string, p *extractive.Params) (*demoSet, error) {
	qs, err := readDemo(filepath.Join(benchDir, "demo-questions.txt"))
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "sponge-demo-")
	if err != nil {
		return nil, err
	}
	d := &demoSet{dir: filepath.Join(tmp, "library"), qs: qs, what: "The demo library (testdata/docs) asked the questions of demo-questions.txt"}
	cmd := exec.Command(filepath.Join(binDir, "sponge"), "add", "--library", d.dir, filepath.Join("testdata", "docs"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return d, fmt.Errorf("sponge add testdata/docs: %v\n%s", err, out)
	}
	lib, err := library.Open(d.dir)
	if err != nil {
		return d, err
	}
	x, err := index.Open(lib.IndexDir())
	if err != nil {
		return d, err
	}
	defer x.Close()
	for _, dq := range d.qs {
		if err := ask(lib, x, dq.q); err != nil {
			return d, err
		}
		for _, ps := range dq.q.passages {
			dq.q.docOf[ps.Number] = ps.Title
		}
		prepare([]*question{dq.q}, p, x)
	}
	return d, nil
}

// judge adds one answer to r.
func (dq *demoQuestion) judge(r *demoResult, got []statement) {
	r.questions++
	if !dq.refuse {
		r.answerable++
	}
	if len(got) == 0 {
		r.refusals++
		if dq.refuse {
			r.rightRefusals++
		} else {
			r.wrongRefusals++
		}
		return
	}
	r.answered++
	r.statements += len(got)
	off, shown := 0, false
	for i, s := range got {
		if dq.offTopic(s) {
			off++
		}
		if dq.wanted(s.quote) {
			shown = true
			if i == 0 {
				r.firstWant++
			}
		}
	}
	r.offStatements += off
	if off > 0 {
		r.offAnswers++
	}
	if shown {
		r.wantShown++
	}
}

func (dq *demoQuestion) offTopic(s statement) bool {
	if dq.refuse || !dq.items[s.title] {
		return true
	}
	for _, n := range dq.not {
		if strings.Contains(norm(s.quote), n) {
			return true
		}
	}
	return false
}

func (dq *demoQuestion) wanted(quote string) bool {
	for _, w := range dq.want {
		if strings.Contains(norm(quote), w) {
			return true
		}
	}
	return false
}

// evalIn answers the questions in process under p.
func (d *demoSet) evalIn(p *extractive.Params) demoResult {
	var r demoResult
	for _, dq := range d.qs {
		var got []statement
		cands := dq.q.cands
		if p.Sentences {
			cands = dq.q.whole
		}
		for _, c := range extractive.Select(cands, p) {
			got = append(got, statement{dq.q.docOf[c.Passage], c.Quote})
		}
		dq.judge(&r, got)
	}
	return r
}

// check asks every question through `sponge ask --extractive --json`,
// prints each answer with its off-topic sentences marked, and the counts.
func (d *demoSet) check(binDir string) error {
	fmt.Printf("%s (%d) through `sponge ask --extractive --json`\n", d.what, len(d.qs))
	fmt.Println("(+ an expected sentence, - an off-topic one):")
	fmt.Println()
	var r demoResult
	for _, dq := range d.qs {
		cmd := exec.Command(filepath.Join(binDir, "sponge"), "ask", "--extractive", "--json", "--library", d.dir, dq.q.text)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		// Exit code 4 is a refusal: nothing in the library answers.
		if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != console.ExitNothing {
			return fmt.Errorf("sponge ask %q: %v\n%s", dq.q.text, err, errb.String())
		}
		var answer struct {
			Answered bool `json:"answered"`
			Claims   []struct {
				Title string `json:"title"`
				Quote string `json:"quote"`
			} `json:"claims"`
		}
		if err := json.Unmarshal(out.Bytes(), &answer); err != nil {
			return fmt.Errorf("sponge ask --json %q: %v", dq.q.text, err)
		}
		var got []statement
		for _, c := range answer.Claims {
			got = append(got, statement{c.Title, c.Quote})
		}
		dq.judge(&r, got)
		fmt.Printf("Q: %s\n", dq.q.text)
		if !answer.Answered || len(got) == 0 {
			verdict := "(right)"
			if !dq.refuse {
				verdict = "(WRONG: it answers)"
			}
			fmt.Printf("   Nothing in your library answers that. %s\n", verdict)
		}
		for _, s := range got {
			mark := " "
			switch {
			case dq.offTopic(s):
				mark = "-"
			case dq.wanted(s.quote):
				mark = "+"
			}
			fmt.Printf(" %s %s  [%s]\n", mark, s.quote, s.title)
		}
		fmt.Println()
	}
	fmt.Println(bench.Table([]string{"questions", "answers with an off-topic sentence", "off-topic statements", "mean statements", "an expected sentence shown", "first statement expected", "rightly refused", "answerable refused"},
		[][]string{{fmt.Sprint(r.questions), fmt.Sprintf("%d of %d", r.offAnswers, r.answered), fmt.Sprintf("%d of %d", r.offStatements, r.statements),
			fmt.Sprintf("%.2f", r.meanStatements()), fmt.Sprintf("%d of %d", r.wantShown, r.answerable), fmt.Sprintf("%d of %d", r.firstWant, r.answerable),
			fmt.Sprintf("%d of %d", r.rightRefusals, r.questions-r.answerable), fmt.Sprintf("%d of %d", r.wrongRefusals, r.answerable)}}))
	return nil
}

// readDemo reads demo-questions.txt.
func readDemo(path string) ([]*demoQuestion, error) {
	lines, err := readLines(path, false)
	if err != nil {
		return nil, err
	}
	var out []*demoQuestion
	var cur *demoQuestion
	for _, l := range lines {
		if q, ok := strings.CutPrefix(l, "? "); ok {
			cur = &demoQuestion{q: &question{text: strings.TrimSpace(q)}, items: map[string]bool{}}
			out = append(out, cur)
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("%s: %q before the first question", path, l)
		}
		key, val, _ := strings.Cut(l, ":")
		val = norm(val)
		switch {
		case l == "refuse":
			cur.refuse = true
		case key == "items":
			for _, t := range strings.Split(val, " | ") {
				cur.items[strings.TrimSpace(t)] = true
			}
		case key == "want":
			cur.want = append(cur.want, val)
		case key == "not":
			cur.not = append(cur.not, val)
		default:
			return nil, fmt.Errorf("%s: cannot read %q", path, l)
		}
	}
	for _, dq := range out {
		if dq.refuse == (len(dq.items) > 0 || len(dq.want) > 0) {
			return nil, fmt.Errorf("%s: %q needs either items and want lines or refuse", path, dq.q.text)
		}
	}
	return out, nil
}
