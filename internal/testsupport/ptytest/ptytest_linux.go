// Package ptytest opens pseudo-terminals for tests: what a program writes
// to a person's terminal (wrapping, colour, progress bars, escapes) is
// read back from the other end.
package ptytest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Open opens a pseudo-terminal of the given width: the program writes to
// terminal, the test reads what it shows from reader. The test is skipped
// where there is none.
func Open(t testing.TB, cols int) (terminal, reader *os.File) {
	t.Helper()
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

// Shown runs write with a terminal of the given width, closes it, and
// returns what the terminal showed (its \r\n as \n).
func Shown(t testing.TB, cols int, write func(terminal *os.File)) string {
	t.Helper()
	term, rd := Open(t, cols)
	out := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, rd) // ends with EIO once the terminal side is closed
		out <- strings.ReplaceAll(b.String(), "\r\n", "\n")
	}()
	write(term)
	term.Close()
	return <-out
}
