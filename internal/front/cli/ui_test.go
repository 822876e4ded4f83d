package cli_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestUIStartStop: sponge ui prints its address, serves the pages there
// (and only to 127.0.0.1), opens the browser with --open, and stops on
// Ctrl-C (SIGINT), saying so, with exit 0.
func TestUIStartStop(t *testing.T) {
	bin := spongeBinary(t)
	lib := t.TempDir()
	notes := t.TempDir()
	os.WriteFile(filepath.Join(notes, "tea.md"), []byte("# Tea\n\nGreen tea is steeped at eighty degrees.\n"), 0o644)
	if out, err := exec.Command(bin, "add", "--library", lib, notes).CombinedOutput(); err != nil {
		t.Fatalf("sponge add: %v\n%s", err, out)
	}
	// A free port, and a fake xdg-open that notes what it was asked to open.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	fake := t.TempDir()
	opened := filepath.Join(fake, "opened")
	os.WriteFile(filepath.Join(fake, "xdg-open"), []byte("#!/bin/sh\necho \"$@\" > "+opened+"\n"), 0o755)
	os.WriteFile(filepath.Join(fake, "open"), []byte("#!/bin/sh\necho \"$@\" > "+opened+"\n"), 0o755)

	cmd := exec.Command(bin, "ui", "--library", lib, "--port", strconv.Itoa(port), "--open")
	cmd.Env = append(os.Environ(), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no address: %v; stderr:\n%s", err, stderr.String())
	}
	want := "http://127.0.0.1:" + strconv.Itoa(port) + "/"
	if m := regexp.MustCompile(`^sponge ui: (http://\S+)\n$`).FindStringSubmatch(line); m == nil || m[1] != want {
		t.Fatalf("printed %q, want sponge ui: %s", line, want)
	}
	resp, err := http.Get(want + "library")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Tea") {
		t.Errorf("the library page: %d\n%s", resp.StatusCode, body)
	}
	// Another Host (a DNS name rebound to 127.0.0.1) is refused.
	req, _ := http.NewRequest("GET", want, nil)
	req.Host = "evil.example"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("Host evil.example: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(opened); strings.TrimSpace(string(b)) == want {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("--open did not open %s", want)
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("stopped with %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("still running 10 s after Ctrl-C; stderr:\n%s", stderr.String())
	}
	if !strings.HasSuffix(stderr.String(), "sponge ui: stopped\n") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	// The port is free again.
	if l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port)); err != nil {
		t.Errorf("the port is still held: %v", err)
	} else {
		l.Close()
	}
}
