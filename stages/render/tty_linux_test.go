package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/testsupport/ptytest"
)

// onTerminal runs sponge-render as a program (in the environment the test
// set: NO_COLOR, TERM, COLUMNS) with its stdout on a terminal and returns
// what the terminal showed.
func onTerminal(t *testing.T, cols int, args []string, in []byte) string {
	return ptytest.Shown(t, cols, func(term *os.File) {
		var stderr bytes.Buffer
		if code := MainIn(settings.FromOS(), args, bytes.NewReader(in), term, &stderr); code != 0 {
			t.Errorf("exit %d: %s", code, stderr.String())
		}
	})
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
