package mcp

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

func testLibrary(t *testing.T, words ...string) *library.Library {
	t.Helper()
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, word := range words {
		addNote(t, w, word)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Library
}

func addNote(t *testing.T, w *ingest.Writer, word string) {
	t.Helper()
	if err := w.Add(note(word)); err != nil {
		t.Fatal(err)
	}
}

func note(word string) (*item.Item, []byte) {
	src := []byte("a note about " + word)
	return &item.Item{ID: library.ItemID(src), Title: "About " + word, Kind: item.KindText, Paragraphs: []item.Paragraph{{Text: string(src)}}}, src
}

func holder(lib *library.Library, idle time.Duration) *indexes {
	return newIndexes(lib.IndexDir(), filepath.Join(lib.Dir, "lock"), idle)
}

func count(t *testing.T, h *indexes, word string) int {
	t.Helper()
	x, release, err := h.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	hits, err := x.Search(word, 20)
	if err != nil {
		t.Fatal(err)
	}
	return len(hits)
}

// Calls share one open index; after a pause it is let go.
func TestIndexKeptBetweenCalls(t *testing.T) {
	lib := testLibrary(t, "otters", "badgers")
	h := holder(lib, 150*time.Millisecond)
	defer h.close()
	for range 5 {
		if n := count(t, h, "otters"); n != 1 {
			t.Fatalf("found %d items", n)
		}
	}
	if held, opens := h.held(); !held || opens != 1 {
		t.Errorf("after 5 calls: held %v, %d opens; want held, 1 open", held, opens)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if held, _ := h.held(); !held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the index is still held long after the idle time")
		}
		time.Sleep(20 * time.Millisecond)
	}
	count(t, h, "otters")
	if _, opens := h.held(); opens != 2 {
		t.Errorf("after the pause: %d opens, want 2", opens)
	}
}

// A reindex swaps in a new index folder without waiting for readers; the
// next call sees it.
func TestIndexReopenedAfterReindex(t *testing.T) {
	lib := testLibrary(t, "otters")
	h := holder(lib, time.Hour)
	defer h.close()
	if n := count(t, h, "otters"); n != 1 {
		t.Fatalf("found %d", n)
	}
	w, err := ingest.OpenWriter(lib.Dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Rebuild(nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := count(t, h, "otters"); n != 1 {
		t.Fatalf("after the reindex: found %d", n)
	}
	if _, opens := h.held(); opens != 2 {
		t.Errorf("%d opens, want 2: the swapped-in index was not noticed", opens)
	}
}

// While a writer holds the library, each call opens the index for itself
// and closes it, so the writer's batches wait for one call at most; a
// writer that starts while the index is kept waits for the next call or the
// idle time, and its items are found at once after.
func TestIndexLetGoForWriters(t *testing.T) {
	lib := testLibrary(t, "otters")
	h := holder(lib, time.Hour) // only a call can let go of the index here
	defer h.close()
	count(t, h, "otters")

	added := make(chan error, 1)
	w, err := ingest.OpenWriter(lib.Dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		if err := w.Add(note("badgers")); err != nil {
			added <- err
			return
		}
		added <- w.Close() // blocks on the index until the holder lets go
	}()
	select {
	case err := <-added:
		t.Fatalf("the writer finished while the index was held (%v): the test shows nothing", err)
	case <-time.After(300 * time.Millisecond):
	}
	// The next call sees the writer and lets go.
	count(t, h, "otters")
	select {
	case err := <-added:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the writer is still waiting after a call")
	}
	if n := count(t, h, "badgers"); n != 1 {
		t.Errorf("the new item is not found (%d)", n)
	}

	// With the writer lock held, calls do not keep the index.
	lock, err := lib.Lock(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, before := h.held()
	count(t, h, "otters")
	count(t, h, "otters")
	if held, opens := h.held(); held || opens != before+2 {
		t.Errorf("with a writer at work: held %v, %d opens (before %d)", held, opens, before)
	}
	lock.Unlock()
	count(t, h, "otters")
	count(t, h, "otters")
	if held, opens := h.held(); !held || opens != before+3 {
		t.Errorf("after the writer: held %v, %d opens (before %d)", held, opens, before)
	}
}

// Many calls at once share the index safely (run with -race).
func TestIndexConcurrentCalls(t *testing.T) {
	lib := testLibrary(t, "otters", "badgers", "herons")
	h := holder(lib, 5*time.Millisecond)
	defer h.close()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 40 {
				x, release, err := h.acquire()
				if err != nil {
					errs <- err
					return
				}
				hits, err := x.Search([]string{"otters", "badgers", "herons"}[(g+i)%3], 5)
				release()
				if err != nil || len(hits) != 1 {
					errs <- fmt.Errorf("search: %v, %d hits", err, len(hits))
					return
				}
				if i%10 == 0 {
					time.Sleep(10 * time.Millisecond) // let the idle timer fire now and then
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
