package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/model/catalog"
	"github.com/sponge-library/sponge/internal/model/openai"
)

func init() {
	cmdline.Implement(runs, "serve", runServe)
}

func runServe(env *Env, opts *cmdline.ServeOptions, rest []string) int {
	if len(rest) > 0 {
		return console.Report(env.Stderr, Prog, console.Usage("serve takes no arguments (got %q)", rest[0]))
	}
	if opts.Port == 0 {
		opts.Port = openai.DefaultPort
	}
	if opts.Port < 1 || opts.Port > 65535 {
		return console.Report(env.Stderr, Prog, console.Usage("--port must be from 1 to 65535, not %d", opts.Port))
	}
	if opts.Threads < 0 {
		return console.Report(env.Stderr, Prog, console.Usage("--threads must be 0 or more, not %d", opts.Threads))
	}
	if opts.PassageTokens < 0 {
		return console.Report(env.Stderr, Prog, console.Usage("--passage-tokens must be 0 (no limit) or more, not %d", opts.PassageTokens))
	}
	dir := opts.Library
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return console.Report(env.Stderr, Prog, console.Errorf("cannot make the library folder %s: %v", dir, err))
	}
	modelFile := opts.ModelFile
	if modelFile == "" {
		modelFile = catalog.Path(env.Settings.ModelsDir(), dir, catalog.Digest)
		if modelFile == "" {
			return console.Report(env.Stderr, Prog, console.Errorf("no writing model is installed in %s", env.Settings.ModelsDir()).
				WithHint("run sponge setup --digest (or give --model-file PATH)"))
		}
	} else if _, err := os.Stat(modelFile); err != nil {
		return console.Report(env.Stderr, Prog, console.Errorf("no model file %s", modelFile))
	}
	info, ignored := openai.LookupServe(context.Background(), dir)
	if ignored != "" {
		console.PrintWarning(env.Stderr, Prog, ignored)
	}
	if info != nil {
		return console.Report(env.Stderr, Prog, console.Errorf("sponge serve is running already for this library, at %s (pid %d)", info.Endpoint, info.PID).
			WithHint("stop it first (kill %d), or use it as it is", info.PID))
	}
	exe, err := pipeline.FindProgram("sponge-draft")
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	return runServer(env, exe, serveArgs(opts, modelFile, dir))
}

// serveArgs are the arguments of the serving child, sponge-draft --serve.
func serveArgs(opts *cmdline.ServeOptions, modelFile, dir string) []string {
	args := []string{"--serve", "--until-eof", "--port", strconv.Itoa(opts.Port), "--model-file", modelFile, "--library", dir, "--passage-tokens", strconv.Itoa(opts.PassageTokens)}
	if opts.Threads > 0 {
		args = append(args, "--threads", strconv.Itoa(opts.Threads))
	}
	return args
}

// runServer runs the serving child until it ends, passing on the signals
// that stop it, and returns its exit code. The child (sponge-draft --serve,
// which links llama.cpp) writes and removes serve.json itself, since it
// alone knows when it is ready and when it has stopped.
//
// The child stops when this process is gone, even killed with SIGKILL,
// rather than hold the port and serve.json as an orphan: on Linux the
// kernel sends it SIGTERM (dieWithParent), and everywhere its stdin, a pipe
// whose other end only this process holds, ends (--until-eof).
func runServer(env *Env, exe string, args []string) int {
	cmd := exec.Command(exe, args...)
	stdin, parentEnd, err := os.Pipe()
	if err != nil {
		return console.Report(env.Stderr, Prog, console.Errorf("cannot start %s: %v", exe, err))
	}
	defer parentEnd.Close()
	cmd.Stdin = stdin
	cmd.Stdout = env.Stdout
	cmd.Stderr = env.Stderr
	// The kernel's signal comes when the thread that started the child
	// ends, not the process: this one is kept while the child runs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dieWithParent(cmd)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	err = cmd.Start()
	stdin.Close()
	if err != nil {
		return console.Report(env.Stderr, Prog, console.Errorf("cannot start %s: %v", exe, err))
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	stopped := false
	for {
		select {
		case sig := <-sigs:
			// On a terminal Ctrl-C reaches the child too; a kill of this
			// process alone must still stop it.
			stopped = true
			cmd.Process.Signal(sig)
		case err := <-waited:
			c := pipeline.ExitOf(err)
			var ee *exec.ExitError
			switch {
			case c == 0:
				return console.ExitOK
			case c < 0 && stopped:
				return console.ExitOK // stopped as asked, before it could say so itself
			case c < 0:
				console.PrintError(env.Stderr, Prog, fmt.Sprintf("sponge-draft --serve was killed by signal %d (%s)", -c, syscall.Signal(-c)))
				return 128 - c
			case errors.As(err, &ee):
				return c // the child said what went wrong
			default:
				return console.Report(env.Stderr, Prog, err)
			}
		}
	}
}
