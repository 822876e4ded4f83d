package cmdline

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/testsupport/home"
)

// fakeFull puts a sponge-full on PATH (alone there) that runs script, and
// returns the folder.
func fakeFull(t *testing.T, script string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for sponge-full")
	}
	dir := t.TempDir()
	if script != "" {
		if err := os.WriteFile(filepath.Join(dir, Full), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	return dir
}

func runWith(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// TestHandsToFull: a command whose code is in sponge-full gets the command
// line as the person typed it, stdin, stdout and stderr, and its exit code
// is sponge's.
func TestHandsToFull(t *testing.T) {
	home.Isolate(t)
	fakeFull(t, "for a in \"$@\"; do echo \"arg $a\"; done\nread line; echo \"stdin $line\"\necho 'sponge: error: said by sponge-full' >&2\nexit 3\n")
	out, errs, code := runWith(t, "a line\n", "--library", "/tmp/nowhere", "add", "--quiet", "two words")
	if want := "arg --library\narg /tmp/nowhere\narg add\narg --quiet\narg two words\nstdin a line\n"; out != want {
		t.Errorf("sponge-full printed %q, want %q", out, want)
	}
	if errs != "sponge: error: said by sponge-full\n" || code != 3 {
		t.Errorf("stderr %q, exit %d; want sponge-full's and 3", errs, code)
	}
	// Commands with their code here do not run it.
	if _, _, code := runWith(t, "", "config", "list"); code != 0 {
		t.Errorf("config list: exit %d", code)
	}
}

// TestFullKilled: a sponge-full killed by a signal gives the code a shell
// gives, and says so.
func TestFullKilled(t *testing.T) {
	home.Isolate(t)
	fakeFull(t, "kill -TERM $$\nsleep 5\n")
	_, errs, code := runWith(t, "", "update")
	if code != 128+15 || !strings.Contains(errs, "sponge: error: sponge-full was killed by signal 15") {
		t.Errorf("exit %d, stderr %q; want 143 and the signal", code, errs)
	}
}

// TestFullMissing: without sponge-full, its commands say what is missing and
// how to get it; their help and usage errors need no sponge-full.
func TestFullMissing(t *testing.T) {
	home.Isolate(t)
	fakeFull(t, "")
	for _, name := range []string{"add", "update", "rm", "reindex", "summarize", "setup", "serve", "ui", "mcp"} {
		_, errs, code := runWith(t, "", name, "x")
		if code != console.ExitFailure || !strings.HasPrefix(errs, "sponge: error: 'sponge "+name+"' runs in sponge-full, which is neither beside sponge nor on PATH\nsponge: hint: ") {
			t.Errorf("%s without sponge-full: exit %d, stderr %q", name, code, errs)
		}
		if out, _, code := runWith(t, "", name, "--help"); code != 0 || !strings.Contains(out, "sponge "+name+" [OPTIONS]") {
			t.Errorf("%s --help: exit %d, %q", name, code, out)
		}
		if _, errs, code := runWith(t, "", name, "--no-such-flag"); code != console.ExitUsage || !strings.Contains(errs, "unknown flag") {
			t.Errorf("%s --no-such-flag: exit %d, %q", name, code, errs)
		}
	}
	if out, _, code := runWith(t, "", "help", "add"); code != 0 || !strings.Contains(out, "Save files, folders") {
		t.Errorf("help add: exit %d, %q", code, out)
	}
}

// TestRunsGuard: a program given the code of some commands (sponge-full)
// never hands one to sponge-full, which would run itself again.
func TestRunsGuard(t *testing.T) {
	home.Isolate(t)
	fakeFull(t, "echo ran\n")
	var out, errb bytes.Buffer
	code := MainWith(Runs{}, []string{"update"}, strings.NewReader(""), &out, &errb)
	if code != console.ExitFailure || out.String() != "" || !strings.Contains(errb.String(), "sponge-full has no code for 'sponge update'") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	if got := Missing(Runs{}); len(got) != 9 {
		t.Errorf("Missing(no runs) = %v, want the 9 commands of sponge-full", got)
	}
}
