// Package home gives a test its own empty config and data folders, so no
// test reads or writes the person's own sponge settings or models.
package home

import (
	"path/filepath"
	"testing"
)

// Isolate points XDG_CONFIG_HOME and XDG_DATA_HOME at empty folders of
// the test's own and returns the path sponge's config file would have.
func Isolate(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	return filepath.Join(dir, "config", "sponge", "config")
}
