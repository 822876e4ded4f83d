package pipeline

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestRunInProcess checks the steps run as programs would: joined in
// order, the first failure's exit code, and a step whose reader stopped
// early saying nothing (SIGPIPE between programs).
func TestRunInProcess(t *testing.T) {
	writeMany := func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		for i := range 100000 {
			if _, err := fmt.Fprintf(stdout, "line %d %s\n", i, strings.Join(args, " ")); err != nil {
				fmt.Fprintln(stderr, "writer: error:", err)
				return 1
			}
		}
		return 0
	}
	upper := func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			fmt.Fprintln(stdout, strings.ToUpper(sc.Text()))
		}
		fmt.Fprintln(stderr, "upper: done")
		return 0
	}
	firstOnly := func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		sc := bufio.NewScanner(stdin)
		sc.Scan()
		fmt.Fprintln(stdout, sc.Text())
		if len(args) > 0 {
			fmt.Fprintln(stderr, "first: error: "+args[0])
			return 3
		}
		return 0
	}
	mains := map[string]MainFunc{"write": writeMany, "upper": upper, "first": firstOnly}

	var out, errs bytes.Buffer
	code := RunInProcess("t", []Step{{"write", []string{"x"}}, {"upper", nil}, {"first", nil}}, mains, nil, &out, &errs)
	if code != 0 || out.String() != "LINE 0 X\n" || errs.String() != "" {
		t.Errorf("reader stopped early: exit %d, stdout %q, stderr %q", code, out.String(), errs.String())
	}
	out.Reset()
	errs.Reset()
	code = RunInProcess("t", []Step{{"write", nil}, {"first", []string{"bad"}}}, mains, nil, &out, &errs)
	if code != 3 || errs.String() != "first: error: bad\n" {
		t.Errorf("a failing step: exit %d, stderr %q", code, errs.String())
	}
}

// A step without a Main runs as its program between the steps in this
// process (sponge ask's sponge-draft): the stream goes through it, its
// exit code and stderr are a program's, and when the step after it stops
// reading early it stops too and that is no failure (SIGPIPE).
func TestRunInProcessWithProgram(t *testing.T) {
	for _, p := range []string{"tr", "sh"} {
		if _, err := FindProgram(p); err != nil {
			t.Skip("no " + p)
		}
	}
	writeN := func(n int) MainFunc {
		return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
			for i := range n {
				if _, err := fmt.Fprintf(stdout, "line %d\n", i); err != nil {
					fmt.Fprintln(stderr, "writer: error:", err)
					return 1
				}
			}
			return 0
		}
	}
	all := func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		io.Copy(stdout, stdin)
		return 0
	}
	firstOnly := func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		sc := bufio.NewScanner(stdin)
		sc.Scan()
		fmt.Fprintln(stdout, sc.Text())
		return 0
	}
	mains := map[string]MainFunc{"three": writeN(3), "many": writeN(200000), "all": all, "first": firstOnly}
	upper := Step{"tr", []string{"a-z", "A-Z"}}

	var out, errs bytes.Buffer
	code := RunInProcess("t", []Step{{"three", nil}, upper, {"all", nil}}, mains, nil, &out, &errs)
	if code != 0 || out.String() != "LINE 0\nLINE 1\nLINE 2\n" || errs.String() != "" {
		t.Errorf("through a program: exit %d, stdout %q, stderr %q", code, out.String(), errs.String())
	}
	out.Reset()
	errs.Reset()
	code = RunInProcess("t", []Step{{"many", nil}, upper, {"first", nil}}, mains, nil, &out, &errs)
	if code != 0 || out.String() != "LINE 0\n" || errs.String() != "" {
		t.Errorf("reader stopped early: exit %d, stdout %q, stderr %q", code, out.String(), errs.String())
	}
	out.Reset()
	errs.Reset()
	failing := Step{"sh", []string{"-c", "read x; echo \"sh: error: bad $x\" >&2; exit 3"}}
	code = RunInProcess("t", []Step{{"many", nil}, failing, {"all", nil}}, mains, nil, &out, &errs)
	if code != 3 || out.String() != "" || errs.String() != "sh: error: bad line 0\n" {
		t.Errorf("a failing program: exit %d, stdout %q, stderr %q", code, out.String(), errs.String())
	}
	out.Reset()
	errs.Reset()
	code = RunInProcess("t", []Step{{"three", nil}, {"no-such-stage-program", nil}}, mains, nil, &out, &errs)
	if code != 1 || !strings.Contains(errs.String(), "t: error: cannot find no-such-stage-program") {
		t.Errorf("a missing program: exit %d, stderr %q", code, errs.String())
	}
}
