package pipeline

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/sponge-library/sponge/internal/base/console"
)

// MainFunc is a stage program's Main: its arguments and streams, and it
// returns the exit code.
type MainFunc func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// RunInProcess runs the steps as RunProcesses does, with the same streams,
// messages and exit codes, but each step's Main in a goroutine of this
// process instead of a child program: a question's passages then pay for
// starting one program, not four. mains gives each step's Main by its
// name; a step without one (sponge-draft, which links the model runtime)
// runs as a child program between the others, its stderr the person's. As
// between programs, a step whose reader has finished stops at its next
// write and says nothing (SIGPIPE between programs).
func RunInProcess(prog string, steps []Step, mains map[string]MainFunc, stdin io.Reader, stdout, stderr io.Writer) int {
	run := make([]MainFunc, len(steps))
	for i, s := range steps {
		if run[i] = mains[s.Name]; run[i] != nil {
			continue
		}
		path, err := FindProgram(s.Name)
		if err != nil {
			return console.Report(stderr, prog, err)
		}
		run[i] = childMain(prog, path, stderr)
	}
	errw := &lockedWriter{w: stderr}
	codes := make([]int, len(steps))
	var wg sync.WaitGroup
	src := stdin
	for i, s := range steps {
		out := &stageOutput{w: stdout}
		var pw *io.PipeWriter
		var next *io.PipeReader
		if i < len(steps)-1 {
			next, pw = io.Pipe()
			out.w = pw
		}
		wg.Add(1)
		go func(i int, main MainFunc, args []string, src io.Reader) {
			defer wg.Done()
			// The last step writes to stdout itself, so that it sees a
			// terminal there as the program would.
			var w io.Writer = out
			if pw == nil {
				w = stdout
			}
			codes[i] = main(args, src, w, &quietAfterStop{w: errw, out: out})
			if out.stopped.Load() {
				codes[i] = -int(syscall.SIGPIPE)
			}
			if pw != nil {
				pw.Close()
			}
			if pr, ok := src.(*io.PipeReader); ok {
				// Whatever the stage before still writes goes nowhere.
				pr.CloseWithError(errStopped)
			}
		}(i, run[i], s.Args, src)
		if next != nil {
			src = next
		}
	}
	wg.Wait()
	return exitOf(prog, steps, codes, stderr)
}

// childMain is the Main of a step run as the program at path: its stdin
// and stdout are the step's streams (the pipes to the steps beside it, or
// the person's), and its stderr the person's file as RunProcesses gives it,
// so that a terminal there is one to the program too.
func childMain(prog, path string, personStderr io.Writer) MainFunc {
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		cmd := exec.Command(path, args...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
		if f, ok := personStderr.(*os.File); ok {
			cmd.Stderr = f
		}
		if err := cmd.Start(); err != nil {
			return console.Report(stderr, prog, console.Errorf("cannot start %s: %v", filepath.Base(path), err))
		}
		// A reader that stopped early shows as a failed copy of its
		// output here, which the caller takes for SIGPIPE.
		return ExitOf(cmd.Wait())
	}
}

// stageOutput is a step's stdout: it notes when the step's reader has
// finished.
type stageOutput struct {
	w       io.Writer
	stopped atomic.Bool
}

func (o *stageOutput) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if errors.Is(err, errStopped) {
		o.stopped.Store(true)
	}
	return n, err
}

// quietAfterStop is a step's stderr: once the step's reader has finished,
// what the step says of the failed write is dropped, as a program killed by
// SIGPIPE says nothing.
type quietAfterStop struct {
	w   io.Writer
	out *stageOutput
}

func (q *quietAfterStop) Write(p []byte) (int, error) {
	if q.out.stopped.Load() {
		return len(p), nil
	}
	return q.w.Write(p)
}

// lockedWriter lets the steps share one stderr.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
