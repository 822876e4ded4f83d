package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/stages/search"
)

func init() {
	register("ask", "answer a question from the library, every quote checked", runAsk)
}

type askOptions struct {
	LibraryOpt
	Limit      int    `long:"limit" default:"8" value-name:"N" description:"how many items to search, 1 to 20"`
	Passages   bool   `long:"passages" description:"stop after ranking: show the passages a model would read"`
	JSON       bool   `long:"json" description:"print one JSON document instead of text"`
	Extractive bool   `long:"extractive" description:"answer with the best sentences of the passages, without a model"`
	Endpoint   string `long:"endpoint" value-name:"URL" description:"an OpenAI-compatible server to write the statements (e.g. http://127.0.0.1:8080)"`
	Model      string `long:"model" value-name:"NAME" description:"the model name to ask the --endpoint for"`
	// The same default as sponge-draft's --timeout, which it is passed to.
	Timeout time.Duration `long:"timeout" default:"5m" value-name:"DURATION" description:"how long to wait for the statements of a server (--endpoint or sponge serve)"`
}

// stage is one child process of the pipeline.
type stage struct {
	name string
	args []string
}

func runAsk(env *Env, args []string) int {
	var opts askOptions
	rest, done, code := console.Parse(&opts, "sponge ask", "[OPTIONS] QUESTION",
		"Answer QUESTION from the library: a few short statements, each with the exact words\n"+
			"of a saved item that support it. Runs the stages sponge-search | sponge-rank |\n"+
			"sponge-draft | sponge-verify | sponge-render (see ask.sh).", args, env.Stdout, env.Stderr)
	if done {
		return code
	}
	question := strings.TrimSpace(strings.Join(rest, " "))
	if question == "" {
		return console.Report(env.Stderr, Prog, console.Usage("ask needs a question").WithHint(`sponge ask "how hot should green tea be?"`))
	}
	if opts.Limit < 1 || opts.Limit > search.MaxLimit {
		return console.Report(env.Stderr, Prog, console.Usage("--limit must be from 1 to %d, not %d", search.MaxLimit, opts.Limit))
	}
	if opts.Model != "" && opts.Endpoint == "" {
		return console.Report(env.Stderr, Prog, console.Usage("--model goes with --endpoint"))
	}
	if opts.Extractive && opts.Endpoint != "" {
		return console.Report(env.Stderr, Prog, console.Usage("--extractive and --endpoint do not go together"))
	}
	if opts.Timeout <= 0 {
		return console.Report(env.Stderr, Prog, console.Usage("--timeout must be more than 0, not %s", opts.Timeout))
	}
	return runPipeline(env, askStages(&opts, question))
}

// askStages are the stages that answer question, with their arguments.
func askStages(opts *askOptions, question string) []stage {
	lib := []string{}
	if opts.Library != "" {
		lib = []string{"--library", opts.Library}
	}
	searchArgs := append([]string{}, lib...)
	searchArgs = append(searchArgs, "--limit", strconv.Itoa(opts.Limit))
	searchArgs = append(searchArgs, "--", question)
	stages := []stage{{"sponge-search", searchArgs}, {"sponge-rank", lib}}
	if !opts.Passages {
		draft := append([]string{}, lib...)
		if opts.Extractive {
			draft = append(draft, "--extractive")
		}
		if opts.Endpoint != "" {
			draft = append(draft, "--endpoint", opts.Endpoint)
		}
		if opts.Model != "" {
			draft = append(draft, "--model", opts.Model)
		}
		if !opts.Extractive {
			draft = append(draft, "--timeout", opts.Timeout.String())
		}
		stages = append(stages, stage{"sponge-draft", draft}, stage{"sponge-verify", lib})
	}
	var render []string
	if opts.JSON {
		render = append(render, "--json")
	}
	return append(stages, stage{"sponge-render", render})
}

// findStage finds a stage binary beside the sponge executable, else on PATH.
func findStage(name string) (string, error) {
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			p := filepath.Join(filepath.Dir(exe), name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, nil
			}
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", console.Errorf("cannot find %s beside sponge or on PATH", name).
			WithHint("build every stage with 'make build' and put bin/ on PATH")
	}
	return p, nil
}

// runPipeline runs the stages as child processes joined by pipes, the first
// reading env.Stdin and the last writing env.Stdout; each stage's stderr is
// the person's. It returns the exit code of the first stage that failed. A
// stage that dies of SIGPIPE because a later stage finished early is not a
// failure.
func runPipeline(env *Env, stages []stage) int {
	cmds := make([]*exec.Cmd, len(stages))
	for i, s := range stages {
		path, err := findStage(s.name)
		if err != nil {
			return console.Report(env.Stderr, Prog, err)
		}
		cmds[i] = exec.Command(path, s.args...)
		cmds[i].Stderr = env.Stderr
	}
	cmds[0].Stdin = env.Stdin
	cmds[len(cmds)-1].Stdout = env.Stdout
	var closers []io.Closer
	for i := 0; i < len(cmds)-1; i++ {
		r, w, err := os.Pipe()
		if err != nil {
			return console.Report(env.Stderr, Prog, err)
		}
		cmds[i].Stdout = w
		cmds[i+1].Stdin = r
		closers = append(closers, r, w)
	}
	started := 0
	var startErr error
	for i, c := range cmds {
		if err := c.Start(); err != nil {
			startErr = console.Errorf("cannot start %s: %v", stages[i].name, err)
			break
		}
		started++
	}
	// The children hold their own ends of the pipes now.
	for _, c := range closers {
		c.Close()
	}
	codes := make([]int, started)
	for i := 0; i < started; i++ {
		codes[i] = exitOf(cmds[i].Wait())
	}
	if startErr != nil {
		return console.Report(env.Stderr, Prog, startErr)
	}
	// The first failure is the cause; later stages fail because their input
	// was cut. A stage killed by SIGPIPE was only told that nobody reads it.
	for i, c := range codes {
		switch {
		case c == 0 || c == -int(syscall.SIGPIPE):
			continue
		case c < 0:
			console.PrintError(env.Stderr, Prog, fmt.Sprintf("%s was killed by signal %d (%s)", stages[i].name, -c, syscall.Signal(-c)))
			return 128 - c
		default:
			// The stage has said what went wrong on stderr.
			return c
		}
	}
	return console.ExitOK
}

// exitOf turns a Wait error into an exit code; a negative code is a signal.
func exitOf(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return -int(st.Signal())
		}
		return ee.ExitCode()
	}
	return console.ExitFailure
}
