package pipeline

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"syscall"
)

// MainFunc is a stage program's Main: its arguments and streams, and it
// returns the exit code.
type MainFunc func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// RunInProcess runs the steps as RunProcesses does, with the same streams,
// messages and exit codes, but each step's Main in a goroutine of this
// process instead of a child program: a question's passages then pay for
// starting one program, not four. mains gives each step's Main by its
// name; a step without one makes it RunProcesses. As between programs, a
// step whose reader has finished stops at its next write and says nothing
// (SIGPIPE between programs).
func RunInProcess(prog string, steps []Step, mains map[string]MainFunc, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, s := range steps {
		if mains[s.Name] == nil {
			return RunProcesses(prog, steps, stdin, stdout, stderr)
		}
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
		}(i, mains[s.Name], s.Args, src)
		if next != nil {
			src = next
		}
	}
	wg.Wait()
	return exitOf(prog, steps, codes, stderr)
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
