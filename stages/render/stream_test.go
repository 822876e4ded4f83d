package render

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/jsonl"
)

// lineFeeder hands the stream to render one line per Read. Each Read after
// the first means render has done with the line before and asks for the
// next: the feeder then notes how many statements render has shown by then.
type lineFeeder struct {
	lines [][]byte
	next  int
	out   *syncBuffer
	// shownBefore[i] is what render had written when it asked for line i.
	shownBefore []string
}

func (f *lineFeeder) Read(p []byte) (int, error) {
	f.shownBefore = append(f.shownBefore, f.out.String())
	if f.next == len(f.lines) {
		return 0, io.EOF
	}
	l := f.lines[f.next]
	if len(p) < len(l) {
		panic("render reads less than a line at a time")
	}
	f.next++
	return copy(p, l), nil
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestTextStreams: the text view shows each verified statement before it
// reads the next record, and what it shows in the end is byte for byte the
// text of the whole stream. A render that waited for the end of the stream
// (as it did before issue 14) shows nothing until the last Read.
func TestTextStreams(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "render", "answer")
	in, err := os.ReadFile(filepath.Join(dir, "in.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in = throughVerify(t, dir, in)
	want, err := os.ReadFile(filepath.Join(dir, "want.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	f := &lineFeeder{out: &out}
	for _, l := range bytes.SplitAfter(in, []byte("\n")) {
		if len(l) > 0 {
			f.lines = append(f.lines, l)
		}
	}
	st := &Stage{Out: &out}
	if err := st.Run(t.Context(), jsonl.NewReader(f, "<stdin>"), nil); err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("the streamed text differs from want.txt:\n%s", out.String())
	}
	verified := 0
	for i, l := range f.lines {
		rec, err := jsonl.Decode(bytes.TrimSpace(l))
		if err != nil {
			t.Fatal(err)
		}
		v, ok := rec.(*jsonl.Verified)
		if !ok {
			continue
		}
		verified++
		// Render asked for line i+1 after it had handled line i.
		shown := f.shownBefore[i+1]
		if got := strings.Count(shown, "\n"); got != verified {
			t.Errorf("when render read past verified statement %d it had written %d lines:\n%s", verified, got, shown)
		}
		if !strings.Contains(shown, firstWords(v)) {
			t.Errorf("statement %d (%q) was not on the output before the next record was read:\n%s", verified, firstWords(v), shown)
		}
	}
	if verified < 2 {
		t.Fatalf("the case has %d verified statements, too few to show streaming", verified)
	}
}

// firstWords is the start of what the text view shows for v.
func firstWords(v *jsonl.Verified) string {
	s := oneLine(v.Text)
	if Extractive(v) {
		s = quoteOpen + oneLine(v.Saved)
	}
	return s[:min(len(s), 20)]
}

// TestStreamCutShowsSources: a stream cut by a malformed line after some
// statements were shown still gives their sources before the error, so no
// [n] marker on the screen is left without its item.
func TestStreamCutShowsSources(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "render", "answer")
	in, err := os.ReadFile(filepath.Join(dir, "in.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in = throughVerify(t, dir, in)
	cut := in[:bytes.Index(in, []byte(`"type":"left-out"`))]
	cut = append(cut[:bytes.LastIndexByte(cut[:len(cut)-1], '\n')+1], "{\"v\":1,\"type\"\n"...)
	var out, errb bytes.Buffer
	code := pipeline.Main(Command, settings.Environ{}, nil, bytes.NewReader(cut), &out, &errb)
	if code != 3 || !strings.Contains(errb.String(), "sponge-render: error: <stdin>:") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	if !strings.Contains(out.String(), "[1] Tea notes\n    0a57a26ade13…") {
		t.Errorf("the statements shown lack their sources:\n%s", out.String())
	}
}

// pipeTo is a stdout whose reader leaves (| head) after the first write.
type pipeTo struct {
	writes int
	got    bytes.Buffer
}

func (p *pipeTo) Write(b []byte) (int, error) {
	p.writes++
	if p.writes > 1 {
		return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
	}
	return p.got.Write(b)
}

// TestReaderGone: when the answer's reader stops after the first statement
// (sponge ask | head), render is no failure, reads the stream to its end
// and still writes the warnings to stderr; so with --json.
func TestReaderGone(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "render", "answer")
	in, err := os.ReadFile(filepath.Join(dir, "in.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in = throughVerify(t, dir, in)
	for _, json := range []bool{false, true} {
		out := &pipeTo{}
		var errb bytes.Buffer
		st := &Stage{JSON: json, Out: out, Err: &errb}
		err := st.Run(t.Context(), jsonl.NewReader(bytes.NewReader(in), "<stdin>"), nil)
		if err != nil {
			t.Errorf("json %v: %v", json, err)
		}
		if !json && (!strings.HasPrefix(errb.String(), "Warning: semantic-unavailable") || strings.Count(out.got.String(), "\n") != 1) {
			t.Errorf("stdout %q, stderr %q", out.got.String(), errb.String())
		}
	}
}
