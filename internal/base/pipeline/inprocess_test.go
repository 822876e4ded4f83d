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
