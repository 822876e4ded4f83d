package render

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal of the given width; render writes to
// its other end as it would to a person's terminal.
func openTerminal(t *testing.T, cols int) (terminal, reader *os.File) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("cannot unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("no pseudo-terminal number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: 40}); err != nil {
		t.Fatal(err)
	}
	return s, m
}

// onTerminal runs sponge-render with its stdout on a terminal and returns
// what the terminal showed.
func onTerminal(t *testing.T, cols int, args []string, in []byte) string {
	term, rd := openTerminal(t, cols)
	out := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, rd) // ends with EIO once the terminal side is closed
		out <- strings.ReplaceAll(b.String(), "\r\n", "\n")
	}()
	var stderr bytes.Buffer
	if code := Main(args, bytes.NewReader(in), term, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	term.Close()
	return <-out
}

func TestTerminal(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "render", "answer")
	in, err := os.ReadFile(filepath.Join(dir, "in.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in = throughVerify(t, dir, in)
	maxWidth := func(s string) int {
		w := 0
		for _, l := range strings.Split(strings.NewReplacer(cNumber, "", cTitle, "", cDim, "", cWarn, "", cReset, "").Replace(s), "\n") {
			w = max(w, len([]rune(l)))
		}
		return w
	}

	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	got := onTerminal(t, 50, nil, in)
	if w := maxWidth(got); w > 50 || w < 45 {
		t.Errorf("on a 50-column terminal the widest line has %d columns:\n%s", w, got)
	}
	if !strings.Contains(got, cNumber+"[1]"+cReset) {
		t.Errorf("no coloured markers on a terminal:\n%q", got)
	}

	t.Setenv("NO_COLOR", "1")
	got = onTerminal(t, 50, nil, in)
	if strings.Contains(got, "\x1b[") {
		t.Errorf("colour with NO_COLOR set:\n%q", got)
	}

	t.Setenv("COLUMNS", "72")
	got = onTerminal(t, 50, nil, in)
	if w := maxWidth(got); w > 72 || w <= 50 {
		t.Errorf("with COLUMNS=72 the widest line has %d columns:\n%s", w, got)
	}

	// --json is for programs: never wrapped or coloured.
	t.Setenv("NO_COLOR", "")
	got = onTerminal(t, 50, []string{"--json"}, in)
	if strings.Contains(got, "\x1b[") || !strings.HasPrefix(got, "{\n  \"question\"") {
		t.Errorf("--json on a terminal:\n%s", got)
	}
}
