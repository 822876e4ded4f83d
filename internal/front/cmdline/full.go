package cmdline

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/pipeline"
)

// runFull hands the command line given to sponge (args) to sponge-full,
// found beside sponge, else on PATH, as git runs git-add for 'git add'.
// When sponge runs on its own stdin, stdout and stderr, sponge-full takes
// this process's place (exec): same process, so the same stdio,
// environment, exit code and signals (a SIGKILL meant for 'sponge add' kills
// the add). Else (Main called with other streams, or no exec on this system)
// it runs as a child with the streams given, and its exit code is returned.
func runFull(env *Env, name string, args []string) int {
	path, err := pipeline.FindProgram(Full)
	if err != nil {
		return console.Report(env.Stderr, Prog, console.Errorf("'sponge %s' runs in %s, which is neither beside sponge nor on PATH", name, Full).
			WithHint("install %s with sponge: 'make build' puts both in bin/", Full))
	}
	if env.Stdin == os.Stdin && env.Stdout == os.Stdout && env.Stderr == os.Stderr {
		err := execProgram(path, args)
		if !errors.Is(err, errors.ErrUnsupported) {
			return console.Report(env.Stderr, Prog, console.Errorf("cannot start %s: %v", Full, err))
		}
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, env.Stdout, env.Stderr
	if err := cmd.Start(); err != nil {
		return console.Report(env.Stderr, Prog, console.Errorf("cannot start %s: %v", Full, err))
	}
	code := pipeline.ExitOf(cmd.Wait())
	if code < 0 { // killed by a signal: the code a shell gives
		console.PrintError(env.Stderr, Prog, fmt.Sprintf("%s was killed by signal %d (%s)", Full, -code, syscall.Signal(-code)))
		return 128 - code
	}
	return code
}
