package openai

import (
	"context"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestServeFile(t *testing.T) {
	lib := t.TempDir()
	if info, err := ReadServeInfo(lib); info != nil || err != nil {
		t.Fatalf("no file: %+v %v", info, err)
	}
	srv := httptest.NewServer(NewHandler(&echo{}))
	defer srv.Close()
	live := ServeInfo{Endpoint: srv.URL, Model: "echo", PID: os.Getpid()}
	if err := WriteServeInfo(lib, live); err != nil {
		t.Fatal(err)
	}
	if got := FindServe(context.Background(), lib); got == nil || *got != live {
		t.Fatalf("FindServe = %+v, want %+v", got, live)
	}
	// Another server's file is not removed.
	if err := RemoveServeInfo(lib, os.Getpid()+1); err != nil {
		t.Fatal(err)
	}
	if got, _ := ReadServeInfo(lib); got == nil {
		t.Fatal("removed the file of another process")
	}
	if err := RemoveServeInfo(lib, os.Getpid()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(lib, ServeFile)); !os.IsNotExist(err) {
		t.Fatalf("serve.json still there: %v", err)
	}
}

func TestFindServeIgnoresStale(t *testing.T) {
	srv := httptest.NewServer(NewHandler(&echo{}))
	defer srv.Close()
	// A process that has ended.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := cmd.Process.Pid
	// A port nobody listens on.
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := "http://" + l.Addr().String()
	l.Close()
	// Issue 43: a stale file is said to be ignored, and removed, so that
	// it is said once.
	for name, c := range map[string]struct {
		info ServeInfo
		why  string
	}{
		"dead process": {ServeInfo{Endpoint: srv.URL, Model: "echo", PID: dead}, "(pid " + strconv.Itoa(dead) + ") is gone"},
		"no server":    {ServeInfo{Endpoint: closed, Model: "echo", PID: os.Getpid()}, "nothing listens at " + closed},
		"no pid":       {ServeInfo{Endpoint: srv.URL, Model: "echo"}, "(pid 0) is gone"},
	} {
		lib := t.TempDir()
		WriteServeInfo(lib, c.info)
		got, ignored := LookupServe(context.Background(), lib)
		if got != nil || !strings.HasPrefix(ignored, "ignored and removed "+filepath.Join(lib, ServeFile)+": ") || !strings.Contains(ignored, c.why) {
			t.Errorf("%s: LookupServe = %+v, %q; want none, and why (%s)", name, got, ignored, c.why)
		}
		if _, err := os.Stat(filepath.Join(lib, ServeFile)); !os.IsNotExist(err) {
			t.Errorf("%s: serve.json is still there (%v)", name, err)
		}
		if got, ignored := LookupServe(context.Background(), lib); got != nil || ignored != "" {
			t.Errorf("%s: the second time: %+v, %q", name, got, ignored)
		}
	}
	// A live process whose port takes the connection and does not answer
	// (busy, or stuck): ignored, said, and kept.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	lib := t.TempDir()
	WriteServeInfo(lib, ServeInfo{Endpoint: "http://" + silent.Addr().String(), Model: "echo", PID: os.Getpid()})
	if got, ignored := LookupServe(context.Background(), lib); got != nil || !strings.Contains(ignored, "does not answer") {
		t.Errorf("silent server: %+v, %q", got, ignored)
	}
	if _, err := os.Stat(filepath.Join(lib, ServeFile)); err != nil {
		t.Errorf("the file of a live process was removed: %v", err)
	}
	lib = t.TempDir()
	os.WriteFile(filepath.Join(lib, ServeFile), []byte("{not json"), 0o644)
	if got := FindServe(context.Background(), lib); got != nil {
		t.Errorf("damaged file: %+v", got)
	}
}
