package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/testsupport"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sponge-library/sponge/internal/front/cli"
	"github.com/sponge-library/sponge/stages/rank"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/search"
	"github.com/sponge-library/sponge/stages/verify"
)

// The test binary is also sponge and the stages it runs: TestMain links it
// into a folder under those names, and a run under one of them is that
// program. sponge-draft is built for real (without cgo), since only it may
// link the model runtime.
var progs = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"sponge":        cli.Main,
	"sponge-search": asProgram(search.MainIn),
	"sponge-rank":   asProgram(rank.MainIn),
	"sponge-verify": asProgram(verify.MainIn),
	"sponge-render": asProgram(render.MainIn),
}

// asProgram is a stage's main as its program's: in the environment it was
// started in.
func asProgram(main func(settings.Environ, []string, io.Reader, io.Writer, io.Writer) int) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return main(settings.FromOS(), args, stdin, stdout, stderr)
	}
}

var (
	tmpRoot string // removed when the tests end
	binDir  string // the programs, first on PATH
	docsLib string // a library of testdata/docs, never changed by tests
)

func TestMain(m *testing.M) {
	if main, ok := progs[filepath.Base(os.Args[0])]; ok {
		os.Exit(main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(testsupport.Isolated(testsupport.RunFunc(func() int { return run(m) })).Run())
}

func run(m *testing.M) int {
	tmp, err := os.MkdirTemp("", "sponge-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	tmpRoot = tmp
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binDir = filepath.Join(tmp, "bin")
	os.Mkdir(binDir, 0o755)
	for name := range progs {
		if err := os.Symlink(exe, filepath.Join(binDir, name)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	os.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	// No test may find a library by accident (testsupport isolated the
	// rest: the models folder is the test's own, and empty).
	os.Setenv("SPONGE_HOME", filepath.Join(tmp, "no-library"))

	docsLib = filepath.Join(tmp, "docs")
	if msg, code := sponge("add", "--library", docsLib, filepath.Join("..", "..", "..", "testdata", "docs")); code != 0 {
		fmt.Fprintf(os.Stderr, "cannot build the test library: %s\n", msg)
		return 1
	}
	return m.Run()
}

// sponge runs the sponge command in-process and returns its stderr and exit code.
func sponge(args ...string) (string, int) {
	var stderr bytes.Buffer
	code := cli.Main(args, strings.NewReader(""), io.Discard, &stderr)
	return stderr.String(), code
}

var (
	draftOnce sync.Once
	draftErr  error
)

// needDraft builds sponge-draft into binDir (without cgo: the extractive
// drafter and --endpoint, no embedded model), once.
func needDraft(t testing.TB) {
	t.Helper()
	draftOnce.Do(func() {
		cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, "sponge-draft"), "github.com/sponge-library/sponge/cmd/sponge-draft")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			draftErr = fmt.Errorf("go build sponge-draft: %v\n%s", err, out)
		}
	})
	if draftErr != nil {
		t.Fatal(draftErr)
	}
}

// command runs a program from binDir as a child process.
func command(t testing.TB, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(filepath.Join(binDir, name), args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: %v", name, err)
		}
		code = ee.ExitCode()
	}
	return out.String(), errb.String(), code
}

// syncBuffer collects a child's stderr while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// connect starts `sponge mcp --library lib` as a child process and
// initializes a session with it through the SDK's client.
func connect(t testing.TB, lib string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "sponge"), "mcp", "--library", lib)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "sponge-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to sponge mcp: %v\nstderr:\n%s", err, stderr)
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("closing the session: %v", err)
		}
		if !cmd.ProcessState.Success() {
			t.Errorf("sponge mcp ended with %v\nstderr:\n%s", cmd.ProcessState, stderr)
		}
	})
	return cs
}
