package library

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
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
	return &Lock{f: f}, nil
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
// index is touched; ClearPending removes the note once both agree. A writer
// killed in between leaves the note, and the next writer's Reconcile
// brings the index back in line with the store.
func (l *Library) MarkPending(id string) error {
	f, err := os.Create(filepath.Join(l.Dir, "pending", id))
	if err != nil {
		return err
	}
	return f.Close()
}

// ClearPending removes the notes of MarkPending.
func (l *Library) ClearPending(ids ...string) {
	for _, id := range ids {
		os.Remove(filepath.Join(l.Dir, "pending", id))
	}
}

// Pending lists the items a killed writer left half-done.
func (l *Library) Pending() ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(l.Dir, "pending"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		if len(e.Name()) == 64 {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}
