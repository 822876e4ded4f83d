package mcp

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/library/index"
)

// DefaultIdle is how long the server keeps the index open after a call.
//
// Why it is released at all: a read-only bleve index holds a shared lock on
// its root.bolt for as long as it is open, and a writer (sponge add, rm)
// opens the index for each batch with an exclusive lock, so an index held
// for the life of the server would stop every add until the agent quits.
// Opening the SciFact index costs about 0.5 ms and makes the next search
// about 0.5 ms slower (measured: 2.3 ms instead of 1.8 ms), so reopening
// after a pause is cheap, while a run of calls shares one open index. A
// writer that starts while no call comes waits at most this long.
const DefaultIdle = time.Second

// indexes hands out the library's index to calls: the one kept open while no
// writer is at work and the index has not changed, else one opened for the
// call alone.
type indexes struct {
	dir      string // the index folder
	lockPath string // the library's writer lock
	idle     time.Duration

	mu    sync.Mutex
	cur   *openIndex // kept open between calls; nil when released
	timer *time.Timer
	opens int // how many times the index was opened (for tests)
}

type openIndex struct {
	x       *index.Index
	stamp   stamp
	users   int
	retired bool // closed when its last user is done
}

func newIndexes(dir, lockPath string, idle time.Duration) *indexes {
	if idle <= 0 {
		idle = DefaultIdle
	}
	return &indexes{dir: dir, lockPath: lockPath, idle: idle}
}

// acquire returns the open index and a function to call when done with it.
// It blocks while a writer is applying a batch (never longer than the batch).
func (h *indexes) acquire() (*index.Index, func(), error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.timer != nil {
		h.timer.Stop()
	}
	writer := writerAtWork(h.lockPath)
	if h.cur != nil && (writer || h.cur.stamp != stampOf(h.dir)) {
		// A writer needs the index between its batches, or the index changed
		// (a batch went in while it was released, or sponge reindex swapped
		// in a new one): let go of this one.
		h.retire(h.cur)
		h.cur = nil
	}
	o := h.cur
	if o == nil {
		st := stampOf(h.dir)
		x, err := index.Open(h.dir)
		if err != nil {
			return nil, nil, err
		}
		h.opens++
		o = &openIndex{x: x, stamp: st}
		if writer {
			// For this call only: the writer's next batch waits for it alone.
			o.retired = true
		} else {
			h.cur = o
		}
	}
	o.users++
	release := func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		o.users--
		switch {
		case o.retired && o.users == 0:
			o.x.Close()
		case o == h.cur && o.users == 0:
			h.armTimer()
		}
	}
	return o.x, release, nil
}

// retire closes o now if nobody uses it, else when its last user is done.
func (h *indexes) retire(o *openIndex) {
	o.retired = true
	if o.users == 0 {
		o.x.Close()
	}
}

func (h *indexes) armTimer() {
	if h.timer == nil {
		h.timer = time.AfterFunc(h.idle, h.releaseIdle)
		return
	}
	h.timer.Reset(h.idle)
}

// releaseIdle closes the kept index after a pause, so a writer that starts
// while no call comes is not kept waiting.
func (h *indexes) releaseIdle() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cur != nil && h.cur.users == 0 {
		h.retire(h.cur)
		h.cur = nil
	}
}

// close releases the kept index when the server stops.
func (h *indexes) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.timer != nil {
		h.timer.Stop()
	}
	if h.cur != nil {
		h.retire(h.cur)
		h.cur = nil
	}
}

// writerAtWork reports whether a sponge command holds the library's writer
// lock. It tries a shared lock without waiting and lets go at once; the lock
// file is opened read-only and never made, so the server writes nothing.
func writerAtWork(lockPath string) bool {
	f, err := os.Open(lockPath)
	if err != nil {
		return false // no writer has ever run
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false
	}
	return errors.Is(err, syscall.EWOULDBLOCK)
}

// stamp tells whether the index on disk is still the one opened: the
// identity and modification of its folder, its segment folder and bleve's
// root file (rewritten by every batch; a reindex swaps all three).
type stamp [3]fileStamp

type fileStamp struct {
	dev, ino  uint64
	size      int64
	mtimeNano int64
}

func stampOf(dir string) stamp {
	var s stamp
	for i, p := range []string{dir, filepath.Join(dir, "store"), filepath.Join(dir, "store", "root.bolt")} {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		s[i].size = st.Size()
		s[i].mtimeNano = st.ModTime().UnixNano()
		if sys, ok := st.Sys().(*syscall.Stat_t); ok {
			s[i].dev, s[i].ino = uint64(sys.Dev), sys.Ino
		}
	}
	return s
}
