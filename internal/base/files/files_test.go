package files

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpen reads a file opened without the poller, and a missing file is
// fs.ErrNotExist, named as os.Open names it.
func TestOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("hello, file"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	b := Borrow(4)
	if _, err := f.ReadAt(b.B, 7); err != nil || string(b.B) != "file" {
		t.Errorf("read %q, %v", b.B, err)
	}
	b.Return()
	if st, err := f.Stat(); err != nil || st.Size() != 11 {
		t.Errorf("stat %v, %v", st, err)
	}
	if err := f.Close(); err != nil {
		t.Error(err)
	}
	_, err = Open(path + ".missing")
	var pe *os.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != path+".missing" {
		t.Errorf("missing file: %v", err)
	}
}

// TestBorrow lends buffers of the length asked for, reused or not.
func TestBorrow(t *testing.T) {
	for _, n := range []int{10, 0, 100, 5} {
		b := Borrow(n)
		if len(b.B) != n {
			t.Errorf("Borrow(%d) lent %d bytes", n, len(b.B))
		}
		b.Return()
	}
}

// TestCreateTemp makes new files named by the prefix, for the owner only,
// never the same twice, and a missing folder is fs.ErrNotExist.
func TestCreateTemp(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]bool{}
	for range 50 {
		f, err := CreateTemp(dir, ".tmp-")
		if err != nil {
			t.Fatal(err)
		}
		name := f.Name()
		if filepath.Dir(name) != dir || !strings.HasPrefix(filepath.Base(name), ".tmp-") || len(filepath.Base(name)) == len(".tmp-") || seen[name] {
			t.Fatalf("made %s", name)
		}
		seen[name] = true
		if _, err := f.Write([]byte("item")); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(name)
		if err != nil || st.Size() != 4 || st.Mode().Perm()&0o077 != 0 {
			t.Fatalf("%s: %v, %v", name, st.Mode(), err)
		}
	}
	if _, err := CreateTemp(filepath.Join(dir, "missing"), ".tmp-"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing folder: %v", err)
	}
}
