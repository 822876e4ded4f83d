package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/settings"
)

// TestAddFolderUnreadable: in a folder with a sub-folder and a file that
// cannot be read, each is named in one error line and every readable file
// is saved; the add exits 1. A link to a file is followed, a link to a
// folder skipped with a word. Permissions bind only a user who is not root:
// as root (in CI containers), sponge runs as nobody through setpriv.
func TestAddFolderUnreadable(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	var asUser []string // the command that runs sponge as a user permissions bind
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("running as root, and no setpriv to run sponge as nobody")
		}
		asUser = []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"}
	}

	// A folder everyone may enter, as nobody must.
	dir, err := os.MkdirTemp("", "sponge-unreadable-")
	if err != nil {
		t.Fatal(err)
	}
	private := filepath.Join(dir, "docs", "private")
	t.Cleanup(func() {
		os.Chmod(private, 0o755)
		os.RemoveAll(dir)
	})
	write := func(name, text string, perm os.FileMode) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, perm); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/kettle.md", "# Kettles\n\nA kettle whistles when the water boils.\n", 0o644)
	write("docs/private/diary.md", "# Diary\n\nNobody reads this.\n", 0o644)
	write("docs/secret.md", "# Secret\n\nNobody reads this either.\n", 0)
	write("docs/teapot.md", "# Teapots\n\nA teapot keeps the leaves in the water.\n", 0o644)
	write("elsewhere/cup.md", "# Cups\n\nA cup of tea cools in ten minutes.\n", 0o644)
	for _, link := range []struct{ old, new string }{
		{"../elsewhere/cup.md", "docs/cup.md"}, // a file outside: not followed, but with --follow
		{"kettle.md", "docs/kettle-link.md"},   // a file inside: followed (the same bytes: one item)
		{"..", "docs/up"},                      // a folder: a loop, if followed
		{"nowhere.md", "docs/broken.md"},       // nothing
	} {
		if err := os.Symlink(link.old, filepath.Join(dir, link.new)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(private, 0); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, filepath.Join(dir, "library")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if asUser != nil {
			if err := os.Chown(d, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
	}

	// This test binary is sponge when it is called sponge, and sponge-full
	// (which runs sponge add) when called so (TestMain); copies in the
	// folder are ones nobody may run.
	sponge := filepath.Join(dir, "bin", "sponge")
	copyFile(t, sponge)
	copyFile(t, filepath.Join(dir, "bin", "sponge-full"))

	run := func(args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(sponge, args...)
		if asUser != nil {
			cmd = exec.Command(asUser[0], append(asUser[1:], append([]string{sponge}, args...)...)...)
		}
		cmd.Dir = dir
		// The child's home is the folder nobody may read parts of: its
		// isolated environment (testsupport) is that folder, not this
		// binary's, which nobody may enter.
		cmd.Env = append(os.Environ(), "SPONGE_HOME="+filepath.Join(dir, "library"), "HOME="+dir, "NO_COLOR=1",
			"XDG_DATA_HOME="+filepath.Join(dir, "data"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), settings.IsolatedEnv+"="+dir)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("sponge %s: %v", strings.Join(args, " "), err)
		}
		return out.String(), errOut.String(), code
	}

	stdout, stderr, code := run("add", "docs")
	if code != 1 {
		t.Errorf("sponge add docs: exit %d, want 1", code)
	}
	for _, want := range []string{
		"sponge: error: docs/private: cannot read the folder (permission denied)\n",
		"sponge: error: docs/secret.md: permission denied\n",
		"sponge: warning: docs/up: skipped, a link to a folder, not followed (add the folder itself)\n",
		"sponge: warning: docs/broken.md: skipped, a link to nothing\n",
		"sponge: warning: docs/cup.md: skipped, a link to a file outside the folder, not followed (--follow follows it)\n",
	} {
		if strings.Count(stderr, want) != 1 {
			t.Errorf("stderr has not once %q:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stderr, "\n"); n != 5 {
		t.Errorf("stderr has %d lines, want 5:\n%s", n, stderr)
	}
	if !strings.HasSuffix(stdout, "\nadded 2, already saved 1, failed 2, skipped 3\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
	stdout, stderr, _ = run("list")
	for _, title := range []string{"Kettles", "Teapots"} {
		if !strings.Contains(stdout, title) {
			t.Errorf("%s not saved:\n%s%s", title, stdout, stderr)
		}
	}
	if strings.Contains(stdout, "Cups") {
		t.Errorf("the file outside the folder was saved through a link:\n%s", stdout)
	}
	// --follow follows it; so does sponge update --follow.
	if _, stderr, code := run("update", "--follow"); code != 1 || !strings.Contains(stderr, "permission denied") {
		t.Errorf("sponge update --follow: exit %d, want 1 (the locked folder): %s", code, stderr)
	}
	if stdout, _, _ = run("list"); !strings.Contains(stdout, "Cups") {
		t.Errorf("update --follow did not follow the link:\n%s", stdout)
	}
}

// copyFile copies this test binary to path, runnable by everyone.
func copyFile(t *testing.T, path string) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
