// Package vectors is the store of paragraph vectors for meaning search, kept
// beside the library's store like the keyword index, and derived from it:
// `sponge reindex` makes it again.
//
// Layout under <library>/vectors/:
//
//	model.json       the model that made the vectors: name, SHA-256, dimensions
//	paragraphs.i8    a 16-byte header, then one record per paragraph: a float32
//	                 scale and the vector as int8 (388 bytes at 384 dimensions)
//	items.bin        one 48-byte entry per item: its id, its first record and
//	                 how many paragraphs it has, in the order they were added
//
// Writers append records, sync them, and only then append the items' entries:
// an item is embedded once its entry is there, so a killed writer loses at
// most the batch it was writing, and the next one resumes after the last
// entry. Vectors of another model are never mixed in: a store is for one
// model, and a different one means a new store (Update builds it beside the
// old one and swaps it in when done).
package vectors

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// Model names the model vectors were made with.
type Model struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Dims   int    `json:"dims"`
}

// Same reports whether m and o are the same model file.
func (m Model) Same(o Model) bool {
	if m.SHA256 != "" || o.SHA256 != "" {
		return strings.EqualFold(m.SHA256, o.SHA256)
	}
	return m.Name == o.Name
}

func (m Model) String() string {
	if len(m.SHA256) >= 12 {
		return fmt.Sprintf("%s (sha256 %s…)", m.Name, m.SHA256[:12])
	}
	return m.Name
}

// OtherModelError is returned when a store was made by another model than
// the one asked for.
type OtherModelError struct {
	Dir        string
	Have, Want Model
}

func (e *OtherModelError) Error() string {
	return fmt.Sprintf("the paragraph vectors in %s were made by %s, not by the embedding model %s", e.Dir, e.Have, e.Want)
}

// ErrNotBuilt is wrapped by Open's error when there is no store.
var ErrNotBuilt = errors.New("the paragraphs have no vectors yet")

const (
	modelFile = "model.json"
	dataFile  = "paragraphs.i8"
	itemsFile = "items.bin"
	magic     = "SPONGEV1"
	headerLen = 16
	entryLen  = 48
	formatV   = 1
)

type modelJSON struct {
	Format int `json:"format"`
	Model
}

// RecordBytes is the size of one paragraph's record for dims dimensions.
func RecordBytes(dims int) int { return 4 + dims }

type entry struct {
	id    [32]byte
	first uint64
	count uint32
}

func (e entry) end() uint64 { return e.first + uint64(e.count) }

func readModel(dir string) (Model, error) {
	b, err := os.ReadFile(filepath.Join(dir, modelFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Model{}, fmt.Errorf("%w (no %s)", ErrNotBuilt, filepath.Join(dir, modelFile))
	}
	if err != nil {
		return Model{}, err
	}
	var mj modelJSON
	if err := json.Unmarshal(b, &mj); err != nil {
		return Model{}, fmt.Errorf("%s is damaged: %v", filepath.Join(dir, modelFile), err)
	}
	if mj.Format != formatV {
		return Model{}, fmt.Errorf("%s is of format %d; this sponge reads format %d", filepath.Join(dir, modelFile), mj.Format, formatV)
	}
	if mj.Dims <= 0 || mj.Dims > 1<<16 {
		return Model{}, fmt.Errorf("%s gives %d dimensions", filepath.Join(dir, modelFile), mj.Dims)
	}
	return mj.Model, nil
}

// readEntries reads the items' entries, leaving out a torn last entry and
// any entry whose records the data file (of dataRecords records) lacks.
func readEntries(dir string, dataRecords uint64) ([]entry, error) {
	b, err := os.ReadFile(filepath.Join(dir, itemsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	es := make([]entry, 0, len(b)/entryLen)
	var next uint64
	for off := 0; off+entryLen <= len(b); off += entryLen {
		var e entry
		copy(e.id[:], b[off:off+32])
		e.first = binary.LittleEndian.Uint64(b[off+32:])
		e.count = binary.LittleEndian.Uint32(b[off+40:])
		if e.first != next || e.end() > dataRecords {
			break // written after a crash cut the data short: not trusted
		}
		next = e.end()
		es = append(es, e)
	}
	return es, nil
}

func parseID(id string) ([32]byte, error) {
	var k [32]byte
	if len(id) != 64 {
		return k, fmt.Errorf("%q is not a full item id", id)
	}
	_, err := hex.Decode(k[:], []byte(id))
	return k, err
}

// Quantize turns a vector into int8 values and the scale that turns them
// back: v[i] ≈ scale × q[i]. The largest magnitude maps to ±127.
func Quantize(v []float32, q []int8) float32 {
	var mx float32
	for _, x := range v {
		mx = max(mx, float32(math.Abs(float64(x))))
	}
	if mx == 0 {
		clear(q)
		return 0
	}
	scale := mx / 127
	inv := 1 / scale
	for i, x := range v {
		r := math.Round(float64(x * inv))
		q[i] = int8(max(-127, min(127, r)))
	}
	return scale
}
