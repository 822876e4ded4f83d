package quality

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// DemoQuestions is the file of the demo library's questions, from the
// module's top folder; DemoDocs the files the demo library saves.
var (
	DemoQuestions = filepath.Join("internal", "bench", "extractive", "demo-questions.txt")
	DemoDocs      = filepath.Join("testdata", "docs")
)

// DemoQuestion is a question of a questions file (demo-questions.txt) with
// what a person expects of its answer.
type DemoQuestion struct {
	Q      *Question
	Items  map[string]bool // titles of the items it may quote
	Want   []string        // parts of sentences that answer it
	Not    []string        // parts of sentences of those items that must not appear
	Refuse bool
}

// Statement is what an answer shows: the quote and its item's title.
type Statement struct{ Title, Quote string }

// DemoResult counts what a person would notice in the answers.
type DemoResult struct {
	Questions, Answerable     int
	Answered, Statements      int // statements of answered questions
	OffAnswers, OffStatements int // answers with at least one off-topic sentence; such sentences
	WantShown, FirstWant      int // answers showing an expected sentence; first
	RightRefusals, Refusals   int // of the questions it cannot answer; all refusals
	WrongRefusals             int // answerable questions refused
}

// MeanStatements is the mean number of statements of an answer.
func (d DemoResult) MeanStatements() float64 { return Share(d.Statements, d.Answered) }

// DemoHeader heads the columns of DemoResult.Row.
var DemoHeader = []string{"questions", "answers with an off-topic sentence", "off-topic statements", "mean statements",
	"an expected sentence shown", "first statement expected", "rightly refused", "answerable refused"}

// Row is the result as the benchmark's table shows it.
func (d DemoResult) Row() []string {
	return []string{fmt.Sprint(d.Questions), fmt.Sprintf("%d of %d", d.OffAnswers, d.Answered), fmt.Sprintf("%d of %d", d.OffStatements, d.Statements),
		fmt.Sprintf("%.2f", d.MeanStatements()), fmt.Sprintf("%d of %d", d.WantShown, d.Answerable), fmt.Sprintf("%d of %d", d.FirstWant, d.Answerable),
		fmt.Sprintf("%d of %d", d.RightRefusals, d.Questions-d.Answerable), fmt.Sprintf("%d of %d", d.WrongRefusals, d.Answerable)}
}

// Judge adds one answer to r.
func (dq *DemoQuestion) Judge(r *DemoResult, got []Statement) {
	r.Questions++
	if !dq.Refuse {
		r.Answerable++
	}
	if len(got) == 0 {
		r.Refusals++
		if dq.Refuse {
			r.RightRefusals++
		} else {
			r.WrongRefusals++
		}
		return
	}
	r.Answered++
	r.Statements += len(got)
	off, shown := 0, false
	for i, s := range got {
		if dq.OffTopic(s) {
			off++
		}
		if dq.Wanted(s.Quote) {
			shown = true
			if i == 0 {
				r.FirstWant++
			}
		}
	}
	r.OffStatements += off
	if off > 0 {
		r.OffAnswers++
	}
	if shown {
		r.WantShown++
	}
}

// OffTopic: the statement answers another question, or is from an item
// the question is not about, or says what the question's items say of
// something else.
func (dq *DemoQuestion) OffTopic(s Statement) bool {
	if dq.Refuse || !dq.Items[s.Title] {
		return true
	}
	for _, n := range dq.Not {
		if strings.Contains(Norm(s.Quote), n) {
			return true
		}
	}
	return false
}

// Wanted: the quote is one of the sentences that answer the question.
func (dq *DemoQuestion) Wanted(quote string) bool {
	for _, w := range dq.Want {
		if strings.Contains(Norm(quote), w) {
			return true
		}
	}
	return false
}

// Verdict says in a few words how an answer fares, for a person reading a
// failed floor: "refused (right)", "expected sentence first", "2 off-topic".
func (dq *DemoQuestion) Verdict(got []Statement) string {
	if len(got) == 0 {
		if dq.Refuse {
			return "refused (right)"
		}
		return "refused (WRONG: it answers)"
	}
	if dq.Refuse {
		return fmt.Sprintf("answered (WRONG: %d statements, nothing answers it)", len(got))
	}
	off, shown := 0, -1
	for i, s := range got {
		if dq.OffTopic(s) {
			off++
		}
		if shown < 0 && dq.Wanted(s.Quote) {
			shown = i
		}
	}
	says := []string{"NO expected sentence"}
	switch {
	case shown == 0:
		says[0] = "expected sentence first"
	case shown > 0:
		says[0] = fmt.Sprintf("expected sentence shown %d of %d", shown+1, len(got))
	}
	if off > 0 {
		says = append(says, fmt.Sprintf("%d off-topic", off))
	}
	return strings.Join(says, ", ")
}

// ReadDemo reads a questions file: each question on a line "? …", then
// "items: title | title", "want: …" and "not: …" lines, or "refuse".
func ReadDemo(path string) ([]*DemoQuestion, error) {
	lines, err := ReadLines(path, false)
	if err != nil {
		return nil, err
	}
	var out []*DemoQuestion
	var cur *DemoQuestion
	for _, l := range lines {
		if q, ok := strings.CutPrefix(l, "? "); ok {
			cur = &DemoQuestion{Q: &Question{Text: strings.TrimSpace(q)}, Items: map[string]bool{}}
			out = append(out, cur)
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("%s: %q before the first question", path, l)
		}
		key, val, _ := strings.Cut(l, ":")
		val = Norm(val)
		switch {
		case l == "refuse":
			cur.Refuse = true
		case key == "items":
			for _, t := range strings.Split(val, " | ") {
				cur.Items[strings.TrimSpace(t)] = true
			}
		case key == "want":
			cur.Want = append(cur.Want, val)
		case key == "not":
			cur.Not = append(cur.Not, val)
		default:
			return nil, fmt.Errorf("%s: cannot read %q", path, l)
		}
	}
	for _, dq := range out {
		if dq.Refuse == (len(dq.Items) > 0 || len(dq.Want) > 0) {
			return nil, fmt.Errorf("%s: %q needs either items and want lines or refuse", path, dq.Q.Text)
		}
	}
	return out, nil
}

// ReadLines reads the lines of path that are not empty or comments; with
// unique, a line written twice is an error.
func ReadLines(path string, unique bool) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		// A question written twice would count twice.
		if unique && seen[l] {
			return nil, fmt.Errorf("%s: %q is there twice", path, l)
		}
		seen[l] = true
		out = append(out, l)
	}
	return out, nil
}

// Demo is a library saved as sponge add saves files, and questions asked
// of it with what their answers must hold.
type Demo struct {
	Dir       string // the library
	Questions []*DemoQuestion
}

// LoadDemo saves testdata/docs in a new library at dir as sponge add does,
// and asks each question of demo-questions.txt through the search and rank
// stages in this process, preparing the drafter's candidates under p.
func LoadDemo(dir string, p *extractive.Params) (*Demo, error) {
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	qs, err := ReadDemo(filepath.Join(root, DemoQuestions))
	if err != nil {
		return nil, err
	}
	d := &Demo{Dir: dir, Questions: qs}
	if err := AddFiles(dir, filepath.Join(root, DemoDocs)); err != nil {
		return d, fmt.Errorf("saving %s: %w", DemoDocs, err)
	}
	return d, d.Ask(p)
}

// Ask asks every question of the library through the search and rank
// stages and prepares its candidates under p; DocOf gives item titles.
func (d *Demo) Ask(p *extractive.Params) error {
	lib, x, err := Open(d.Dir)
	if err != nil {
		return err
	}
	defer x.Close()
	for _, dq := range d.Questions {
		if err := Ask(lib, x, dq.Q); err != nil {
			return err
		}
		for _, ps := range dq.Q.Passages {
			dq.Q.DocOf[ps.Number] = ps.Title
		}
		Prepare([]*Question{dq.Q}, p, x, true)
	}
	return nil
}

// Answer is what the drafter answers dq under p (the candidates prepared).
func (d *Demo) Answer(dq *DemoQuestion, p *extractive.Params) []Statement {
	var got []Statement
	for _, c := range extractive.Select(dq.Q.CandidatesFor(p), p) {
		got = append(got, Statement{dq.Q.DocOf[c.Passage], c.Quote})
	}
	return got
}

// Eval answers every question under p in this process and counts.
func (d *Demo) Eval(p *extractive.Params) DemoResult {
	var r DemoResult
	for _, dq := range d.Questions {
		dq.Judge(&r, d.Answer(dq, p))
	}
	return r
}
