// Package library is the saved library on disk: the store of items (the
// source of truth), the lock that serialises writers, and where the index
// and models live. Layout under the library folder:
//
//	items/ab/<id>.zst         one file per item, three zstd frames: its Meta (a
//	                          skippable frame), the saved source bytes, as they
//	                          were read (a skippable frame holding a compressed
//	                          frame), then the extracted item (title, source,
//	                          kind, paragraphs)
//	pending/                  journals of items being added or removed (see Writer)
//	summaries/ab/<id>.json    the checked summary of an item (see PutSummary)
//	index/                    the search index, derived from items/, with
//	                          index/postings/ab/<id>: the paragraph postings
//	                          that rank reads (see keywords.ReadPostings)
//	models/                   models installed before they were shared (see
//	                          internal/model/catalog); still used
//	lock                      held by writers
package library

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/files"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/settings"
	"golang.org/x/sys/unix"
)

// Library is an open library folder.
type Library struct {
	Dir string

	journalMu sync.Mutex
	journal   *os.File // this writer's pending journal, see MarkPending
}

// DefaultDir is the library when no --library is given: $SPONGE_HOME, else
// the config file's library, else $XDG_DATA_HOME/sponge, else
// ~/.local/share/sponge (settings.Resolve). A damaged config file is
// passed over here; the sponge command reports it.
func DefaultDir() string {
	v, err := settings.Resolve("library", "")
	if err != nil {
		if d := os.Getenv("SPONGE_HOME"); d != "" {
			return d
		}
		return settings.DataDir()
	}
	return v.Value
}

// Dir returns dir, or DefaultDir when dir is empty.
func Dir(dir string) string {
	if dir == "" {
		return DefaultDir()
	}
	return dir
}

// Open opens an existing library for reading. A missing library is an error
// with a hint to add something first.
func Open(dir string) (*Library, error) {
	dir = Dir(dir)
	st, err := os.Stat(filepath.Join(dir, "items"))
	if err != nil || !st.IsDir() {
		return nil, fault.New(fault.NoLibrary, "no library at %s", dir)
	}
	return &Library{Dir: dir}, nil
}

// Create opens the library at dir for writing, making it if needed.
func Create(dir string) (*Library, error) {
	dir = Dir(dir)
	for _, sub := range []string{"items", "pending"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fault.New(fault.Failed, "cannot make the library at %s: %v", dir, err)
		}
	}
	return &Library{Dir: dir}, nil
}

// ItemID is the id of an item: the hex SHA-256 of its source bytes. Hashing
// the bytes as saved (not the extracted text) means the same file saved twice
// is found before any extraction, and ids stay the same when a better
// extractor rebuilds the items.
func ItemID(source []byte) string {
	sum := sha256.Sum256(source)
	return hex.EncodeToString(sum[:])
}

// Every caller has checked that id is an id (item.IsID): nothing else may
// become a path.
func (l *Library) itemPath(id string) string {
	return filepath.Join(l.Dir, "items", id[:2], id+".zst")
}

// IndexDir is where the search index lives.
func (l *Library) IndexDir() string { return filepath.Join(l.Dir, "index") }

// encoder and decoder are made when first used, each on its own: a
// question only reads, and making the encoder (its tables for each core)
// cost it about 0.5% of its CPU and a dozen page faults.
var (
	encoder = sync.OnceValue(func() *zstd.Encoder {
		e, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)))
		return e
	})
	decoder = sync.OnceValue(func() *zstd.Decoder {
		d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0)))
		return d
	})
)

// Has reports whether the item is in the store.
func (l *Library) Has(id string) bool {
	if !item.IsID(id) {
		return false
	}
	_, err := os.Stat(l.itemPath(id))
	return err == nil
}

// Item loads an item from the store by its full id.
func (l *Library) Item(id string) (*item.Item, error) {
	frames, err := l.open(id, readItem)
	if err != nil {
		return nil, err
	}
	defer frames.release()
	d := decoder()
	raw, err := d.DecodeAll(frames.item, nil)
	if err != nil {
		return nil, fault.New(fault.Damaged, "item %s is damaged: %v", item.Short(id), err)
	}
	var it item.Item
	if err := json.Unmarshal(raw, &it); err != nil {
		return nil, fault.New(fault.Damaged, "item %s is damaged: %v", item.Short(id), err)
	}
	return &it, nil
}

// Source returns the saved source bytes of an item.
func (l *Library) Source(id string) ([]byte, error) {
	frames, err := l.open(id, readSource)
	if err != nil {
		return nil, err
	}
	defer frames.release()
	d := decoder()
	src, err := d.DecodeAll(frames.source, nil)
	if err != nil {
		return nil, fault.New(fault.Damaged, "the source of item %s is damaged: %v", item.Short(id), err)
	}
	return src, nil
}

// SourceSize is how many bytes the compressed source takes in the item's file.
func (l *Library) SourceSize(id string) (int64, error) {
	frames, err := l.open(id, 0)
	if err != nil {
		return 0, err
	}
	defer frames.release()
	return frames.sourceSize, nil
}

// frames are the parts of an item file that open read: the item frame, the
// source frame (when asked for), and the source frame's size. Their bytes
// are borrowed: release gives them back once they are decoded.
type frames struct {
	source, item []byte
	sourceSize   int64
	bufs         []*files.Buffer
}

func (f *frames) release() {
	for _, b := range f.bufs {
		b.Return()
	}
	f.bufs, f.source, f.item = nil, nil, nil
}

// Which frames open reads.
const (
	readItem = 1 << iota
	readSource
)

// wholeFile is the largest item file open reads in one go; of a larger
// one it reads the head (headRead bytes: the Meta and where the source
// starts), then the frames it wants. Three quarters of the kernel docs'
// item files are under 64 KB.
const (
	wholeFile = 64 << 10
	headRead  = 4 << 10
)

// open reads the parts of an item file that want names: the item (title,
// paragraphs) without the saved source, which is about half the file and
// needed only to read the item again; the source; or neither, for sizes.
// The caller releases the frames once it has decoded them.
func (l *Library) open(id string, want int) (*frames, error) {
	if !item.IsID(id) {
		return nil, fault.New(fault.BadID, "%q is not a full item id (64 hex digits)", id)
	}
	file, err := files.Open(l.itemPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := os.Stat(l.setAsidePath(id)); serr == nil {
			return nil, fault.New(fault.SetAside, "item %s is damaged and set aside in %s", item.Short(id), l.setAsidePath(id))
		}
		return nil, fault.New(fault.NoItem, "no item %s in the library", item.Short(id))
	}
	if err != nil {
		return nil, fault.New(fault.Failed, "cannot read item %s: %v", item.Short(id), err)
	}
	defer file.Close()
	failed := func(err error) error {
		return fault.New(fault.Failed, "cannot read item %s: %v", item.Short(id), err)
	}
	st, err := file.Stat()
	if err != nil {
		return nil, failed(err)
	}
	size := st.Size()
	f := &frames{}
	borrow := func(n, off int64) ([]byte, error) {
		b := files.Borrow(int(n))
		f.bufs = append(f.bufs, b)
		if _, err := file.ReadAt(b.B, off); err != nil {
			f.release()
			return nil, failed(err)
		}
		return b.B, nil
	}
	first := size
	if size > wholeFile {
		first = headRead
	}
	head, err := borrow(first, 0)
	if err != nil {
		return nil, err
	}
	readAt := func(n, off int64) ([]byte, error) {
		if off+n <= int64(len(head)) {
			return head[off : off+n], nil
		}
		return borrow(n, off)
	}
	damaged := func(why string) error {
		f.release()
		return fault.New(fault.Damaged, "item %s is damaged: %s", item.Short(id), why)
	}
	off := int64(0)
	for _, magic := range []uint32{metaMagic, sourceMagic} {
		if size-off < 8 {
			return nil, damaged("not an item file")
		}
		h, err := readAt(8, off)
		if err != nil {
			return nil, err
		}
		if binary.LittleEndian.Uint32(h) != magic {
			return nil, damaged("not an item file")
		}
		n := int64(binary.LittleEndian.Uint32(h[4:8]))
		if size-off-8 < n {
			return nil, damaged("cut short")
		}
		if magic == sourceMagic {
			f.sourceSize = n
			if want&readSource != 0 {
				if f.source, err = readAt(n, off+8); err != nil {
					return nil, err
				}
			}
		}
		off += 8 + n
	}
	if want&readItem != 0 {
		if f.item, err = readAt(size-off, off); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Put saves an item and its source bytes in one file, written to a
// temporary file and renamed, so a reader sees all of it or none. The file
// starts with the item's Meta in a zstd skippable frame, so a list of
// thousands of items reads a few hundred bytes of each; the source follows in
// a second skippable frame, then the item. One file per item, because
// creating files is most of what saving costs. Put does not wait for the
// disk: Sync does, once for a whole batch (see Writer.Flush). It is safe to
// call from several goroutines.
func (l *Library) Put(it *item.Item, source []byte) error {
	if !item.IsID(it.ID) {
		return fault.New(fault.BadID, "%q is not a full item id (64 hex digits)", it.ID)
	}
	e := encoder()
	meta, err := json.Marshal(MetaOf(it))
	if err != nil {
		return err
	}
	size := 256
	for i := range it.Paragraphs {
		size += 32 + len(it.Paragraphs[i].Text) + len(it.Paragraphs[i].Heading)
	}
	// The item's JSON and the file are made in lent buffers (files.Borrow),
	// and the source is compressed straight into its frame: an add saves
	// thousands of items, and each fresh buffer was garbage to collect.
	raw := files.Borrow(size + size/16)
	defer raw.Return()
	if raw.B, err = appendItemJSON(raw.B[:0], it); err != nil {
		return err
	}
	out := files.Borrow(16 + len(meta) + len(source)/3 + len(raw.B)/3)
	defer out.Return()
	data := skippable(out.B[:0], metaMagic, meta)
	at := len(data)
	data = skippable(data, sourceMagic, nil) // its length is set once the source is compressed
	data = e.EncodeAll(source, data)
	n := len(data) - at - 8
	if uint64(n) > 1<<32-1 {
		return fmt.Errorf("the source is too large to save (%d bytes compressed)", n)
	}
	binary.LittleEndian.PutUint32(data[at+4:], uint32(n))
	data = e.EncodeAll(raw.B, data)
	out.B = data
	return writeAtomic(l.itemPath(it.ID), data)
}

// Magic numbers of the zstd skippable frames of an item file (the first two
// of the sixteen zstd sets aside).
const (
	metaMagic   = 0x184D2A50
	sourceMagic = 0x184D2A51
)

func skippable(dst []byte, magic uint32, payload []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, magic)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(payload)))
	return append(dst, payload...)
}

// Delete removes an item (and its source) from the store.
func (l *Library) Delete(id string) error {
	if !item.IsID(id) {
		return fault.New(fault.BadID, "%q is not a full item id (64 hex digits)", id)
	}
	if err := os.Remove(l.itemPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Remove(l.setAsidePath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return l.deleteSummary(id)
}

// Meta is what lists show of an item, kept beside it so a list of thousands
// of items does not decompress them all.
type Meta struct {
	ID         string    `json:"id"`
	Title      string    `json:"title"`
	Source     string    `json:"source"`
	Also       []string  `json:"also,omitempty"`
	Linked     bool      `json:"linked,omitempty"`
	Kind       string    `json:"kind"`
	Added      time.Time `json:"added"`
	Paragraphs int       `json:"paragraphs"`
	Chars      int       `json:"chars"`
	Pages      int       `json:"pages,omitempty"`
	// Text is the item.Fingerprint of its paragraphs, which its summary
	// must match to be shown (empty in items saved before it was kept).
	Fingerprint string `json:"fingerprint,omitempty"`
}

// MetaOf sums up an item.
func MetaOf(it *item.Item) *Meta {
	m := &Meta{ID: it.ID, Title: it.Title, Source: it.Source, Also: it.Also, Linked: it.Linked, Kind: it.Kind, Added: it.Added, Paragraphs: len(it.Paragraphs),
		Fingerprint: item.Fingerprint(it)}
	for _, p := range it.Paragraphs {
		m.Chars += utf8.RuneCountInString(p.Text)
		m.Pages = max(m.Pages, p.Page)
		for _, ps := range p.Pages {
			m.Pages = max(m.Pages, ps.Page)
		}
	}
	return m
}

// Meta reads the summary of an item from the head of its file; an item
// file without one is summed up from the item itself.
func (l *Library) Meta(id string) (*Meta, error) {
	if item.IsID(id) {
		if f, err := files.Open(l.itemPath(id)); err == nil {
			var head [8]byte
			_, err := io.ReadFull(f, head[:])
			if err == nil && binary.LittleEndian.Uint32(head[0:4]) == metaMagic {
				if n := binary.LittleEndian.Uint32(head[4:8]); n < 1<<20 {
					buf := make([]byte, n)
					if _, err := io.ReadFull(f, buf); err == nil {
						var m Meta
						if json.Unmarshal(buf, &m) == nil {
							f.Close()
							return &m, nil
						}
					}
				}
			}
			f.Close()
		}
	}
	it, err := l.Item(id)
	if err != nil {
		return nil, err
	}
	return MetaOf(it), nil
}

// IDs lists the ids of every item in the store, sorted.
func (l *Library) IDs() ([]string, error) {
	var ids []string
	root := filepath.Join(l.Dir, "items")
	shards, err := os.ReadDir(root)
	if err != nil {
		return nil, fault.New(fault.Failed, "cannot read the library at %s: %v", l.Dir, err)
	}
	for _, s := range shards {
		if !s.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, s.Name()))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if id, ok := strings.CutSuffix(f.Name(), ".zst"); ok && len(id) == 64 {
				ids = append(ids, id)
			}
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// Resolve turns an id or a unique prefix of at least 4 hex digits into a full id.
func (l *Library) Resolve(prefix string) (string, error) {
	p := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(prefix), "…"))
	if len(p) < item.MinPrefix {
		return "", fault.New(fault.BadID, "item id %q is too short: give at least %d hex digits", prefix, item.MinPrefix)
	}
	for _, r := range p {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return "", fault.New(fault.BadID, "%q is not an item id (ids are hex digits)", prefix)
		}
	}
	if len(p) == 64 {
		if _, err := os.Stat(l.setAsidePath(p)); l.Has(p) || err == nil {
			return p, nil
		}
		return "", fault.New(fault.NoItem, "no item matches %q", prefix)
	}
	ids, err := l.IDs()
	if err != nil {
		return "", err
	}
	// An item set aside is still found, so that sponge rm can remove it.
	aside, err := l.SetAsideIDs()
	if err != nil {
		return "", err
	}
	ids = append(ids, aside...)
	sort.Strings(ids)
	i := sort.SearchStrings(ids, p)
	var found []string
	for ; i < len(ids) && strings.HasPrefix(ids[i], p); i++ {
		found = append(found, ids[i])
	}
	switch len(found) {
	case 0:
		return "", fault.New(fault.NoItem, "no item matches %q", prefix)
	case 1:
		return found[0], nil
	}
	short := make([]string, len(found))
	for i, id := range found {
		short[i] = id[:min(len(id), len(p)+4)]
	}
	return "", fault.New(fault.Ambiguous, "%q matches %d items: %s", prefix, len(found), strings.Join(short, ", "))
}

// setAsidePath is where a damaged item's file is kept once set aside.
func (l *Library) setAsidePath(id string) string {
	return filepath.Join(l.Dir, "damaged", id+".zst")
}

// SetAside moves the file of a damaged item out of the store, into the
// library's damaged/ folder: the library then works without it (the index
// can be rebuilt, items added), nothing is thrown away, and Delete (sponge
// rm) removes it for good. It returns where the file went.
func (l *Library) SetAside(id string) (string, error) {
	if !item.IsID(id) {
		return "", fault.New(fault.BadID, "%q is not a full item id (64 hex digits)", id)
	}
	dst := l.setAsidePath(id)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", fault.New(fault.Failed, "cannot set item %s aside: %v", item.Short(id), err)
	}
	if err := os.Rename(l.itemPath(id), dst); err != nil {
		return "", fault.New(fault.Failed, "cannot set item %s aside: %v", item.Short(id), err)
	}
	return dst, nil
}

// SetAsideIDs lists the items set aside as damaged.
func (l *Library) SetAsideIDs() ([]string, error) {
	files, err := os.ReadDir(filepath.Join(l.Dir, "damaged"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.New(fault.Failed, "cannot read the library at %s: %v", l.Dir, err)
	}
	var ids []string
	for _, f := range files {
		if id, ok := strings.CutSuffix(f.Name(), ".zst"); ok && item.IsID(id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// Sync waits until everything written to the library's file system is on disk.
func (l *Library) Sync() error {
	d, err := os.Open(l.Dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := unix.Syncfs(int(d.Fd())); err != nil {
		return fmt.Errorf("cannot sync the library to disk: %w", err)
	}
	return nil
}

// writeAtomic writes data to path through a temporary file and a rename.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := files.CreateTemp(dir, ".tmp-")
	if errors.Is(err, fs.ErrNotExist) {
		// The folder is made when first needed: looking for it before
		// each file cost a system call per item.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		f, err = files.CreateTemp(dir, ".tmp-")
	}
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, werr)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
