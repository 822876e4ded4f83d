package vectors

import (
	"container/heap"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Store is a vector store open for searching. The data file is mapped into
// memory, so opening costs nothing and the operating system's page cache
// keeps it between searches.
type Store struct {
	Dir     string
	model   Model
	data    []byte // the mapping, header included
	records int    // records that belong to an entry
	entries []entry

	indexOnce sync.Once
	index     map[[32]byte]int
}

// Open opens the store in dir for searching. Without a store it returns an
// error wrapping ErrNotBuilt.
func Open(dir string) (*Store, error) {
	m, err := readModel(dir)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, dataFile))
	if err != nil {
		return nil, fmt.Errorf("cannot open the paragraph vectors: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	s := &Store{Dir: dir, model: m}
	rb := int64(RecordBytes(m.Dims))
	if st.Size() < headerLen {
		return s, nil
	}
	avail := uint64((st.Size() - headerLen) / rb)
	es, err := readEntries(dir, avail)
	if err != nil {
		return nil, err
	}
	s.entries = es
	if len(es) > 0 {
		s.records = int(es[len(es)-1].end())
	}
	size := headerLen + int64(s.records)*rb
	if s.records == 0 {
		return s, nil
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("cannot map the paragraph vectors: %w", err)
	}
	if string(data[:8]) != magic || int(binary.LittleEndian.Uint32(data[8:])) != m.Dims {
		unix.Munmap(data)
		return nil, fmt.Errorf("%s is damaged (its header is not sponge's)", filepath.Join(dir, dataFile))
	}
	// The whole file is read at every search: ask for it ahead.
	unix.Madvise(data, unix.MADV_WILLNEED)
	s.data = data
	return s, nil
}

// Close unmaps the data.
func (s *Store) Close() error {
	if s.data != nil {
		err := unix.Munmap(s.data)
		s.data = nil
		return err
	}
	return nil
}

// Model is the model the vectors were made with.
func (s *Store) Model() Model { return s.model }

// Check returns an *OtherModelError unless the store was made by m.
func (s *Store) Check(m Model) error {
	if !s.model.Same(m) {
		return &OtherModelError{Dir: s.Dir, Have: s.model, Want: m}
	}
	return nil
}

// Paragraphs is how many paragraph vectors the store holds.
func (s *Store) Paragraphs() int { return s.records }

// Items is how many items have been embedded.
func (s *Store) Items() int { return len(s.entries) }

// Has reports whether the item has been embedded.
func (s *Store) Has(id string) bool {
	_, ok := s.lookup(id)
	return ok
}

// Match is a paragraph close in meaning to a question.
type Match struct {
	ItemID    string
	Paragraph int
	// Score is the cosine similarity of the paragraph and the question, as
	// far as int8 vectors tell it (within about 0.01).
	Score float32
}

// record returns the scale and vector of record i.
func (s *Store) record(i int) (float32, []int8) {
	rb := RecordBytes(s.model.Dims)
	off := headerLen + i*rb
	scale := math.Float32frombits(binary.LittleEndian.Uint32(s.data[off:]))
	vec := unsafe.Slice((*int8)(unsafe.Pointer(&s.data[off+4])), s.model.Dims)
	return scale, vec
}

// Search returns the k paragraphs closest to q (a unit vector of the
// store's dimensions), best first: an exact search over every paragraph,
// on all cores.
func (s *Store) Search(q []float32, k int) ([]Match, error) {
	if len(q) != s.model.Dims {
		return nil, fmt.Errorf("the question's vector has %d dimensions, the paragraphs' %d", len(q), s.model.Dims)
	}
	if k <= 0 || s.records == 0 {
		return nil, nil
	}
	q8 := make([]int8, len(q))
	qs := Quantize(q, q8)
	workers := min(runtime.GOMAXPROCS(0), max(1, s.records/20000))
	parts := make([]topK, workers)
	var wg sync.WaitGroup
	per := (s.records + workers - 1) / workers
	for w := range workers {
		lo, hi := w*per, min(s.records, (w+1)*per)
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := topK{k: k}
			for i := lo; i < hi; i++ {
				scale, vec := s.record(i)
				sc := scale * float32(dotInt8(q8, vec))
				if len(t.h) < k || sc > t.h[0].score {
					t.push(scored{i, sc})
				}
			}
			parts[w] = t
		}()
	}
	wg.Wait()
	var all []scored
	for _, p := range parts {
		all = append(all, p.h...)
	}
	sort.Slice(all, func(a, b int) bool {
		if all[a].score != all[b].score {
			return all[a].score > all[b].score
		}
		return all[a].rec < all[b].rec
	})
	if len(all) > k {
		all = all[:k]
	}
	out := make([]Match, 0, len(all))
	for _, sc := range all {
		e := s.entryOf(sc.rec)
		if e.id == ([32]byte{}) {
			continue // forgotten: the item was removed (Forget)
		}
		out = append(out, Match{ItemID: hex.EncodeToString(e.id[:]), Paragraph: sc.rec - int(e.first), Score: sc.score * qs})
	}
	return out, nil
}

// entryOf finds the item a record belongs to (entries are in record order).
func (s *Store) entryOf(rec int) entry {
	i := sort.Search(len(s.entries), func(i int) bool { return s.entries[i].end() > uint64(rec) })
	return s.entries[i]
}

type scored struct {
	rec   int
	score float32
}

// topK keeps the k best scores in a min-heap.
type topK struct {
	k int
	h scoreHeap
}

func (t *topK) push(s scored) {
	if len(t.h) < t.k {
		heap.Push(&t.h, s)
		return
	}
	t.h[0] = s
	heap.Fix(&t.h, 0)
}

type scoreHeap []scored

func (h scoreHeap) Len() int           { return len(h) }
func (h scoreHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h scoreHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *scoreHeap) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *scoreHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// lookup finds an item's entry.
func (s *Store) lookup(id string) (entry, bool) {
	k, err := parseID(id)
	if err != nil {
		return entry{}, false
	}
	s.indexOnce.Do(func() {
		s.index = make(map[[32]byte]int, len(s.entries))
		for i, e := range s.entries {
			if _, dup := s.index[e.id]; !dup {
				s.index[e.id] = i
			}
		}
	})
	i, ok := s.index[k]
	if !ok {
		return entry{}, false
	}
	return s.entries[i], true
}

// recordBytes returns the raw records of an entry.
func (s *Store) recordBytes(e entry) []byte {
	rb := RecordBytes(s.model.Dims)
	return s.data[headerLen+int(e.first)*rb : headerLen+int(e.end())*rb]
}
