package cmdline

import (
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/stages/rank"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/search"
	"github.com/sponge-library/sponge/stages/verify"
)

func init() {
	register("ask", "answer a question from the library, every quote checked",
		"[OPTIONS] QUESTION", askAbout, runAsk)
}

const askAbout = "Answer QUESTION from the library: a few short statements, each with the exact words\n" +
	"of a saved item that support it. Runs the stages sponge-search | sponge-rank |\n" +
	"sponge-draft | sponge-verify | sponge-render (see ask.sh)." +
	"\n\nExamples:\n\n" +
	"  sponge ask \"how hot should the water be for green tea?\"\n" +
	"  sponge ask --extractive \"how many infusions does oolong give?\"\n" +
	"  sponge ask --passages --json \"what is BM25?\""

type askOptions struct {
	LibraryOpt
	Limit      int    `long:"limit" default:"8" value-name:"N" description:"how many items to search, 1 to 20"`
	Passages   bool   `long:"passages" description:"stop after ranking: show the passages a model would read"`
	JSON       bool   `long:"json" description:"print one JSON document instead of text"`
	Extractive bool   `long:"extractive" description:"answer with the best sentences of the passages, without a model"`
	Explain    bool   `long:"explain" description:"say why each statement was chosen, or why the answer was refused (the extractive drafter)"`
	Quiet      bool   `short:"q" long:"quiet" description:"print only the answer and errors: no warnings or hints (--json keeps its warnings)"`
	Endpoint   string `long:"endpoint" value-name:"URL" description:"an OpenAI-compatible server to write the statements, e.g. http://127.0.0.1:8080 (default $SPONGE_ENDPOINT, else the config file's endpoint)"`
	Model      string `long:"model" value-name:"NAME" description:"the model name to ask the --endpoint for (default $SPONGE_MODEL, else the config file's model)"`
	// The same default as sponge-draft's --passage-tokens, which it is
	// passed to (TestAskPassesThePassageBudget).
	PassageTokens int `long:"passage-tokens" default:"320" value-name:"N" description:"the most passage text the model set up by sponge setup reads, in tokens: passages are cut to their sentences with the question's words, so that a CPU model starts writing in seconds; 0: as much as the model's context holds (sponge serve has its own --passage-tokens; an --endpoint server gets the passages whole)"`
	// The same default as sponge-draft's --timeout, which it is passed to.
	Timeout time.Duration `long:"timeout" default:"5m" value-name:"DURATION" description:"how long to wait for the statements of a server (--endpoint or sponge serve)"`
}

// passagesHeap is the heap at which the collector runs during a question's
// passages (ask --passages); a question on a library of a million
// paragraphs peaks near 40 MiB.
const passagesHeap = 256 << 20

func runAsk(env *Env, opts *askOptions, rest []string) int {
	question := strings.TrimSpace(strings.Join(rest, " "))
	if question == "" {
		return console.Report(env.Stderr, Prog, console.Usage("ask needs a question").WithHint(`sponge ask "how hot should green tea be?"`))
	}
	if opts.Limit < 1 || opts.Limit > search.MaxLimit {
		return console.Report(env.Stderr, Prog, console.Usage("--limit must be from 1 to %d, not %d", search.MaxLimit, opts.Limit))
	}
	if opts.Extractive && opts.Endpoint != "" {
		return console.Report(env.Stderr, Prog, console.Usage("--extractive and --endpoint do not go together"))
	}
	if opts.Timeout <= 0 {
		return console.Report(env.Stderr, Prog, console.Usage("--timeout must be more than 0, not %s", opts.Timeout))
	}
	steps, err := askSteps(env, opts, question)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	// A missing library is said here, once and by sponge, rather than by
	// the first stage to look for it.
	if _, err := library.Open(opts.Library); err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	// Every stage but sponge-draft links no model: they run in this
	// process, as ask.sh runs them, with the same output, and sponge-draft
	// as a program between them. They read a bounded amount (the hits'
	// paragraphs, the items quoted) and the process ends with them, so the
	// collector waits until the heap nears passagesHeap rather than running
	// each time it doubles from 4 MB: 4-5 ms of a ~65 ms question.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(passagesHeap))
	return pipeline.RunInProcess(Prog, steps, inProcessStages(env.Settings), env.Stdin, env.Stdout, env.Stderr)
}

// inProcessStages are the stages sponge ask runs in this process, in its
// environment (their folders come by flags; the terminal's conventions
// from environ): all but sponge-draft, which links the model runtime.
func inProcessStages(environ settings.Environ) map[string]pipeline.MainFunc {
	in := func(main func(settings.Environ, []string, io.Reader, io.Writer, io.Writer) int) pipeline.MainFunc {
		return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
			return main(environ, args, stdin, stdout, stderr)
		}
	}
	return map[string]pipeline.MainFunc{"sponge-search": in(search.MainIn), "sponge-rank": in(rank.MainIn),
		"sponge-verify": in(verify.MainIn), "sponge-render": in(render.MainIn)}
}

// askSteps are the stages that answer question, with their arguments. The
// endpoint and model are the settings (flag, environment, config file)
// resolved here and given to sponge-draft as flags; --extractive and
// --passages need neither.
func askSteps(env *Env, opts *askOptions, question string) ([]pipeline.Step, error) {
	if opts.PassageTokens < 0 {
		return nil, console.Usage("--passage-tokens must be 0 (no limit) or more, not %d", opts.PassageTokens)
	}
	a := pipeline.Ask{Library: opts.Library, Models: env.Settings.ModelsDir(), Question: question, Limit: opts.Limit, Passages: opts.Passages,
		JSON: opts.JSON, Extractive: opts.Extractive, Explain: opts.Explain, Timeout: opts.Timeout,
		PassageTokens: strconv.Itoa(opts.PassageTokens), Quiet: opts.Quiet}
	hints, err := setupHints(env.Settings, opts.Library)
	if err != nil {
		return nil, err
	}
	a.SetupHints, a.NoSetupHints = hints.File, hints.Off
	if !opts.Extractive && !opts.Passages {
		var err error
		if a.Endpoint, a.Model, a.EndpointFrom, err = DrafterSettings(env.Settings, opts.Endpoint, opts.Model); err != nil {
			return nil, err
		}
	}
	return a.Steps(), nil
}

// DrafterSettings resolves the server that writes the statements (sponge
// ask, the MCP ask tool) from the flags given, the environment and the
// config file; empty when none is set. from is where the endpoint was set
// when not by a flag (pipeline.Ask.EndpointFrom): "config" or "env".
func DrafterSettings(environ settings.Environ, flagEndpoint, flagModel string) (endpoint, model, from string, err error) {
	e, err := environ.Resolve("endpoint", flagEndpoint)
	if err != nil {
		return "", "", "", err
	}
	m, err := environ.Resolve("model", flagModel)
	if err != nil {
		return "", "", "", err
	}
	if m.Value != "" && e.Value == "" {
		if m.Source == settings.FromFlag {
			return "", "", "", console.Usage("--model goes with --endpoint")
		}
		return "", "", "", console.Usage("the model %q (%s) goes with an endpoint, and none is set", m.Value, DescribeSource(m)).
			WithHint("set one with --endpoint URL, %s or 'sponge config set endpoint URL'", e.Key.Env)
	}
	switch e.Source {
	case settings.FromFile:
		from = "config"
	case settings.FromEnv:
		from = "env"
	}
	return e.Value, m.Value, from, nil
}

// describeSource says where a setting's value comes from, for messages.
func DescribeSource(v settings.Value) string {
	switch v.Source {
	case settings.FromFlag:
		return "--" + v.Key.Name
	case settings.FromEnv:
		return "from " + v.Key.Env
	case settings.FromFile:
		return "from " + v.File
	}
	return "the default"
}
