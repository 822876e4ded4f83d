package ingest

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/library/vectors"
)

// Flush limits of a writer's index batch: whichever comes first.
const (
	batchItems = 500
	batchChars = 2 << 20 // of paragraph text: bleve's analysis takes many times that in memory
	batchAge   = time.Second
	// compactAbove is how many index segments a writer leaves at most
	// after putting batches in: each batch opens and closes the index,
	// which stops bleve's merges, so a long add leaves many segments, and
	// every search reads them all (kernel-docs ×8: 21 segments, sponge ask
	// --passages 17% slower than merged; with 8 left, 1.13× slower). Close
	// merges the smallest into one (index.MergeSmallest): the merges during
	// the add (mergeAbove) leave tiers of about equal segments, e.g. two of
	// ~37 MB and five of a batch each for kernel-docs ×8, so the biggest
	// are kept.
	compactAbove = 3
	// mergeAbove is how many segments a batch may leave before the writer
	// merges those of about the same size (index.Merge), there and then:
	// the index merges only when asked (see index.Create). As many as Merge
	// merges at once, so that a merge takes a tier's worth of a batch's
	// segments, each merged once (index.MergeTier).
	mergeAbove = index.MergeTier
)

// Writer is a library open for changes: the store and the write lock, held
// until Close. The index is opened only while a batch of changes is applied
// (bleve's index file lock would otherwise keep every reader waiting until
// the writer is done), so searches run while a long `sponge add` goes on.
type Writer struct {
	*library.Library
	lock *library.Lock

	// flushing is held while a batch goes into the index, by the goroutine
	// that Queue starts for it or by Flush: one batch at a time, in order.
	flushing sync.Mutex

	mu           sync.Mutex // guards the fields below
	batch        []*item.Item
	chars        int              // of the paragraphs in batch
	unindexed    map[string]bool  // saved, noted as pending, not yet in the index
	first        time.Time        // when the first item of the batch was queued
	now          func() time.Time // time.Now (tests set their own clock)
	age          time.Duration    // a batch older than this goes to the index (batchAge; tests raise it)
	items, text  int              // a batch of this many items or bytes of text goes to the index (batchItems, batchChars; tests lower them)
	failed       error            // of the last batch put in the index in the background
	indexed      int              // batches put in the index
	removed      bool             // items were taken out of the index (RemoveItems)
	compactAbove int              // segments Close leaves at most (compactAbove; tests lower it)
	mergeAbove   int              // segments a batch leaves before it merges (mergeAbove; tests lower it)
	setAside     []SetAside
	// merging is the index a batch left open while bleve merges its
	// segments (flush), or nil: the next batch goes into it beside the
	// merge, not after it.
	merging *merging
	merge   func(*index.Index) error // (*index.Index).Merge (tests hold it)
	// mergeFailed is the error of a merge that closed the index itself
	// (mergeBeside), returned by release.
	mergeFailed error

	// sources maps each source to the items that name it (library.Sources),
	// read when first needed and kept up to date by Add and RemoveItems.
	sources map[string][]string
	// stats are the file stats of the last add or update (library.Stats),
	// read when first needed and written by Close when changed.
	stats      map[string]library.Stat
	statsDirty bool
	// saved are the items this writer's Add saved as new (see fresh).
	saved map[string]bool
	// limited: the writer set the process's memory limit to writerMemory,
	// and Close sets memoryBefore back.
	limited      bool
	memoryBefore int64
}

// fresh says whether Add saved the item as new in this writer, and with
// mark notes that it does.
func (w *Writer) fresh(id string, mark bool) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	had := w.saved[id]
	if mark {
		if w.saved == nil {
			w.saved = map[string]bool{}
		}
		w.saved[id] = true
	}
	return had
}

// SetAside is a damaged item that a rebuild of the index set aside, out of
// the store (library.SetAside).
type SetAside struct {
	ID     string
	Reason string // what is wrong with it
	Path   string // where its file is now
}

// TakeSetAside returns the items set aside since it was last called: the
// caller tells the person.
func (w *Writer) TakeSetAside() []SetAside {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.setAside
	w.setAside = nil
	return s
}

// OpenWriter opens (or makes) the library at dir for changes. If another
// writer is at work, waiting is called and OpenWriter waits its turn. Items a
// killed writer left half-done are put right first.
func OpenWriter(dir string, waiting func()) (*Writer, error) {
	l, err := library.Create(dir)
	if err != nil {
		return nil, err
	}
	lock, err := l.Lock(waiting)
	if err != nil {
		return nil, err
	}
	w := &Writer{Library: l, lock: lock, now: time.Now, age: batchAge, items: batchItems, text: batchChars, compactAbove: compactAbove, mergeAbove: mergeAbove, merge: (*index.Index).Merge, unindexed: map[string]bool{}}
	w.memoryBefore, w.limited = limitMemory()
	if _, err := os.Stat(l.IndexDir()); errors.Is(err, os.ErrNotExist) {
		ids, err := l.IDs()
		if err == nil && len(ids) > 0 {
			// The index is derived: when it is gone, make it again.
			err = w.rebuild(nil)
		}
		if err != nil {
			lock.Unlock()
			w.unlimitMemory()
			return nil, err
		}
	} else if index.Outdated(l.IndexDir()) {
		// Made under other word rules (an older sponge): its terms no
		// longer meet the questions', so it is made again.
		if err := w.rebuild(nil); err != nil {
			lock.Unlock()
			w.unlimitMemory()
			return nil, err
		}
	}
	if err := w.reconcile(); err != nil {
		lock.Unlock()
		w.unlimitMemory()
		return nil, err
	}
	return w, nil
}

// writerMemory is the Go memory a process holding writers keeps to (unless
// GOMEMLIMIT is set): the collector works harder near it rather than
// let the heap grow to twice what is live. A long sponge add holds ~200 MB
// live; on a busy machine the collector fell behind and kernel-docs ×8 peaked
// at 650 MB, not ~450. bleve's index files, mapped into memory, come on top.
const writerMemory = 360 << 20

// limitMemory sets writerMemory as the process's memory limit, unless a
// lower one is set or the person set GOMEMLIMIT, and returns the limit to
// give back (unlimitMemory) and whether it changed it. Of writers open
// together, the first changes it and gives it back on its Close.
func limitMemory() (before int64, changed bool) {
	before = debug.SetMemoryLimit(-1)
	// Any limit at all was set by the person (GOMEMLIMIT) or by a writer
	// open already: it stays.
	if before != math.MaxInt64 {
		return before, false
	}
	debug.SetMemoryLimit(writerMemory)
	return before, true
}

// merging is an index open for writing while Merge runs on it.
type merging struct {
	x    *index.Index
	done chan error // Merge's error, sent once
}

// takeMerging takes the index a merge holds, if any: the caller waits for
// the merge (done) and closes it.
func (w *Writer) takeMerging() *merging {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.merging
	w.merging = nil
	return m
}

// release waits for the merge a batch began, if any, and closes the index
// it held.
func (w *Writer) release() error {
	m := w.takeMerging()
	if m == nil {
		w.mu.Lock()
		defer w.mu.Unlock()
		err := w.mergeFailed
		w.mergeFailed = nil
		return err
	}
	err := <-m.done
	if cerr := m.x.Close(); err == nil {
		err = cerr
	}
	return err
}

// withIndex opens the index for writing, runs f, and closes it.
func (w *Writer) withIndex(f func(x *index.Index) error) error {
	if err := w.release(); err != nil {
		return err
	}
	x, err := index.Create(w.IndexDir())
	if err != nil {
		return err
	}
	err = f(x)
	if cerr := x.Close(); err == nil {
		err = cerr
	}
	return err
}

// reconcile brings the index in line with the store for every item a killed
// writer left pending: in the index if and only if it is in the store.
func (w *Writer) reconcile() error {
	ids, err := w.Pending()
	if err != nil || len(ids) == 0 {
		return err
	}
	err = w.withIndex(func(x *index.Index) error {
		b := x.NewBatch()
		for _, id := range ids {
			if err := x.Remove(id); err != nil {
				return err
			}
			if !w.Has(id) {
				continue
			}
			it, err := w.Item(id)
			if err != nil {
				// Written but never synced before the crash: drop it, and
				// the same add saves it again.
				if err := w.Delete(id); err != nil {
					return err
				}
				continue
			}
			if err := b.Add(it); err != nil {
				return err
			}
		}
		return b.Commit()
	})
	if err != nil {
		return err
	}
	w.ClearPending()
	return nil
}

// Add saves an item with its source and puts it in the index: Save, then Queue.
func (w *Writer) Add(it *item.Item, source []byte) error {
	if err := w.Save(it, source); err != nil {
		return err
	}
	return w.Queue(it)
}

// Save puts an item and its source in the store, noted as pending until the
// index has it. It is safe to call from several goroutines, so items are
// saved while they are extracted.
func (w *Writer) Save(it *item.Item, source []byte) error {
	w.mu.Lock()
	w.unindexed[it.ID] = true
	w.mu.Unlock()
	if err := w.MarkPending(it.ID); err != nil {
		return err
	}
	return w.Put(it, source)
}

// Queue puts a saved item in the index batch. The index is updated in
// batches, each on its own goroutine while the next one fills, so extraction
// and saving go on while the index works; Flush (or Close) waits for it and
// makes everything queued visible to searches. An error of a batch indexed in
// the background is returned by the next Flush or Close, which try that batch
// again.
func (w *Writer) Queue(it *item.Item) error {
	w.mu.Lock()
	if len(w.batch) == 0 {
		w.first = w.now()
	}
	w.batch = append(w.batch, it)
	w.chars += textLen(it)
	full, wait := w.full()
	failed := w.failed != nil
	w.mu.Unlock()
	if !full || failed {
		return nil
	}
	if wait {
		w.flushing.Lock()
		// Other items' Queues waited here too, for the same batch: the
		// first of them to get in took it into the index, with theirs. Only
		// a batch full again goes on: each waiter going on would put the
		// few items queued meanwhile in the index as a batch (kernel-docs
		// ×8: 13 of 72 batches held 1–19 items, each a segment to merge).
		w.mu.Lock()
		full, _ = w.full()
		w.mu.Unlock()
		if !full {
			w.flushing.Unlock()
			return nil
		}
	} else if !w.flushing.TryLock() {
		return nil // the batch before is still in the index: this one grows
	}
	go func() {
		defer w.flushing.Unlock()
		if err := w.flush(); err != nil {
			w.mu.Lock()
			w.failed = err
			w.mu.Unlock()
		}
	}()
	return nil
}

// full says whether the batch is to go to the index, and whether it has
// grown so far that Queue waits for the batch before it rather than let it
// grow without end (the index is slower than the items come). The caller
// holds w.mu.
func (w *Writer) full() (full, wait bool) {
	full = len(w.batch) >= w.items || w.chars >= w.text || w.now().Sub(w.first) > w.age
	wait = len(w.batch) >= 2*w.items || w.chars >= 2*w.text
	return full, wait
}

// Flush puts the batch in the index, and the store on disk; the pending
// notes then keep only items saved but not queued yet. The index is closed
// when it returns (a merge begun is done).
func (w *Writer) Flush() error {
	w.flushing.Lock()
	defer w.flushing.Unlock()
	w.mu.Lock()
	w.failed = nil
	w.mu.Unlock()
	err := w.flush()
	if rerr := w.release(); err == nil {
		err = rerr
	}
	return err
}

// flush puts the batch in the index. The caller holds w.flushing, not w.mu:
// items are saved and queued while the index works. The order that makes a
// killed writer safe is kept: every item of the batch was noted as pending
// and put in the store before Queue took it, the store is synced before the
// index has them, and their notes go only once the index has them.
func (w *Writer) flush() error {
	w.mu.Lock()
	batch, first := w.batch, w.first
	w.batch, w.chars = nil, 0
	// The age of a batch counts from its first item (Queue): a batch that
	// filled while the one before took the index longer than batchAge
	// follows it at once, so what is left for Close is as small as it can
	// be; and one begun just now waits for more items, not to make a
	// segment of a few.
	idle := len(batch) == 0 && len(w.unindexed) == 0
	w.mu.Unlock()
	if idle {
		return nil
	}
	err := w.Sync()
	if err == nil && len(batch) > 0 {
		err = w.indexBatch(batch)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		// Not in the index: back in front of the batch, for the next try.
		w.batch = append(batch, w.batch...)
		w.first = first
		for _, it := range batch {
			w.chars += textLen(it)
		}
		return err
	}
	for _, it := range batch {
		delete(w.unindexed, it.ID)
	}
	if len(batch) > 0 {
		w.indexed++
	}
	return w.clearPending()
}

// indexBatch puts a batch in the index. When the batch leaves more than
// mergeAbove segments, the merge (Merge, ~2–3 s each on kernel-docs ×8)
// runs beside the next batch rather than before it: the
// index is left open (w.merging) for the next flush, which puts its batch in
// while the merge goes on, then waits for the merge and closes the index
// (or begins the next merge); a merge no batch came to closes the index
// itself (mergeBeside). So the index is held at most for a merge and the
// batch that began during it, and readers wait no longer than that; Flush,
// and every other change, first waits for the merge and closes the index.
func (w *Writer) indexBatch(batch []*item.Item) error {
	m := w.takeMerging()
	var x *index.Index
	if m != nil {
		x = m.x
	} else {
		var err error
		if x, err = index.Create(w.IndexDir()); err != nil {
			return err
		}
	}
	b := x.NewBatch()
	var err error
	for _, it := range batch {
		if err = b.Add(it); err != nil {
			break
		}
	}
	if err == nil {
		err = b.Commit()
	}
	if m != nil {
		if merr := <-m.done; err == nil {
			err = merr
		}
	}
	if err == nil && x.Segments() > w.mergeAbove {
		m := &merging{x: x, done: make(chan error, 1)}
		w.mu.Lock()
		w.merging = m
		w.mu.Unlock()
		go w.mergeBeside(m)
		return nil
	}
	if cerr := x.Close(); err == nil {
		err = cerr
	}
	return err
}

// mergeBeside runs the merge m holds. If no batch took the index while it
// ran (items come slowly), it closes the index, so readers are not kept
// waiting for the next batch; an error is then kept for release.
func (w *Writer) mergeBeside(m *merging) {
	err := w.merge(m.x)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.merging != m {
		m.done <- err // a batch or release took it and waits
		return
	}
	w.merging = nil
	if cerr := m.x.Close(); err == nil {
		err = cerr
	}
	w.mergeFailed = err
}

// textLen is how many bytes of paragraph text an item has.
func textLen(it *item.Item) int {
	n := 0
	for _, p := range it.Paragraphs {
		n += len(p.Text)
	}
	return n
}

// clearPending forgets the pending notes of every item but those saved and
// not yet indexed. The caller holds w.mu.
func (w *Writer) clearPending() error {
	keep := make([]string, 0, len(w.unindexed))
	for id := range w.unindexed {
		keep = append(keep, id)
	}
	return w.ClearPending(keep...)
}

// Remove deletes an item and everything derived from it: RemoveItems.
func (w *Writer) Remove(id string) error { return w.RemoveItems([]string{id}) }

// RemoveItems deletes items from the store and everything derived from
// them: their paragraphs from the index, their paragraph vectors, and their
// sources from the writer's map of sources. It is the one way items leave
// the library (sponge rm, an old version replaced, a file pruned), so that
// whatever else is derived from an item goes here too. The items are noted
// as pending first: a writer killed halfway leaves them for the next one's
// reconcile, which takes each out of the index if the store lacks it.
func (w *Writer) RemoveItems(ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, id := range ids {
		if err := w.MarkPending(id); err != nil {
			return err
		}
	}
	err := w.withIndex(func(x *index.Index) error {
		for _, id := range ids {
			if err := x.Remove(id); err != nil {
				return err
			}
		}
		return nil
	})
	w.mu.Lock()
	w.removed = true
	w.mu.Unlock()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := w.Delete(id); err != nil {
			return err
		}
	}
	if err := w.Sync(); err != nil {
		return err
	}
	forgetVectors(w.Dir, ids)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sources != nil {
		gone := map[string]bool{}
		for _, id := range ids {
			gone[id] = true
		}
		for s, have := range w.sources {
			w.sources[s] = slices.DeleteFunc(have, func(id string) bool { return gone[id] })
		}
	}
	return w.clearPending()
}

// forgetVectors drops the paragraph vectors of removed items. When another
// process holds the vectors (a long sponge setup --embedding), they stay
// until the next reindex: search passes over vectors of items the store
// lacks, so they cost only their space.
func forgetVectors(libDir string, ids []string) {
	lock, err := vectors.TakeLock(libDir, false, nil)
	if err != nil {
		return
	}
	defer lock.Unlock()
	vectors.Forget(vectors.Dir(libDir), ids)
}

// Rebuild makes the index anew from the store. progress, if not nil, is
// called after each item.
func (w *Writer) Rebuild(progress func(done, total int)) error {
	if err := w.Flush(); err != nil {
		return err
	}
	return w.rebuild(progress)
}

func (w *Writer) rebuild(progress func(done, total int)) (err error) {
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
	defer func() {
		if err != nil {
			x.Close()
			os.RemoveAll(tmp)
		}
	}()
	b := x.NewBatch()
	for i, id := range ids {
		it, err := w.Item(id)
		if fault.Is(err, fault.Damaged) {
			// One damaged file must not lock the whole library: set it
			// aside, say so, and index the rest.
			path, aerr := w.Library.SetAside(id)
			if aerr != nil {
				return aerr
			}
			w.mu.Lock()
			w.setAside = append(w.setAside, SetAside{ID: id, Reason: err.Error(), Path: path})
			w.mu.Unlock()
			continue
		}
		if err != nil {
			return err
		}
		if err := b.Add(it); err != nil {
			return err
		}
		if b.Size() >= 2000 {
			if err := b.Commit(); err != nil {
				return err
			}
		}
		if progress != nil {
			progress(i+1, len(ids))
		}
	}
	if err := b.Commit(); err != nil {
		return err
	}
	if err := compact(x, w.compactAbove); err != nil {
		return err
	}
	if err := x.Close(); err != nil {
		return err
	}
	// Swap the new index in: the old one is moved aside first, so a crash
	// leaves either the old index or the new one (or none, which the next
	// writer rebuilds).
	old := filepath.Join(w.Dir, "index.old")
	os.RemoveAll(old)
	if err := os.Rename(w.IndexDir(), old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cannot replace the index: %w", err)
	}
	if err := os.Rename(tmp, w.IndexDir()); err != nil {
		return fmt.Errorf("cannot replace the index: %w", err)
	}
	os.RemoveAll(old)
	// Every item the store held is in the index now, those saved and not
	// yet queued too (sponge reindex --extract saves items again without
	// queueing them): none is left noted as pending, or Close would note
	// them again and list would say search cannot find them.
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, id := range ids {
		delete(w.unindexed, id)
	}
	return w.clearPending()
}

// compact merges the index's smallest segments into one when there are
// more than most (index.MergeSmallest), and then removes the files of the
// index's older states (index.DropOldSnapshots), which bleve would leave
// until the next writer. The memory of the batches is given back before a
// merge: the merge's own (~130 MB for all of kernel-docs ×8) would
// otherwise come on top of it (peak RSS of that add 485 MB, not 390).
func compact(x *index.Index, most int) error {
	if x.Segments() > most {
		debug.FreeOSMemory()
		if err := x.MergeSmallest(most); err != nil {
			return err
		}
	}
	return x.DropOldSnapshots()
}

// Close puts what is pending in the index, merges the index's segments
// when batches left many, removes the files of the index's older states
// (compact), writes the file stats, and releases the lock.
func (w *Writer) Close() error {
	err := w.Flush()
	if err == nil && (w.indexed > 0 || w.removed) {
		err = w.withIndex(func(x *index.Index) error { return compact(x, w.compactAbove) })
	}
	if rerr := w.release(); err == nil {
		err = rerr
	}
	w.mu.Lock()
	if w.statsDirty && err == nil {
		err = w.SaveStats(w.stats)
		w.statsDirty = false
	}
	w.mu.Unlock()
	w.lock.Unlock()
	w.unlimitMemory()
	return err
}

// unlimitMemory gives back the memory limit limitMemory changed, once.
func (w *Writer) unlimitMemory() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.limited {
		debug.SetMemoryLimit(w.memoryBefore)
		w.limited = false
	}
}

// Stat is the file stat of a source noted by the last add or update, if any.
func (w *Writer) Stat(source string) (library.Stat, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stats == nil {
		w.stats = w.Stats()
	}
	s, ok := w.stats[source]
	return s, ok
}

// NoteStat notes what a file was when it was read (Close writes it).
func (w *Writer) NoteStat(source string, s library.Stat) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stats == nil {
		w.stats = w.Stats()
	}
	w.stats[source] = s
	w.statsDirty = true
}

// ForgetStat drops the file stat of a source that is gone.
func (w *Writer) ForgetStat(source string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stats == nil {
		w.stats = w.Stats()
	}
	if _, ok := w.stats[source]; ok {
		delete(w.stats, source)
		w.statsDirty = true
	}
}
