package mcp

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

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/search"
	"github.com/sponge-library/sponge/stages/verify"
)

// ask runs the whole pipeline for a question: search and rank in-process
// (with the index kept open), then the sponge-draft binary, as sponge ask
// runs it, so that it uses the same writer (a running sponge serve, the
// model, else the extractive drafter) and only it links the model runtime;
// then verify and render in-process. The index is not held while the model
// writes.
func (s *Server) ask(ctx context.Context, in *questionArgs) (*reply, error) {
	lib, res, st, err := s.passages(in.Question, in.Limit)
	if err != nil {
		return nil, err
	}
	if s.opts.FindStage == nil {
		return nil, errors.New("this server cannot run sponge-draft, so it has no ask")
	}
	draft, err := s.opts.FindStage("sponge-draft")
	if err != nil {
		return nil, err
	}
	// What sponge-rank writes: the question, warnings and hits as
	// sponge-search wrote them, then the passages.
	var in1 bytes.Buffer
	w := jsonl.NewWriter(&in1)
	if err := search.Write(w, st.Question, res); err != nil {
		return nil, err
	}
	for _, p := range st.Passages {
		if err := w.Write(p); err != nil {
			return nil, err
		}
	}

	cmd := exec.CommandContext(ctx, draft, "--library", lib.Dir)
	cmd.Stdin = &in1
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 64 << 10}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, console.Errorf("cannot start %s: %v", draft, err)
	}
	var verified bytes.Buffer
	v := verify.New(lib)
	v.Warn = func(msg string) { console.PrintWarning(s.opts.Stderr, "sponge mcp", msg) }
	verr := v.Run(jsonl.NewReader(out, "sponge-draft's output"), jsonl.NewWriter(&verified))
	if verr != nil {
		// Read the rest so the drafter is not stuck writing to a full pipe.
		io.Copy(io.Discard, out)
	}
	werr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("the call was cancelled before the answer was written")
	case werr != nil:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = fmt.Sprintf("sponge-draft failed: %v", werr)
		}
		return nil, errors.New(msg)
	case verr != nil:
		return nil, fmt.Errorf("sponge-draft wrote a stream that cannot be checked: %v", verr)
	}
	// Warnings of a drafter that succeeded go to the server's log.
	s.opts.Stderr.Write(stderr.Bytes())
	answer, err := render.Read(jsonl.NewReader(&verified, "the checked answer"))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := render.WriteJSON(&b, answer); err != nil {
		return nil, err
	}
	return &reply{text: b.String(), structured: jsonRaw(b.Bytes())}, nil
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
