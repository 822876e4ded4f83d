package library

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sponge-library/sponge/internal/index"
	"github.com/sponge-library/sponge/internal/item"
)

// Writer is a library open for changes: the store, the index, and the
// write lock, held until Close.
type Writer struct {
	*Library
	Index *index.Index
	lock  *Lock

	batch   *index.Batch
	pending []string
	last    time.Time
}

// OpenWriter opens (or makes) the library at dir for changes. If another
// writer is at work, waiting is called and OpenWriter waits its turn. Items a
// killed writer left half-done are put right first.
func OpenWriter(dir string, waiting func()) (*Writer, error) {
	l, err := Create(dir)
	if err != nil {
		return nil, err
	}
	lock, err := l.Lock(waiting)
	if err != nil {
		return nil, err
	}
	w := &Writer{Library: l, lock: lock}
	if _, err := os.Stat(l.IndexDir()); errors.Is(err, os.ErrNotExist) {
		ids, err := l.IDs()
		if err != nil {
			lock.Unlock()
			return nil, err
		}
		if len(ids) > 0 {
			// The index is derived: when it is gone, make it again.
			if err := w.rebuild(nil); err != nil {
				lock.Unlock()
				return nil, err
			}
		}
	}
	if w.Index == nil {
		if w.Index, err = index.Create(l.IndexDir()); err != nil {
			lock.Unlock()
			return nil, err
		}
	}
	if err := w.reconcile(); err != nil {
		w.Close()
		return nil, err
	}
	w.batch = w.Index.NewBatch()
	w.last = time.Now()
	return w, nil
}

// reconcile brings the index in line with the store for every item a killed
// writer left pending: in the index if and only if it is in the store.
func (w *Writer) reconcile() error {
	ids, err := w.Pending()
	if err != nil || len(ids) == 0 {
		return err
	}
	b := w.Index.NewBatch()
	for _, id := range ids {
		if err := w.Index.Remove(id); err != nil {
			return err
		}
		if w.Has(id) {
			it, err := w.Item(id)
			if err != nil {
				return err
			}
			if err := b.Add(it); err != nil {
				return err
			}
		}
	}
	if err := b.Commit(); err != nil {
		return err
	}
	w.ClearPending(ids...)
	return nil
}

// Add saves an item with its source and puts it in the index. The index is
// updated in batches; Flush (or Close) makes the batch visible to searches.
func (w *Writer) Add(it *item.Item, source []byte) error {
	if err := w.MarkPending(it.ID); err != nil {
		return err
	}
	w.pending = append(w.pending, it.ID)
	if err := w.Put(it, source); err != nil {
		return err
	}
	if err := w.batch.Add(it); err != nil {
		return err
	}
	if w.batch.Size() >= 2000 || time.Since(w.last) > 2*time.Second {
		return w.Flush()
	}
	return nil
}

// Flush commits the index batch.
func (w *Writer) Flush() error {
	w.last = time.Now()
	if w.batch.Size() > 0 {
		if err := w.batch.Commit(); err != nil {
			return err
		}
	}
	w.ClearPending(w.pending...)
	w.pending = w.pending[:0]
	return nil
}

// Remove deletes an item from the index and the store.
func (w *Writer) Remove(id string) error {
	if err := w.Flush(); err != nil {
		return err
	}
	if err := w.MarkPending(id); err != nil {
		return err
	}
	if err := w.Index.Remove(id); err != nil {
		return err
	}
	if err := w.Delete(id); err != nil {
		return err
	}
	w.ClearPending(id)
	return nil
}

// Rebuild makes the index anew from the store. progress, if not nil, is
// called after each item.
func (w *Writer) Rebuild(progress func(done, total int)) error {
	if err := w.Flush(); err != nil {
		return err
	}
	return w.rebuild(progress)
}

func (w *Writer) rebuild(progress func(done, total int)) error {
	ids, err := w.IDs()
	if err != nil {
		return err
	}
	tmp := filepath.Join(w.Dir, "index.new")
	os.RemoveAll(tmp)
	x, err := index.Create(tmp)
	if err != nil {
		return err
	}
	b := x.NewBatch()
	for i, id := range ids {
		it, err := w.Item(id)
		if err != nil {
			x.Close()
			os.RemoveAll(tmp)
			return err
		}
		if err := b.Add(it); err != nil {
			x.Close()
			os.RemoveAll(tmp)
			return err
		}
		if b.Size() >= 2000 {
			if err := b.Commit(); err != nil {
				x.Close()
				os.RemoveAll(tmp)
				return err
			}
		}
		if progress != nil {
			progress(i+1, len(ids))
		}
	}
	if err := b.Commit(); err != nil {
		x.Close()
		os.RemoveAll(tmp)
		return err
	}
	if err := x.Close(); err != nil {
		return err
	}
	if w.Index != nil {
		w.Index.Close()
		w.Index = nil
	}
	// Swap the new index in: the old one is moved aside first so that a
	// reader or a crash sees either the old index or the new one.
	old := filepath.Join(w.Dir, "index.old")
	os.RemoveAll(old)
	if err := os.Rename(w.IndexDir(), old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cannot replace the index: %w", err)
	}
	if err := os.Rename(tmp, w.IndexDir()); err != nil {
		return fmt.Errorf("cannot replace the index: %w", err)
	}
	os.RemoveAll(old)
	w.ClearPending(ids...)
	w.Index, err = index.Create(w.IndexDir())
	if err == nil {
		w.batch = w.Index.NewBatch()
	}
	return err
}

// Close commits what is pending, closes the index and releases the lock.
func (w *Writer) Close() error {
	var err error
	if w.Index != nil {
		if w.batch != nil {
			err = w.Flush()
		}
		if cerr := w.Index.Close(); err == nil {
			err = cerr
		}
		w.Index = nil
	}
	w.lock.Unlock()
	return err
}
