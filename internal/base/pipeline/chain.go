package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/jsonl"
)

// errStopped ends the writes of a stage whose reader has finished: like
// SIGPIPE between programs, it is no failure of its own.
var errStopped = errors.New("the next stage stopped reading")

// Chain runs the stages in this process, each in its own goroutine, joined
// by pipes: the first reads in, the last writes out. It returns when all
// have finished, with the error of the first stage that failed; the stages
// after it fail because their input was cut, the ones before because
// nobody reads them, and neither is the cause.
func Chain(ctx context.Context, in io.Reader, out io.Writer, stages ...Stage) error {
	errs := make([]error, len(stages))
	done := make(chan int, len(stages))
	src := in
	for i, st := range stages {
		var dst io.Writer = out
		var pw *io.PipeWriter
		var next *io.PipeReader
		if i < len(stages)-1 {
			next, pw = io.Pipe()
			dst = pw
		}
		go func(i int, st Stage, src io.Reader, dst io.Writer, pw *io.PipeWriter) {
			name := "the stream"
			if i > 0 {
				name = fmt.Sprintf("stage %d's output", i)
			}
			err := runStage(ctx, st, jsonl.NewReader(src, name), jsonl.NewWriter(dst))
			errs[i] = err
			if pw != nil {
				if err != nil {
					pw.CloseWithError(err)
				} else {
					pw.Close()
				}
			}
			if pr, ok := src.(*io.PipeReader); ok {
				// Whatever the stage before still writes goes nowhere.
				pr.CloseWithError(errStopped)
			}
			done <- i
		}(i, st, src, dst, pw)
		if next != nil {
			src = next
		}
	}
	for range stages {
		<-done
	}
	for _, err := range errs {
		if err != nil && !errors.Is(err, errStopped) {
			return err
		}
	}
	return nil
}

// Process is a stage run as a child program, inside a Chain: sponge-draft,
// which links the model runtime that the pure programs do not. The records
// read are its stdin; what it writes must be records, and is passed on as
// it comes. Its stderr is kept (64 KB at most): when it fails, that is the
// error; when it succeeds, it goes to Stderr (its warnings).
type Process struct {
	Path   string
	Args   []string
	Stderr io.Writer // nil: dropped
}

// Run runs the program; a cancelled ctx sends it SIGTERM.
func (p *Process) Run(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
	name := p.Path[strings.LastIndexByte(p.Path, '/')+1:]
	cmd := exec.CommandContext(ctx, p.Path, p.Args...)
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 64 << 10}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("cannot start %s: %v", name, err)
	}
	fed := make(chan error, 1)
	go func() {
		in := jsonl.NewWriter(stdin)
		err := Each(r, func(line *jsonl.Line) error { return in.WriteRaw(line.Raw) })
		stdin.Close()
		fed <- err
	}()
	perr := Pass(jsonl.NewReader(stdout, name+"'s output"), w, nil)
	if perr != nil {
		// Read the rest so the program is not stuck writing to a full pipe.
		io.Copy(io.Discard, stdout)
	}
	werr := cmd.Wait()
	ferr := <-fed
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("stopped before %s had finished", name)
	case werr != nil:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = fmt.Sprintf("%s failed: %v", name, werr)
		}
		return errors.New(msg)
	case perr != nil:
		var de *jsonl.DecodeError
		if errors.As(perr, &de) {
			return fmt.Errorf("%s wrote a stream that cannot be read: %v", name, perr)
		}
		return perr
	case ferr != nil && !errors.Is(ferr, syscall.EPIPE):
		return ferr
	}
	if p.Stderr != nil {
		p.Stderr.Write(stderr.Bytes())
	}
	return nil
}

// limitedWriter keeps the first n bytes written to it and drops the rest.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	k := min(len(p), l.n)
	if k > 0 {
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
