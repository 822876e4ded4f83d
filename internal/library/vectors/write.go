package vectors

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"syscall"
)

// Writer appends items' vectors to a store. One writer at a time: take the
// library's vector lock first (Lock).
type Writer struct {
	Dir   string
	model Model
	data  *os.File
	items *os.File
	done  map[[32]byte]bool
	next  uint64 // records in the data file that belong to entries

	buf     []byte  // records not yet written
	pending []entry // entries of buf, written by Commit
	q8      []int8
}

// Create opens the store in dir for appending, making it for model m if
// there is none. A store made by another model gives an *OtherModelError.
// Records a killed writer left after the last entry are cut off.
func Create(dir string, m Model) (*Writer, error) {
	if m.Dims <= 0 {
		return nil, fmt.Errorf("vectors: a model of %d dimensions", m.Dims)
	}
	have, err := readModel(dir)
	switch {
	case errors.Is(err, ErrNotBuilt):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		// Whatever is there belongs to no model: start afresh.
		os.Remove(filepath.Join(dir, dataFile))
		os.Remove(filepath.Join(dir, itemsFile))
		if err := writeModel(dir, m); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	case !have.Same(m) || have.Dims != m.Dims:
		return nil, &OtherModelError{Dir: dir, Have: have, Want: m}
	}
	w := &Writer{Dir: dir, model: m, done: map[[32]byte]bool{}, q8: make([]int8, m.Dims)}
	w.data, err = os.OpenFile(filepath.Join(dir, dataFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	w.items, err = os.OpenFile(filepath.Join(dir, itemsFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		w.data.Close()
		return nil, err
	}
	if err := w.repair(); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

func writeModel(dir string, m Model) error {
	b, err := json.MarshalIndent(modelJSON{Format: formatV, Model: m}, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, modelFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, modelFile))
}

// repair writes the header of a new data file, and cuts both files to what
// the entries vouch for.
func (w *Writer) repair() error {
	st, err := w.data.Stat()
	if err != nil {
		return err
	}
	rb := int64(RecordBytes(w.model.Dims))
	if st.Size() < headerLen {
		hdr := make([]byte, headerLen)
		copy(hdr, magic)
		binary.LittleEndian.PutUint32(hdr[8:], uint32(w.model.Dims))
		if _, err := w.data.WriteAt(hdr, 0); err != nil {
			return err
		}
		if err := w.data.Truncate(headerLen); err != nil {
			return err
		}
		st, _ = w.data.Stat()
	} else {
		hdr := make([]byte, headerLen)
		if _, err := w.data.ReadAt(hdr, 0); err != nil {
			return err
		}
		if string(hdr[:8]) != magic || int(binary.LittleEndian.Uint32(hdr[8:])) != w.model.Dims {
			return fmt.Errorf("%s is damaged (its header is not sponge's)", filepath.Join(w.Dir, dataFile))
		}
	}
	es, err := readEntries(w.Dir, uint64((st.Size()-headerLen)/rb))
	if err != nil {
		return err
	}
	for _, e := range es {
		w.done[e.id] = true
	}
	if len(es) > 0 {
		w.next = es[len(es)-1].end()
	}
	if err := w.items.Truncate(int64(len(es)) * entryLen); err != nil {
		return err
	}
	if err := w.data.Truncate(headerLen + int64(w.next)*rb); err != nil {
		return err
	}
	if _, err := w.items.Seek(0, 2); err != nil {
		return err
	}
	_, err = w.data.Seek(0, 2)
	return err
}

// Has reports whether the item is embedded (committed or pending).
func (w *Writer) Has(id string) bool {
	k, err := parseID(id)
	return err == nil && w.done[k]
}

// Items is how many items are embedded, pending ones included.
func (w *Writer) Items() int { return len(w.done) }

// Add appends the vectors of an item's paragraphs, in paragraph order. They
// reach the disk at Commit.
func (w *Writer) Add(id string, vecs [][]float32) error {
	k, err := parseID(id)
	if err != nil {
		return err
	}
	if w.done[k] {
		return nil
	}
	first := w.next + uint64(len(w.buf)/RecordBytes(w.model.Dims))
	for i, v := range vecs {
		if len(v) != w.model.Dims {
			return fmt.Errorf("vector %d of item %s has %d dimensions, not %d", i, id[:12], len(v), w.model.Dims)
		}
		scale := Quantize(v, w.q8)
		w.buf = binary.LittleEndian.AppendUint32(w.buf, math.Float32bits(scale))
		for _, x := range w.q8 {
			w.buf = append(w.buf, byte(x))
		}
	}
	w.pending = append(w.pending, entry{id: k, first: first, count: uint32(len(vecs))})
	w.done[k] = true
	return nil
}

// addRecords appends records copied from another store of the same model.
func (w *Writer) addRecords(k [32]byte, records []byte, count int) {
	if w.done[k] {
		return
	}
	first := w.next + uint64(len(w.buf)/RecordBytes(w.model.Dims))
	w.buf = append(w.buf, records...)
	w.pending = append(w.pending, entry{id: k, first: first, count: uint32(count)})
	w.done[k] = true
}

// Pending is how many paragraphs wait for Commit.
func (w *Writer) Pending() int { return len(w.buf) / RecordBytes(w.model.Dims) }

// Commit writes the pending vectors and syncs them, then their items'
// entries: a crash in between loses the batch, never mixes it up.
func (w *Writer) Commit() error {
	if len(w.pending) == 0 {
		return nil
	}
	if _, err := w.data.Write(w.buf); err != nil {
		return fmt.Errorf("cannot write the paragraph vectors: %w", err)
	}
	if err := w.data.Sync(); err != nil {
		return fmt.Errorf("cannot write the paragraph vectors: %w", err)
	}
	eb := make([]byte, 0, len(w.pending)*entryLen)
	for _, e := range w.pending {
		eb = append(eb, e.id[:]...)
		eb = binary.LittleEndian.AppendUint64(eb, e.first)
		eb = binary.LittleEndian.AppendUint32(eb, e.count)
		eb = append(eb, 0, 0, 0, 0)
	}
	if _, err := w.items.Write(eb); err != nil {
		return fmt.Errorf("cannot write the paragraph vectors: %w", err)
	}
	if err := w.items.Sync(); err != nil {
		return fmt.Errorf("cannot write the paragraph vectors: %w", err)
	}
	w.next += uint64(len(w.buf) / RecordBytes(w.model.Dims))
	w.buf = w.buf[:0]
	w.pending = w.pending[:0]
	return nil
}

// Close commits what is pending and closes the files.
func (w *Writer) Close() error {
	err := w.Commit()
	if w.data != nil {
		if cerr := w.data.Close(); err == nil {
			err = cerr
		}
	}
	if w.items != nil {
		if cerr := w.items.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// Lock is the library's lock on its vectors: one writer of vectors at a
// time (it is apart from the library's own lock, so that `sponge add` need
// not wait for a long `sponge setup --embedding`).
type Lock struct{ f *os.File }

// ErrLocked is returned by TryLock when another process writes vectors.
var ErrLocked = errors.New("another sponge command is embedding the library's paragraphs")

// LockFile is the lock's path in a library.
func LockFile(libDir string) string { return filepath.Join(libDir, "vectors.lock") }

// TakeLock takes the vector lock of the library at libDir. With wait it
// calls waiting (if not nil) and blocks while another process has it;
// without, it returns ErrLocked.
func TakeLock(libDir string, wait bool, waiting func()) (*Lock, error) {
	f, err := os.OpenFile(LockFile(libDir), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot lock the paragraph vectors: %w", err)
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		if !wait {
			f.Close()
			return nil, ErrLocked
		}
		if waiting != nil {
			waiting()
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock the paragraph vectors: %w", err)
	}
	return &Lock{f: f}, nil
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	if l != nil && l.f != nil {
		syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
		l.f.Close()
		l.f = nil
	}
}

// Forget drops the vectors of removed items from the store in dir: each
// one's entry gets the zero id, so search and Has no longer find it, while
// the entries still chain record to record. Their records stay until a
// rebuild (sponge reindex) leaves them out. A store that is not there has
// nothing to forget. The caller holds the vector lock.
func Forget(dir string, ids []string) error {
	gone := map[[32]byte]bool{}
	for _, id := range ids {
		if k, err := parseID(id); err == nil {
			gone[k] = true
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, itemsFile), os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot forget the paragraph vectors: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return fmt.Errorf("cannot forget the paragraph vectors: %w", err)
	}
	var zero [32]byte
	changed := false
	for off := 0; off+entryLen <= len(b); off += entryLen {
		var k [32]byte
		copy(k[:], b[off:off+32])
		if gone[k] {
			if _, err := f.WriteAt(zero[:], int64(off)); err != nil {
				return fmt.Errorf("cannot forget the paragraph vectors: %w", err)
			}
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return f.Sync()
}
