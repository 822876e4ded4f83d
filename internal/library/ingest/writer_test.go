package ingest

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
)

func testItem(n int) (*item.Item, []byte) {
	src := []byte(fmt.Sprintf("# Note %d\n\nThe kettle number %d whistles at dawn.\n", n, n))
	return &item.Item{
		ID: library.ItemID(src), Title: fmt.Sprintf("Note %d", n), Source: "test", Kind: item.KindMarkdown,
		Added:      time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Paragraphs: []item.Paragraph{{Text: fmt.Sprintf("The kettle number %d whistles at dawn.", n), Heading: fmt.Sprintf("Note %d", n)}},
	}, src
}

// indexed lists which of ids a search for "kettle" finds.
func indexed(t *testing.T, dir string) map[string]bool {
	t.Helper()
	x, err := index.Open(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	hits, err := x.Search("kettle", 1000)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, h := range hits {
		got[h.ItemID] = true
	}
	return got
}

// testBigItem is an item with enough text for paragraph postings.
func testBigItem(n int) (*item.Item, []byte) {
	it, src := testItem(n)
	for len(it.Paragraphs)*30 < keywords.PostingsFrom {
		it.Paragraphs = append(it.Paragraphs, it.Paragraphs[0])
	}
	src = append(src, strings.Repeat(".", len(it.Paragraphs))...)
	it.ID = library.ItemID(src)
	return it, src
}

// hasPostings reports whether the index has the paragraph postings of an item.
func hasPostings(dir, id string) bool {
	_, err := keywords.ReadPostings(filepath.Join(dir, "index"), id, []string{"kettle"})
	return err == nil
}

func TestAddRemoveRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	it, src := testBigItem(1)
	if err := w.Add(it, src); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := lib.Item(it.ID)
	if err != nil || got.Title != "Note 1" || got.Paragraphs[0].Text != it.Paragraphs[0].Text {
		t.Fatalf("item read back: %+v, %v", got, err)
	}
	back, err := lib.Source(it.ID)
	if err != nil || string(back) != string(src) {
		t.Fatalf("source read back: %q, %v", back, err)
	}
	if id, err := lib.Resolve(it.ID[:6]); err != nil || id != it.ID {
		t.Fatalf("resolve prefix: %q, %v", id, err)
	}
	if !indexed(t, dir)[it.ID] || !hasPostings(dir, it.ID) {
		t.Fatal("the item is not in the index, or has no paragraph postings")
	}
	w, err = OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Remove(it.ID); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if lib.Has(it.ID) || indexed(t, dir)[it.ID] || hasPostings(dir, it.ID) {
		t.Fatal("the removed item is still there")
	}
}

func TestResolveAmbiguousAndShort(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, _ := OpenWriter(dir, nil)
	// Find two items whose ids share a first hex digit.
	byFirst := map[byte]string{}
	var a, b string
	for n := 0; a == ""; n++ {
		it, src := testItem(n)
		if err := w.Add(it, src); err != nil {
			t.Fatal(err)
		}
		if other, ok := byFirst[it.ID[0]]; ok {
			a, b = other, it.ID
		}
		byFirst[it.ID[0]] = it.ID
	}
	w.Close()
	lib, _ := library.Open(dir)
	common := 0
	for common < 64 && a[common] == b[common] {
		common++
	}
	if common >= 4 {
		_, err := lib.Resolve(a[:common])
		if err == nil {
			t.Fatal("an ambiguous prefix resolved")
		}
	}
	if _, err := lib.Resolve(a[:3]); err == nil {
		t.Fatal("a 3-digit prefix resolved")
	}
	if _, err := lib.Resolve("zzzz"); err == nil {
		t.Fatal("a non-hex prefix resolved")
	}
	if id, err := lib.Resolve(a[:12] + "…"); err != nil || id != a {
		t.Fatalf("the short id as shown did not resolve: %v", err)
	}
}

// TestReconcileAfterCrash leaves the store and the index disagreeing the way
// a writer killed between them would, and checks that the next writer puts
// it right: every item in the index is in the store and vice versa.
func TestReconcileAfterCrash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, _ := OpenWriter(dir, nil)
	kept, srcKept := testItem(1)
	gone, srcGone := testItem(2)
	for _, p := range []struct {
		it  *item.Item
		src []byte
	}{{kept, srcKept}, {gone, srcGone}} {
		if err := w.Add(p.it, p.src); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()

	// Killed mid-add: stored, marked pending, never indexed.
	half, srcHalf := testItem(3)
	lib, _ := library.Create(dir)
	lib.MarkPending(half.ID)
	if err := lib.Put(half, srcHalf); err != nil {
		t.Fatal(err)
	}
	// Killed mid-rm: marked pending and gone from the store, still indexed.
	lib.MarkPending(gone.ID)
	lib.Delete(gone.ID)

	got := indexed(t, dir)
	if got[half.ID] || !got[gone.ID] {
		t.Fatalf("the set-up is not what a crash leaves: %v", got)
	}
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	got = indexed(t, dir)
	if !got[half.ID] || got[gone.ID] || !got[kept.ID] {
		t.Fatalf("after reconcile the index has %v", got)
	}
	if p, _ := lib.Pending(); len(p) != 0 {
		t.Fatalf("pending notes left: %v", p)
	}
}

func TestRebuildMatchesStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, _ := OpenWriter(dir, nil)
	for n := range 30 {
		it, src := testBigItem(n)
		w.Add(it, src)
	}
	w.Close()
	os.RemoveAll(filepath.Join(dir, "index"))
	// A writer finds the index gone and makes it again from the store.
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Rebuild(nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if got := indexed(t, dir); len(got) != 30 {
		t.Fatalf("rebuilt index has %d items, want 30", len(got))
	}
	// An index made before paragraph postings gets them from a rebuild.
	os.RemoveAll(filepath.Join(dir, "index", "postings"))
	w, err = OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Rebuild(nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for n := range 30 {
		if it, _ := testBigItem(n); !hasPostings(dir, it.ID) {
			t.Fatalf("item %d has no postings after the rebuild", n)
		}
	}
}

// TestTwoWriters runs two writers at once: the second waits for the first,
// and both succeed.
func TestTwoWriters(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var wg sync.WaitGroup
	waited := make(chan bool, 2)
	errs := make(chan error, 2)
	start := make(chan struct{})
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			w, err := OpenWriter(dir, func() { waited <- true })
			if err != nil {
				errs <- err
				return
			}
			for n := range 20 {
				it, src := testItem(g*100 + n)
				if err := w.Add(it, src); err != nil {
					errs <- err
				}
			}
			time.Sleep(50 * time.Millisecond)
			errs <- w.Close()
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(waited) != 1 {
		t.Errorf("%d writers waited, want exactly 1", len(waited))
	}
	if got := indexed(t, dir); len(got) != 40 {
		t.Fatalf("the index has %d items, want 40", len(got))
	}
}

// TestSavedNotQueuedStaysPending: an item a worker saved but the writer has
// not indexed yet is still noted after a flush, so a kill then is repaired.
func TestSavedNotQueuedStaysPending(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, _ := OpenWriter(dir, nil)
	a, srcA := testItem(1)
	b, srcB := testItem(2)
	if err := w.Save(a, srcA); err != nil {
		t.Fatal(err)
	}
	if err := w.Save(b, srcB); err != nil {
		t.Fatal(err)
	}
	w.Queue(a)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	p, _ := w.Pending()
	if len(p) != 1 || p[0] != b.ID {
		t.Fatalf("pending after flushing a: %v, want only b", p)
	}
	// Killed here: the next writer indexes b.
	w.lock.Unlock()
	w2, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
	if got := indexed(t, dir); !got[a.ID] || !got[b.ID] {
		t.Fatalf("after reconcile: %v", got)
	}
	if p, _ := w2.Pending(); len(p) != 0 {
		t.Fatalf("pending left: %v", p)
	}
}

// TestMetaFromHead reads an item's summary from the head of its file.
func TestMetaFromHead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, _ := OpenWriter(dir, nil)
	it, src := testItem(7)
	w.Add(it, src)
	w.Close()
	m, err := w.Meta(it.ID)
	if err != nil || m.Title != "Note 7" || m.Paragraphs != 1 || m.Chars != len(it.Paragraphs[0].Text) {
		t.Fatalf("meta %+v, %v", m, err)
	}
	// The whole item still decodes past the skippable frame.
	back, err := w.Item(it.ID)
	if err != nil || back.Title != "Note 7" {
		t.Fatalf("item %+v, %v", back, err)
	}
}

// TestQueueWhileIndexing: items saved by several workers and queued while
// earlier batches go into the index in the background all end in the index,
// with no pending notes left, once Close returns.
func TestQueueWhileIndexing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 2*batchItems + 37
	saved := make(chan *item.Item, 16)
	next := make(chan int)
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				it, src := testItem(i)
				if err := w.Save(it, src); err != nil {
					t.Error(err)
				}
				saved <- it
			}
		}()
	}
	go func() {
		for i := range n {
			next <- i
		}
		close(next)
		wg.Wait()
		close(saved)
	}()
	for it := range saved {
		if err := w.Queue(it); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// One document per item (they are short); indexed finds at most 1000.
	x, err := index.Open(w.IndexDir())
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if c, err := x.Count(); err != nil || c != n {
		t.Fatalf("the index has %d documents (%v), want %d", c, err, n)
	}
	for i := range n {
		if it, _ := testItem(i); !x.Has(it.ID) {
			t.Fatalf("item %d is not in the index", i)
		}
	}
	if p, _ := w.Pending(); len(p) != 0 {
		t.Fatalf("%d items left pending", len(p))
	}
}

// TestBackgroundIndexFailure: a batch the index refused in the background is
// reported by Close, its items stay pending, and the next writer indexes them.
func TestBackgroundIndexFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A file where the index folder goes: bleve cannot open it.
	if err := os.WriteFile(w.IndexDir(), []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	const n = batchItems + 3
	for i := range n {
		it, src := testItem(i)
		if err := w.Add(it, src); err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
	}
	if err := w.Close(); err == nil {
		t.Fatal("Close reported no error for a batch the index refused")
	}
	if p, _ := w.Pending(); len(p) != n {
		t.Fatalf("%d items pending, want %d", len(p), n)
	}
	if err := os.Remove(w.IndexDir()); err != nil {
		t.Fatal(err)
	}
	w2, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	if got := indexed(t, dir); len(got) != n {
		t.Fatalf("the index has %d items after the next writer, want %d", len(got), n)
	}
}

// TestBatchByText: a batch goes into the index once its paragraphs reach
// batchChars, however few items it has, so bleve never analyses a huge batch
// at once.
func TestBatchByText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// Only the size of the text may start the batch here: on a busy machine
	// a slow open would otherwise make the first Add's batch old enough to
	// go on its own, and the second would wait behind it.
	w.age = time.Hour
	word := strings.Repeat("kettle ", batchChars/7/2+1)
	var ids []string
	for i := range 2 {
		it, src := testItem(i)
		it.Paragraphs[0].Text = word
		if err := w.Add(it, src); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, it.ID)
	}
	w.flushing.Lock() // the batch started by the second Add is done
	w.mu.Lock()
	left := len(w.batch)
	w.mu.Unlock()
	w.flushing.Unlock()
	if left != 0 {
		t.Fatalf("%d items still waiting for the index after %d bytes of text", left, 2*len(word))
	}
	if got := indexed(t, dir); !got[ids[0]] || !got[ids[1]] {
		t.Fatalf("indexed %v, want both items", got)
	}
}

// TestDamagedItemSetAside: one item file cut short, and the index gone.
// Opening the library for changes rebuilds the index without it, sets it
// aside (named, with its reason), and add, rebuild and remove work again.
func TestDamagedItemSetAside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	good, gsrc := testItem(1)
	bad, bsrc := testItem(2)
	for _, x := range []struct {
		it  *item.Item
		src []byte
	}{{good, gsrc}, {bad, bsrc}} {
		if err := w.Add(x.it, x.src); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "items", bad.ID[:2], bad.ID+".zst")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "index")); err != nil {
		t.Fatal(err)
	}

	w, err = OpenWriter(dir, nil)
	if err != nil {
		t.Fatalf("a library with one damaged item does not open for changes: %v", err)
	}
	aside := w.TakeSetAside()
	if len(aside) != 1 || aside[0].ID != bad.ID || !strings.Contains(aside[0].Reason, "damaged") {
		t.Fatalf("set aside: %+v", aside)
	}
	if got := indexed(t, dir); !got[good.ID] || got[bad.ID] {
		t.Errorf("the index after the rebuild: %v", got)
	}
	if _, err := w.Item(bad.ID); err == nil || !strings.Contains(err.Error(), "set aside") {
		t.Errorf("the damaged item reads as %v", err)
	}
	id, err := w.Resolve(bad.ID[:8])
	if err != nil || id != bad.ID {
		t.Fatalf("the damaged item is not found to remove: %q, %v", id, err)
	}
	third, tsrc := testItem(3)
	if err := w.Add(third, tsrc); err != nil {
		t.Fatalf("add after setting aside: %v", err)
	}
	if err := w.Rebuild(nil); err != nil {
		t.Fatalf("rebuild after setting aside: %v", err)
	}
	if err := w.Remove(bad.ID); err != nil {
		t.Fatalf("remove the damaged item: %v", err)
	}
	if ids, _ := w.SetAsideIDs(); len(ids) != 0 {
		t.Errorf("still set aside after remove: %v", ids)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := indexed(t, dir); !got[good.ID] || !got[third.ID] {
		t.Errorf("the index at the end: %v", got)
	}
}

// An index an older sponge made (other word rules, no version) is remade by
// the next writer, so that `sponge add` (or `sponge reindex`) on an old
// library brings it up to date; a reader refuses it until then.
func TestOldIndexRemade(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, _ := OpenWriter(dir, nil)
	for n := range 5 {
		it, src := testItem(n)
		w.Add(it, src)
	}
	w.Close()
	idx := filepath.Join(dir, "index")
	os.RemoveAll(idx)
	old, err := bleve.New(idx, bleve.NewIndexMapping())
	if err != nil {
		t.Fatal(err)
	}
	old.Close()
	if _, err := index.Open(idx); !fault.Is(err, fault.IndexBroken) {
		t.Fatalf("reading an old index: %v", err)
	}
	w, err = OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if got := indexed(t, dir); len(got) != 5 {
		t.Fatalf("remade index has %d items, want 5", len(got))
	}
}

// segments is how many segments the index at dir is made of.
func segments(t *testing.T, dir string) int {
	t.Helper()
	x, err := index.Open(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	return x.Segments()
}

// TestCloseMergesSegments checks that a writer that put batches in the
// index leaves it in no more segments than it should, with every item still
// found. bleve's own merges keep a few segments of small batches, so the
// test lowers the most to one.
func TestCloseMergesSegments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.compactAbove = 1
	ids, _ := addBatches(t, w, dir, 24)
	if n := segments(t, dir); n <= 1 {
		t.Fatalf("24 batches made %d segments: the test needs more than 1", n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := segments(t, dir); n > 1 {
		t.Errorf("%d segments after Close, want 1", n)
	}
	allIndexed(t, dir, ids)
}

// TestCloseKeepsBigSegments checks that Close brings the segments down to
// compactAbove by merging the small ones, not the whole index: the segment
// of a big first batch is kept as it was.
func TestCloseKeepsBigSegments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.compactAbove = 3
	w.mergeAbove = 100
	var ids []string
	for k := range 40 {
		it, src := testItem(1000 + k)
		ids = append(ids, it.ID)
		if err := w.Add(it, src); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	big, _ := filepath.Glob(filepath.Join(dir, "index", "store", "*.zap"))
	if len(big) != 1 {
		t.Fatalf("the first batch made %d segments, want 1", len(big))
	}
	more, _ := addBatches(t, w, dir, 6)
	ids = append(ids, more...)
	if n := segments(t, dir); n != 7 {
		t.Fatalf("%d segments before Close, want 7", n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := segments(t, dir); n != 3 {
		t.Errorf("%d segments after Close, want 3", n)
	}
	if _, err := os.Stat(big[0]); err != nil {
		t.Errorf("the big first segment was merged: %v", err)
	}
	allIndexed(t, dir, ids)
}

// TestMergeBesideNextBatch checks that a batch that leaves more than
// mergeAbove segments does not wait for their merge: the index stays open
// for the next batch while the merge runs, Flush waits for it and closes
// the index, and every item is found.
func TestMergeBesideNextBatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.mergeAbove = 100
	w.compactAbove = 100
	ids, _ := addBatches(t, w, dir, 4)
	started, release := make(chan bool), make(chan bool)
	w.merge = func(x *index.Index) error {
		started <- true
		<-release
		return x.Merge()
	}
	w.mergeAbove = 3
	it, src := testItem(100)
	ids = append(ids, it.ID)
	if err := w.Add(it, src); err != nil {
		t.Fatal(err)
	}
	flushed := make(chan error, 1)
	go func() { flushed <- w.flush() }() // the test holds w.flushing's place
	<-started
	select {
	case err := <-flushed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute): // a hang, not a measure: the merge is held until released
		t.Fatal("the batch waited for the merge it began")
	}
	if w.merging == nil {
		t.Fatal("the index was closed with its merge running")
	}
	it, src = testItem(101)
	ids = append(ids, it.ID)
	if err := w.Save(it, src); err != nil {
		t.Fatal(err)
	}
	if err := w.Queue(it); err != nil {
		t.Fatal(err)
	}
	release <- true
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if w.merging != nil {
		t.Error("Flush left the index open")
	}
	if n := segments(t, dir); n > 3 {
		t.Errorf("%d segments after the merge, want at most 3", n)
	}
	// A merge no batch follows closes the index itself.
	w.mergeAbove = 100
	more, _ := addBatches(t, w, dir, 3)
	ids = append(ids, more...)
	w.mergeAbove = 3
	it, src = testItem(102)
	ids = append(ids, it.ID)
	if err := w.Add(it, src); err != nil {
		t.Fatal(err)
	}
	go func() { flushed <- w.flush() }()
	<-started
	if err := <-flushed; err != nil {
		t.Fatal(err)
	}
	release <- true
	for wait := time.Now(); ; time.Sleep(time.Millisecond) {
		w.mu.Lock()
		open := w.merging != nil
		w.mu.Unlock()
		if !open {
			break
		}
		if time.Since(wait) > time.Minute { // a hang, not a measure
			t.Fatal("the index stayed open after its merge, with no batch to follow")
		}
	}
	if n := segments(t, dir); n > 3 { // a reader opens the index
		t.Errorf("%d segments after the merge, want at most 3", n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	allIndexed(t, dir, ids)
}

// addBatches adds n test items to w, each in a batch of its own, and
// returns their ids and the most segments the index at dir had after a batch.
func addBatches(t *testing.T, w *Writer, dir string, n int) (ids []string, most int) {
	t.Helper()
	for k := range n {
		it, src := testItem(k)
		ids = append(ids, it.ID)
		if err := w.Add(it, src); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		most = max(most, segments(t, dir))
	}
	return ids, most
}

// allIndexed checks that the index at dir finds every item of ids.
func allIndexed(t *testing.T, dir string, ids []string) {
	t.Helper()
	got := indexed(t, dir)
	for _, id := range ids {
		if !got[id] {
			t.Errorf("item %s is not found after the merges", id[:8])
		}
	}
}

// TestBatchesMerge checks that a writer merges the index's segments once a
// batch leaves more than mergeAbove (the index merges only when asked), and
// that every item is still found.
func TestBatchesMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.mergeAbove = 3
	w.compactAbove = 100
	ids, most := addBatches(t, w, dir, 16)
	if most > 3 {
		t.Errorf("batches left up to %d segments, want at most 3", most)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	allIndexed(t, dir, ids)
}

// An open writer holds the process's memory limit to writerMemory, unless
// any limit is set already (a lower one, or the person's GOMEMLIMIT, which
// the runtime read at start), and the writer that set it gives back the
// limit that was there before when it closes (once).
func TestWriterLimitsMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	for _, c := range []struct {
		start, want int64
	}{{math.MaxInt64, writerMemory}, {100 << 20, 100 << 20}, {1 << 30, 1 << 30}} {
		start, want := c.start, c.want
		debug.SetMemoryLimit(start)
		a, err := OpenWriter(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := OpenWriter(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := limit(); got != want {
			t.Errorf("from %d: limit %d with two writers open, want %d", start, got, want)
		}
		b.Close()
		if got := limit(); got != want {
			t.Errorf("from %d: limit %d with the first writer open, want %d", start, got, want)
		}
		a.Close()
		a.Close()
		if got := limit(); got != start {
			t.Errorf("limit %d after the writers closed, want %d as before", got, start)
		}
	}
}

// TestWaitersMakeNoBatch: when the index is slower than the items come, the
// Queues of a batch grown to twice its size wait for the batch in the index;
// the first of them in takes the batch, theirs with it, and the others go
// on without putting the few items queued since in the index as a batch of
// their own. A batch's age counts from its first item, so a batch begun
// just after a long one waits for more items too.
func TestWaitersMakeNoBatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var clock time.Time
	w.mu.Lock()
	w.now = func() time.Time { return clock }
	w.items = 2 // a batch of 2 goes; at 4, Queue waits
	w.mu.Unlock()

	w.flushing.Lock() // a batch is in the index
	var wg sync.WaitGroup
	errs := make(chan error, 5)
	for i := range 5 {
		wg.Go(func() {
			it, src := testItem(i)
			errs <- w.Add(it, src)
		})
	}
	for queued := 0; queued < 5; {
		time.Sleep(time.Millisecond)
		w.mu.Lock()
		queued = len(w.batch)
		w.mu.Unlock()
	}
	// The batch in the index ends after a long while, and the first
	// waiter in takes the five items; it is that flush here.
	tick := func() {
		w.mu.Lock()
		clock = clock.Add(10 * time.Second)
		w.mu.Unlock()
	}
	tick()
	if err := w.flush(); err != nil {
		t.Fatal(err)
	}
	tick()
	last, src := testItem(5)
	if err := w.Add(last, src); err != nil {
		t.Fatal(err)
	}
	w.flushing.Unlock()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	w.flushing.Lock() // any batch a waiter started is done
	w.mu.Lock()
	batches, waiting := w.indexed, len(w.batch)
	w.mu.Unlock()
	w.flushing.Unlock()
	if batches != 1 || waiting != 1 {
		t.Fatalf("%d batches in the index and %d items waiting; want 1 batch (the five) and the last item waiting", batches, waiting)
	}
}
