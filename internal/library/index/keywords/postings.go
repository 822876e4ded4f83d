package keywords

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/files"
	"github.com/sponge-library/sponge/internal/base/item"
)

// Paragraph postings: what ranking the paragraphs of an item needs, worked
// out once when the item is indexed, so that sponge-rank reads only the
// paragraphs that hold the question's words instead of analysing every
// paragraph of every item search picked (a page of 16,000 paragraphs took
// most of a question's time). A paragraph's words are counted as rank counts
// them (ScanWords, then Terms of each word), so postings and reading give
// the same passages.
//
// One file per item of PostingsFrom bytes of text or more, postings/ab/<id>
// in the index folder, made and removed with the item's index documents
// (index.Batch.Commit, index.Index.Remove) and rebuilt with the index (sponge reindex). The words are those of Terms over a
// paragraph's heading and text, as rank counts them. Stop words are left out:
// they are never question terms unless a question has nothing else, and rank
// then reads the paragraphs. The file starts with a fingerprint of the
// analyzer, so postings made by another analyzer are not used.
//
// Layout (unsigned varints):
//
//	"SPP1" fingerprint(8 bytes, little-endian)
//	paragraphs words  words of each paragraph…
//	terms  then per term, in byte order: len term count byteLen (paragraph delta, tf)…
const postingsMagic = "SPP1"

// postingsDir is where an index keeps its postings.
func postingsDir(indexDir string) string { return filepath.Join(indexDir, "postings") }

func postingsPath(indexDir, id string) string {
	return filepath.Join(postingsDir(indexDir), id[:2], id)
}

var (
	fingerprintOnce sync.Once
	fingerprint     uint64
)

// fingerprintProbe is a text that touches each rule of the analyzer but
// the Thai word list: cutting Thai reads the whole list (tens of
// milliseconds), which every sponge-rank would pay for a fingerprint.
// The list is in the fingerprint by its name and size (AnalyzerVersion).
const fingerprintProbe = "The Cat's studies: running, flies and boxes; e.g. 3.5 and 1,000 abi_testing " +
	"l'été Straße ÉCOLE 東京都の人口 한국어 문장 x86-64 naïve"

// analyzerFingerprint is a hash of what Terms makes of a text that touches
// each of its rules: a change to the analyzer changes it, and postings made
// before the change are passed over until sponge reindex.
func analyzerFingerprint() uint64 {
	fingerprintOnce.Do(func() {
		h := fnv.New64a()
		for _, t := range Terms(fingerprintProbe) {
			h.Write([]byte(t))
			h.Write([]byte{0})
		}
		h.Write([]byte("words: ScanWords (WordLetter: letters, every mark, joiners), then Terms of each; a spaceless run counts its terms; "))
		h.Write([]byte(AnalyzerVersion()))
		for _, w := range []string{"the", "what", "how"} {
			if StopWords[w] {
				h.Write([]byte(w))
			}
		}
		fingerprint = h.Sum64()
	})
	return fingerprint
}

// wordTerms is what a word adds to a paragraph's postings: the words it
// counts as, and its terms that are not stop words.
type wordTerms struct {
	words int
	terms []string
}

// paragraphTerms counts the words of a paragraph (its heading and its
// text) as rank counts them (ScanWords), and notes the terms the analyzer
// makes of each in n, through a cache of the words seen: the words of an
// item repeat. A plain word (plainWord: the analyzer's one term for it is the
// word itself) skips the cache.
func paragraphTerms(p *item.Paragraph, cache map[string]wordTerms, n *termNumbers) int {
	words := 0
	count := func(word string) {
		// The word in lower case, in n.lower: strings.ToLower made a
		// string for each word with a capital, most of what postings
		// allocated on real text.
		var lowered bool
		n.lower, lowered = appendLower(n.lower[:0], word)
		w := n.lower
		if plainWord(w) {
			words++
			if lowered {
				n.addPlain(w, "")
			} else {
				n.addPlain(w, word)
			}
			return
		}
		wt, ok := cache[string(w)]
		if !ok {
			ws := string(w) // kept by the cache: not a piece of the paragraph
			terms := Terms(ws)
			wt.words = 1
			if Spaceless(ws) {
				wt.words = len(terms) // a run of Chinese, Japanese or Thai is many words
			}
			for _, t := range terms {
				if !StopWords[t] {
					wt.terms = append(wt.terms, t)
				}
			}
			cache[ws] = wt
		}
		words += wt.words
		for _, t := range wt.terms {
			n.add(t)
		}
	}
	if p.Heading != "" {
		ScanWords(p.Heading, count)
	}
	ScanWords(p.Text, count)
	return words
}

// appendLower appends word in lower case to dst, as strings.ToLower has
// it, and reports whether that changed it.
func appendLower[T string | []byte](dst []byte, word T) ([]byte, bool) {
	for i := 0; i < len(word); i++ {
		if word[i] >= utf8.RuneSelf {
			lower := strings.ToLower(string(word))
			return append(dst, lower...), lower != string(word)
		}
	}
	lowered := false
	for i := 0; i < len(word); i++ {
		c := word[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
			lowered = true
		}
		dst = append(dst, c)
	}
	return dst, lowered
}

// termNumbers numbers the terms of an item as they are met (at, terms) and
// notes each occurrence by its number in the order met (met). A plain word
// that is a stop word is numbered -1, so that the word's one look-up in at
// tells both.
type termNumbers struct {
	at    map[string]int32
	terms []string
	met   []int32
	lower []byte // the word being counted, in lower case
}

// add notes a term that is not a stop word.
func (n *termNumbers) add(t string) {
	k, ok := n.at[t]
	if !ok {
		k = int32(len(n.terms))
		n.at[t] = k
		n.terms = append(n.terms, t)
	}
	n.met = append(n.met, k)
}

// addPlain notes a plain word, its own term, unless it is a stop word;
// same is the word as a string when there is one (a piece of the
// paragraph, kept by at instead of a copy), else "".
func (n *termNumbers) addPlain(w []byte, same string) {
	k, ok := n.at[string(w)]
	if !ok {
		t := same
		if t == "" {
			t = string(w)
		}
		k = -1
		if !StopWords[t] {
			k = int32(len(n.terms))
			n.terms = append(n.terms, t)
		}
		n.at[t] = k
	}
	if k >= 0 {
		n.met = append(n.met, k)
	}
}

// termCacheWords is how many words the terms cache of SavePostings keeps
// before it starts again (about 20 MB): kernel-docs alone has ~76,000
// words that are not plain, and at 32,768 the cache forgot them before
// they came round again.
const termCacheWords = 1 << 17

// postings makes the postings files of SavePostings, which holds
// postingsMu while it uses it. Its terms cache is kept from one batch to
// the next (the words of a library repeat), and so are its slices and maps,
// emptied for each item: made afresh they were an eighth of what an add
// allocated.
var (
	postingsMu sync.Mutex
	postings   = newPostingsMaker()
)

// postingsMaker makes postings files (encode), one item at a time.
type postingsMaker struct {
	cache map[string]wordTerms // the terms of the words seen

	n           termNumbers
	ends, first []int32
	next, order []int32
	lengths     []int
	lists       []posting
	buf, list   []byte
}

type posting struct{ para, tf int32 }

func newPostingsMaker() *postingsMaker {
	return &postingsMaker{cache: map[string]wordTerms{}, n: termNumbers{at: map[string]int32{}}}
}

// keepScratch is the most entries of its slices a postingsMaker keeps for
// the next item: an item of several megabytes of text (a big PDF) would
// otherwise keep some ten times its text after the add is done with it.
const keepScratch = 1 << 20

// encode makes the postings file of an item, in bytes that stay the
// maker's: they are good until the next encode.
func (m *postingsMaker) encode(it *item.Item) []byte {
	// Each term met is numbered and noted in the order met (termNumbers);
	// ends[i] is where paragraph i's terms end in met. The lists are
	// then made from met in one flat slice: a slice per term, grown as its
	// paragraphs came, was most of what postings allocated.
	n := &m.n
	defer m.reset()
	m.ends = resize(m.ends, len(it.Paragraphs))
	m.lengths = resize(m.lengths, len(it.Paragraphs))
	ends, lengths := m.ends, m.lengths
	total := 0
	if len(m.cache) > termCacheWords {
		clear(m.cache)
	}
	for i := range it.Paragraphs {
		lengths[i] = paragraphTerms(&it.Paragraphs[i], m.cache, n)
		total += lengths[i]
		ends[i] = int32(len(n.met))
	}
	terms, met := n.terms, n.met
	// The postings of term k are lists[first[k]:next[k]], in paragraph order:
	// first[k] leaves room for as many as the term was met.
	m.first = resize(m.first, len(terms)+1)
	first := m.first
	clear(first)
	for _, k := range met {
		first[k+1]++
	}
	for k := range terms {
		first[k+1] += first[k]
	}
	m.next = append(m.next[:0], first[:len(terms)]...)
	m.lists = resize(m.lists, len(met))
	next, lists := m.next, m.lists
	from := int32(0)
	for i, end := range ends {
		para := int32(i)
		for _, k := range met[from:end] {
			if n := next[k]; n > first[k] && lists[n-1].para == para {
				lists[n-1].tf++
			} else {
				lists[n] = posting{para, 1}
				next[k]++
			}
		}
		from = end
	}
	m.order = resize(m.order, len(terms))
	order := m.order
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(terms[a], terms[b]) })

	buf := append(m.buf[:0], postingsMagic...)
	buf = binary.LittleEndian.AppendUint64(buf, analyzerFingerprint())
	buf = binary.AppendUvarint(buf, uint64(len(it.Paragraphs)))
	buf = binary.AppendUvarint(buf, uint64(total))
	for _, n := range lengths {
		buf = binary.AppendUvarint(buf, uint64(n))
	}
	buf = binary.AppendUvarint(buf, uint64(len(terms)))
	list := m.list
	for _, k := range order {
		t := terms[k]
		list = list[:0]
		prev := int32(0)
		l := lists[first[k]:next[k]]
		for _, p := range l {
			list = binary.AppendUvarint(list, uint64(p.para-prev))
			list = binary.AppendUvarint(list, uint64(p.tf))
			prev = p.para
		}
		buf = binary.AppendUvarint(buf, uint64(len(t)))
		buf = append(buf, t...)
		buf = binary.AppendUvarint(buf, uint64(len(l)))
		buf = binary.AppendUvarint(buf, uint64(len(list)))
		buf = append(buf, list...)
	}
	m.buf, m.list = buf, list
	return buf
}

// reset empties the maker for the next item, and lets go of what an item
// of many megabytes grew.
func (m *postingsMaker) reset() {
	clear(m.n.at)
	clear(m.n.terms) // pieces of the item's paragraphs: not to be kept
	m.n.terms, m.n.met = m.n.terms[:0], m.n.met[:0]
	if cap(m.n.met) > keepScratch || cap(m.lists) > keepScratch || cap(m.buf) > 8*keepScratch {
		*m = postingsMaker{cache: m.cache, n: termNumbers{at: map[string]int32{}}}
	}
}

// resize returns s with length n, reusing its array when it is big enough;
// the elements are not cleared.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// PostingsFrom is the least paragraph text (in bytes) of an item with
// postings. Ranking reads a smaller item whole in well under a millisecond,
// and most items are small: three quarters of the kernel docs' pages, half
// their text. Leaving them out halves what postings cost sponge add.
const PostingsFrom = 16 << 10

// SavePostings saves the postings of the items big enough to have them,
// and removes any of the others (an item read again may have shrunk).
func SavePostings(indexDir string, items []*item.Item) error {
	postingsMu.Lock()
	defer postingsMu.Unlock()
	for _, it := range items {
		n := 0
		for _, p := range it.Paragraphs {
			n += len(p.Text)
		}
		var err error
		if n >= PostingsFrom {
			err = writePostings(indexDir, it)
		} else {
			err = RemovePostings(indexDir, it.ID)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writePostings saves the postings of an item, through a temporary file and
// a rename, so a reader finds all of them or none.
func writePostings(indexDir string, it *item.Item) error {
	path := postingsPath(indexDir, it.ID)
	tmp := path + ".tmp"
	data := postings.encode(it)
	err := os.WriteFile(tmp, data, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		// The folder is made when first needed (not looked for before
		// each file).
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		err = os.WriteFile(tmp, data, 0o644)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write the postings of item %s: %w", item.Short(it.ID), err)
	}
	return os.Rename(tmp, path)
}

// RemovePostings deletes the postings of an item; none is fine.
func RemovePostings(indexDir, id string) error {
	if !item.IsID(id) {
		return nil
	}
	if err := os.Remove(postingsPath(indexDir, id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Posting is one paragraph that holds a term, and how often.
type Posting struct {
	Paragraph int
	TF        int
}

// ItemPostings is what an item's postings say for the terms of a question.
type ItemPostings struct {
	Paragraphs int                  // how many the item has
	Words      int                  // in all its paragraphs
	Lengths    []int                // words of each paragraph
	Terms      map[string][]Posting // the paragraphs holding each question term, in order
}

// ErrNoPostings says an item has no postings made by this analyzer: an
// index made before they were, or by another analyzer (sponge reindex
// makes them).
var ErrNoPostings = errors.New("no paragraph postings")

// ReadPostings reads the postings of the item id in the index at indexDir
// for terms. A term that is a stop word is not in the postings: the caller
// counts such terms itself (HasPostings says which terms postings answer).
func ReadPostings(indexDir, id string, terms []string) (*ItemPostings, error) {
	if !item.IsID(id) {
		return nil, ErrNoPostings
	}
	// Read with few system calls into a lent buffer: decodePostings
	// copies what it keeps.
	f, err := files.Open(postingsPath(indexDir, id))
	if err != nil {
		return nil, ErrNoPostings
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, ErrNoPostings
	}
	buf := files.Borrow(int(st.Size()))
	defer buf.Return()
	if _, err := f.ReadAt(buf.B, 0); err != nil {
		return nil, ErrNoPostings
	}
	return decodePostings(buf.B, terms)
}

// HasPostings reports whether postings answer for term: stop words are
// left out of them.
func HasPostings(term string) bool { return !StopWords[term] }

var errDamaged = fmt.Errorf("%w: the file is damaged", ErrNoPostings)

func decodePostings(data []byte, terms []string) (*ItemPostings, error) {
	if len(data) < 12 || string(data[:4]) != postingsMagic || binary.LittleEndian.Uint64(data[4:12]) != analyzerFingerprint() {
		return nil, ErrNoPostings
	}
	r := data[12:]
	bad := false
	next := func() int {
		v, n := binary.Uvarint(r)
		if n <= 0 || v > uint64(len(data))*255 {
			bad = true
			r = nil
			return 0
		}
		r = r[n:]
		return int(v)
	}
	p := &ItemPostings{Terms: map[string][]Posting{}}
	p.Paragraphs = next()
	p.Words = next()
	if p.Paragraphs > len(r) {
		return nil, errDamaged
	}
	p.Lengths = make([]int, p.Paragraphs)
	for i := range p.Lengths {
		p.Lengths[i] = next()
	}
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	nterms := next()
	for i := 0; i < nterms && !bad && len(want) > 0; i++ {
		tl := next()
		if tl > len(r) {
			return nil, errDamaged
		}
		t := r[:tl]
		r = r[tl:]
		count := next()
		bl := next()
		if bl > len(r) || bad {
			return nil, errDamaged
		}
		list := r[:bl]
		r = r[bl:]
		if !want[string(t)] {
			continue
		}
		delete(want, string(t))
		ps := make([]Posting, 0, count)
		para := 0
		for range count {
			d, n := binary.Uvarint(list)
			if n <= 0 {
				return nil, errDamaged
			}
			list = list[n:]
			tf, n := binary.Uvarint(list)
			if n <= 0 {
				return nil, errDamaged
			}
			list = list[n:]
			para += int(d)
			if para >= p.Paragraphs {
				return nil, errDamaged
			}
			ps = append(ps, Posting{Paragraph: para, TF: int(tf)})
		}
		p.Terms[string(t)] = ps
	}
	if bad {
		return nil, errDamaged
	}
	return p, nil
}
