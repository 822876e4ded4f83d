package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/jsonl"
)

const question = `{"v":1,"type":"question","text":"tea"}` + "\n"

// count passes everything on and adds one warning record at the end.
func count(name string) Stage {
	return Func(func(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
		n := 0
		if err := Pass(r, w, func(*jsonl.Line) error { n++; return nil }); err != nil {
			return err
		}
		return w.Write(&jsonl.Warning{Code: name, Message: fmt.Sprint(n)})
	})
}

func TestChainPassesInOrder(t *testing.T) {
	var out bytes.Buffer
	if err := Chain(context.Background(), strings.NewReader(question), &out, count("a"), count("b"), count("c")); err != nil {
		t.Fatal(err)
	}
	var codes []string
	r := jsonl.NewReader(&out, "out")
	Each(r, func(l *jsonl.Line) error {
		if w, ok := l.Record.(*jsonl.Warning); ok {
			codes = append(codes, w.Code+"="+w.Message)
		}
		return nil
	})
	if want := []string{"a=1", "b=2", "c=3"}; !slices.Equal(codes, want) {
		t.Errorf("got %v, want %v", codes, want)
	}
}

// The first stage that fails is the cause; the one after it fails only
// because its input was cut, and the one before it stops writing.
func TestChainFirstFailure(t *testing.T) {
	boom := errors.New("boom")
	endless := Func(func(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
		for {
			if err := w.Write(&jsonl.Warning{Code: "x"}); err != nil {
				return err
			}
		}
	})
	failing := Func(func(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
		r.Next()
		return boom
	})
	err := Chain(context.Background(), strings.NewReader(""), io.Discard, endless, failing, count("after"))
	if !errors.Is(err, boom) {
		t.Errorf("got %v, want boom", err)
	}
}

func TestReportExitCodes(t *testing.T) {
	var de error
	_, de = jsonl.NewReader(strings.NewReader("not json\n"), "<stdin>").Next()
	cases := []struct {
		err  error
		code int
		msg  string
	}{
		{nil, 0, ""},
		{de, console.ExitBadInput, "p: error: <stdin>:1: "},
		{fmt.Errorf("reading: %w", de), console.ExitBadInput, "p: error: <stdin>:1: "},
		{ExitCode(7), 7, ""},
		{console.Usage("bad"), console.ExitUsage, "p: error: bad"},
		{errors.New("plain"), console.ExitFailure, "p: error: plain"},
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		if got := Report(&stderr, "p", c.err); got != c.code || !strings.HasPrefix(stderr.String(), c.msg) || (c.msg == "") != (stderr.Len() == 0) {
			t.Errorf("Report(%v) = %d, %q; want %d, %q…", c.err, got, stderr.String(), c.code, c.msg)
		}
	}
}

func TestMainMalformedLine(t *testing.T) {
	c := Command{Prog: "p", Setup: func() (any, func([]string, Env) (Stage, error)) {
		var opts struct{}
		return &opts, func([]string, Env) (Stage, error) { return count("c"), nil }
	}}
	var stdout, stderr bytes.Buffer
	code := Main(c, settings.Environ{}, nil, strings.NewReader(question+"{\n"), &stdout, &stderr)
	if code != console.ExitBadInput || !strings.Contains(stderr.String(), "<stdin>:2:") || stdout.String() != question {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// TestMainEscapes: a stage program's stream on a terminal shows no
// character a terminal acts on (encoding/json writes C1 controls, DEL and
// bidi overrides raw), whether the stage wrote the record or passed its
// line on, and the record reads back exact.
func TestMainEscapes(t *testing.T) {
	text := "Green tea\x1b]0;pwned\x07 \u009b2J \u202egnp.exe\x7f & <b>é"
	raw := `{"v":1,"type":"statement","text":"` + "\u009b\u202e\x7f" + `","passage":1,"quote":"q"}`
	c := Command{Prog: "p", Setup: func() (any, func([]string, Env) (Stage, error)) {
		var opts struct{}
		return &opts, func([]string, Env) (Stage, error) {
			return Func(func(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
				if err := w.Write(&jsonl.Statement{Text: text, Passage: 1, Quote: "Green tea"}); err != nil {
					return err
				}
				return Pass(r, w, nil)
			}), nil
		}
	}}
	var stdout, stderr bytes.Buffer
	if code := Main(c, settings.Environ{}, nil, strings.NewReader(raw+"\n"), &stdout, &stderr); code != console.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Fatalf("%U written raw: %q", r, out)
		}
	}
	if !strings.Contains(out, "& <b>é") {
		t.Errorf("safe text changed: %s", out)
	}
	r := jsonl.NewReader(strings.NewReader(out), "<stdout>")
	for _, want := range []string{text, "\u009b\u202e\x7f"} {
		line, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if got := line.Record.(*jsonl.Statement).Text; got != want {
			t.Errorf("read back %q, want %q", got, want)
		}
	}
}

func TestAskSteps(t *testing.T) {
	names := func(steps []Step) (n []string) {
		for _, s := range steps {
			n = append(n, s.Name+" "+strings.Join(s.Args, " "))
		}
		return n
	}
	got := names(Ask{Library: "L", Question: "q", Limit: 3, Endpoint: "E", Model: "M", JSON: true}.Steps())
	want := []string{"sponge-search --library L --limit 3 -- q", "sponge-rank --library L",
		"sponge-draft --library L --endpoint E --model M", "sponge-verify --library L", "sponge-render --json"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	got = names(Ask{Question: "q", PassageTokens: "200"}.Steps())
	want = []string{"sponge-search -- q", "sponge-rank ", "sponge-draft --passage-tokens 200", "sponge-verify ", "sponge-render "}
	if !slices.Equal(got, want) {
		t.Errorf("passage tokens: got %q\nwant %q", got, want)
	}
	got = names(Ask{Question: "q", Passages: true}.Steps())
	want = []string{"sponge-search -- q", "sponge-rank ", "sponge-render "}
	if !slices.Equal(got, want) {
		t.Errorf("passages: got %q\nwant %q", got, want)
	}
}

// A stage that panics (a bug: sponge-draft's table rows once sliced out of
// range on a row with an empty cell) ends with one error line that says
// where, a hint to report it and exit 1, no stack trace; what it wrote
// before stays written.
func TestMainPanicIsAnError(t *testing.T) {
	c := Command{Prog: "p", Setup: func() (any, func([]string, Env) (Stage, error)) {
		var opts struct{}
		return &opts, func([]string, Env) (Stage, error) {
			return Func(func(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
				if err := Pass(r, w, nil); err != nil {
					return err
				}
				var cells []string
				_ = cells[len(r.Name())] // out of range
				return nil
			}), nil
		}
	}}
	var stdout, stderr bytes.Buffer
	code := Main(c, settings.Environ{}, nil, strings.NewReader(question), &stdout, &stderr)
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	if code != console.ExitFailure || stdout.String() != question || len(lines) != 2 ||
		!strings.HasPrefix(lines[0], "p: error: internal error in pipeline.TestMainPanicIsAnError.") ||
		!strings.Contains(lines[0], "(pipeline_test.go:") || !strings.Contains(lines[0], "index out of range") ||
		lines[1] != "p: hint: this is a bug in sponge: please report it with the command and its input" {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout.String(), stderr.String())
	}
}

// In a Chain (sponge ask runs its pure stages so) a stage's panic is the
// chain's error, not the end of the program.
func TestChainPanicIsAnError(t *testing.T) {
	boom := Func(func(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
		var words []string
		return errors.New(words[len(r.Name())]) // index out of range
	})
	var out bytes.Buffer
	err := Chain(context.Background(), strings.NewReader(question), &out, count("a"), boom, count("c"))
	var ce *console.Error
	if !errors.As(err, &ce) || !strings.HasPrefix(ce.Msg, "internal error in pipeline.TestChainPanicIsAnError.") || !strings.Contains(ce.Msg, "index out of range") {
		t.Errorf("Chain: %v", err)
	}
}
