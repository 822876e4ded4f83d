// Package library is the saved library on disk: the store of items (the
// source of truth), the lock that serialises writers, and where the index
// and models live. Layout under the library folder:
//
//	items/ab/<id>.zst         one file per item: its Meta (a zstd skippable
//	                          frame), where the item's JSON ends (a skippable
//	                          frame, see parts), then one zstd frame of the
//	                          extracted item's JSON (title, source, kind,
//	                          paragraphs) followed by the saved source bytes,
//	                          as they were read. Items saved by older sponges
//	                          have the source in a skippable frame holding a
//	                          compressed frame, then the item's frame: they
//	                          still read (see open)
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
	"hash/crc32"
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
	"golang.org/x/sys/unix"

	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/files"
	"github.com/sponge-library/sponge/internal/base/item"
)

// Library is an open library folder.
type Library struct {
	Dir string

	journalMu sync.Mutex
	journal   *os.File // this writer's pending journal, see MarkPending
}

// errNoDir is a library asked for by no folder: the front end resolves the
// folder (settings.Environ.Library) and hands it down; nothing here
// guesses one.
func errNoDir() error {
	return fault.New(fault.Failed, "no library folder was given")
}

// Open opens an existing library for reading. A missing library is an error
// with a hint to add something first.
func Open(dir string) (*Library, error) {
	if dir == "" {
		return nil, errNoDir()
	}
	st, err := os.Stat(filepath.Join(dir, "items"))
	if err != nil || !st.IsDir() {
		return nil, fault.New(fault.NoLibrary, "no library at %s", dir)
	}
	return &Library{Dir: dir}, nil
}

// Create opens the library at dir for writing, making it if needed.
func Create(dir string) (*Library, error) {
	if dir == "" {
		return nil, errNoDir()
	}
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

// The decoder is made when first used: a list reads no item.
var decoder = sync.OnceValue(func() *zstd.Decoder {
	d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0)))
	return d
})

// castagnoli is the CRC-32C table: the item's JSON is read without the
// rest of its frame, so without the frame's checksum; parts keeps its own.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

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
	raw, err := frames.itemJSON(id)
	if err != nil {
		return nil, err
	}
	var it item.Item
	if err := json.Unmarshal(raw, &it); err != nil {
		return nil, fault.New(fault.Damaged, "item %s is damaged: %v", item.Short(id), err)
	}
	decodeItemSources(&it)
	return &it, nil
}

// decodeItemSources gives an item read from its file the sources it was
// saved with (EncodeSource).
func decodeItemSources(it *item.Item) {
	it.Source, it.Also = DecodeSource(it.Source), decodeSources(it.Also)
}

// Source returns the saved source bytes of an item.
func (l *Library) Source(id string) ([]byte, error) {
	frames, err := l.open(id, readSource)
	if err != nil {
		return nil, err
	}
	defer frames.release()
	return frames.sourceBytes(id)
}

// SourceSize is how many bytes the compressed source takes in the item's
// file (in the one-frame layout: its blocks, the frame's end and checksum).
func (l *Library) SourceSize(id string) (int64, error) {
	frames, err := l.open(id, 0)
	if err != nil {
		return 0, err
	}
	defer frames.release()
	return frames.sourceSize, nil
}

// frames are the parts of an item file that open read: the item frame, the
// source frame (when asked for), and the source's size. Their bytes are
// borrowed: release gives them back once they are decoded. In the one-frame
// layout (joined), item is the frame's head made a frame of the JSON alone
// (see jsonFrame) and source is the whole frame, JSON first.
type frames struct {
	source, item []byte
	sourceSize   int64
	joined       bool
	parts        parts
	bufs         []*files.Buffer
}

// itemJSON decodes the item's JSON.
func (f *frames) itemJSON(id string) ([]byte, error) {
	raw, err := decoder().DecodeAll(f.item, nil)
	if err == nil && f.joined && (len(raw) != int(f.parts.jsonLen) || crc32.Checksum(raw, castagnoli) != f.parts.jsonCRC) {
		err = errors.New("its checksum does not match")
	}
	if err != nil {
		return nil, fault.New(fault.Damaged, "item %s is damaged: %v", item.Short(id), err)
	}
	return raw, nil
}

// sourceBytes decodes the saved source.
func (f *frames) sourceBytes(id string) ([]byte, error) {
	src, err := decoder().DecodeAll(f.source, nil)
	if err == nil && f.joined {
		if len(src) < int(f.parts.jsonLen) {
			err = errors.New("it is cut short")
		} else {
			src = src[f.parts.jsonLen:]
		}
	}
	if err != nil {
		return nil, fault.New(fault.Damaged, "the source of item %s is damaged: %v", item.Short(id), err)
	}
	return src, nil
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
	// The Meta, then the source's frame (items saved before the one-frame
	// layout) or where the JSON ends in the item's frame.
	off := int64(0)
	var second uint32
	for i := range 2 {
		if size-off < 8 {
			return nil, damaged("not an item file")
		}
		h, err := readAt(8, off)
		if err != nil {
			return nil, err
		}
		magic := binary.LittleEndian.Uint32(h)
		if i == 1 && magic > partsMagic && magic <= lastMagic {
			// A frame of a layout to come: not damage, and not to be set
			// aside by a rebuild of an older sponge's index.
			f.release()
			return nil, fault.New(fault.Failed, "item %s was saved by a newer sponge, in a layout this one does not read: update sponge", item.Short(id))
		}
		if i == 0 && magic != metaMagic || i == 1 && magic != sourceMagic && magic != partsMagic {
			return nil, damaged("not an item file")
		}
		n := int64(binary.LittleEndian.Uint32(h[4:8]))
		if size-off-8 < n {
			return nil, damaged("cut short")
		}
		switch magic {
		case sourceMagic:
			f.sourceSize = n
			if want&readSource != 0 {
				if f.source, err = readAt(n, off+8); err != nil {
					return nil, err
				}
			}
		case partsMagic:
			if n < partsSize {
				return nil, damaged("not an item file")
			}
			p, err := readAt(partsSize, off+8)
			if err != nil {
				return nil, err
			}
			f.parts = readParts(p)
		}
		second = magic
		off += 8 + n
	}
	if second == sourceMagic {
		if want&readItem != 0 {
			if f.item, err = readAt(size-off, off); err != nil {
				return nil, err
			}
		}
		return f, nil
	}
	f.joined = true
	p := f.parts
	switch {
	case size-off < int64(p.frameLen):
		return nil, damaged("cut short")
	case size-off > int64(p.frameLen) || p.jsonEnd > p.frameLen:
		return nil, damaged("not an item file")
	}
	f.sourceSize = int64(p.frameLen - p.jsonEnd)
	if want&readSource != 0 {
		if f.source, err = readAt(int64(p.frameLen), off); err != nil {
			return nil, err
		}
	}
	if want&readItem != 0 {
		head, err := readAt(int64(p.jsonEnd), off)
		if err != nil {
			return nil, err
		}
		if want&readSource != 0 {
			// jsonFrame writes over the frame's head.
			if head, err = borrow(int64(p.jsonEnd), off); err != nil {
				return nil, err
			}
		}
		var why string
		if f.item, why = jsonFrame(head, p.jsonLen); why != "" {
			return nil, damaged(why)
		}
	}
	return f, nil
}

// Put saves an item and its source bytes in one file, written to a
// temporary file and renamed, so a reader sees all of it or none. The file
// starts with the item's Meta in a zstd skippable frame, so a list of
// thousands of items reads a few hundred bytes of each; then where the
// item's JSON ends (parts), then one zstd frame of the JSON and the source:
// the source compresses against the JSON, whose text it repeats, and
// reading the item decodes the JSON's blocks only. One file per item,
// because creating files is most of what saving costs. Put does not wait
// for the disk: Sync does, once for a whole batch (see Writer.Flush). It is
// safe to call from several goroutines.
func (l *Library) Put(it *item.Item, source []byte) error {
	if !item.IsID(it.ID) {
		return fault.New(fault.BadID, "%q is not a full item id (64 hex digits)", it.ID)
	}
	enc := *it
	enc.Source, enc.Also = EncodeSource(it.Source), encodeSources(it.Also)
	it = &enc
	meta, err := json.Marshal(MetaOf(it))
	if err != nil {
		return err
	}
	size := 256
	for i := range it.Paragraphs {
		size += 32 + len(it.Paragraphs[i].Text) + len(it.Paragraphs[i].Heading)
	}
	// The item's JSON and the file are made in lent buffers (files.Borrow):
	// an add saves thousands of items, and each fresh buffer was garbage to
	// collect.
	raw := files.Borrow(size + size/16)
	defer raw.Return()
	if raw.B, err = appendItemJSON(raw.B[:0], it); err != nil {
		return err
	}
	out := files.Borrow(64 + len(meta) + len(raw.B)/3 + len(source)/8)
	defer out.Return()
	w := takeItemWriter()
	defer w.give()
	if out.B, err = w.file(out.B[:0], meta, raw.B, source); err != nil {
		return err
	}
	return writeAtomic(l.itemPath(it.ID), out.B)
}

// An itemWriter compresses item files, one at a time: a zstd stream
// encoder with one goroutine, and the file it appends to. Making one costs
// its tables (a few hundred KB), so they are kept for the next Put, not
// left to the GC as a sync.Pool would between two collections.
type itemWriter struct {
	e *zstd.Encoder
	b []byte
}

var itemWriters struct {
	sync.Mutex
	free []*itemWriter
}

func takeItemWriter() *itemWriter {
	itemWriters.Lock()
	defer itemWriters.Unlock()
	if n := len(itemWriters.free); n > 0 {
		w := itemWriters.free[n-1]
		itemWriters.free = itemWriters.free[:n-1]
		return w
	}
	e, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	return &itemWriter{e: e}
}

func (w *itemWriter) give() {
	w.b = nil
	itemWriters.Lock()
	itemWriters.free = append(itemWriters.free, w)
	itemWriters.Unlock()
}

func (w *itemWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// file appends to dst the item file of meta, the item's JSON and its
// source. The JSON is flushed before the source is written, which ends a
// block there: a reader of the item decodes up to that block's end.
func (w *itemWriter) file(dst, meta, json, source []byte) ([]byte, error) {
	dst = skippable(dst, metaMagic, meta)
	at := len(dst)
	var p [partsSize]byte
	w.b = skippable(dst, partsMagic, p[:]) // set once the frame is made
	frame := len(w.b)
	w.e.ResetContentSize(w, int64(len(json)+len(source)))
	_, err := w.e.Write(json)
	if err == nil {
		err = w.e.Flush()
	}
	jsonEnd := len(w.b) - frame
	if err == nil {
		_, err = w.e.Write(source)
	}
	if err == nil {
		err = w.e.Close()
	}
	dst = w.b
	if err != nil {
		return dst, err
	}
	frameLen := len(dst) - frame
	if uint64(frameLen) > 1<<32-1 || uint64(len(json)) > 1<<32-1 {
		return dst, fmt.Errorf("the item is too large to save (%d bytes compressed)", frameLen)
	}
	parts{jsonLen: uint32(len(json)), jsonEnd: uint32(jsonEnd), frameLen: uint32(frameLen), jsonCRC: crc32.Checksum(json, castagnoli)}.put(dst[at+8:])
	return dst, nil
}

// Magic numbers of the zstd skippable frames of an item file (the first
// three of the sixteen zstd sets aside): the Meta, the source in its own
// frame (items saved before the one-frame layout), and parts.
const (
	metaMagic   = 0x184D2A50
	sourceMagic = 0x184D2A51
	partsMagic  = 0x184D2A52
	// lastMagic is the last of zstd's skippable frames: one after
	// partsMagic in an item file's second place is of a layout to come.
	lastMagic = 0x184D2A5F
)

// parts says where the item's JSON ends in the zstd frame that follows
// it: the JSON's length, the bytes of the frame's header and of the blocks
// that hold the JSON, the whole frame's length (a file cut short is seen
// before decoding), and the JSON's CRC-32C. Little-endian uint32s.
type parts struct {
	jsonLen, jsonEnd, frameLen, jsonCRC uint32
}

const partsSize = 16

func (p parts) put(b []byte) {
	binary.LittleEndian.PutUint32(b[0:], p.jsonLen)
	binary.LittleEndian.PutUint32(b[4:], p.jsonEnd)
	binary.LittleEndian.PutUint32(b[8:], p.frameLen)
	binary.LittleEndian.PutUint32(b[12:], p.jsonCRC)
}

func readParts(b []byte) parts {
	return parts{jsonLen: binary.LittleEndian.Uint32(b[0:]), jsonEnd: binary.LittleEndian.Uint32(b[4:]),
		frameLen: binary.LittleEndian.Uint32(b[8:]), jsonCRC: binary.LittleEndian.Uint32(b[12:])}
}

// jsonFrame makes the head of an item's frame, its header and the blocks
// of the item's JSON (jsonLen bytes), a zstd frame of its own, in place:
// the JSON's last block is marked the last, and the header is replaced by
// one of a single segment of jsonLen bytes without a checksum (the frame's
// checksum is of the source too: parts keeps the JSON's). why says what is
// wrong with a head that is not such.
func jsonFrame(b []byte, jsonLen uint32) (frame []byte, why string) {
	const frameMagic = 0xFD2FB528
	if len(b) < 6 || binary.LittleEndian.Uint32(b) != frameMagic {
		return nil, "not an item file"
	}
	fhd := b[4]
	single := fhd&(1<<5) != 0
	n := 5 + [4]int{0, 1, 2, 4}[fhd&3] + [4]int{0, 2, 4, 8}[fhd>>6]
	if !single {
		n++ // the window's size
	} else if fhd>>6 == 0 {
		n++ // a content size of one byte
	}
	last := -1
	for at := n; at < len(b); {
		if at+3 > len(b) {
			return nil, "its item's blocks are cut"
		}
		h := uint32(b[at]) | uint32(b[at+1])<<8 | uint32(b[at+2])<<16
		size := int(h >> 3)
		switch h >> 1 & 3 {
		case 1: // one byte repeated
			size = 1
		case 3:
			return nil, "a block of an unknown type"
		}
		if h&1 != 0 {
			return nil, "its item's blocks end its frame"
		}
		last = at
		at += 3 + size
		if at > len(b) {
			return nil, "its item's blocks are cut"
		}
	}
	if last < 0 {
		return nil, "its item has no blocks"
	}
	b[last] |= 1
	// A header of one segment of jsonLen bytes: the content size in 1,
	// 2 (less 256) or 4 bytes.
	var h [9]byte
	binary.LittleEndian.PutUint32(h[:], frameMagic)
	hl := 6
	switch {
	case jsonLen < 256:
		h[4] = 0<<6 | 1<<5
		h[5] = byte(jsonLen)
	case jsonLen < 65536+256:
		h[4] = 1<<6 | 1<<5
		binary.LittleEndian.PutUint16(h[5:], uint16(jsonLen-256))
		hl = 7
	default:
		h[4] = 2<<6 | 1<<5
		binary.LittleEndian.PutUint32(h[5:], jsonLen)
		hl = 9
	}
	if hl > n {
		return nil, "its frame's header is too short"
	}
	copy(b[n-hl:], h[:hl])
	return b[n-hl:], ""
}

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
							m.Source, m.Also = DecodeSource(m.Source), decodeSources(m.Also)
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

// tmpPrefix starts the name of writeAtomic's temporary files, which a
// killed writer leaves behind (removeLeftovers).
const tmpPrefix = ".tmp-"

// writeAtomic writes data to path through a temporary file and a rename.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := files.CreateTemp(dir, tmpPrefix)
	if errors.Is(err, fs.ErrNotExist) {
		// The folder is made when first needed: looking for it before
		// each file cost a system call per item.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		f, err = files.CreateTemp(dir, tmpPrefix)
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
