package settings

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSetKeepsTheFile: set and unset change their key's line only, keeping
// comments, blank lines and the order of the others.
func TestSetKeepsTheFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	path := filepath.Join(dir, "sponge", "config")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("# my sponge\nmodel = a b\n\n  endpoint=http://x:1  \n"), 0o644)
	got, err := Read()
	if err != nil || got["model"] != "a b" || got["endpoint"] != "http://x:1" || len(got) != 2 {
		t.Fatalf("Read: %v %q", err, got)
	}
	if err := Set("endpoint", "http://y:2"); err != nil {
		t.Fatal(err)
	}
	if err := Set("library", "/l"); err != nil {
		t.Fatal(err)
	}
	if err := Set("model", ""); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if want := "# my sponge\n\nendpoint = http://y:2\nlibrary = /l\n"; string(b) != want {
		t.Errorf("file:\n%q\nwant:\n%q", b, want)
	}
	if err := Set("colour", "blue"); err == nil {
		t.Error("set an unknown key")
	}
	os.WriteFile(path, []byte("endpoint http://x\n"), 0o644)
	if _, err := Read(); err == nil || err.Error() != path+`:1: not a setting (key = value): "endpoint http://x"` {
		t.Errorf("a line without =: %v", err)
	}
	// A damaged file is an error when it is read for a value, not when
	// the environment gives the value.
	if _, err := Resolve("endpoint", ""); err == nil {
		t.Error("Resolve read a damaged file without an error")
	}
	t.Setenv("SPONGE_ENDPOINT", "http://e:3")
	if v, err := Resolve("endpoint", ""); err != nil || v.Value != "http://e:3" || v.Source != FromEnv {
		t.Errorf("endpoint: %+v %v", v, err)
	}
}
