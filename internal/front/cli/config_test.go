package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/testsupport/home"
)

func TestConfig(t *testing.T) {
	config := home.Isolate(t)
	lib := t.TempDir()
	list := func() string {
		t.Helper()
		out, errs, code := runSponge(t, "config", "list")
		if code != 0 {
			t.Fatalf("config list: exit %d: %s", code, errs)
		}
		return squeeze(out)
	}
	t.Setenv("SPONGE_HOME", "")
	data := os.Getenv("XDG_DATA_HOME")
	if got, want := list(), "library "+filepath.Join(data, "sponge")+" default\nendpoint (none) default\nmodel (none) default\nhints on default\n"; got != want {
		t.Errorf("list:\n%s\nwant:\n%s", got, want)
	}
	for _, args := range [][]string{
		{"config", "set", "library", lib},
		{"config", "set", "endpoint", "http://127.0.0.1:8080"},
		{"config", "set", "model", "qwen"},
		{"config", "unset", "model"},
	} {
		if _, errs, code := runSponge(t, args...); code != 0 || errs != "" {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	b, _ := os.ReadFile(config)
	if string(b) != "library = "+lib+"\nendpoint = http://127.0.0.1:8080\n" {
		t.Errorf("the config file:\n%s", b)
	}
	t.Setenv("SPONGE_ENDPOINT", "http://127.0.0.1:9")
	want := "library " + lib + " file " + config + "\nendpoint http://127.0.0.1:9 env SPONGE_ENDPOINT\nmodel (none) default\nhints on default\n"
	if got := list(); got != want {
		t.Errorf("list:\n%s\nwant:\n%s", got, want)
	}
	if out, _, code := runSponge(t, "config", "get", "library"); code != 0 || out != lib+"\n" {
		t.Errorf("get library: exit %d: %q", code, out)
	}
	// The library of the file is the library every command uses.
	if _, errs, code := runSponge(t, "add", "--quiet", filepath.Join("..", "..", "..", "testdata", "docs", "tea-brewing.md")); code != 0 {
		t.Fatalf("add: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(lib, "items")); err != nil {
		t.Errorf("add did not use the configured library: %v", err)
	}
	_, errs, code := runSponge(t, "config", "set", "colour", "blue")
	if code != console.ExitUsage || errs != "sponge: error: unknown setting \"colour\"; the settings are library, endpoint, model, hints\n" {
		t.Errorf("unknown key: exit %d: %s", code, errs)
	}
	_, _, code = runSponge(t, "config", "get")
	if code != console.ExitUsage {
		t.Errorf("get without a key: exit %d", code)
	}
}
