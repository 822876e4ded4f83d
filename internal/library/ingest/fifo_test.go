//go:build unix

package ingest

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestPrepareNamedPipe: a named pipe given by path, as `sponge add <(…)`
// gives one, is read like stdin.
func TestPrepareNamedPipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(filepath.Join(dir, "lib"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p := filepath.Join(dir, "pipe.md")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	go func() {
		if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
			f.WriteString("# Piped\n\nThe kettle sings through a pipe.\n")
			f.Close()
		}
	}()
	r := prepare(context.Background(), w, Input{Name: p, Path: p}, AddOptions{Link: true})
	if r.Err != nil || r.Item == nil || r.Item.Title != "Piped" {
		t.Fatalf("%+v", r)
	}
	if r.Item.Linked {
		t.Error("a pipe is linked: it cannot be read again")
	}
}
