package cli

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	flags "github.com/jessevdk/go-flags"

	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/model/openai"
	"github.com/sponge-library/sponge/internal/testsupport/home"
)

func TestServeWithoutModel(t *testing.T) {
	home.Isolate(t)
	lib := t.TempDir()
	_, errs, code := runSponge(t, "serve", "--library", lib)
	want := "sponge: error: no writing model is installed in " + modelsDir() + "\n" +
		"sponge: hint: run sponge setup --digest (or give --model-file PATH)\n"
	if code != 1 || errs != want {
		t.Fatalf("exit %d:\n%s\nwant:\n%s", code, errs, want)
	}
}

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{{"serve", "--port", "70000"}, {"serve", "extra"}, {"serve", "--threads", "-1"}, {"serve", "--passage-tokens", "-1"}} {
		if _, errs, code := runSponge(t, args...); code != 2 || !strings.HasPrefix(errs, "sponge: error: ") {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
}

// TestServePassesThePassageBudget: the serving child gets --passage-tokens,
// its default included.
func TestServePassesThePassageBudget(t *testing.T) {
	var opts cmdline.ServeOptions
	if _, err := flags.ParseArgs(&opts, nil); err != nil {
		t.Fatal(err)
	}
	// sponge-draft's default (draft.DefaultPassageTokens, which its own
	// test checks against its flag).
	const def = 320
	args := strings.Join(serveArgs(&opts, "m.gguf", "lib"), " ")
	if !strings.Contains(args, "--passage-tokens "+strconv.Itoa(def)) {
		t.Errorf("sponge-draft --serve gets %q, want --passage-tokens %d", args, def)
	}
	opts.PassageTokens = 0
	if args := strings.Join(serveArgs(&opts, "m.gguf", "lib"), " "); !strings.Contains(args, "--passage-tokens 0") {
		t.Errorf("sponge-draft --serve gets %q, want --passage-tokens 0", args)
	}
}

func TestServeRunningAlready(t *testing.T) {
	home.Isolate(t)
	lib := t.TempDir()
	os.MkdirAll(filepath.Join(lib, "models"), 0o755)
	os.WriteFile(filepath.Join(lib, "models", "digest.gguf"), []byte("GGUF"), 0o644)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/health" {
			w.Write([]byte(`{"status":"ok"}`))
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	// A live process (this one) answering /health.
	if err := openai.WriteServeInfo(lib, openai.ServeInfo{Endpoint: srv.URL, Model: "m", PID: os.Getpid()}); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runSponge(t, "serve", "--library", lib)
	if code != 1 || !strings.Contains(errs, "sponge: error: sponge serve is running already for this library, at "+srv.URL) {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// syncBuffer is written by a child process's copier and read by the test.
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

func waitFor(t *testing.T, buf *syncBuffer, text string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(buf.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in %q", text, buf.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServerStopsChild checks that a signal to sponge serve alone reaches
// the serving child, which stops cleanly, and sponge serve exits 0.
func TestServerStopsChild(t *testing.T) {
	var out, errs syncBuffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs}
	code := make(chan int, 1)
	go func() {
		code <- runServer(env, "/bin/sh", []string{"-c", `trap 'echo stopping; exit 0' TERM; echo ready; while :; do sleep 0.05; done`})
	}()
	waitFor(t, &out, "ready")
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case c := <-code:
		if c != 0 || !strings.Contains(out.String(), "stopping") {
			t.Errorf("exit %d, stdout %q", c, out.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("sponge serve did not stop")
	}
}

func TestServerChildFails(t *testing.T) {
	var out, errs syncBuffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs}
	if c := runServer(env, "/bin/sh", []string{"-c", `echo "sponge serve: error: port 7701 on 127.0.0.1 is in use" >&2; exit 1`}); c != 1 {
		t.Errorf("exit %d", c)
	}
	if errs.String() != "sponge serve: error: port 7701 on 127.0.0.1 is in use\n" {
		t.Errorf("stderr %q", errs.String())
	}
	errs.b.Reset()
	if c := runServer(env, "/bin/sh", []string{"-c", `kill -KILL $$`}); c != 128+9 {
		t.Errorf("killed: exit %d", c)
	}
	if !strings.Contains(errs.String(), "sponge: error: sponge-draft --serve was killed by signal 9 (killed)") {
		t.Errorf("stderr %q", errs.String())
	}
}
