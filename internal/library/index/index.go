// Package index is the keyword index of the library, kept with bleve and
// scored with BM25. It is derived from the store: `sponge reindex` rebuilds
// it from the items alone.
//
// What one index document is: a chunk of consecutive paragraphs of an item, up
// to ChunkChars characters, with the item's title in front. Search scores an
// item by its best chunk. A chunk is as good as a whole item for short items
// (an abstract, a note: one chunk), and keeps a 300-page PDF from being
// drowned by its own length normalisation, while staying far fewer documents
// than one per paragraph (which indexes about 3× slower into 3× the space).
package index

import (
	"cmp"
	"container/heap"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
)

// ChunkChars is the most characters of paragraphs one index document holds.
const ChunkChars = 4000

// BM25 parameters, tuned on SciFact's training queries (see
// internal/bench/retrieval -tune).
const (
	K1 = 5.0
	B  = 0.65
)

// versionKey is where an index keeps the keywords.AnalyzerVersion it was made with.
var versionKey = []byte("sponge_analyzer")

// Index is an open keyword index.
type Index struct {
	si  bindex.Index // bleve's scorch index
	dir string

	keywordOnce sync.Once
	keyword     analysis.Analyzer // of the item field
}

type doc struct {
	Item   string `json:"item"`
	Text   string `json:"text"`
	Title  string `json:"title"`
	Source string `json:"source"`
	Kind   string `json:"kind"`
}

func newMapping() (*mapping.IndexMappingImpl, error) {
	im := mapping.NewIndexMapping()
	im.ScoringModel = "bm25"
	err := im.AddCustomAnalyzer(keywords.AnalyzerName, keywords.AnalyzerConfig())
	if err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = keywords.AnalyzerName
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false

	text := mapping.NewTextFieldMapping()
	text.Analyzer = keywords.AnalyzerName
	text.Store = false
	text.IncludeTermVectors = false
	text.IncludeInAll = false
	text.DocValues = false

	stored := mapping.NewTextFieldMapping()
	stored.Index = false
	stored.Store = true
	stored.IncludeTermVectors = false
	stored.IncludeInAll = false
	stored.DocValues = false

	itemField := mapping.NewKeywordFieldMapping()
	itemField.Analyzer = keyword.Name
	itemField.Store = false
	itemField.IncludeTermVectors = false
	itemField.IncludeInAll = false
	itemField.DocValues = false

	dm := mapping.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt("text", text)
	dm.AddFieldMappingsAt("title", stored)
	dm.AddFieldMappingsAt("source", stored)
	dm.AddFieldMappingsAt("kind", stored)
	dm.AddFieldMappingsAt("item", itemField)
	im.DefaultMapping = dm
	return im, nil
}

// Create opens the index at dir for writing, making it if it is not there.
// An index made under other word rules is refused as Open refuses it: the
// writer remakes it (Outdated) before it adds to it.
//
// An index Create opens merges its segments only when asked (Merge,
// MergeSmallest), not in the background as bleve does: a writer opens the index
// for each batch and closes it, and bleve's Close throws away a merge in
// progress, which the next open starts again. Adding kernel-docs ×8 threw
// away about half the merges it began (14% of the add's CPU went to
// merging).
func Create(dir string) (*Index, error) {
	if _, err := os.Stat(dir); err == nil {
		// what a writer killed while it made the index left, before
		// the index was made from the items (see makeIndex)
		os.RemoveAll(dir + makingSuffix)
		si, err := openScorch(dir, map[string]any{"scorchMergePlanOptions": noMerges}, analysisQueue())
		if err != nil {
			return nil, broken(dir, "cannot open the index at %s: %v", dir, err)
		}
		x := &Index{si: si, dir: dir}
		if err := x.checkVersion(dir); err != nil {
			si.Close()
			return nil, err
		}
		return x, nil
	}
	if err := makeIndex(dir); err != nil {
		return nil, fault.New(fault.Failed, "cannot make the index at %s: %v", dir, err)
	}
	// Opened for writing, the index gets its turn file (openScorch): a
	// search that comes while a new library's first batch goes in then
	// waits its turn, rather than racing bleve's lock through the whole
	// first add.
	si, err := openScorch(dir, map[string]any{"scorchMergePlanOptions": noMerges}, analysisQueue())
	if err != nil {
		return nil, broken(dir, "cannot open the index at %s: %v", dir, err)
	}
	return &Index{si: si, dir: dir}, nil
}

// makingSuffix names the folder beside dir where makeIndex makes a new
// index before it moves it to dir.
const makingSuffix = ".making"

// makeIndex makes an empty index at dir, whole or not at all: it is made
// in a folder beside dir (dir + makingSuffix), with its version, closed,
// and only then renamed to dir. A writer killed while it made the index
// in dir itself left a folder with no version (or no files), which the
// next writer refused as made by an older sponge (issue 42); now a kill
// leaves no index, which the next writer makes from the items, and a
// folder beside it, which the next Create removes.
func makeIndex(dir string) error {
	tmp := dir + makingSuffix
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	si, err := newScorch(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	err = si.SetInternal(versionKey, []byte(keywords.AnalyzerVersion()))
	if cerr := si.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	// The rename is kept on disk before the first batch goes in.
	if d, err := os.Open(filepath.Dir(dir)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Open opens the index at dir for reading.
func Open(dir string) (*Index, error) {
	si, err := openScorch(dir, map[string]any{"read_only": true}, nil)
	if err != nil {
		return nil, broken(dir, "cannot open the index at %s: %v", dir, err)
	}
	x := &Index{si: si, dir: dir}
	if err := x.checkVersion(dir); err != nil {
		si.Close()
		return nil, err
	}
	return x, nil
}

// The index is bleve's scorch index, opened and made here as bleve's
// top-level package (bleve.Open, bleve.New) does it, and with the same
// files, so that older sponges and bleve's own tools open it. That package
// is not linked: its package initialisation (upsidedown, protobuf, expvar
// and net/http, json-iterator, an analysis queue's goroutines) cost every
// question about a third of the time the sponge process took to start.
const (
	metaFile = "index_meta.json"
	// what bleve.New writes in metaFile: its default storage and index type
	indexMeta = `{"storage":"boltdb","index_type":"scorch"}`
)

// mappingKey is where bleve keeps an index's mapping, as JSON: bleve.Open
// reads it; sponge makes its documents by hand and never does.
var mappingKey = []byte("_mapping")

// openScorch opens the scorch index in dir (made by bleve.New or newScorch)
// with the extra settings config. Only an index opened for writing needs
// the queue q that analyses the documents of its batches.
func openScorch(dir string, config map[string]any, q *bindex.AnalysisQueue) (bindex.Index, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, errors.New("the index folder is missing")
	}
	raw, err := os.ReadFile(filepath.Join(dir, metaFile))
	if err != nil {
		return nil, fmt.Errorf("its %s is missing", metaFile)
	}
	var meta struct {
		Storage   string         `json:"storage"`
		IndexType string         `json:"index_type"`
		Config    map[string]any `json:"config"`
	}
	if string(raw) == indexMeta {
		// what every sponge writes: no need to decode it (decoding is a
		// fifth of opening the index, in a process that opens it once)
		meta.Storage, meta.IndexType = "boltdb", scorch.Name
	} else if err := json.Unmarshal(raw, &meta); err != nil {
		return nil, fmt.Errorf("its %s is damaged", metaFile)
	}
	if meta.IndexType != scorch.Name {
		return nil, fmt.Errorf("it is a bleve index of type %q, not %q", meta.IndexType, scorch.Name)
	}
	how := syscall.LOCK_EX
	if ro, _ := config["read_only"].(bool); ro {
		how = syscall.LOCK_SH
	}
	defer takeTurn(dir, how)()
	settings := map[string]any{}
	for k, v := range meta.Config {
		settings[k] = v
	}
	settings["path"] = filepath.Join(dir, "store")
	settings["create_if_missing"] = false
	settings["error_if_exists"] = false
	for k, v := range config {
		settings[k] = v
	}
	si, err := scorch.NewScorch(meta.Storage, settings, q)
	if err != nil {
		return nil, err
	}
	if err := si.Open(); err != nil {
		return nil, err
	}
	return si, nil
}

// turnFile is where readers queue before a writer's next open of the
// index. bleve's file lock, which keeps readers out while a writer has the
// index open, is taken by trying every 50 ms; a long add opens the index for
// each batch, and a batch that filled while the last went in opens it
// again at once, so a waiting search got in only if one of its tries fell
// in that moment. A reader holds turnFile shared while it waits for the
// index, and a writer takes it alone before it opens the index: a search
// waits for the batch (and merge) in the index when it came, not longer.
const turnFile = "turn.lock"

// takeTurn waits for the lock how (syscall.LOCK_SH or LOCK_EX) on the index's
// turnFile and returns its release. A writer makes the file; a reader
// writes nothing (the MCP server promises so) and, if no writer made it yet,
// opens the index without it.
func takeTurn(dir string, how int) func() {
	var f *os.File
	var err error
	if how == syscall.LOCK_EX {
		f, err = os.OpenFile(filepath.Join(dir, turnFile), os.O_RDWR|os.O_CREATE, 0o600)
	} else {
		f, err = os.Open(filepath.Join(dir, turnFile))
	}
	if err != nil {
		return func() {}
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}

// newScorch makes a new scorch index in dir, as bleve.New makes it with
// sponge's mapping.
func newScorch(dir string) (bindex.Index, error) {
	im, err := newMapping()
	if err != nil {
		return nil, err
	}
	if err := im.Validate(); err != nil {
		return nil, err
	}
	mappingJSON, err := json.Marshal(im)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, metaFile), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString(indexMeta)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	si, err := scorch.NewScorch("boltdb", map[string]any{
		"path":              filepath.Join(dir, "store"),
		"create_if_missing": true,
		"error_if_exists":   true,
	}, analysisQueue())
	if err != nil {
		return nil, err
	}
	if err := si.Open(); err != nil {
		return nil, err
	}
	if err := si.SetInternal(mappingKey, mappingJSON); err != nil {
		si.Close()
		return nil, err
	}
	return si, nil
}

// analysisQueue is the workers scorch analyses a batch's documents with,
// shared by the indexes a process writes, as bleve shares its own (which
// every process started, reader or not).
var analysisQueue = sync.OnceValue(func() *bindex.AnalysisQueue { return bindex.NewAnalysisQueue(4) })

// getInternal reads a value the index keeps beside its documents.
func (x *Index) getInternal(key []byte) ([]byte, error) {
	r, err := x.si.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.GetInternal(key)
}

// checkVersion refuses an index whose words were found under other rules
// than today's: its terms would not meet the question's.
func (x *Index) checkVersion(dir string) error {
	v, err := x.getInternal(versionKey)
	if err != nil {
		return broken(dir, "cannot open the index at %s: %v", dir, err)
	}
	if string(v) != keywords.AnalyzerVersion() {
		return broken(dir, "the index at %s was made %s: its words no longer match this sponge's", dir, describeVersion(string(v)))
	}
	return nil
}

// broken is the error of an index at dir that cannot be used as it is: it
// names the library (the index's folder), so that the hint to rebuild it
// is a command for that library.
func broken(dir, format string, a ...any) *fault.Error {
	e := fault.New(fault.IndexBroken, format, a...)
	e.Library = filepath.Dir(dir)
	return e
}

// describeVersion says, for a person, how an index unlike today's was made.
func describeVersion(v string) string {
	rules, words, _ := strings.Cut(v, "; ")
	switch {
	case v == "":
		return "by an older sponge"
	case rules != keywords.AnalyzerRules:
		return "by another version of sponge"
	case words == "thai=pairs":
		return "without a Thai word list"
	}
	return "with another Thai word list, " + strings.TrimPrefix(words, "thai=")
}

// Outdated reports whether the index at dir exists and was made under other
// word rules, so that a writer should remake it.
func Outdated(dir string) bool {
	if _, err := os.Stat(dir); err != nil {
		return false
	}
	si, err := openScorch(dir, map[string]any{"read_only": true}, nil)
	if err != nil {
		return false // broken, not old: opening it says so
	}
	defer si.Close()
	v, err := (&Index{si: si}).getInternal(versionKey)
	return err == nil && string(v) != keywords.AnalyzerVersion()
}

// Segments is how many segment files the index is made of. A search opens,
// reads and closes every one: an index added in many batches searches slower
// than the same merged (kernel-docs ×8 after sponge add: 21 segments, 89 ms
// CPU for sponge ask --passages; merged: 74 ms).
func (x *Index) Segments() int {
	s, ok := x.si.(*scorch.Scorch)
	if !ok {
		return 0
	}
	n, _ := s.StatsMap()["TotFileSegmentsAtRoot"].(uint64)
	return int(n)
}

// noMerges is the merge plan of an index Create opens: a plan never
// needs to merge when its budget of segments is at least how many there
// are, and with a floor of one document and no limit of segments per tier,
// the budget is the documents over those of the smallest segment
// (mergeplan.CalcBudget). Only segments with no document left are merged.
var noMerges = map[string]any{"MaxSegmentsPerTier": math.MaxInt32, "FloorSegmentSize": 1, "FloorSegmentFileSize": 0}

// MergeTier is how many segments of about the same size Merge merges into
// one, and how many times bigger each tier's segments are than the tier
// below: each document is merged again only each time its segment grows
// about MergeTier-fold. bleve's background merges take ten
// (mergeplan.DefaultMergePlanOptions); with thirty, the segments of a
// writer's batches are merged once for an add of up to about thirty
// batches a tier (kernel-docs ×8: 65 batches, two merges of 30 and the
// last few left to Close's compaction), where with ten, six segments of
// ten batches were merged a second time when Close compacted the index:
// each document was written 1.67 times by merges, now 1.0.
const MergeTier = 30

// Merge merges segments of about the same size, MergeTier at a time, as
// bleve's background merges would with that many to a tier. It waits until
// the merges are done.
func (x *Index) Merge() error {
	o := mergeplan.DefaultMergePlanOptions
	o.MaxSegmentsPerTier, o.SegmentsPerMergeTask, o.TierGrowth = MergeTier, MergeTier, MergeTier
	return x.merge(&o)
}

// MergeSmallest merges the index's smallest segments into one, so that at
// most keep are left (keep < 1 counts as 1): the big segments stay as they
// are, so it costs only the documents of the small ones. A long add leaves
// segments of about equal size in tiers (Merge): kernel-docs ×8, e.g., six
// of ~15 MB, two of 6–8 MB and two small ones; merging the eight smallest
// reads ~70% of the index, where merging all reads all of it. A merge is
// written as a new segment and then swapped in, so a writer killed during
// it leaves the index as it was.
func (x *Index) MergeSmallest(keep int) error {
	keep = max(keep, 1)
	n := x.Segments()
	if n <= keep {
		return nil
	}
	return x.merge(smallestPlan(n-keep+1, keep))
}

// smallestPlan is a merge plan that merges the merge smallest of the
// index's segments into one and leaves keep: bleve's planner, sorted by
// size, tries each run of segments from one of them to the smallest, and
// takes the run of least documents among those at least merge long. If the
// index has other segments than counted (there are none while a writer
// holds it), no run is long enough and the planner takes the first, all of
// them: one segment, more work but no fewer merged than asked.
func smallestPlan(merge, keep int) *mergeplan.MergePlanOptions {
	return &mergeplan.MergePlanOptions{
		MaxSegmentsPerTier:   keep,
		MaxSegmentSize:       mergeplan.MaxSegmentSizeLimit,
		MaxSegmentFileSize:   math.MaxInt64,
		TierGrowth:           1,
		SegmentsPerMergeTask: math.MaxInt32,
		FloorSegmentSize:     1,
		CalcBudget: func(int64, int64, *mergeplan.MergePlanOptions) int {
			return keep
		},
		ScoreSegments: func(run []mergeplan.Segment, _ *mergeplan.MergePlanOptions) float64 {
			if len(run) < merge {
				return math.Inf(1)
			}
			var docs int64
			for _, s := range run {
				docs += s.LiveSize()
			}
			return float64(docs)
		},
	}
}

// merge runs bleve's merges under the plan o and
// waits until they are in the index.
func (x *Index) merge(o *mergeplan.MergePlanOptions) error {
	s, ok := x.si.(*scorch.Scorch)
	if !ok {
		return nil
	}
	if err := s.ForceMerge(context.Background(), o); err != nil {
		return fmt.Errorf("cannot merge the index: %w", err)
	}
	// The merge is in the index once its root is persisted: a Close before
	// that keeps the segments as they were (whole, and searched as well).
	for wait := time.Now(); time.Since(wait) < time.Minute; time.Sleep(5 * time.Millisecond) {
		st := s.StatsMap()
		cur, _ := st["CurRootEpoch"].(uint64)
		done, _ := st["LastPersistedEpoch"].(uint64)
		if done >= cur {
			break
		}
	}
	return nil
}

// DropOldSnapshots removes what the index keeps of its older states, so that
// its folder holds only the segment files it searches. bleve keeps the files
// of a state until its persister, between two changes, finds that no
// snapshot uses them any more; a writer that closes the index right after
// its last merge leaves them to the next writer (kernel-docs ×8: 8 segment
// files, 149 MB, for an index of 3 segments). Every state older than the
// newest is marked for removal and a change is written (the analyzer version
// again, as it is), after which the persister removes them; it waits until
// it has. No reader of another process holds the old files: a reader opens
// the index under bleve's shared file lock, which a writer's open waits for.
func (x *Index) DropOldSnapshots() error {
	s, ok := x.si.(*scorch.Scorch)
	if !ok {
		return nil
	}
	epochs, err := s.RootBoltSnapshotEpochs() // newest first
	if err != nil {
		return fmt.Errorf("cannot tidy the index: %w", err)
	}
	keep, err := x.segmentFiles()
	if err != nil {
		return fmt.Errorf("cannot tidy the index: %w", err)
	}
	if len(epochs) <= 1 && x.onlyFiles(keep) {
		return nil
	}
	for _, e := range epochs[min(1, len(epochs)):] {
		s.AddEligibleForRemoval(e)
	}
	if err := s.SetInternal(versionKey, []byte(keywords.AnalyzerVersion())); err != nil {
		return fmt.Errorf("cannot tidy the index: %w", err)
	}
	for wait := time.Now(); !x.onlyFiles(keep) && time.Since(wait) < 10*time.Second; {
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

// segmentFiles is the names of the segment files the index searches.
func (x *Index) segmentFiles() (map[string]bool, error) {
	r, err := x.si.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, fmt.Errorf("unexpected index reader %T", r)
	}
	names := map[string]bool{}
	for _, seg := range snap.Segments() {
		names[fmt.Sprintf("%012x.zap", seg.Id())] = true // as scorch names them
	}
	return names, nil
}

// onlyFiles reports whether the segment files in the index's folder are
// those of keep and no others.
func (x *Index) onlyFiles(keep map[string]bool) bool {
	es, err := os.ReadDir(filepath.Join(x.dir, "store"))
	if err != nil {
		return true // nothing to wait for
	}
	for _, e := range es {
		if filepath.Ext(e.Name()) == ".zap" && !keep[e.Name()] {
			return false
		}
	}
	return true
}

// Close closes the index.
func (x *Index) Close() error { return x.si.Close() }

// Chunks splits an item's paragraphs into the texts of its index
// documents: each the item's title, the heading of its first paragraph (if
// another), then paragraphs, one a line, while they fit in ChunkChars. They
// share one buffer, of the size counted first.
func Chunks(it *item.Item) [][]byte {
	head := func(p *item.Paragraph) int {
		if p.Heading != "" && p.Heading != it.Title {
			return len(it.Title) + 1 + len(p.Heading) + 1
		}
		return len(it.Title) + 1
	}
	size, n := 0, 0
	for i := range it.Paragraphs {
		p := &it.Paragraphs[i]
		if n > 0 && n+len(p.Text) > ChunkChars {
			size, n = size+n, 0
		}
		if n == 0 {
			n = head(p)
		}
		n += len(p.Text) + 1
	}
	buf := make([]byte, 0, size+n)
	var chunks [][]byte
	start := 0
	for i := range it.Paragraphs {
		p := &it.Paragraphs[i]
		if len(buf) > start && len(buf)-start+len(p.Text) > ChunkChars {
			chunks = append(chunks, buf[start:len(buf):len(buf)])
			start = len(buf)
		}
		if len(buf) == start {
			buf = append(append(buf, it.Title...), '\n')
			if head(p) > len(it.Title)+1 {
				buf = append(append(buf, p.Heading...), '\n')
			}
		}
		buf = append(append(buf, p.Text...), '\n')
	}
	if len(buf) > start {
		chunks = append(chunks, buf[start:])
	}
	if len(chunks) == 0 {
		chunks = [][]byte{[]byte(it.Title)}
	}
	return chunks
}

// Batch collects changes to apply together.
type Batch struct {
	x    *Index
	b    *bindex.Batch
	post []*item.Item // whose postings Commit writes
}

// NewBatch starts a batch of changes.
func (x *Index) NewBatch() *Batch { return &Batch{x: x, b: bindex.NewBatch()} }

// Add puts an item's chunks in the batch; Commit saves its paragraph
// postings (see ReadPostings).
func (b *Batch) Add(it *item.Item) error {
	b.post = append(b.post, it)
	for i, text := range Chunks(it) {
		d := doc{Item: it.ID}
		if i == 0 {
			d.Title, d.Source, d.Kind = it.Title, it.Source, it.Kind
		}
		b.b.Update(b.x.document(it.ID+"/"+strconv.Itoa(i), d, text))
	}
	return nil
}

// document makes the index document of a chunk by hand, with the fields
// the mapping (newMapping) makes of d with text as its Text, but faster: no walk of d by
// reflection, the text counted by keywords.ChunkFrequencies (the same terms
// as the mapping's analyzer, see chunkField), and without bleve's "_all" field, which holds
// nothing here (no field is in it) and which no search reads.
func (x *Index) document(id string, d doc, text []byte) *document.Document {
	x.keywordOnce.Do(func() {
		im, err := newMapping()
		if err != nil {
			panic(err) // sponge's own mapping, which Create made already
		}
		x.keyword = im.AnalyzerNamed(keyword.Name)
	})
	doc := document.NewDocument(id)
	doc.AddField(document.NewTextFieldCustom("item", nil, []byte(d.Item), bindex.IndexField, x.keyword))
	doc.AddField(&chunkField{text: text})
	for _, f := range []struct{ name, value string }{{"title", d.Title}, {"source", d.Source}, {"kind", d.Kind}} {
		doc.AddField(document.NewTextFieldCustom(f.name, nil, []byte(f.value), bindex.StoreField, nil))
	}
	return doc
}

// chunkField is the text field of a chunk as bleve's text field with the
// mapping's analyzer makes it (indexed, not stored, no term vectors), its
// terms counted by keywords.ChunkFrequencies rather than from a token each.
// sponge's zapx reads the counts as two lists (TermLists); bleve's map of
// them is made only if something else asks for it.
type chunkField struct {
	text     []byte
	length   int
	analysed bool
	counts   keywords.TermCounts
	freqs    bindex.TokenFrequencies // made from counts when asked
}

func (f *chunkField) Name() string                         { return "text" }
func (f *chunkField) ArrayPositions() []uint64             { return nil }
func (f *chunkField) Options() bindex.FieldIndexingOptions { return bindex.IndexField }
func (f *chunkField) Value() []byte                        { return f.text }
func (f *chunkField) NumPlainTextBytes() uint64            { return uint64(len(f.text)) }
func (f *chunkField) EncodedFieldType() byte               { return 't' }
func (f *chunkField) AnalyzedLength() int                  { return f.length }
func (f *chunkField) AnalyzedTokenFrequencies() bindex.TokenFrequencies {
	if f.freqs == nil && f.analysed {
		f.freqs = f.counts.Frequencies()
	}
	return f.freqs
}

// TermLists is the chunk's terms and how often each occurs, for zapx's
// segment build (which reads them in place of AnalyzedTokenFrequencies).
func (f *chunkField) TermLists() ([]string, []uint32) { return f.counts.Terms, f.counts.Freqs }

func (f *chunkField) Analyze() {
	f.length, f.counts = keywords.ChunkFrequencies(f.text)
	f.analysed, f.freqs = true, nil
}

// Size is what the field takes in memory, as bleve's text field counts it.
func (f *chunkField) Size() int {
	n := 64 + len(f.text)
	if f.analysed {
		n += f.counts.Size()
	}
	return n
}

// Size is how many documents the batch holds.
func (b *Batch) Size() int { return len(b.b.IndexOps) + len(b.b.InternalOps) }

// Commit applies the batch.
// The items' postings are written while bleve takes the batch (most of
// which is one goroutine's work).
func (b *Batch) Commit() error {
	done := make(chan error, 1)
	items := b.post
	b.post = nil
	go func() { done <- keywords.SavePostings(b.x.dir, items) }()
	err := b.x.si.Batch(b.b)
	perr := <-done
	if err != nil {
		return fmt.Errorf("cannot update the index: %w", err)
	}
	if perr != nil {
		return perr
	}
	b.b.Reset()
	return nil
}

// Remove deletes every document of an item, and its paragraph postings.
func (x *Index) Remove(id string) error {
	if err := keywords.RemovePostings(x.dir, id); err != nil {
		return err
	}
	chunks, err := x.chunksOf(id)
	if err != nil {
		return err
	}
	b := bindex.NewBatch()
	for _, c := range chunks {
		b.Delete(c)
	}
	return x.si.Batch(b)
}

// chunksOf returns the ids of an item's index documents.
func (x *Index) chunksOf(id string) ([]string, error) {
	r, err := x.si.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	tfr, err := r.TermFieldReader(context.Background(), []byte(id), "item", false, false, false)
	if err != nil {
		return nil, err
	}
	defer tfr.Close()
	var ids []string
	var d bindex.TermFieldDoc
	for {
		got, err := tfr.Next(&d)
		if err != nil {
			return nil, err
		}
		if got == nil {
			return ids, nil
		}
		ext, err := r.ExternalID(got.ID)
		if err != nil {
			return nil, err
		}
		ids = append(ids, ext)
	}
}

// Has reports whether the index has an item.
func (x *Index) Has(id string) bool {
	r, err := x.si.Reader()
	if err != nil {
		return false
	}
	defer r.Close()
	d, err := r.Document(id + "/0")
	return err == nil && d != nil
}

// Count is the number of documents in the index.
func (x *Index) Count() (uint64, error) {
	r, err := x.si.Reader()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	return r.DocCount()
}

// Hit is an item found by a keyword search.
type Hit struct {
	ItemID string
	Title  string
	Source string
	Kind   string
	Score  float64
}

// ErrNoWords is returned for a question with nothing to search for.
var ErrNoWords = errors.New("the question has no words to search for")

// Search returns up to limit items, best first, scored by their best chunk.
func (x *Index) Search(question string, limit int) ([]Hit, error) {
	return x.SearchBM25(question, limit, K1, B)
}

// SearchBM25 is Search with other BM25 parameters (the retrieval bench tunes
// them).
//
// The question's terms (stop words left out, as rank leaves them out) are
// looked up in the index and every chunk that holds one is scored with
// BM25 here, not by bleve's scorer: bleve's BM25 takes as the average
// chunk length the number of distinct terms in each segment's dictionary
// over the number of chunks (about 10 words on SciFact, whose abstracts
// average 223; 6 on kernel-docs ×8), so it punished length far harder than
// b says, and its figure changed with how the chunks fell into segments:
// two builds of the same library ranked differently. Here the average is
// that of the chunks that hold a question term, which the postings read for
// the question give without any stored figure, and which is the same
// however the index is laid out. Chunks of equal score are ordered by
// their id, so equal libraries give equal answers.
func (x *Index) SearchBM25(question string, limit int, k1, b float64) ([]Hit, error) {
	terms := keywords.QuestionTerms(question)
	if len(terms) == 0 {
		return nil, ErrNoWords
	}
	r, err := x.si.Reader()
	if err != nil {
		return nil, fmt.Errorf("search failed: %w", err)
	}
	defer r.Close()
	n, err := r.DocCount()
	if err != nil {
		return nil, fmt.Errorf("search failed: %w", err)
	}
	lists, err := readPostings(r, terms)
	if err != nil {
		return nil, fmt.Errorf("search failed: %w", err)
	}
	chunks := scoreChunks(lists, float64(n), k1, b)
	top, cut := best(chunks, max(limit*12, 60))
	hits, err := x.bestItems(r, top, limit)
	if err == nil && cut && len(hits) < limit {
		// a few items with many good chunks: look further
		top, _ = best(chunks, len(chunks))
		hits, err = x.bestItems(r, top, limit)
	}
	return hits, err
}

// posting is one chunk holding a term: its doc number in the index, how
// often it holds the term, and its length in terms (16 bytes: a common word's
// list is tens of thousands of them, each page of them a page fault).
type posting struct {
	doc  uint64
	freq uint32
	len  uint32
}

// readPostings reads each term's chunks.
func readPostings(r bindex.IndexReader, terms []string) ([][]posting, error) {
	lists := make([][]posting, len(terms))
	var d bindex.TermFieldDoc
	for i, t := range terms {
		tfr, err := r.TermFieldReader(context.Background(), []byte(t), "text", true, true, false)
		if err != nil {
			return nil, err
		}
		list := make([]posting, 0, tfr.Count())
		for {
			got, err := tfr.Next(&d)
			if err != nil {
				tfr.Close()
				return nil, err
			}
			if got == nil {
				break
			}
			if len(got.ID) != 8 {
				tfr.Close()
				return nil, fmt.Errorf("unexpected document number %x", []byte(got.ID))
			}
			doc := binary.BigEndian.Uint64(got.ID)
			// bleve keeps 1/sqrt(length) as the norm.
			l := uint32(1)
			if got.Norm > 0 {
				l = uint32(math.Round(1 / (got.Norm * got.Norm)))
			}
			list = append(list, posting{doc: doc, freq: uint32(min(got.Freq, math.MaxUint32)), len: l})
		}
		tfr.Close()
		lists[i] = list
	}
	return lists, nil
}

// scored is a chunk and its score.
type scored struct {
	doc   uint64
	score float64
}

// scoreChunks scores with BM25 every chunk that holds a term of the lists,
// among n chunks. The chunks are found by merging the lists in doc number
// order, so the cost is that of the postings read, not of the index's size
// (arrays over every doc number, 61,400 on kernel-docs ×8, made afresh for
// each question, were a tenth of its CPU).
func scoreChunks(lists [][]posting, n, k1, b float64) []scored {
	for _, list := range lists {
		// bleve gives each term's chunks in doc number order
		if !slices.IsSortedFunc(list, byDoc) {
			slices.SortFunc(list, byDoc)
		}
	}
	total, held := 0.0, 0
	eachChunk(lists, func(ps []posting, _ []int) {
		total += float64(ps[0].len)
		held++
	})
	if held == 0 {
		return nil
	}
	avg := total / float64(held)
	idf := make([]float64, len(lists))
	for i, list := range lists {
		idf[i] = IDF(n, float64(len(list)))
	}
	out := make([]scored, 0, held)
	eachChunk(lists, func(ps []posting, terms []int) {
		s := 0.0
		for j, p := range ps {
			// A term's count counts by its square root, as in bleve's
			// own scoring: a word said sixteen times weighs four times one
			// said once, before BM25's saturation.
			tf := math.Sqrt(float64(p.freq))
			s += idf[terms[j]] * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(p.len)/avg))
		}
		out = append(out, scored{ps[0].doc, s})
	})
	return out
}

// IDF is how much a term found in df of n chunks weighs: BM25's inverse
// document frequency.
func IDF(n, df float64) float64 { return math.Log(1 + (n-df+0.5)/(df+0.5)) }

func byDoc(p, q posting) int { return cmp.Compare(p.doc, q.doc) }

// eachChunk merges lists sorted by doc number and calls visit once for each
// chunk, in doc number order, with its postings and the lists they are
// from, in list order.
func eachChunk(lists [][]posting, visit func(ps []posting, terms []int)) {
	at := make([]int, len(lists))
	ps := make([]posting, 0, len(lists))
	terms := make([]int, 0, len(lists))
	for {
		doc, found := uint64(math.MaxUint64), false
		for i, list := range lists {
			if at[i] < len(list) && (!found || list[at[i]].doc < doc) {
				doc, found = list[at[i]].doc, true
			}
		}
		if !found {
			return
		}
		ps, terms = ps[:0], terms[:0]
		for i, list := range lists {
			if at[i] < len(list) && list[at[i]].doc == doc {
				ps = append(ps, list[at[i]])
				terms = append(terms, i)
				at[i]++
			}
		}
		visit(ps, terms)
	}
}

// better orders chunks best first, equal scores in doc number order.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.doc < b.doc
}

// best returns the keep best chunks (and any that tie with the last of
// them), best first, and whether any were left out. Sorting only those (a heap of keep over all) matters when a common
// word is in tens of thousands of chunks.
func best(chunks []scored, keep int) ([]scored, bool) {
	if len(chunks) <= keep {
		sort.Slice(chunks, func(i, j int) bool { return better(chunks[i], chunks[j]) })
		return chunks, false
	}
	h := worstFirst(slices.Clone(chunks[:keep]))
	heap.Init(&h)
	for _, c := range chunks[keep:] {
		if better(c, h[0]) {
			h[0] = c
			heap.Fix(&h, 0)
		}
	}
	// every chunk as good as the worst kept, so that equal scores at the
	// cut are all there to be ordered by id
	var top []scored
	for _, c := range chunks {
		if c.score >= h[0].score {
			top = append(top, c)
		}
	}
	sort.Slice(top, func(i, j int) bool { return better(top[i], top[j]) })
	return top, len(top) < len(chunks)
}

// worstFirst is a heap of chunks whose top is the worst.
type worstFirst []scored

func (h worstFirst) Len() int           { return len(h) }
func (h worstFirst) Less(i, j int) bool { return better(h[j], h[i]) }
func (h worstFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *worstFirst) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *worstFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// bestItems takes the scored chunks best first until limit items are found,
// each scored by its best chunk; items whose best chunks score the same are
// in the order of their ids, whatever their doc numbers.
func (x *Index) bestItems(r bindex.IndexReader, chunks []scored, limit int) ([]Hit, error) {
	var hits []Hit
	have := map[string]bool{}
	id := make([]byte, 8)
	for i := 0; i < len(chunks) && len(hits) < limit; {
		// the chunks of one score, by chunk id
		j := i + 1
		for j < len(chunks) && chunks[j].score == chunks[i].score {
			j++
		}
		var ids []string
		for _, c := range chunks[i:j] {
			binary.BigEndian.PutUint64(id, c.doc)
			ext, err := r.ExternalID(id)
			if err != nil {
				return nil, fmt.Errorf("search failed: %w", err)
			}
			ids = append(ids, ext)
		}
		sort.Strings(ids)
		for _, ext := range ids {
			item, _, _ := strings.Cut(ext, "/")
			if have[item] || len(hits) == limit {
				continue
			}
			have[item] = true
			hits = append(hits, Hit{ItemID: item, Score: chunks[i].score})
		}
		i = j
	}
	for i := range hits {
		h := &hits[i]
		if d, err := r.Document(h.ItemID + "/0"); err == nil && d != nil {
			d.VisitFields(func(f bindex.Field) {
				switch f.Name() {
				case "title":
					h.Title = string(f.Value())
				case "source":
					h.Source = string(f.Value())
				case "kind":
					h.Kind = string(f.Value())
				}
			})
		}
	}
	return hits, nil
}
