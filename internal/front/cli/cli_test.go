package cli

import (
	"path/filepath"
	"testing"
)

// isolate gives the test its own config file and shared models folder,
// both empty, and returns the config file's path.
func isolate(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	return filepath.Join(dir, "config", "sponge", "config")
}
