package pipeline

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
)

// Step is a stage and its arguments, as a program runs it.
type Step struct {
	Name string // the program: sponge-search, sponge-rank, …
	Args []string
}

// Ask is what sponge ask (and the MCP ask tool) asks of the pipeline.
type Ask struct {
	Library    string // the library folder (resolved by the front end)
	Models     string // the shared models folder; "" for none
	Question   string
	Limit      int  // items to search; 0 is sponge-search's default
	Passages   bool // stop after ranking
	JSON       bool
	Extractive bool
	Explain    bool // sponge-draft says why it chose each statement (extractive)
	Endpoint   string
	Model      string
	// EndpointFrom is where Endpoint was set when it was not on the command
	// line: "config" (the config file) or "env" ($SPONGE_ENDPOINT).
	// sponge-draft then writes without it, and says so, when nothing
	// answers there; an endpoint given on the command line fails instead.
	EndpointFrom string
	Timeout      time.Duration // how long sponge-draft waits for a server; 0 is its default
	// PassageTokens is sponge-draft's --passage-tokens (how much passage
	// text a model in this computer reads; "0" is no limit but the
	// context's); "" is its default.
	PassageTokens string
	// Item, when set, asks what that item says (sponge summarize): the
	// steps start at sponge-rank --item ITEM instead of sponge-search, and
	// Question and Limit are not used.
	Item string
	// Quiet: sponge-render writes no warnings and hints (sponge ask -q).
	Quiet bool
	// SetupHints is the file in which sponge-render counts the setup
	// warnings it shows, each at most render.SeenTimes times; NoSetupHints
	// shows none ('sponge config set hints off'). Neither: every one.
	SetupHints   string
	NoSetupHints bool
}

// Steps are the stages that answer a: sponge-search | sponge-rank |
// sponge-draft | sponge-verify | sponge-render, as ask.sh runs them; with
// Passages, sponge-search | sponge-rank | sponge-render; with Item,
// sponge-rank --item ITEM | sponge-draft | sponge-verify | sponge-render.
func (a Ask) Steps() []Step {
	var lib []string
	if a.Library != "" {
		lib = []string{"--library", a.Library}
	}
	var steps []Step
	if a.Item != "" {
		steps = []Step{{"sponge-rank", append(append([]string{}, lib...), "--item", a.Item)}}
	} else {
		search := append([]string{}, lib...)
		if a.Limit != 0 {
			search = append(search, "--limit", strconv.Itoa(a.Limit))
		}
		if a.Models != "" {
			search = append(search, "--models", a.Models)
		}
		search = append(search, "--", a.Question)
		steps = []Step{{"sponge-search", search}, {"sponge-rank", lib}}
	}
	if !a.Passages {
		draft := append([]string{}, lib...)
		if a.Models != "" && !a.Extractive {
			draft = append(draft, "--models", a.Models)
		}
		if a.Extractive {
			draft = append(draft, "--extractive")
		}
		if a.Explain {
			draft = append(draft, "--explain")
		}
		if a.Endpoint != "" {
			draft = append(draft, "--endpoint", a.Endpoint)
			if a.EndpointFrom != "" {
				draft = append(draft, "--endpoint-from", a.EndpointFrom)
			}
		}
		if a.Model != "" {
			draft = append(draft, "--model", a.Model)
		}
		if a.Timeout > 0 && !a.Extractive {
			draft = append(draft, "--timeout", a.Timeout.String())
		}
		if a.PassageTokens != "" && !a.Extractive {
			draft = append(draft, "--passage-tokens", a.PassageTokens)
		}
		steps = append(steps, Step{"sponge-draft", draft}, Step{"sponge-verify", lib})
	}
	var render []string
	if a.JSON {
		render = append(render, "--json")
	}
	switch {
	case a.Quiet:
		render = append(render, "--quiet")
	case a.NoSetupHints:
		render = append(render, "--no-setup-hints")
	case a.SetupHints != "":
		render = append(render, "--setup-hints", a.SetupHints)
	}
	return append(steps, Step{"sponge-render", render})
}

// FindProgram finds a stage's program beside the running executable, else
// on PATH.
func FindProgram(name string) (string, error) {
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

// RunProcesses runs the steps as child programs joined by pipes, the first
// reading stdin and the last writing stdout; each one's stderr is the
// person's. prog names the driver in its own messages. It returns the exit
// code of the first step that failed (which has said why on stderr): the
// steps after it fail because their input was cut, and a step that dies of
// SIGPIPE because a later one finished early is not a failure.
func RunProcesses(prog string, steps []Step, stdin io.Reader, stdout, stderr io.Writer) int {
	cmds := make([]*exec.Cmd, len(steps))
	for i, s := range steps {
		path, err := FindProgram(s.Name)
		if err != nil {
			return console.Report(stderr, prog, err)
		}
		cmds[i] = exec.Command(path, s.Args...)
		cmds[i].Stderr = stderr
	}
	cmds[0].Stdin = stdin
	cmds[len(cmds)-1].Stdout = stdout
	var closers []io.Closer
	for i := 0; i < len(cmds)-1; i++ {
		r, w, err := os.Pipe()
		if err != nil {
			return console.Report(stderr, prog, err)
		}
		cmds[i].Stdout = w
		cmds[i+1].Stdin = r
		closers = append(closers, r, w)
	}
	started := 0
	var startErr error
	for i, c := range cmds {
		if err := c.Start(); err != nil {
			startErr = console.Errorf("cannot start %s: %v", steps[i].Name, err)
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
		codes[i] = ExitOf(cmds[i].Wait())
	}
	if startErr != nil {
		return console.Report(stderr, prog, startErr)
	}
	return exitOf(prog, steps, codes, stderr)
}

// exitOf is the exit code of steps that ended with codes: that of the
// first step that failed, a signal's as a shell gives it (128+N, and said
// on stderr), and SIGPIPE no failure.
func exitOf(prog string, steps []Step, codes []int, stderr io.Writer) int {
	for i, c := range codes {
		switch {
		case c == 0 || c == -int(syscall.SIGPIPE):
			continue
		case c < 0:
			console.PrintError(stderr, prog, fmt.Sprintf("%s was killed by signal %d (%s)", steps[i].Name, -c, syscall.Signal(-c)))
			return 128 - c
		default:
			return c
		}
	}
	return console.ExitOK
}

// ExitOf turns a Wait error into an exit code; a negative code is a signal.
func ExitOf(err error) int {
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
