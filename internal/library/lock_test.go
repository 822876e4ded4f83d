package library

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLockRemovesLeftovers: a writer killed while saving a big item leaves
// its temporary file (issue 42: 126 MB that outlived the next add and
// reindex); the next writer removes it once it holds the lock. A summary's
// temporary file is a leftover only once it is old: sponge summarize writes
// summaries without the lock.
func TestLockRemovesLeftovers(t *testing.T) {
	t.Parallel()
	l, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * leftoverAge)
	plant := func(rel string, mtime time.Time) string {
		p := filepath.Join(l.Dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("half an item"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := []string{
		plant("items/ab/.tmp-123456", time.Now()),
		plant(".tmp-789", time.Now()),
		plant("summaries/cd/.tmp-42", old),
	}
	kept := []string{
		plant("summaries/cd/.tmp-43", time.Now()), // being written by sponge summarize
		plant("items/ab/notes.txt", time.Now()),   // not a temporary file
	}
	k, err := l.Lock(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Unlock()
	for _, p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s: left after the writer took the lock", p)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: removed: %v", p, err)
		}
	}
}
