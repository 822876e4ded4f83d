package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/testsupport/home"
)

// rawControl is the first character of s that a terminal would act on, or 0.
func rawControl(s string) rune {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			return r
		}
	}
	return 0
}

// Issue 19: an item whose file name and title hold escape sequences (set
// the window title, clear the screen) and whose text holds a bidi override
// (extraction drops control characters, not those) is shown by add, list,
// show, search and rm with them as visible escapes; --json keeps them exact.
func TestHostileNames(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	docs := filepath.Join(dir, "docs")
	os.Mkdir(docs, 0o755)
	name := "tea\x1b]0;pwned\x07\u202egnp.md"
	title := "Tea\x1b[2J notes\u009b31m"
	if err := os.WriteFile(filepath.Join(docs, name), []byte("# Tea\n\nGreen tea wants \u202e80\u202c degrees.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(docs, "skip\x1b[2J.xyz"), []byte("\x00\x01\x02\x03"), 0o644) // binary: skipped
	file := filepath.Join(docs, name)

	outs := map[string]string{} // what each command printed
	run := func(wantCode int, args ...string) string {
		t.Helper()
		out, errs, code := runSponge(t, append([]string{args[0], "--library", lib}, args[1:]...)...)
		if code != wantCode {
			t.Fatalf("sponge %v: exit %d\n%s%s", args, code, out, errs)
		}
		outs[strings.Join(args, " ")] += out + errs
		return out
	}
	run(0, "add", "--title", title, file)
	run(0, "add", file)
	run(0, "add", docs)
	run(0, "list")
	run(0, "search", "green tea")
	run(1, "show", "0000")
	var metas []cmdline.ListItemJSON
	if err := json.Unmarshal([]byte(run(0, "list", "--json")), &metas); err != nil || len(metas) != 1 {
		t.Fatalf("list --json: %v %v", err, metas)
	}
	id := metas[0].ItemID
	if metas[0].Title != title || !strings.HasSuffix(metas[0].Source, name) {
		t.Errorf("list --json does not keep the title and source exact: %q %q", metas[0].Title, metas[0].Source)
	}
	run(0, "show", id[:8])
	var it struct{ Title string }
	if json.Unmarshal([]byte(run(0, "show", "--json", id[:8])), &it); it.Title != title {
		t.Errorf("show --json title %q, want %q", it.Title, title)
	}
	run(0, "rm", id[:8])

	all := ""
	for cmd, out := range outs {
		all += out
		if strings.Contains(cmd, "--json") {
			continue // JSON escapes them
		}
		if r := rawControl(out); r != 0 {
			t.Errorf("sponge %q: %U reaches the terminal:\n%q", cmd, r, out)
		}
	}
	for _, want := range []string{`tea\x1b]0;pwned\x07\u202egnp.md`, `Tea\x1b[2J notes\u009b31m`, `wants \u202e80\u202c degrees`, `skip\x1b[2J.xyz`} {
		if !strings.Contains(all, want) {
			t.Errorf("%s is not shown; the output:\n%q", want, all)
		}
	}
}

// TestHostileSetting: a model name with escape sequences (set in the config
// file or the environment) is shown inert by 'config list', a table for a
// person, and exact by 'config get', which scripts read.
func TestHostileSetting(t *testing.T) {
	home.Isolate(t)
	name := "tiny\x1b]0;pwned\x07\u202e"
	if _, errs, code := runSponge(t, "config", "set", "model", name); code != 0 {
		t.Fatalf("config set: exit %d: %s", code, errs)
	}
	out, _, code := runSponge(t, "config", "list")
	if r := rawControl(out); code != 0 || r != 0 {
		t.Errorf("config list: exit %d, %U written raw:\n%q", code, r, out)
	}
	if !strings.Contains(out, `tiny\x1b]0;pwned\x07\u202e`) {
		t.Errorf("config list does not show the name:\n%q", out)
	}
	t.Setenv("SPONGE_MODEL", name+"env")
	out, _, _ = runSponge(t, "config", "list")
	if r := rawControl(out); r != 0 {
		t.Errorf("config list with SPONGE_MODEL: %U written raw:\n%q", r, out)
	}
	if out, _, _ := runSponge(t, "config", "get", "model"); out != name+"env\n" {
		t.Errorf("config get = %q, want the value exact", out)
	}
}
