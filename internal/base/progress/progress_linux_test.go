package progress

import (
	"os"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/testsupport/ptytest"
)

// TestHostileDescription: a bar that names a file (sponge setup --from
// FILE copies it) shows the escape sequences in the name inert; the bar's
// own drawing is the only thing the terminal acts on.
func TestHostileDescription(t *testing.T) {
	shown := ptytest.Shown(t, 100, func(term *os.File) {
		b := New(term, 10, "copying tea\x1b]0;pwned\x07\u202egnp.gguf", true)
		if b == nil {
			t.Fatal("no bar on a terminal")
		}
		b.Add(3) // the first Add draws the bar; one that fills it draws nothing
		b.Finish()
	})
	if strings.Contains(shown, "\x1b]0;") || strings.Contains(shown, "\u202e") || strings.Contains(shown, "\x07") {
		t.Errorf("the file name reached the terminal raw:\n%q", shown)
	}
	if !strings.Contains(shown, `tea\x1b]0;pwned\x07\u202egnp.gguf`) {
		t.Errorf("the file name is not shown:\n%q", shown)
	}
}
