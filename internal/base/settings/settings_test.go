package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetKeepsTheFile: set and unset change their key's line only, keeping
// comments, blank lines and the order of the others.
func TestSetKeepsTheFile(t *testing.T) {
	dir := t.TempDir()
	e := NewEnviron(t.TempDir(), map[string]string{"XDG_CONFIG_HOME": dir})
	path := filepath.Join(dir, "sponge", "config")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("# my sponge\nmodel = a b\n\n  endpoint=http://x:1  \n"), 0o644)
	got, err := e.Read()
	if err != nil || got["model"] != "a b" || got["endpoint"] != "http://x:1" || len(got) != 2 {
		t.Fatalf("Read: %v %q", err, got)
	}
	if err := e.Set("endpoint", "http://y:2"); err != nil {
		t.Fatal(err)
	}
	if err := e.Set("library", "/l"); err != nil {
		t.Fatal(err)
	}
	if err := e.Set("model", ""); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if want := "# my sponge\n\nendpoint = http://y:2\nlibrary = /l\n"; string(b) != want {
		t.Errorf("file:\n%q\nwant:\n%q", b, want)
	}
	if err := e.Set("colour", "blue"); err == nil {
		t.Error("set an unknown key")
	}
	os.WriteFile(path, []byte("endpoint http://x\n"), 0o644)
	if _, err := e.Read(); err == nil || err.Error() != path+`:1: not a setting (key = value): "endpoint http://x"` {
		t.Errorf("a line without =: %v", err)
	}
	// A damaged file is an error when it is read for a value, not when
	// the environment gives the value.
	if _, err := e.Resolve("endpoint", ""); err == nil {
		t.Error("Resolve read a damaged file without an error")
	}
	e = NewEnviron(e.Home, map[string]string{"XDG_CONFIG_HOME": dir, "SPONGE_ENDPOINT": "http://e:3"})
	if v, err := e.Resolve("endpoint", ""); err != nil || v.Value != "http://e:3" || v.Source != FromEnv {
		t.Errorf("endpoint: %+v %v", v, err)
	}
}

// TestResolveOrder: a flag, else the environment, else the file, else the
// default; the library's default is in the data folder, and "~/" in the
// file is the home folder.
func TestResolveOrder(t *testing.T) {
	home, cfg := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(cfg, "sponge"), 0o755)
	vars := map[string]string{"XDG_CONFIG_HOME": cfg}
	lib := func(e Environ, flag string) Value {
		t.Helper()
		v, err := e.Resolve("library", flag)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	e := NewEnviron(home, vars)
	if v := lib(e, ""); v.Value != filepath.Join(home, ".local", "share", "sponge") || v.Source != FromDefault {
		t.Errorf("default: %+v", v)
	}
	vars["XDG_DATA_HOME"] = "/data"
	if v := lib(NewEnviron(home, vars), ""); v.Value != "/data/sponge" {
		t.Errorf("XDG_DATA_HOME: %+v", v)
	}
	os.WriteFile(filepath.Join(cfg, "sponge", "config"), []byte("library = ~/notes\n"), 0o644)
	if v := lib(NewEnviron(home, vars), ""); v.Value != filepath.Join(home, "notes") || v.Source != FromFile || v.File != filepath.Join(cfg, "sponge", "config") {
		t.Errorf("file: %+v", v)
	}
	vars["SPONGE_HOME"] = "/env"
	if v := lib(NewEnviron(home, vars), ""); v.Value != "/env" || v.Source != FromEnv {
		t.Errorf("env: %+v", v)
	}
	if v := lib(NewEnviron(home, vars), "/flag"); v.Value != "/flag" || v.Source != FromFlag {
		t.Errorf("flag: %+v", v)
	}
	// A variable sponge does not read is not held.
	if got := NewEnviron(home, map[string]string{"PATH": "/bin"}).Get("PATH"); got != "" {
		t.Errorf("PATH held: %q", got)
	}
}

// TestZeroEnviron: no environment gives nothing but flags; the library
// without one is an error, not a folder guessed from the working directory.
func TestZeroEnviron(t *testing.T) {
	var e Environ
	if _, err := e.Library(""); err == nil {
		t.Error("the zero Environ gave a library")
	}
	if got, err := e.Library("/l"); err != nil || got != "/l" {
		t.Errorf("flag: %q %v", got, err)
	}
	if e.ModelsDir() != "" || e.DataDir() != "" || e.File() != "" {
		t.Errorf("folders of no environment: %q %q %q", e.ModelsDir(), e.DataDir(), e.File())
	}
	if err := e.Set("model", "m"); err == nil {
		t.Error("Set wrote a config file of no environment")
	}
}

// TestFromOSRefusesAnOpenEnvironment: in a test binary, FromOS reads only
// an environment isolated by testsupport (as this binary's TestMain did),
// and panics when HOME points elsewhere.
func TestFromOSRefusesAnOpenEnvironment(t *testing.T) {
	e := FromOS() // isolated by TestMain
	if root := os.Getenv(IsolatedEnv); root == "" || !strings.HasPrefix(e.Home, root) {
		t.Fatalf("FromOS home %q outside %q", e.Home, os.Getenv(IsolatedEnv))
	}
	for _, c := range []struct{ name, value string }{{"HOME", "/root"}, {"XDG_DATA_HOME", "/root/.local/share"}, {IsolatedEnv, ""}} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(c.name, c.value)
			defer func() {
				if recover() == nil {
					t.Errorf("FromOS read an environment with %s=%q", c.name, c.value)
				}
			}()
			FromOS()
		})
	}
}

// TestLongValue: a value of 70,000 characters is refused when it is set, and
// a file that holds one (written by hand) is an error naming its line, not
// "token too long".
func TestLongValue(t *testing.T) {
	dir := t.TempDir()
	e := NewEnviron(t.TempDir(), map[string]string{"XDG_CONFIG_HOME": dir})
	long := strings.Repeat("m", 70000)
	if err := e.Set("model", long); err == nil || !strings.Contains(err.Error(), "at most 4096 characters") {
		t.Errorf("set a long value: %v", err)
	}
	if _, err := os.Stat(e.File()); err == nil {
		t.Error("the long value was written")
	}
	os.MkdirAll(filepath.Dir(e.File()), 0o755)
	os.WriteFile(e.File(), []byte("endpoint = http://x:1\nmodel = "+long+"\n"), 0o644)
	if _, err := e.Read(); err == nil || !strings.HasPrefix(err.Error(), e.File()+":2: the line is 70008 characters long") {
		t.Errorf("a file with a long line: %v", err)
	}
}
