package cli_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeDraft stands for sponge-draft --serve: it writes its pid and waits,
// as a server does. With the mode eof it ignores SIGTERM and waits for the
// end of its stdin instead, which is how the child stops where the kernel
// sends no signal at the parent's end.
const fakeDraft = `#!/bin/sh
case " $* " in *" --serve --until-eof "*) ;; *) echo "fake sponge-draft: no --serve --until-eof in: $*" >&2; exit 9;; esac
if [ "$FAKE_MODE" = eof ]; then
	trap '' TERM
	echo $$ > "$FAKE_PID"
	cat >/dev/null
	echo eof > "$FAKE_DONE"
	exit 0
fi
echo $$ > "$FAKE_PID"
exec sleep 1000
`

// Issue 43: sponge serve killed with SIGKILL takes its serving child with
// it (it was left running, holding the port and serve.json): the kernel
// sends the child SIGTERM, and the child's stdin ends.
func TestServeKilledChildStops(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	bin := spongeBinary(t)
	dir := t.TempDir()
	for _, name := range []string{"sponge", "sponge-full"} {
		if err := copyFile(filepath.Join(filepath.Dir(bin), name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "sponge-draft"), []byte(fakeDraft), 0o755); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "model.gguf")
	os.WriteFile(model, []byte("GGUF"), 0o644)
	for _, mode := range []string{"signal", "eof"} {
		t.Run(mode, func(t *testing.T) {
			pidFile, doneFile := filepath.Join(t.TempDir(), "pid"), filepath.Join(t.TempDir(), "done")
			cmd := exec.Command(filepath.Join(dir, "sponge"), "serve", "--library", t.TempDir(), "--model-file", model)
			cmd.Env = append(os.Environ(), "FAKE_MODE="+mode, "FAKE_PID="+pidFile, "FAKE_DONE="+doneFile)
			// A file, not a pipe: a child left running would hold a pipe
			// open, and Wait would wait for it.
			stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
			if err != nil {
				t.Fatal(err)
			}
			defer stderr.Close()
			cmd.Stderr = stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			child := 0
			for deadline := time.Now().Add(20 * time.Second); child == 0; time.Sleep(20 * time.Millisecond) {
				b, _ := os.ReadFile(pidFile)
				child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("the serving child did not start; stderr:\n%s", readFile(stderr.Name()))
				}
			}
			defer syscall.Kill(child, syscall.SIGKILL)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			deadline := time.Now().Add(10 * time.Second)
			for running(child) {
				if time.Now().After(deadline) {
					t.Fatalf("the serving child (pid %d) still runs 10 s after sponge serve was killed; stderr:\n%s", child, readFile(stderr.Name()))
				}
				time.Sleep(20 * time.Millisecond)
			}
			if _, err := os.Stat(doneFile); mode == "eof" && err != nil {
				t.Errorf("the child ended, but not at the end of its stdin: %v", err)
			}
		})
	}
}

// running reports whether a process runs (a zombie, waiting for a parent
// that does not reap it, does not).
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && len(s) > i+2 {
		return s[i+2] != 'Z'
	}
	return true
}

func readFile(name string) string {
	b, _ := os.ReadFile(name)
	return string(b)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
