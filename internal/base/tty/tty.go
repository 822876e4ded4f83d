// Package tty knows whether output goes to a terminal, which decides
// progress bars, colour and wrapping.
package tty

import (
	"io"
	"os"
)

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice != 0
}
