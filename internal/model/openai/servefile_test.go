package openai

import (
	"context"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
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
	for name, info := range map[string]ServeInfo{
		"dead process": {Endpoint: srv.URL, Model: "echo", PID: dead},
		"no server":    {Endpoint: closed, Model: "echo", PID: os.Getpid()},
		"no pid":       {Endpoint: srv.URL, Model: "echo"},
	} {
		lib := t.TempDir()
		WriteServeInfo(lib, info)
		if got := FindServe(context.Background(), lib); got != nil {
			t.Errorf("%s: FindServe = %+v, want none", name, got)
		}
	}
	lib := t.TempDir()
	os.WriteFile(filepath.Join(lib, ServeFile), []byte("{not json"), 0o644)
	if got := FindServe(context.Background(), lib); got != nil {
		t.Errorf("damaged file: %+v", got)
	}
}
