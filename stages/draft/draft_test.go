package draft

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/testsupport"

	"github.com/google/go-cmp/cmp"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/testsupport/stagetest"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/rank"
	"github.com/sponge-library/sponge/stages/search"
	"github.com/sponge-library/sponge/stages/verify"
)

var (
	update = flag.Bool("update", false, "write the golden files instead of comparing")
	inputs = flag.Bool("inputs", false, "remake in.jsonl of the golden cases that have a question.txt, with sponge-search | sponge-rank on the test library")
)

// testLibrary is the fixture library of the verify stage (tea notes, a PDF
// handbook, a podcast, coffee notes) with its search index, built once.
func testLibrary() string { return stagetest.Library() }

func TestMain(m *testing.M) {
	code := testsupport.Isolated(m).Run()
	stagetest.Cleanup()
	os.Exit(code)
}

func golden() string { return filepath.Join("..", "..", "golden", "draft") }

func TestGolden(t *testing.T) {
	t.Parallel()
	// The golden cases need the build without model seams: they show the
	// extractive drafter and the choice made when no model is available.
	rt := Runtimes{}
	if *inputs {
		makeInputs(t)
	}
	stagetest.Golden(t, golden(), mainWith(rt), testLibrary(), *update, "want.jsonl", nil)
}

// mainWith is the stage's Main with the runtimes rt: a test gives the
// stage the runtimes it wants (none: a build without the embedded runtime
// and the endpoint client).
func mainWith(rt Runtimes) stagetest.MainFunc {
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return MainWith(rt, args, stdin, stdout, stderr)
	}
}

// makeInputs runs the real search and rank stages for every golden case
// with a question.txt, so the passages are what sponge ask would draft from.
func makeInputs(t *testing.T) {
	cases, _ := os.ReadDir(golden())
	for _, c := range cases {
		q, err := os.ReadFile(filepath.Join(golden(), c.Name(), "question.txt"))
		if err != nil {
			continue
		}
		var hits, passages, errb bytes.Buffer
		if code := search.Main([]string{"--library", testLibrary(), strings.TrimSpace(string(q))}, nil, &hits, &errb); code != 0 {
			t.Fatalf("%s: search: %s", c.Name(), errb.String())
		}
		if code := rank.Main([]string{"--library", testLibrary()}, &hits, &passages, &errb); code != 0 {
			t.Fatalf("%s: rank: %s", c.Name(), errb.String())
		}
		if err := os.WriteFile(filepath.Join(golden(), c.Name(), "in.jsonl"), passages.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fakeDrafter writes the statements it is given, waiting on next (when set)
// before each one after the first, and then returns err.
type fakeDrafter struct {
	name       string
	statements []*jsonl.Statement
	next       chan struct{}
	err        error
	gotQ       string
	gotP       int
}

func (f *fakeDrafter) Name() string { return f.name }

func (f *fakeDrafter) Draft(ctx context.Context, q string, ps []*jsonl.Passage, emit func(*jsonl.Statement) error) error {
	f.gotQ, f.gotP = q, len(ps)
	for i, s := range f.statements {
		if i > 0 && f.next != nil {
			select {
			case <-f.next:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err := emit(s); err != nil {
			return err
		}
	}
	return f.err
}

const teaInput = `{"v":1,"type":"question","text":"how hot should green tea be?","limit":8}
{"v":1,"type":"passage","number":1,"itemId":"` + stagetest.TeaNotes + `","title":"Tea notes","heading":"Green tea","paragraph":0,"text":"Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter.","score":1}
`

func records(t *testing.T, out string) []jsonl.Record {
	t.Helper()
	var recs []jsonl.Record
	rd := jsonl.NewReader(strings.NewReader(out), "<stdout>")
	for {
		l, err := rd.Next()
		if err == io.EOF {
			return recs
		}
		if err != nil {
			t.Fatalf("the output is not a valid stream: %v\n%s", err, out)
		}
		recs = append(recs, l.Record)
	}
}

func types(recs []jsonl.Record) []string {
	var ts []string
	for _, r := range recs {
		ts = append(ts, jsonl.TypeOf(r))
	}
	return ts
}

// TestStreams checks that each statement is written as soon as the drafter
// makes it, before the next one is made.
func TestStreams(t *testing.T) {
	t.Parallel()
	rt := Runtimes{}
	f := &fakeDrafter{name: "slow-model", next: make(chan struct{}), statements: []*jsonl.Statement{
		{Text: "Cooler than black tea.", Passage: 1, Quote: "at a lower temperature than black tea"},
		{Text: "About eighty degrees.", Passage: 1, Quote: "usually around eighty degrees"},
	}}
	rt.OpenEndpoint = func(endpoint, model string, opt ModelOptions) (Drafter, error) { return f, nil }
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- MainWith(rt, []string{"--endpoint", "http://127.0.0.1:1"}, strings.NewReader(teaInput), outW, io.Discard)
		outW.Close()
	}()
	out := bufio.NewReader(outR)
	var got []string
	for len(got) < 4 { // question, passage, model, first statement
		l, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("output ended after %d lines: %v", len(got), err)
		}
		got = append(got, l)
	}
	if !strings.Contains(got[3], "Cooler than black tea.") {
		t.Fatalf("the first statement was not written before the second was made: %q", got)
	}
	close(f.next)
	rest, _ := io.ReadAll(out)
	if c := <-code; c != 0 {
		t.Fatalf("exit code %d", c)
	}
	recs := records(t, strings.Join(got, "")+string(rest))
	want := []string{"question", "passage", "model", "statement", "statement", "done"}
	if d := cmp.Diff(want, types(recs)); d != "" {
		t.Errorf("records (-want +got):\n%s", d)
	}
	if done := recs[len(recs)-1].(*jsonl.Done); done.Statements != 2 || done.Stage != Prog {
		t.Errorf("done record %+v", done)
	}
	if f.gotQ != "how hot should green tea be?" || f.gotP != 1 {
		t.Errorf("the drafter got question %q and %d passages", f.gotQ, f.gotP)
	}
}

// A drafter that fails after a statement: the statement stays, no done
// record is written (so render knows the answer was cut), exit 1.
func TestDrafterFails(t *testing.T) {
	t.Parallel()
	rt := Runtimes{}
	rt.OpenEndpoint = func(endpoint, model string, opt ModelOptions) (Drafter, error) {
		return &fakeDrafter{name: "m", err: console.Errorf("the server at %s stopped answering", endpoint),
			statements: []*jsonl.Statement{{Text: "Cooler.", Passage: 1, Quote: "at a lower temperature"}}}, nil
	}
	r := stagetest.Run(mainWith(rt), []string{"--endpoint", "http://127.0.0.1:9"}, []byte(teaInput), "whole")
	if r.Code != console.ExitFailure || r.Stderr != "sponge-draft: error: the server at http://127.0.0.1:9 stopped answering\n" {
		t.Errorf("code %d, stderr %q", r.Code, r.Stderr)
	}
	if d := cmp.Diff([]string{"question", "passage", "model", "statement"}, types(records(t, r.Stdout))); d != "" {
		t.Errorf("records (-want +got):\n%s", d)
	}
}

func TestChoose(t *testing.T) {
	t.Parallel()
	lib := t.TempDir()
	models := t.TempDir() // the shared models folder: empty
	if _, err := library.Create(lib); err != nil {
		t.Fatal(err)
	}
	// A model installed in the library's own folder, before models were
	// shared, is still used.
	modelFile := filepath.Join(lib, "models", ModelFileName)
	os.MkdirAll(filepath.Dir(modelFile), 0o755)
	var openedEmbedded, openedEndpoint string
	fakeEmbedded := func(path string, opt ModelOptions) (Drafter, error) {
		openedEmbedded = path
		if opt.MaxStatements != jsonl.MaxStatements || opt.Threads != 3 {
			t.Errorf("embedded opened with %+v", opt)
		}
		return &fakeDrafter{name: "qwen2.5-0.5b-instruct"}, nil
	}
	fakeEndpoint := func(endpoint, model string, opt ModelOptions) (Drafter, error) {
		openedEndpoint = endpoint + " " + model
		return &fakeDrafter{name: model}, nil
	}
	run := func(rt Runtimes, args ...string) (jsonl.Record, []jsonl.Record, stagetest.Result) {
		openedEmbedded, openedEndpoint = "", ""
		r := stagetest.Run(mainWith(rt), append([]string{"--library", lib, "--models", models}, args...), []byte(teaInput), "whole")
		recs := records(t, r.Stdout)
		var model jsonl.Record
		var warnings []jsonl.Record
		for _, rec := range recs {
			switch rec.(type) {
			case *jsonl.Model:
				model = rec
			case *jsonl.Warning:
				warnings = append(warnings, rec)
			}
		}
		return model, warnings, r
	}
	name := func(m jsonl.Record) string {
		if m == nil {
			return ""
		}
		return m.(*jsonl.Model).Name
	}

	t.Run("no model set up", func(t *testing.T) {
		rt := Runtimes{}
		rt.OpenEmbedded, rt.OpenEndpoint = fakeEmbedded, fakeEndpoint
		m, ws, r := run(rt, "--threads", "3")
		if r.Code != 0 || name(m) != jsonl.ModelExtractive || len(ws) != 1 {
			t.Fatalf("code %d, model %q, warnings %v, stderr %q", r.Code, name(m), ws, r.Stderr)
		}
		w := ws[0].(*jsonl.Warning)
		if w.Code != jsonl.WarnModelUnavailable || w.Hint != "run sponge setup --digest for written statements" {
			t.Errorf("warning %+v", w)
		}
	})
	if err := os.WriteFile(modelFile, []byte("GGUF"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("model file", func(t *testing.T) {
		rt := Runtimes{}
		rt.OpenEmbedded, rt.OpenEndpoint = fakeEmbedded, fakeEndpoint
		m, ws, r := run(rt, "--threads", "3")
		if r.Code != 0 || name(m) != "qwen2.5-0.5b-instruct" || openedEmbedded != modelFile || len(ws) != 0 {
			t.Errorf("code %d, model %q, opened %q, warnings %v, stderr %q", r.Code, name(m), openedEmbedded, ws, r.Stderr)
		}
	})
	t.Run("shared model file", func(t *testing.T) {
		rt := Runtimes{}
		rt.OpenEmbedded, rt.OpenEndpoint = fakeEmbedded, fakeEndpoint
		shared := filepath.Join(models, ModelFileName)
		if err := os.WriteFile(shared, []byte("GGUF"), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(shared)
		m, _, r := run(rt, "--threads", "3")
		if r.Code != 0 || name(m) != "qwen2.5-0.5b-instruct" || openedEmbedded != shared {
			t.Errorf("code %d, model %q, opened %q (want the shared %s), stderr %q", r.Code, name(m), openedEmbedded, shared, r.Stderr)
		}
	})
	t.Run("model file without the runtime", func(t *testing.T) {
		rt := Runtimes{}
		m, ws, r := run(rt)
		if r.Code != 0 || name(m) != jsonl.ModelExtractive || len(ws) != 1 ||
			ws[0].(*jsonl.Warning).Hint != "build sponge-draft with cgo (make build) for written statements" {
			t.Errorf("code %d, model %q, warnings %v", r.Code, name(m), ws)
		}
	})
	t.Run("--extractive wins over a model", func(t *testing.T) {
		rt := Runtimes{}
		rt.OpenEmbedded, rt.OpenEndpoint = fakeEmbedded, fakeEndpoint
		m, ws, r := run(rt, "--extractive")
		if r.Code != 0 || name(m) != jsonl.ModelExtractive || openedEmbedded != "" || len(ws) != 0 {
			t.Errorf("code %d, model %q, opened %q, warnings %v", r.Code, name(m), openedEmbedded, ws)
		}
	})
	t.Run("--endpoint", func(t *testing.T) {
		rt := Runtimes{}
		rt.OpenEmbedded, rt.OpenEndpoint = fakeEmbedded, fakeEndpoint
		m, _, r := run(rt, "--endpoint", "http://127.0.0.1:8080", "--model", "llama3")
		if r.Code != 0 || name(m) != "llama3" || openedEndpoint != "http://127.0.0.1:8080 llama3" || openedEmbedded != "" {
			t.Errorf("code %d, model %q, endpoint %q", r.Code, name(m), openedEndpoint)
		}
	})
	t.Run("--endpoint without endpoint support", func(t *testing.T) {
		rt := Runtimes{}
		_, _, r := run(rt, "--endpoint", "http://127.0.0.1:8080")
		if r.Code != console.ExitFailure || r.Stderr != "sponge-draft: error: this sponge-draft was built without --endpoint support\nsponge-draft: hint: use --extractive, or a full build of sponge-draft\n" {
			t.Errorf("code %d, stderr %q", r.Code, r.Stderr)
		}
		// The drafter is chosen before anything is passed on: a failure
		// leaves no half an answer behind.
		if r.Stdout != "" {
			t.Errorf("output before the failure: %q", r.Stdout)
		}
	})
	t.Run("--model-file missing", func(t *testing.T) {
		rt := Runtimes{}
		rt.OpenEmbedded = fakeEmbedded
		_, _, r := run(rt, "--model-file", filepath.Join(lib, "none.gguf"))
		if r.Code != console.ExitFailure || !strings.HasPrefix(r.Stderr, "sponge-draft: error: cannot read the model file ") {
			t.Errorf("code %d, stderr %q", r.Code, r.Stderr)
		}
	})
	t.Run("loading fails", func(t *testing.T) {
		rt := Runtimes{}
		rt.OpenEmbedded = func(string, ModelOptions) (Drafter, error) {
			return nil, console.Errorf("%s is not a GGUF model", modelFile).WithHint("run sponge setup --digest")
		}
		_, _, r := run(rt)
		if r.Code != console.ExitFailure || r.Stderr != "sponge-draft: error: "+modelFile+" is not a GGUF model\nsponge-draft: hint: run sponge setup --digest\n" {
			t.Errorf("code %d, stderr %q", r.Code, r.Stderr)
		}
	})
}

// With neither the library nor its index, the extractive drafter still
// answers, weighing words by the passages alone.
func TestExtractiveWithoutLibrary(t *testing.T) {
	t.Parallel()
	rt := Runtimes{}
	r := stagetest.Run(mainWith(rt), []string{"--extractive", "--library", filepath.Join(t.TempDir(), "none")}, []byte(teaInput), "whole")
	recs := records(t, r.Stdout)
	if r.Code != 0 || r.Stderr != "" {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	if d := cmp.Diff([]string{"question", "passage", "model", "statement", "done"}, types(recs)); d != "" {
		t.Fatalf("records (-want +got):\n%s", d)
	}
	s := recs[3].(*jsonl.Statement)
	want := "Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter."
	if s.Quote != want || s.Text != want || s.Passage != 1 {
		t.Errorf("statement %+v", s)
	}
}

// Every quote the extractive drafter writes is found by sponge-verify.
func TestExtractiveQuotesVerify(t *testing.T) {
	t.Parallel()
	rt := Runtimes{}
	cases, _ := os.ReadDir(golden())
	checked := 0
	for _, c := range cases {
		in, err := os.ReadFile(filepath.Join(golden(), c.Name(), "in.jsonl"))
		if _, bad := os.Stat(filepath.Join(golden(), c.Name(), "want.code")); err != nil || bad == nil || !bytes.Contains(in, []byte(`"type":"passage"`)) {
			continue
		}
		var drafted, verified, errb bytes.Buffer
		if code := MainWith(rt, []string{"--extractive", "--library", testLibrary()}, bytes.NewReader(in), &drafted, &errb); code != 0 {
			t.Fatalf("%s: draft: %s", c.Name(), errb.String())
		}
		if code := verify.Main([]string{"--library", testLibrary()}, &drafted, &verified, &errb); code != 0 {
			t.Fatalf("%s: verify: %s", c.Name(), errb.String())
		}
		for _, rec := range records(t, verified.String()) {
			switch rec := rec.(type) {
			case *jsonl.Statement:
				t.Errorf("%s: a statement passed verify unchecked: %+v", c.Name(), rec)
			case *jsonl.LeftOut:
				t.Errorf("%s: verify left out %q: %s", c.Name(), rec.Quote, rec.Reason)
			case *jsonl.Verified:
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no golden case gave a statement to verify")
	}
}

func TestHiddenModesWithoutRuntime(t *testing.T) {
	t.Parallel()
	rt := Runtimes{}
	for _, args := range [][]string{{"--check-model", "x.gguf"}, {"--serve", "--port", "7702"}} {
		r := stagetest.Run(mainWith(rt), args, nil, "whole")
		if r.Code != console.ExitFailure || !strings.HasPrefix(r.Stderr, "sponge-draft: error: this sponge-draft was built without the model runtime (cgo)") {
			t.Errorf("%v: code %d, stderr %q", args, r.Code, r.Stderr)
		}
	}
	var got *Options
	rt.CheckModel = func(o *Options, stdout, stderr io.Writer) int { got = o; return 0 }
	if r := stagetest.Run(mainWith(rt), []string{"--check-model", "m.gguf", "--threads", "2"}, nil, "whole"); r.Code != 0 || got == nil || got.CheckModel != "m.gguf" || got.Threads != 2 {
		t.Errorf("--check-model: code %d, options %+v", r.Code, got)
	}
}

// Issue 43: sponge serve's child, given --until-eof, stops when its stdin
// ends (sponge serve holds the other end, so when sponge serve is gone,
// even killed); without it the end of stdin does not stop the server.
func TestServeUntilEOF(t *testing.T) {
	t.Parallel()
	for _, untilEOF := range []bool{true, false} {
		release := make(chan struct{})
		var rt Runtimes
		rt.Serve = func(ctx context.Context, opts *Options, stdout, stderr io.Writer) int {
			select {
			case <-ctx.Done():
				return 0
			case <-release:
				return 5
			}
		}
		args := []string{"--serve"}
		if untilEOF {
			args = append(args, "--until-eof")
		}
		r, w := io.Pipe()
		code := make(chan int, 1)
		go func() { code <- MainWith(rt, args, r, io.Discard, io.Discard) }()
		time.Sleep(50 * time.Millisecond)
		w.Close()
		select {
		case c := <-code:
			if !untilEOF || c != 0 {
				t.Errorf("%v: the end of stdin ended it with exit %d", args, c)
			}
		case <-time.After(500 * time.Millisecond):
			if untilEOF {
				t.Errorf("%v: still serving after the end of stdin", args)
			}
			close(release)
			<-code
		}
	}
	if r := stagetest.Run(mainWith(Runtimes{}), []string{"--until-eof"}, nil, "whole"); r.Code != console.ExitUsage {
		t.Errorf("--until-eof without --serve: exit %d, stderr %q", r.Code, r.Stderr)
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	r := stagetest.Run(Main, []string{"--help"}, nil, "whole")
	if r.Code != 0 || !strings.Contains(r.Stdout, "--extractive") || !strings.Contains(r.Stdout, "Exit codes:") {
		t.Errorf("--help: code %d, stdout %q", r.Code, r.Stdout)
	}
	if strings.Contains(r.Stdout, "--serve") || strings.Contains(r.Stdout, "--check-model") {
		t.Errorf("--help shows the hidden modes: %q", r.Stdout)
	}
}

// TestPassageTokensFlag: --passage-tokens defaults to DefaultPassageTokens
// and says so; 0 lifts the limit; less than 0 is a usage error.
func TestPassageTokensFlag(t *testing.T) {
	t.Parallel()
	r := stagetest.Run(Main, []string{"--help"}, nil, "whole")
	if want := "(default: " + strconv.Itoa(DefaultPassageTokens) + ")"; !strings.Contains(r.Stdout, "--passage-tokens") || !strings.Contains(r.Stdout, want) {
		t.Errorf("--help does not say --passage-tokens defaults to %d: %q", DefaultPassageTokens, r.Stdout)
	}
	for n, want := range map[int]int{DefaultPassageTokens: DefaultPassageTokens, 0: -1, 50: 50} {
		if got := (&Options{PassageTokens: n}).modelOptions(nil).PassageTokens; got != want {
			t.Errorf("--passage-tokens %d gives the model %d, want %d", n, got, want)
		}
	}
	r = stagetest.Run(Main, []string{"--passage-tokens", "-1"}, nil, "whole")
	if r.Code != 2 || !strings.Contains(r.Stderr, "--passage-tokens must be 0 (no limit) or more") {
		t.Errorf("--passage-tokens -1: code %d, stderr %q", r.Code, r.Stderr)
	}
}

// TestLongLine checks a passage of more than 1 MiB.
func TestLongLine(t *testing.T) {
	t.Parallel()
	rt := Runtimes{}
	text := strings.Repeat("Green tea is steeped at a lower temperature. ", 25000)
	in := `{"v":1,"type":"question","text":"how hot should green tea be?"}` + "\n" +
		`{"v":1,"type":"passage","number":1,"itemId":"` + stagetest.TeaNotes + `","title":"Tea notes","paragraph":0,"text":"` + text + `","score":1}` + "\n"
	r := stagetest.Run(mainWith(rt), []string{"--extractive", "--library", testLibrary()}, []byte(in), "chunks")
	recs := records(t, r.Stdout)
	if r.Code != 0 || len(recs) < 4 || recs[1].(*jsonl.Passage).Text != text {
		t.Fatalf("long line: code %d, %d records, stderr %q", r.Code, len(recs), r.Stderr)
	}
	// The same sentence a thousand times is one statement, not six.
	if d := cmp.Diff([]string{"question", "passage", "model", "statement", "done"}, types(recs)); d != "" {
		t.Errorf("records (-want +got):\n%s", d)
	}
}

// An interrupted draft (the context ends) stops the drafter.
func TestInterrupted(t *testing.T) {
	t.Parallel()
	rt := Runtimes{}
	f := &fakeDrafter{name: "m", next: make(chan struct{}), statements: []*jsonl.Statement{{Text: "a", Passage: 1, Quote: "b"}, {Text: "c", Passage: 1, Quote: "d"}}}
	rt.OpenEndpoint = func(string, string, ModelOptions) (Drafter, error) { return f, nil }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		st := &Stage{Options: Options{Endpoint: "http://127.0.0.1:1"}, Stderr: io.Discard, Runtimes: rt}
		done <- st.Run(ctx, jsonl.NewReader(strings.NewReader(teaInput), "<stdin>"), jsonl.NewWriter(io.Discard))
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("run returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the drafter did not stop")
	}
}

// abandoningDrafter is a model that began statements and finished none.
type abandoningDrafter struct {
	fakeDrafter
	abandoned int
}

func (a *abandoningDrafter) Abandoned() int { return a.abandoned }

// TestEmptyAnswerSaysWhy (issue 43): a model that writes no statement
// either chose to (a refusal: no warning, --explain says so) or began
// statements and could finish none, which is no refusal: a warning, and
// --explain says it.
func TestEmptyAnswerSaysWhy(t *testing.T) {
	t.Parallel()
	lib, models := t.TempDir(), t.TempDir()
	modelFile := filepath.Join(models, ModelFileName)
	if err := os.WriteFile(modelFile, []byte("GGUF"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		abandoned int
		explain   bool
		warning   bool
		why       string
	}{
		{"refused", 0, false, false, ""},
		{"refused, explained", 0, true, false, "sponge-draft: why: nothing written: the model chose to write no statement (it found no answer in the passages)\n"},
		{"gave up", 1, false, true, ""},
		{"gave up, explained", 2, true, true, "sponge-draft: why: nothing written: the model began a statement but could not finish its quote from the passages, so it wrote nothing that could be checked (not a refusal: the passages may hold an answer)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := Runtimes{OpenEmbedded: func(string, ModelOptions) (Drafter, error) {
				return &abandoningDrafter{fakeDrafter{name: "qwen"}, tc.abandoned}, nil
			}}
			args := []string{"--library", lib, "--models", models}
			if tc.explain {
				args = append(args, "--explain")
			}
			r := stagetest.Run(mainWith(rt), args, []byte(teaInput), "whole")
			if r.Code != 0 || r.Stderr != tc.why {
				t.Fatalf("code %d, stderr %q, want %q", r.Code, r.Stderr, tc.why)
			}
			var warnings []*jsonl.Warning
			for _, rec := range records(t, r.Stdout) {
				if w, ok := rec.(*jsonl.Warning); ok {
					warnings = append(warnings, w)
				}
			}
			if got := len(warnings) == 1 && warnings[0].Code == jsonl.WarnModelNothingChecked; got != tc.warning || !tc.warning && len(warnings) != 0 {
				t.Errorf("warnings %+v, want a %s warning: %v", warnings, jsonl.WarnModelNothingChecked, tc.warning)
			}
		})
	}
}
