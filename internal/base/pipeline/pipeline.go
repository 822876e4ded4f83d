// Package pipeline is what the stages share as programs and as parts: the
// Stage interface, one Main that parses a stage's flags, runs it and maps
// its errors to exit codes, the read loops every stage uses, and the ways
// stages are composed: Chain joins stages in one process (the MCP server),
// Steps and RunProcesses join them as child programs (as ask.sh does in
// shell), RunInProcess runs the same steps each as a goroutine of this
// process but those it has no Main for, which run as child programs among
// them (sponge ask: sponge-draft), and Process runs one stage as a child
// inside a Chain.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/base/termtext"
	"github.com/sponge-library/sponge/jsonl"
)

// Stage is one step of the pipeline: it reads records from r and writes
// records to w. A stage writes each record as soon as it can, so that the
// stages after it work at the same time.
type Stage interface {
	Run(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error
}

// Func is a function that is a Stage.
type Func func(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error

// Run calls f.
func (f Func) Run(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error { return f(ctx, r, w) }

// Env is where a stage's program speaks to the person, besides its stream,
// and the environment it was started in.
type Env struct {
	Stdout io.Writer // where the stream goes; sponge-render writes its text here
	Stderr io.Writer // warnings
	// Settings is the environment the program's main took (settings.FromOS)
	// when the stage runs as a program of its own; the zero Environ when it
	// runs inside another (its folders then come by its flags, resolved by
	// the front end that runs it).
	Settings settings.Environ
}

// Command is a stage as a program: its name and help, and how its flags
// make the Stage.
type Command struct {
	Prog  string // the program's name, as messages name it
	Usage string // what follows the name in the help: "[OPTIONS] < hits.jsonl"
	About string // a few lines on what it does
	// Setup returns a new go-flags options struct to parse the command line
	// into, and a function that makes the stage from the parsed options
	// and the positional arguments (an error there is a usage error when it
	// is a *console.Error of ExitUsage).
	Setup func() (opts any, make func(args []string, env Env) (Stage, error))
	// NoArgs: the stage reads everything from its stream, and Main refuses
	// any positional argument before make is called.
	NoArgs bool
	// ModelRuntime, when set, says in --version whether the program links
	// a model runtime (sponge-draft does only when built with cgo).
	ModelRuntime func() string
}

// Main runs c as a program: it parses args, makes the stage, runs it from
// stdin to stdout until the stream ends or SIGINT/SIGTERM, prints an error
// once as "prog: error: …" with its hint, and returns the exit code (the
// records on stdout with termtext.JSONLines' escapes, as stdout may be a
// terminal):
// console.ExitBadInput for a malformed stream, console.ExitInterrupted when
// stopped, ExitCode's own code, else console.Report's.
//
// environ is the settings.Environ its main took, or the zero one when the
// program runs inside another (Main, MainFunc): its flags then give every
// folder it reads.
func Main(c Command, environ settings.Environ, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "--version" {
		console.WriteVersion(stdout, c.Prog)
		if c.ModelRuntime != nil {
			fmt.Fprintf(stdout, "model runtime: %s\n", c.ModelRuntime())
		}
		return console.ExitOK
	}
	opts, mk := c.Setup()
	rest, done, code := console.Parse(opts, c.Prog, c.Usage, c.About, args, stdout, stderr)
	if done {
		return code
	}
	if c.NoArgs && len(rest) > 0 {
		return Report(stderr, c.Prog, console.Usage("unexpected argument %q: the stream comes on stdin", rest[0]).
			WithHint("run '%s --help'", c.Prog))
	}
	st, err := mk(rest, Env{Stdout: stdout, Stderr: stderr, Settings: environ})
	if err != nil {
		return Report(stderr, c.Prog, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = runStage(ctx, st, jsonl.NewReader(stdin, "<stdin>"), jsonl.NewWriter(termtext.JSONLines(stdout)))
	if err != nil && ctx.Err() != nil {
		return console.ExitInterrupted
	}
	return Report(stderr, c.Prog, err)
}

// runStage runs st from r to w. A panic of the stage's goroutine is a bug
// of sponge's, not of the input: it becomes an error that says where it
// happened, for a person to report, and no stack trace (the records written
// before it stay written). Main and Chain run every stage through it.
func runStage(ctx context.Context, st Stage, r *jsonl.Reader, w *jsonl.Writer) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = console.Errorf("internal error%s: %v", panicSite(), v).
				WithHint("this is a bug in sponge: please report it with the command and its input")
		}
	}()
	return st.Run(ctx, r, w)
}

// panicSite is " in FUNC (FILE:LINE)" of the function of sponge's own code
// that panicked, read from the stack while the deferred recover runs
// ("in extractive.tableCells (statement.go:165)"); "" when none is.
func panicSite() string {
	const module = "github.com/sponge-library/sponge/"
	pc := make([]uintptr, 32)
	frames := runtime.CallersFrames(pc[:runtime.Callers(3, pc)])
	for {
		f, more := frames.Next()
		if name, ok := strings.CutPrefix(f.Function, module); ok {
			return fmt.Sprintf(" in %s (%s:%d)", path.Base(name), filepath.Base(f.File), f.Line)
		}
		if !more {
			return ""
		}
	}
}

// Report is console.Report for a stage's error: a malformed line of the
// stream is a bad input (exit 3), an ExitCode ends the program quietly with
// its code, and anything else is worded by console.Report.
func Report(stderr io.Writer, prog string, err error) int {
	var ec ExitCode
	if errors.As(err, &ec) {
		return int(ec)
	}
	var de *jsonl.DecodeError
	if errors.As(err, &de) {
		var ce *console.Error
		if !errors.As(err, &ce) {
			err = &console.Error{Code: console.ExitBadInput, Msg: de.Error()}
		}
	}
	return console.Report(stderr, prog, err)
}

// ExitCode ends a program with its code, and no message: the stage has
// said what it had to (sponge-draft --check-model, --serve).
type ExitCode int

func (e ExitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// Each calls f with every line of r until the stream ends. A line that is
// not a record stops it with the *jsonl.DecodeError; so does an error of f.
func Each(r *jsonl.Reader, f func(line *jsonl.Line) error) error {
	for {
		line, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var de *jsonl.DecodeError
			if errors.As(err, &de) {
				return err
			}
			return fmt.Errorf("cannot read the stream: %w", err)
		}
		if err := f(line); err != nil {
			return err
		}
	}
}

// Pass is Each that also passes every line on to w, unchanged, after f
// has seen it: what a stage does with the records it does not consume.
func Pass(r *jsonl.Reader, w *jsonl.Writer, f func(line *jsonl.Line) error) error {
	return Each(r, func(line *jsonl.Line) error {
		if f != nil {
			if err := f(line); err != nil {
				return err
			}
		}
		if err := w.WriteRaw(line.Raw); err != nil {
			return fmt.Errorf("cannot write the stream: %w", err)
		}
		return nil
	})
}

// Folders returns the library folder and the shared models folder a stage
// reads: its flags' (library, models), else those of the environment its
// main took (Env.Settings). A stage run inside another program has no
// environment, and must be given the library.
func (e Env) Folders(library, models string) (string, string, error) {
	lib, err := e.Settings.Library(library)
	if err != nil {
		return "", "", console.Usage("%v", err)
	}
	if models == "" {
		models = e.Settings.ModelsDir()
	}
	return lib, models, nil
}
