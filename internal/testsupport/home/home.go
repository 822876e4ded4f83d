// Package home gives a test its own empty config and data folders, inside
// the folder its test binary was isolated in (testsupport), so no test
// reads or writes the person's own sponge settings or models.
package home

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sponge-library/sponge/internal/base/settings"
)

// Isolate points XDG_CONFIG_HOME and XDG_DATA_HOME at empty folders of
// the test's own and returns the path sponge's config file would have.
// The test binary must have been isolated (testsupport.Main).
func Isolate(t testing.TB) string {
	t.Helper()
	dir := Dir(t)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	return filepath.Join(dir, "config", "sponge", "config")
}

// Dir is a new empty folder of the test's own inside the test binary's
// isolated folder, removed when the test ends: a folder an environment
// variable may point at.
func Dir(t testing.TB) string {
	t.Helper()
	root := os.Getenv(settings.IsolatedEnv)
	if root == "" {
		t.Fatal("the test binary's environment is not isolated: call testsupport.Main from TestMain")
	}
	dir, err := os.MkdirTemp(root, "test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
