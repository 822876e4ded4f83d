package library

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Lock is the writer's lock on a library: one writer at a time, others wait.
type Lock struct {
	f *os.File
}

// Lock takes the library's write lock. If another writer holds it, waiting
// is called once (to tell the person) and Lock blocks until it is free.
func (l *Library) Lock(waiting func()) (*Lock, error) {
	f, err := os.OpenFile(filepath.Join(l.Dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot lock the library: %w", err)
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		if waiting != nil {
			waiting()
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock the library: %w", err)
	}
	l.removeLeftovers(time.Now())
	return &Lock{f: f}, nil
}

// leftoverAge is how old a temporary file of a summary must be to be taken
// for a killed writer's: sponge summarize writes summaries without the lock,
// each in a moment.
const leftoverAge = time.Minute

// removeLeftovers removes the temporary files (writeAtomic's ".tmp-") that a
// writer killed while saving left behind: a big item's is as big as the
// item, and nothing else would ever remove it. Only the lock's holder writes
// items and the library's own files, so every temporary file among them is a
// leftover; a summary's is one once it is older than leftoverAge.
func (l *Library) removeLeftovers(now time.Time) {
	sweep := func(dir string, age time.Duration) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if !strings.HasPrefix(e.Name(), tmpPrefix) || e.IsDir() {
				continue
			}
			if age > 0 {
				info, err := e.Info()
				if err != nil || now.Sub(info.ModTime()) < age {
					continue
				}
			}
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	sweep(l.Dir, 0)
	for _, sub := range []struct {
		name string
		age  time.Duration
	}{{"items", 0}, {"summaries", leftoverAge}} {
		shards, _ := os.ReadDir(filepath.Join(l.Dir, sub.name))
		for _, s := range shards {
			if s.IsDir() {
				sweep(filepath.Join(l.Dir, sub.name, s.Name()), sub.age)
			}
		}
	}
}

// Unlock releases the lock.
func (k *Lock) Unlock() {
	if k != nil && k.f != nil {
		syscall.Flock(int(k.f.Fd()), syscall.LOCK_UN)
		k.f.Close()
		k.f = nil
	}
}

// MarkPending notes that an item is being changed, before the store or the
// index is touched; ClearPending forgets the notes once both agree. A writer
// killed in between leaves its notes, and the next writer's reconcile brings
// the index back in line with the store. The notes are lines appended to one
// journal file per writer, not a file per item: creating files is most of
// what saving an item costs. MarkPending is safe for concurrent use.
func (l *Library) MarkPending(id string) error {
	l.journalMu.Lock()
	defer l.journalMu.Unlock()
	if l.journal == nil {
		name := filepath.Join(l.Dir, "pending", fmt.Sprintf("journal-%d-%d", os.Getpid(), time.Now().UnixNano()))
		f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		l.journal = f
	}
	_, err := l.journal.WriteString(id + "\n")
	return err
}

// ClearPending forgets every note of MarkPending, this writer's and those a
// killed writer left, except the items in keep: they are noted in a new
// journal before the old ones go, so an item is never left un-noted.
func (l *Library) ClearPending(keep ...string) error {
	l.journalMu.Lock()
	defer l.journalMu.Unlock()
	if l.journal != nil {
		l.journal.Close()
		l.journal = nil
	}
	dir := filepath.Join(l.Dir, "pending")
	old, _ := os.ReadDir(dir)
	if len(keep) > 0 {
		name := filepath.Join(dir, fmt.Sprintf("journal-%d-%d", os.Getpid(), time.Now().UnixNano()))
		f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		if _, err := f.WriteString(strings.Join(keep, "\n") + "\n"); err != nil {
			f.Close()
			return err
		}
		l.journal = f
	}
	for _, e := range old {
		os.Remove(filepath.Join(dir, e.Name()))
	}
	return nil
}

// Pending lists the items a killed writer left half-done (and this one's,
// until ClearPending).
func (l *Library) Pending() ([]string, error) {
	dir := filepath.Join(l.Dir, "pending")
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	seen := map[string]bool{}
	var ids []string
	add := func(id string) {
		if len(id) == 64 && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "journal-") {
			add(e.Name())
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(data), "\n") {
			add(strings.TrimSpace(line))
		}
	}
	return ids, nil
}
