package mcp

import (
	"bufio"
	"io"
	"runtime"
	"strings"
	"testing"
)

// readLine keeps at most max bytes of a line: a 48 MB line is skipped with
// about max allocated, and the lines around it are read whole.
func TestReadLineCap(t *testing.T) {
	const max = 1 << 20
	in := io.MultiReader(strings.NewReader("first\r\n"), strings.NewReader(strings.Repeat("x", 48<<20)),
		strings.NewReader("\n"+strings.Repeat("y", max)+"\nlast"))
	br := bufio.NewReaderSize(in, 64<<10)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var got []string
	var buf []byte
	for {
		line, tooLong, err := readLine(br, buf[:0], max)
		buf = line
		if tooLong {
			got = append(got, "(too long)")
		} else {
			got = append(got, string(line[:min(len(line), 5)]))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if want := []string{"first", "(too long)", "yyyyy", "last"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("lines %q, want %q", got, want)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 4*max+(4<<20) {
		t.Errorf("reading the lines allocated %d MB", n>>20)
	}
}
