// Package draft is the sponge-draft stage: it reads the question and the
// numbered passages, passes every record on, and writes statements, each
// naming a passage and copying a quote from it, written by a model or, without
// one, by the extractive drafter that quotes the passages' best sentences.
//
// Output after the records read: a warning when no model could be used, the
// model record (who wrote the statements), one statement record as soon as
// each is made, and a closing done record with the number of statements.
package draft

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/model/catalog"
	"github.com/sponge-library/sponge/internal/model/openai"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// Prog is the stage's name in messages.
const Prog = "sponge-draft"

// ModelFileName is the writing model in the models folder (catalog.Digest.File()).
const ModelFileName = "digest.gguf"

// Drafter writes statements for a question from numbered passages.
type Drafter interface {
	// Name is what the model record carries: a model's name, or
	// jsonl.ModelExtractive.
	Name() string
	// Draft calls emit for each statement as soon as it is made.
	Draft(ctx context.Context, question string, passages []*jsonl.Passage, emit func(*jsonl.Statement) error) error
}

// Summarizer is a drafter with a summary mode, for a question record with
// summary set (sponge-rank --item): the passages are all of one item, taken
// from all of it, and the statements say what the item says rather than
// answer a question. Each writer (the extractive drafter, the model in this
// process, an endpoint) has one; where its summary path differs from its
// answer path is said at its Summarize.
type Summarizer interface {
	Summarize(ctx context.Context, passages []*jsonl.Passage, emit func(*jsonl.Statement) error) error
}

// An Abandoner is a model drafter that can say, after Draft, how many
// statements it began and could not finish (a quote it could not complete
// from the passages). When it emitted none, the answer is then not the
// model's refusal but nothing that could be checked, and the person is told.
type Abandoner interface {
	Abandoned() int
}

// ModelOptions are what a model drafter is opened with.
type ModelOptions struct {
	MaxStatements int
	Threads       int           // 0: the runtime's choice
	Timeout       time.Duration // 0: the drafter's own limits
	Stderr        io.Writer     // progress while loading (only on a terminal)
	// PassageTokens is the most passage text the model in this process
	// reads for an answer, in tokens: 0 means DefaultPassageTokens, less
	// than 0 as much as its context holds.
	PassageTokens int
}

// Runtimes are what a drafter that is not the extractive one runs on. A nil
// field is a runtime this build has not.
type Runtimes struct {
	// OpenEmbedded loads a GGUF model in-process (embedded.go, cgo).
	OpenEmbedded func(modelPath string, opt ModelOptions) (Drafter, error)
	// OpenEndpoint drafts with an OpenAI-compatible server (endpoint.go).
	OpenEndpoint func(endpoint, model string, opt ModelOptions) (Drafter, error)
	// Serve and CheckModel are the hidden modes the sponge command runs,
	// since only sponge-draft links the model runtime: --serve keeps a
	// model loaded behind an endpoint until ctx ends, --check-model FILE
	// loads a model and exits 0 if it works (serve.go, cgo). They return
	// the exit code.
	Serve      func(ctx context.Context, opts *Options, stdout, stderr io.Writer) int
	CheckModel func(opts *Options, stdout, stderr io.Writer) int
}

// builtin are this build's runtimes, filled by the init of the files that
// have them (embedded.go, endpoint.go, serve.go) and never changed after:
// a test that wants others passes its own (MainWith).
var builtin Runtimes

// Builtin returns this build's runtimes.
func Builtin() Runtimes { return builtin }

// Options are the command line of sponge-draft.
type Options struct {
	Library    string `long:"library" value-name:"DIR" description:"the library folder (default $SPONGE_HOME, else the config file's library, else $XDG_DATA_HOME/sponge, else ~/.local/share/sponge)"`
	Models     string `long:"models" value-name:"DIR" description:"the models folder every library shares, where sponge setup installs the writing model (default $XDG_DATA_HOME/sponge/models, else ~/.local/share/sponge/models)"`
	Extractive bool   `long:"extractive" description:"quote the best sentences of the passages instead of asking a model"`
	Endpoint   string `long:"endpoint" value-name:"URL" description:"an OpenAI-compatible server to write the statements (e.g. http://127.0.0.1:8080)"`
	Model      string `long:"model" value-name:"NAME" description:"with --endpoint: the server's model name"`
	// EndpointFrom is set by the sponge command when the endpoint is the
	// person's setting rather than their command line.
	EndpointFrom string `long:"endpoint-from" hidden:"true" value-name:"config|env" description:"with --endpoint: it was set in the config file (config) or in $SPONGE_ENDPOINT (env); when nothing answers there, the statements are the passages' best sentences, with a warning"`
	ModelFile    string `long:"model-file" value-name:"PATH" description:"the GGUF model to load (default the installed one: digest.gguf in the models folder, see sponge setup)"`
	Explain      bool   `long:"explain" description:"say on stderr why the extractive drafter chose each statement, or why it wrote none; with a model, why it wrote none (a refusal, or quotes it could not finish)"`
	Threads      int    `long:"threads" value-name:"N" description:"CPU threads for the model (default: the runtime's choice)"`
	// The default is DefaultPassageTokens (a test checks they agree).
	PassageTokens int `long:"passage-tokens" default:"320" value-name:"N" description:"the most passage text the model in this process (or sponge serve) reads, in tokens: passages are cut to their sentences with the question's words, marked …, so that a CPU model starts writing in seconds (320: read in about 2 s on two cores by Qwen2.5 0.5B); 0: as much as the model's context holds"`
	// The default is openai.DefaultTotalTimeout.
	Timeout time.Duration `long:"timeout" default:"5m" value-name:"DURATION" description:"how long to wait for the statements of a server (--endpoint or sponge serve)"`

	// Hidden modes for the sponge command.
	Serve      bool   `long:"serve" hidden:"true" description:"serve the model on 127.0.0.1 (run by sponge serve)"`
	Port       int    `long:"port" hidden:"true" value-name:"PORT" description:"with --serve: the port"`
	UntilEOF   bool   `long:"until-eof" hidden:"true" description:"with --serve: stop also when stdin ends (sponge serve holds it open, so that the server stops when sponge serve is gone, even killed)"`
	CheckModel string `long:"check-model" hidden:"true" value-name:"FILE" description:"load the model FILE and exit (run by sponge setup)"`
}

const about = "Read the question and the numbered passages (from sponge-rank) and write statements,\n" +
	"each naming a passage and copying a quote from it; every record read is passed on.\n\n" +
	"Who writes them: --extractive quotes the passages' best sentences; --endpoint asks a\n" +
	"server; else a running 'sponge serve' (see <library>/serve.json); else the model\n" +
	"installed by sponge setup (models/digest.gguf); else the extractive drafter, with a model-unavailable\n" +
	"warning. When no sentence answers the question well enough, the extractive drafter\n" +
	"writes no statement."

// Command is sponge-draft as a program, with this build's runtimes.
var Command = CommandWith(&builtin)

// CommandWith is sponge-draft as a program with the runtimes rt (read when
// the program starts).
func CommandWith(rt *Runtimes) pipeline.Command {
	return pipeline.Command{
		Prog:  Prog,
		Usage: "[OPTIONS] < passages.jsonl",
		About: about,
		// serve.go, which sets serveMode, is built only with cgo.
		ModelRuntime: func() string {
			if rt.Serve == nil {
				return "none (built without cgo: the extractive drafter and --endpoint only)"
			}
			return "llama.cpp (cgo)"
		},
		Setup: func() (any, func([]string, pipeline.Env) (pipeline.Stage, error)) {
			var opts Options
			return &opts, func(args []string, env pipeline.Env) (pipeline.Stage, error) {
				if len(args) > 0 {
					return nil, console.Usage("sponge-draft reads JSONL on stdin and takes no arguments (got %q)", args[0]).
						WithHint(`pipe the passages into it: sponge-search "QUESTION" | sponge-rank | sponge-draft`)
				}
				if err := opts.check(); err != nil {
					return nil, err
				}
				// The library is optional here: the extractive drafter
				// weighs words by it when there is one, and a model may be
				// in its own folder. Without a flag or an environment
				// there is none.
				lib, err := env.Settings.Resolve("library", opts.Library)
				if err != nil {
					return nil, err
				}
				opts.Library = lib.Value
				if opts.Models == "" {
					opts.Models = env.Settings.ModelsDir()
				}
				// The two other modes are programs of their own that take no
				// stream: they end with their exit code.
				mode := func(run func(*Options, io.Writer, io.Writer) int) pipeline.Stage {
					return pipeline.Func(func(context.Context, *jsonl.Reader, *jsonl.Writer) error {
						if code := run(&opts, env.Stdout, env.Stderr); code != 0 {
							return pipeline.ExitCode(code)
						}
						return nil
					})
				}
				switch {
				case opts.CheckModel != "" && rt.CheckModel == nil, opts.Serve && rt.Serve == nil:
					return nil, noRuntime()
				case opts.CheckModel != "":
					return mode(rt.CheckModel), nil
				case opts.Serve:
					return pipeline.Func(func(ctx context.Context, r *jsonl.Reader, _ *jsonl.Writer) error {
						if opts.UntilEOF {
							var cancel context.CancelFunc
							ctx, cancel = untilEOF(ctx, r)
							defer cancel()
						}
						if code := rt.Serve(ctx, &opts, env.Stdout, env.Stderr); code != 0 {
							return pipeline.ExitCode(code)
						}
						return nil
					}), nil
				}
				return &Stage{Options: opts, Stderr: env.Stderr, Runtimes: *rt}, nil
			}
		},
	}
}

// Main runs the stage and returns its exit code, with no environment: its
// flags give the library and the models folder (MainIn).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return MainIn(settings.Environ{}, args, stdin, stdout, stderr)
}

// MainIn runs the stage in the environment its program was started in
// (settings.FromOS, in cmd/), where a missing --library or --models is
// resolved.
func MainIn(environ settings.Environ, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return pipeline.Main(Command, environ, args, stdin, stdout, stderr)
}

// MainWith is Main with the runtimes rt instead of this build's.
func MainWith(rt Runtimes, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return pipeline.Main(CommandWith(&rt), settings.Environ{}, args, stdin, stdout, stderr)
}

// Stage is sponge-draft: it passes every record on, then has the chosen
// drafter write statements on the passages.
type Stage struct {
	Options
	Stderr   io.Writer // the model's warnings and progress
	Runtimes Runtimes  // what a model drafter runs on; the zero value has none
}

func (o *Options) check() error {
	switch {
	case o.Model != "" && o.Endpoint == "":
		return console.Usage("--model goes with --endpoint")
	case o.EndpointFrom != "" && o.Endpoint == "":
		return console.Usage("--endpoint-from goes with --endpoint")
	case o.EndpointFrom != "" && o.EndpointFrom != "config" && o.EndpointFrom != "env":
		return console.Usage("--endpoint-from is config or env, not %q", o.EndpointFrom)
	case o.Extractive && o.Endpoint != "":
		return console.Usage("--extractive and --endpoint do not go together")
	case o.Extractive && o.ModelFile != "":
		return console.Usage("--extractive and --model-file do not go together")
	case o.Threads < 0:
		return console.Usage("--threads must be 0 or more, not %d", o.Threads)
	case o.PassageTokens < 0:
		return console.Usage("--passage-tokens must be 0 (no limit) or more, not %d", o.PassageTokens)
	case o.Timeout <= 0:
		return console.Usage("--timeout must be more than 0, not %s", o.Timeout)
	case o.Port != 0 && !o.Serve:
		return console.Usage("--port goes with --serve")
	case o.UntilEOF && !o.Serve:
		return console.Usage("--until-eof goes with --serve")
	case o.Port < 0 || o.Port > 65535:
		return console.Usage("--port must be from 1 to 65535, not %d", o.Port)
	}
	return nil
}

// untilEOF is ctx, ended also when the stream r ends (or cannot be read).
// Nothing is written to sponge serve's child: the end of its stdin is the
// end of sponge serve.
func untilEOF(ctx context.Context, r *jsonl.Reader) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		defer cancel()
		for {
			if _, err := r.Next(); err != nil {
				return
			}
		}
	}()
	return ctx, cancel
}

func noRuntime() error {
	return console.Errorf("this sponge-draft was built without the model runtime (cgo), so it cannot load a model").
		WithHint("build it with cgo: make build (needs a C compiler)")
}

// Run reads the stream, passes it on, and drafts.
func (st *Stage) Run(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
	// The drafter is chosen when the first record comes and before it is
	// passed on: a dead endpoint or a broken model then fails before any
	// output, and an empty stream (a stage before failed) loads nothing.
	var d Drafter
	var warning *jsonl.Warning
	var question *jsonl.Question
	var passages []*jsonl.Passage
	lines := 0
	err := pipeline.Pass(r, w, func(line *jsonl.Line) error {
		lines++
		if lines == 1 {
			var err error
			if d, warning, err = choose(&st.Runtimes, &st.Options, st.Stderr); err != nil {
				return err
			}
		}
		switch rec := line.Record.(type) {
		case *jsonl.Question:
			if question != nil {
				return &console.Error{Code: console.ExitBadInput,
					Msg: "<stdin>:" + strconv.Itoa(line.Number) + ": a second question record (a stream holds one question)"}
			}
			question = rec
		case *jsonl.Passage:
			passages = append(passages, rec)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if lines == 0 {
		// An empty stream: the stage before has said what went wrong.
		return nil
	}
	if question == nil {
		return &console.Error{Code: console.ExitBadInput, Msg: "<stdin>: no question record",
			Hint: `pipe the passages into it: sponge-search "QUESTION" | sponge-rank | sponge-draft`}
	}
	if warning != nil {
		if question.Summary {
			// The same warning, in the words of a summary.
			msg := strings.Replace(warning.Message, "the statements are the passages' best sentences", "the summary is the item's most central sentences", 1)
			warning = &jsonl.Warning{Code: warning.Code, Message: msg, Hint: warning.Hint}
		}
		if err := w.Write(warning); err != nil {
			return err
		}
	}
	if err := w.Write(&jsonl.Model{Name: d.Name()}); err != nil {
		return err
	}
	n := 0
	emit := func(s *jsonl.Statement) error {
		n++
		return w.Write(s)
	}
	switch {
	case len(passages) == 0:
	case question.Summary:
		sm, ok := d.(Summarizer)
		if !ok {
			return console.Errorf("%s cannot write a summary", d.Name())
		}
		err = sm.Summarize(ctx, passages, emit)
	default:
		err = d.Draft(ctx, question.Text, passages, emit)
	}
	if err != nil {
		// Statements already written stay; without the done record the
		// later stages know the answer was cut.
		return err
	}
	if n == 0 && len(passages) > 0 && d.Name() != jsonl.ModelExtractive {
		if err := sayWhyNone(d, w, explainTo(&st.Options, st.Stderr)); err != nil {
			return err
		}
	}
	return w.Write(&jsonl.Done{Stage: Prog, Statements: n})
}

// choose picks who writes the statements: --extractive; --endpoint; a
// running sponge serve; the model file; else the extractive drafter with a
// model-unavailable warning. An endpoint that is the person's setting
// (--endpoint-from) and where nothing answers gives the extractive drafter
// and a warning too; one given on the command line is an error.
func choose(rt *Runtimes, opts *Options, stderr io.Writer) (Drafter, *jsonl.Warning, error) {
	mo := opts.modelOptions(stderr)
	libDir := opts.Library
	if opts.Extractive {
		return newExtractive(libDir, explainTo(opts, stderr)), nil, nil
	}
	if opts.Endpoint != "" {
		if rt.OpenEndpoint == nil {
			return nil, nil, console.Errorf("this sponge-draft was built without --endpoint support").
				WithHint("use --extractive, or a full build of sponge-draft")
		}
		mo.Timeout = opts.Timeout
		d, err := rt.OpenEndpoint(opts.Endpoint, opts.Model, mo)
		var oe *openai.Error
		if err == nil || !errors.As(err, &oe) || oe.Kind != openai.ErrUnreachable {
			return d, nil, err
		}
		switch opts.EndpointFrom {
		case "config":
			return newExtractive(libDir, explainTo(opts, stderr)), endpointDown(oe, "set in the config file", "run 'sponge config unset endpoint'"), nil
		case "env":
			return newExtractive(libDir, explainTo(opts, stderr)), endpointDown(oe, "set in $SPONGE_ENDPOINT", "unset SPONGE_ENDPOINT"), nil
		}
		return nil, nil, console.Errorf("%s", oe.Error()).
			WithHint("start the server, or leave out --endpoint ('sponge config unset endpoint' forgets a saved one)")
	}
	if rt.OpenEndpoint != nil && opts.ModelFile == "" && libDir != "" {
		info, ignored := openai.LookupServe(context.Background(), libDir)
		if ignored != "" {
			console.PrintWarning(stderr, Prog, ignored)
		}
		if info != nil {
			mo.Timeout = opts.Timeout
			d, err := rt.OpenEndpoint(info.Endpoint, info.Model, mo)
			return d, nil, err
		}
	}
	modelFile := opts.modelFile()
	_, statErr := os.Stat(modelFile)
	if modelFile == "" {
		statErr = os.ErrNotExist // no models folder, no model
	}
	switch {
	case statErr == nil && rt.OpenEmbedded != nil:
		d, err := rt.OpenEmbedded(modelFile, mo)
		return d, nil, err
	case opts.ModelFile != "" && statErr != nil:
		return nil, nil, console.Errorf("cannot read the model file %s: %v", opts.ModelFile, errors.Unwrap(statErr)).
			WithHint("give a GGUF file, or run sponge setup --digest")
	case opts.ModelFile != "":
		return nil, nil, noRuntime()
	case statErr == nil:
		// A model is set up but this build cannot load it.
		return newExtractive(libDir, explainTo(opts, stderr)), &jsonl.Warning{
			Code:    jsonl.WarnModelUnavailable,
			Message: "this sponge-draft cannot load models (built without cgo), so the statements are the passages' best sentences, quoted",
			Hint:    "build sponge-draft with cgo (make build) for written statements",
		}, nil
	}
	return newExtractive(libDir, explainTo(opts, stderr)), &jsonl.Warning{
		Code:    jsonl.WarnModelUnavailable,
		Message: "no writing model is set up, so the statements are the passages' best sentences, quoted",
		Hint:    "run sponge setup --digest for written statements",
		Setup:   true, // a choice, not a fault: sponge ask stops showing it once seen
	}, nil
}

// endpointDown is the warning for an endpoint the person set (where) and
// where nothing answers; forget is how they stop using it.
func endpointDown(oe *openai.Error, where, forget string) *jsonl.Warning {
	return &jsonl.Warning{
		Code: jsonl.WarnModelUnavailable,
		Message: fmt.Sprintf("the endpoint %s (%s) does not answer: %s; so the statements are the passages' best sentences, quoted",
			oe.Endpoint, where, oe.Msg),
		Hint: fmt.Sprintf("start the server, or %s to stop using it", forget),
	}
}

// modelFile is the model to load: --model-file, else the writing model of
// the shared models folder (or else the library's own); "" when there is no
// models folder.
func (o *Options) modelFile() string {
	if o.ModelFile != "" {
		return o.ModelFile
	}
	if f := catalog.Path(o.Models, o.Library, catalog.Digest); f != "" {
		return f
	}
	if o.Models == "" {
		return ""
	}
	return filepath.Join(o.Models, ModelFileName)
}

// modelOptions are what the model is opened with, from the command line.
func (o *Options) modelOptions(stderr io.Writer) ModelOptions {
	mo := ModelOptions{MaxStatements: jsonl.MaxStatements, Threads: o.Threads, Stderr: stderr, PassageTokens: o.PassageTokens}
	if o.PassageTokens == 0 {
		mo.PassageTokens = -1 // --passage-tokens 0: no limit but the context
	}
	return mo
}

// sayWhyNone tells apart a model that chose to write no statement (it
// found no answer in the passages: a refusal) from one that began
// statements and could finish none, which would otherwise look the same
// ("Nothing in your library answers that.", nothing left out): a warning,
// and the reason on explain.
func sayWhyNone(d Drafter, w *jsonl.Writer, explain io.Writer) error {
	if explain == nil {
		explain = io.Discard
	}
	a, ok := d.(Abandoner)
	if !ok || a.Abandoned() == 0 {
		fmt.Fprintf(explain, "%s: why: nothing written: the model chose to write no statement (it found no answer in the passages)\n", Prog)
		return nil
	}
	const msg = "the model began a statement but could not finish its quote from the passages, so it wrote nothing that could be checked (not a refusal: the passages may hold an answer)"
	fmt.Fprintf(explain, "%s: why: nothing written: %s\n", Prog, msg)
	return w.Write(&jsonl.Warning{Code: jsonl.WarnModelNothingChecked, Message: msg,
		Hint: "ask again in other words, or add --extractive for the passages' best sentences"})
}

// explainTo is where the extractive drafter says why: stderr with
// --explain, else nowhere.
func explainTo(opts *Options, stderr io.Writer) io.Writer {
	if opts.Explain {
		return stderr
	}
	return nil
}

// newExtractive returns the extractive drafter, weighing words by their
// rarity in the library when its index can be read, else in the passages.
func newExtractive(libDir string, explain io.Writer) Drafter {
	d := extractive.New()
	d.Explain = explain
	if lib, err := library.Open(libDir); err == nil {
		d.Corpus = &lazyIndex{dir: lib.IndexDir()}
	}
	return d
}

// lazyIndex opens the index only when the drafter asks for word counts, and
// closes it at once; a missing or unreadable index counts as none.
type lazyIndex struct {
	dir string
}

func (l *lazyIndex) DocFreqs(terms []string) (map[string]int, int, error) {
	x, err := index.Open(l.dir)
	if err != nil {
		return nil, 0, err
	}
	defer x.Close()
	return x.DocFreqs(terms)
}
