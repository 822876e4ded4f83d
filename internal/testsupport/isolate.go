// Package testsupport isolates every test binary from the person's own
// settings, library and models: each test package's TestMain calls Main
// (or runs Isolated), so HOME and the XDG folders point into a temporary
// folder of the binary's own and no SPONGE_* variable is set. The settings
// package refuses, in a test binary, to read an environment that was not
// isolated so (settings.FromOS).
package testsupport

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/base/settings"
)

// Runner is what testing.M and testscript's Main run.
type Runner interface{ Run() int }

// Main isolates the environment, runs the package's tests and exits with
// their code: func TestMain(m *testing.M) { testsupport.Main(m) }.
func Main(m Runner) { os.Exit(Isolated(m).Run()) }

// Isolated is m run in an isolated environment (for TestMains that hand m
// to another runner, such as testscript.Main): the folder is made when it
// runs and removed after.
func Isolated(m Runner) Runner { return isolated{m} }

type isolated struct{ m Runner }

func (i isolated) Run() int {
	dir, err := Isolate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsupport:", err)
		return 2
	}
	code := i.m.Run()
	os.RemoveAll(dir)
	return code
}

// Isolate points HOME and XDG_* into a new temporary folder, clears every
// SPONGE_* variable and marks the environment isolated; it returns the
// folder. Go's own folders (build cache, module cache, go env file) are
// pinned where they were first, so that tests that run the go command do
// not build everything again in an empty cache.
func Isolate() (string, error) {
	if err := pinGo(); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "sponge-test-home-")
	if err != nil {
		return "", err
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "SPONGE_") {
			os.Unsetenv(k)
		}
	}
	for k, sub := range map[string]string{"HOME": "home", "XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": "config",
		"XDG_CACHE_HOME": "cache", "XDG_STATE_HOME": "state"} {
		p := filepath.Join(dir, sub)
		if err := os.MkdirAll(p, 0o755); err != nil {
			return "", err
		}
		os.Setenv(k, p)
	}
	os.Setenv(settings.IsolatedEnv, dir)
	return dir, nil
}

// pinGo sets GOCACHE, GOMODCACHE, GOPATH and GOENV to where they are under
// the real HOME, unless they are set already.
func pinGo() error {
	if os.Getenv(settings.IsolatedEnv) != "" {
		return nil // isolated before (a test binary run by another's test)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil // no home: nothing of Go's lives there
	}
	cache, cerr := os.UserCacheDir()
	config, ferr := os.UserConfigDir()
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = filepath.Join(home, "go")
		os.Setenv("GOPATH", gopath)
	}
	if os.Getenv("GOMODCACHE") == "" {
		os.Setenv("GOMODCACHE", filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "pkg", "mod"))
	}
	if os.Getenv("GOCACHE") == "" && cerr == nil {
		os.Setenv("GOCACHE", filepath.Join(cache, "go-build"))
	}
	if os.Getenv("GOENV") == "" && ferr == nil {
		os.Setenv("GOENV", filepath.Join(config, "go", "env"))
	}
	return nil
}

// RunFunc is a function run as a Runner: a TestMain's own setup around
// m.Run, run isolated.
type RunFunc func() int

// Run calls f.
func (f RunFunc) Run() int { return f() }
