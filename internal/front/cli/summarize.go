package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/base/termtext"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/rank"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/verify"
)

func init() {
	cmdline.Implement(runs, "summarize", runSummarize)
}

func runSummarize(env *Env, opts *cmdline.SummarizeOptions, rest []string) int {
	switch {
	case opts.All && len(rest) > 0:
		return console.Report(env.Stderr, Prog, console.Usage("give item ids or --all, not both"))
	case !opts.All && len(rest) == 0:
		return console.Report(env.Stderr, Prog, console.Usage("summarize needs item ids, or --all").
			WithHint("run 'sponge list' to see the ids"))
	case opts.Extractive && opts.Endpoint != "":
		return console.Report(env.Stderr, Prog, console.Usage("--extractive and --endpoint do not go together"))
	case opts.Timeout <= 0:
		return console.Report(env.Stderr, Prog, console.Usage("--timeout must be more than 0, not %s", opts.Timeout))
	}
	lib, err := library.Open(opts.Library)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	sz, err := newSummarizer(env, lib, opts.Extractive, opts.Endpoint, opts.Model, opts.Timeout)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	var ids []string
	failed := 0
	for _, a := range rest {
		id, err := lib.Resolve(a)
		if err != nil {
			console.Report(env.Stderr, Prog, err)
			failed++
			continue
		}
		ids = append(ids, id)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if opts.All {
		if ids, err = sz.todo(ctx); err != nil {
			return console.Report(env.Stderr, Prog, err)
		}
	}
	if opts.All && len(ids) == 0 {
		if !opts.Quiet {
			fmt.Fprintln(env.Stdout, "every item has a summary by the model that writes now: nothing to summarize")
		}
		return console.ExitOK
	}
	n, f := sz.run(ctx, ids, !opts.All && !opts.Quiet, opts.Quiet)
	failed += f
	if ctx.Err() != nil {
		console.PrintError(env.Stderr, Prog, fmt.Sprintf("stopped: summarized %d of %s", n, cmdline.Count(len(ids), "item")))
		console.PrintHint(env.Stderr, Prog, "the summaries made are saved; run 'sponge summarize --all' to go on")
		return console.ExitInterrupted
	}
	if opts.All && !opts.Quiet {
		fmt.Fprintf(env.Stdout, "summarized %d, failed %d\n", n, failed)
	}
	if failed > 0 {
		return console.ExitFailure
	}
	return console.ExitOK
}

// summarizer runs the stages of a summary for one item after another, and
// saves each summary with its item.
type summarizer struct {
	env    *Env
	lib    *library.Library
	steps  func(id string) []pipeline.Step
	draft  string // sponge-draft's path
	warned map[string]bool
}

func newSummarizer(env *Env, lib *library.Library, extractive bool, endpoint, model string, timeout time.Duration) (*summarizer, error) {
	a := pipeline.Ask{Library: lib.Dir, Models: env.Settings.ModelsDir(), Extractive: extractive, Timeout: timeout}
	if !extractive {
		var err error
		if a.Endpoint, a.Model, a.EndpointFrom, err = cmdline.DrafterSettings(env.Settings, endpoint, model); err != nil {
			return nil, err
		}
	}
	path, err := pipeline.FindProgram("sponge-draft")
	if err != nil {
		return nil, err
	}
	return &summarizer{env: env, lib: lib, draft: path, warned: map[string]bool{},
		steps: func(id string) []pipeline.Step { a.Item = id; return a.Steps() }}, nil
}

// stages are the steps of a summary as stage values, joined in this process
// by pipeline.Chain as the MCP server joins those of ask: sponge-rank and
// sponge-verify run here, and sponge-draft as a child program
// (pipeline.Process), since only it links the model runtime. sponge-render
// is left out: what is saved is the verified records it would show.
func (s *summarizer) stages(id string) []pipeline.Stage {
	var out []pipeline.Stage
	for _, step := range s.steps(id) {
		switch step.Name {
		case "sponge-rank":
			out = append(out, &rank.Stage{Library: s.lib.Dir, Item: id})
		case "sponge-draft":
			out = append(out, &pipeline.Process{Path: s.draft, Args: step.Args, Stderr: s.env.Stderr})
		case "sponge-verify":
			v := verify.New(s.lib)
			v.Warn = func(msg string) { console.PrintWarning(s.env.Stderr, Prog, msg) }
			out = append(out, v)
		}
	}
	return out
}

// summarize makes the summary of one item; it is saved only when the
// drafter finished.
func (s *summarizer) summarize(ctx context.Context, it *item.Item) (*item.Summary, *render.Stream, error) {
	var out bytes.Buffer
	if err := pipeline.Chain(ctx, strings.NewReader(""), &out, s.stages(it.ID)...); err != nil {
		return nil, nil, err
	}
	st, err := render.Read(jsonl.NewReader(&out, "the stages' output"))
	if err != nil {
		return nil, nil, err
	}
	if st.Model == nil || !st.Complete() {
		return nil, st, fmt.Errorf("the summary of %s was cut off before the drafter finished", item.Short(it.ID))
	}
	sum := &item.Summary{ItemID: it.ID, Model: st.Model.Name, Made: time.Now().UTC(), Fingerprint: item.Fingerprint(it),
		Statements: []item.SummaryStatement{}, LeftOut: len(st.LeftOut)}
	for _, v := range st.Verified {
		if v.ItemID != it.ID {
			continue
		}
		sum.Statements = append(sum.Statements, item.SummaryStatement{Text: v.Text, Quote: v.Saved,
			Paragraph: v.Paragraph, Start: v.Start, End: v.End, Page: v.Page, StartMs: v.StartMs})
	}
	return sum, st, nil
}

// writer is the name of whoever would write a summary now: sponge-draft is
// asked with a summary question and no passages, and says who it is.
func (s *summarizer) writer(ctx context.Context) (string, error) {
	var draft pipeline.Stage
	for _, st := range s.stages(strings.Repeat("0", item.IDLen)) {
		if p, ok := st.(*pipeline.Process); ok {
			draft = p
		}
	}
	question := pipeline.Func(func(_ context.Context, _ *jsonl.Reader, w *jsonl.Writer) error {
		return w.Write(&jsonl.Question{Text: jsonl.SummaryQuestion, Summary: true})
	})
	var out bytes.Buffer
	if err := pipeline.Chain(ctx, strings.NewReader(""), &out, question, draft); err != nil {
		return "", err
	}
	st, err := render.Read(jsonl.NewReader(&out, "sponge-draft's output"))
	if err != nil {
		return "", err
	}
	if st.Model == nil {
		return "", fmt.Errorf("sponge-draft did not say which model writes")
	}
	return st.Model.Name, nil
}

// todo lists the items --all summarizes: those without a current summary,
// and those whose summary another model wrote.
func (s *summarizer) todo(ctx context.Context) ([]string, error) {
	ids, err := s.lib.IDs()
	if err != nil {
		return nil, err
	}
	var out []string
	model := ""
	for _, id := range ids {
		m, err := s.lib.Meta(id)
		if err != nil {
			out = append(out, id) // summarize says what is wrong with it
			continue
		}
		sum, _ := s.lib.Summary(id)
		if !s.lib.Made(m, sum) {
			out = append(out, id)
			continue
		}
		if model == "" {
			if model, err = s.writer(ctx); err != nil {
				return nil, err
			}
		}
		if sum.Model != model {
			out = append(out, id)
		}
	}
	return out, nil
}

// run summarizes the items and saves their summaries; show prints each.
// It returns how many were saved and how many failed, and stops early when
// ctx is cancelled (what was saved stays).
func (s *summarizer) run(ctx context.Context, ids []string, show, quiet bool) (done, failed int) {
	var bar *progress.Bar
	if len(ids) > 1 && !quiet {
		bar = progressFor(s.env, len(ids), "summarizing")
	}
	defer func() {
		bar.Finish()
		if done > 0 {
			if err := s.lib.Sync(); err != nil {
				console.Report(s.env.Stderr, Prog, err)
			}
		}
	}()
	for _, id := range ids {
		if ctx.Err() != nil {
			return done, failed
		}
		it, err := s.lib.Item(id)
		var sum *item.Summary
		var st *render.Stream
		kept := true
		if err == nil {
			sum, st, err = s.summarize(ctx, it)
		}
		if err == nil {
			kept, err = s.lib.PutSummaryOfItem(sum)
		}
		bar.Add(1)
		if ctx.Err() != nil {
			return done, failed
		}
		if fault.Is(err, fault.NoItem) || err == nil && !kept {
			// Removed (sponge rm) since the list was made: nothing to
			// summarize, and no failure.
			continue
		}
		if err != nil {
			bar.Clear()
			console.Report(s.env.Stderr, Prog, err)
			failed++
			continue
		}
		done++
		s.warn(st)
		if show {
			fmt.Fprint(s.env.Stdout, termtext.Safe(it.Title+"\n"+cmdline.FormatSummary(sum)))
		}
	}
	return done, failed
}

// warn prints the warnings of a summary's stream, each code once a run:
// the summary is labelled as ask's answer is (model-unavailable).
func (s *summarizer) warn(st *render.Stream) {
	fresh := &render.Stream{}
	for _, w := range st.Warnings {
		if !s.warned[w.Code] {
			s.warned[w.Code] = true
			fresh.Warnings = append(fresh.Warnings, w)
		}
	}
	if len(fresh.Warnings) > 0 {
		render.WriteWarnings(s.env.Stderr, fresh, render.StyleFor(s.env.Stderr, s.env.Settings))
	}
}

// summarizeAdded writes the summaries of the items sponge add --summarize
// saved, with the writer sponge summarize would choose, and returns how
// many failed. Stopping it (Ctrl-C) keeps the items and the summaries made.
func summarizeAdded(env *Env, lib *library.Library, saved map[string]bool, quiet bool) int {
	sz, err := newSummarizer(env, lib, false, "", "", 5*time.Minute)
	if err != nil {
		console.Report(env.Stderr, Prog, err)
		return len(saved)
	}
	ids := make([]string, 0, len(saved))
	for id := range saved {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	n, failed := sz.run(ctx, ids, false, quiet)
	if ctx.Err() != nil {
		console.PrintWarning(env.Stderr, Prog, fmt.Sprintf("stopped summarizing: %d of %s summarized", n, cmdline.Count(len(ids), "item")))
		console.PrintHint(env.Stderr, Prog, "run 'sponge summarize --all' to go on")
	} else if !quiet {
		fmt.Fprintf(env.Stdout, "summarized %d\n", n)
	}
	return failed
}
