package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	bdocument "github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bindex "github.com/blevesearch/bleve_index_api"
	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
)

// postingsItem is an item of three paragraphs, two of them about tea.
func postingsItem() *item.Item {
	return &item.Item{ID: "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789", Title: "T",
		Paragraphs: []item.Paragraph{
			{Heading: "Green tea", Text: "Green teas are steeped cooler than the black ones."},
			{Text: "The kettle's water boils; the kettles boil."},
			{Heading: "Storage", Text: "Keep tea away from light."},
		}}
}

// An index made under other word rules is refused with a clear message, and
// Outdated tells a writer to remake it.
func TestOldIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	bi, err := bleve.New(dir, bleve.NewIndexMapping()) // as an older sponge made it: no version
	if err != nil {
		t.Fatal(err)
	}
	bi.Close()
	if !Outdated(dir) {
		t.Error("an index without a version is not Outdated")
	}
	for name, open := range map[string]func(string) (*Index, error){"Open": Open, "Create": Create} {
		x, err := open(dir)
		if err == nil {
			x.Close()
			t.Fatalf("%s opened an old index", name)
		}
		if !fault.Is(err, fault.IndexBroken) || !strings.Contains(err.Error(), "was made by an older sponge: its words no longer match this sponge's") {
			t.Errorf("%s: %v", name, err)
		}
		if fe := (*fault.Error)(nil); !errors.As(err, &fe) || fe.Library != filepath.Dir(dir) {
			t.Errorf("%s: the error does not name the library %s, for its hint: %#v", name, filepath.Dir(dir), err)
		}
	}

	fresh := filepath.Join(t.TempDir(), "index")
	x, err := Create(fresh)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	if Outdated(fresh) {
		t.Error("a new index is Outdated")
	}
	if x, err := Open(fresh); err != nil {
		t.Errorf("Open(new index): %v", err)
	} else {
		x.Close()
	}
	if Outdated(filepath.Join(t.TempDir(), "none")) {
		t.Error("a missing index is Outdated")
	}
}

// TestPostingsWithItem checks that the index writes an item's postings with
// its documents and removes them with it.
func TestPostingsWithItem(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	x, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	it := postingsItem()
	for len(it.Paragraphs) < keywords.PostingsFrom/20 {
		it.Paragraphs = append(it.Paragraphs, it.Paragraphs[:3]...)
	}
	small := &item.Item{ID: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", Paragraphs: it.Paragraphs[:3]}
	b := x.NewBatch()
	if err := b.Add(small); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(it); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if p, err := keywords.ReadPostings(dir, it.ID, []string{"tea"}); err != nil || len(p.Terms["tea"]) != 2*len(it.Paragraphs)/3 {
		t.Fatalf("postings after add: %+v, %v", p, err)
	}
	if _, err := keywords.ReadPostings(dir, small.ID, []string{"tea"}); err == nil {
		t.Error("an item smaller than keywords.PostingsFrom has postings")
	}
	if err := x.Remove(it.ID); err != nil {
		t.Fatal(err)
	}
	if x.Has(it.ID) || !x.Has(small.ID) {
		t.Errorf("after removing one item: Has %v, the other %v", x.Has(it.ID), x.Has(small.ID))
	}
	if n, err := x.Count(); err != nil || n != 1 {
		t.Errorf("after removing one item: %d documents (%v), want the other's 1", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "postings", it.ID[:2], it.ID)); !os.IsNotExist(err) {
		t.Errorf("postings left after remove: %v", err)
	}
	if _, err := keywords.ReadPostings(dir, it.ID, []string{"tea"}); err == nil {
		t.Error("postings read after remove")
	}
}

// chunkTexts are texts of index documents touching every rule of the
// analyzer: English endings and possessives, full-width letters, case,
// accents, numbers, Han and kana (paired), Thai, and words split by "\n".
var chunkTexts = []string{
	"The Cat's studies: running, flies and boxes; e.g. 3.5 and 1,000 abi_testing\nl'été Straße ÉCOLE naïve x86-64",
	"Ｆｕｌｌ－ｗｉｄｔｈ ＴＥＡ brewed, steeped; agreed hoping creating\nStored kettles boil",
	"東京都の人口は多い\n北京 한국어 문장 カタカナ ｶﾀｶﾅ mixed with English words",
	"ชาเขียวชงที่อุณหภูมิต่ำ green tea ສະບາຍດີ",
	"",
	"cgroup memory.max io.weight /sys/fs/cgroup CONFIG_MEMCG=y don't won’t",
	"The kettle's 3 boxes BREWED tea, e.g. x86_64 steeping; the THE tea 1,000.5 _ Kettles' lids",
}

// A chunk's index document, made by hand (Index.document), holds the
// fields the mapping makes of it, with the same options, values and terms,
// but not bleve's "_all" field.
func TestDocumentAsMapped(t *testing.T) {
	x, err := Create(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range chunkTexts {
		d := doc{Item: postingsItem().ID, Text: text}
		if i%2 == 0 {
			d.Title, d.Source, d.Kind = "Title "+text, "/tmp/a.md", "markdown"
		}
		want := bdocument.NewDocument("id")
		if err := im.MapDocument(want, d); err != nil {
			t.Fatal(err)
		}
		got := x.document("id", d, []byte(text))
		if got.HasComposite() {
			t.Errorf("text %d: the document has a composite field (bleve's _all)", i)
		}
		fields := func(d *bdocument.Document) map[string]string {
			m := map[string]string{}
			d.VisitFields(func(f bindex.Field) {
				desc := fmt.Sprintf("options %v type %c positions %v value %q", f.Options(), f.EncodedFieldType(), f.ArrayPositions(), f.Value())
				if f.Options().IsIndexed() {
					f.Analyze()
					var terms []string
					for term, tf := range f.AnalyzedTokenFrequencies() {
						terms = append(terms, fmt.Sprintf("%s×%d", term, tf.Frequency()))
					}
					slices.Sort(terms)
					desc += fmt.Sprintf(" length %d terms %v", f.AnalyzedLength(), terms)
				}
				m[f.Name()] = desc
			})
			return m
		}
		w, g := fields(want), fields(got)
		for name := range w {
			if w[name] != g[name] {
				t.Errorf("text %d, field %s:\nmapping: %s\nby hand: %s", i, name, w[name], g[name])
			}
		}
		for name := range g {
			if _, ok := w[name]; !ok {
				t.Errorf("text %d: field %s is not the mapping's", i, name)
			}
		}
	}
}

// An index written by Batch.Add has no "_all" field: nothing searches it,
// and making it cost every document a field.
func TestNoAllField(t *testing.T) {
	x, err := Create(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	b := x.NewBatch()
	if err := b.Add(postingsItem()); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	r, err := x.si.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fields, err := r.Fields()
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(fields, "_all") {
		t.Errorf("the index has the _all field: %v", fields)
	}
	hits, err := x.Search("kettles", 5)
	if err != nil || len(hits) != 1 || hits[0].Title != "T" {
		t.Errorf("search: %v %+v", err, hits)
	}
}

// TestCreateMergesOnlyWhenAsked checks that an index opened by Create plans
// no merges of its own (bleve's Close would throw a merge in progress away,
// and a writer closes the index after each batch), and that Merge and
// MergeSmallest merge.
func TestCreateMergesOnlyWhenAsked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	makeSegments(t, dir, 1, 1, 1, 1, 1, 1)
	x, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	s := x.si.(*scorch.Scorch)
	// bleve plans merges as soon as it opens an index: wait for that plan.
	stat := func(name string) uint64 { n, _ := s.StatsMap()[name].(uint64); return n }
	for wait := time.Now(); stat("TotFileMergePlan") == 0; time.Sleep(time.Millisecond) {
		if time.Since(wait) > time.Minute {
			t.Fatal("bleve planned no merge in a minute")
		}
	}
	if n := stat("TotFileMergePlanTasks"); n > 0 {
		t.Errorf("the index planned %d merges of its own", n)
	}
	if n := x.Segments(); n != 6 {
		t.Fatalf("%d segments, want 6", n)
	}
	if err := x.Merge(); err != nil {
		t.Fatal(err)
	}
	if n := x.Segments(); n >= 6 {
		t.Errorf("%d segments after Merge", n)
	}
	if err := x.MergeSmallest(1); err != nil {
		t.Fatal(err)
	}
	if n := x.Segments(); n != 1 {
		t.Errorf("%d segments after MergeSmallest(1)", n)
	}
	if hits, err := x.Search("kettle", 10); err != nil || len(hits) != 6 {
		t.Errorf("after the merges %d hits (%v), want 6", len(hits), err)
	}
}

// TestMergeTakesATier checks that Merge merges MergeTier segments of about
// the same size into one, not ten, as bleve would: the segments of a
// writer's batches are then merged once, not again when ten such merged
// segments are merged (and again when Close compacts the index).
func TestMergeTakesATier(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	sizes := make([]int, MergeTier)
	for i := range sizes {
		sizes[i] = 1
	}
	makeSegments(t, dir, sizes...)
	x, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if n := x.Segments(); n != MergeTier {
		t.Fatalf("%d segments, want %d", n, MergeTier)
	}
	if err := x.Merge(); err != nil {
		t.Fatal(err)
	}
	if n := x.Segments(); n != 1 {
		t.Errorf("%d segments after Merge, want the %d merged into 1", n, MergeTier)
	}
	if hits, err := x.Search("kettle", 2*MergeTier); err != nil || len(hits) != MergeTier {
		t.Errorf("after the merge %d hits (%v), want %d", len(hits), err, MergeTier)
	}
}

// makeSegments makes the index at dir with a segment of each batch of
// postingsItem copies, of the sizes given, and returns how many items it
// holds. The index is closed after each batch, as a writer does (bleve
// merges the segments it has not written yet).
func makeSegments(t *testing.T, dir string, sizes ...int) int {
	t.Helper()
	n := 0
	for _, items := range sizes {
		x, err := Create(dir)
		if err != nil {
			t.Fatal(err)
		}
		b := x.NewBatch()
		for range items {
			n++
			it := postingsItem()
			it.ID = fmt.Sprintf("%064x", n)
			if err := b.Add(it); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := x.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// TestMergeSmallest checks that MergeSmallest merges only the smallest
// segments, into one, so that as many as asked are left and the big ones
// stay as they were (their files untouched), every item still found.
func TestMergeSmallest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	n := makeSegments(t, dir, 1, 9, 2, 1, 12, 1)
	x, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	files := func() map[string]int64 {
		m, _ := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
		sizes := map[string]int64{}
		for _, f := range m {
			if st, err := os.Stat(f); err == nil {
				sizes[filepath.Base(f)] = st.Size()
			}
		}
		return sizes
	}
	before := files()
	if x.Segments() != 6 || len(before) != 6 {
		t.Fatalf("%d segments (%d files), want 6", x.Segments(), len(before))
	}
	// The two biggest: of 12 and 9 items.
	names := slices.SortedFunc(func(yield func(string) bool) {
		for f := range before {
			if !yield(f) {
				return
			}
		}
	}, func(a, b string) int { return int(before[b] - before[a]) })
	if err := x.MergeSmallest(3); err != nil {
		t.Fatal(err)
	}
	// The merged files may still be there: bleve removes them once no
	// reader holds them.
	after := files()
	if x.Segments() != 3 {
		t.Fatalf("%d segments after MergeSmallest(3), want 3", x.Segments())
	}
	for _, f := range names[:2] {
		if after[f] != before[f] {
			t.Errorf("segment %s (%d bytes) was merged: only the four smallest should be", f, before[f])
		}
	}
	if hits, err := x.Search("kettle", 100); err != nil || len(hits) != n {
		t.Errorf("after the merge %d hits (%v), want %d", len(hits), err, n)
	}
	if err := x.MergeSmallest(1); err != nil {
		t.Fatal(err)
	}
	if x.Segments() != 1 {
		t.Errorf("%d segments after MergeSmallest(1), want 1", x.Segments())
	}
}

// The index is made and opened without bleve's top-level package, with the
// files bleve.New makes: an index sponge made until now opens and searches,
// and bleve.Open (an older sponge) opens one made by Create, with sponge's
// mapping.
func TestBleveFiles(t *testing.T) {
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(t.TempDir(), "index")
	bi, err := bleve.New(old, im)
	if err != nil {
		t.Fatal(err)
	}
	if err := bi.SetInternal(versionKey, []byte(keywords.AnalyzerVersion())); err != nil {
		t.Fatal(err)
	}
	if err := bi.Index(postingsItem().ID+"/0", doc{Item: postingsItem().ID, Text: "T\nThe kettle's water boils", Title: "T"}); err != nil {
		t.Fatal(err)
	}
	bi.Close()
	x, err := Open(old)
	if err != nil {
		t.Fatalf("Open(index made by bleve.New): %v", err)
	}
	hits, err := x.Search("kettles", 5)
	x.Close()
	if err != nil || len(hits) != 1 || hits[0].ItemID != postingsItem().ID || hits[0].Title != "T" {
		t.Errorf("search of an index made by bleve.New: %v %+v", err, hits)
	}

	dir := filepath.Join(t.TempDir(), "index")
	x, err = Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := x.NewBatch()
	if err := b.Add(postingsItem()); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	x.Close()
	for _, name := range []string{"index_meta.json"} {
		want, _ := os.ReadFile(filepath.Join(old, name))
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: %q (%v), bleve.New writes %q", name, got, err, want)
		}
	}
	bi, err = bleve.Open(dir)
	if err != nil {
		t.Fatalf("bleve.Open(index made by Create): %v", err)
	}
	defer bi.Close()
	if n, err := bi.DocCount(); err != nil || n != 1 {
		t.Errorf("bleve.Open: %d documents (%v), want 1", n, err)
	}
	got, _ := json.Marshal(bi.Mapping())
	want, _ := json.Marshal(im)
	if string(got) != string(want) {
		t.Errorf("bleve.Open reads the mapping\n%s\nwant\n%s", got, want)
	}
}

// index_meta.json as sponge writes it is read without decoding; written
// otherwise (bleve's own formatting, a config), it is decoded, and one that
// is damaged or names another kind of index is refused in words.
func TestIndexMeta(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	x, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	meta := filepath.Join(dir, "index_meta.json")
	for _, c := range []struct{ meta, refused string }{
		{`{"storage":"boltdb","index_type":"scorch"}`, ""},
		{"{\n  \"index_type\": \"scorch\",\n  \"storage\": \"boltdb\",\n  \"config\": {\"unsafe_batch\": false}\n}\n", ""},
		{`{"storage":"boltdb","index_type":"upside_down"}`, `it is a bleve index of type "upside_down", not "scorch"`},
		{`{"storage":"boltdb","index_type":`, "its index_meta.json is damaged"},
	} {
		if err := os.WriteFile(meta, []byte(c.meta), 0o644); err != nil {
			t.Fatal(err)
		}
		x, err := Open(dir)
		if err == nil {
			x.Close()
		}
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s: %v", c.meta, err)
		case c.refused != "" && (err == nil || !fault.Is(err, fault.IndexBroken) || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s: %v, want it refused: %s", c.meta, err, c.refused)
		}
	}
	if err := os.Remove(meta); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "its index_meta.json is missing") {
		t.Errorf("without index_meta.json: %v", err)
	}
}

// Chunks cuts items as a plain reference does: the title, the first
// paragraph's heading if another, then paragraphs while they fit.
func TestChunks(t *testing.T) {
	reference := func(it *item.Item) []string {
		var chunks []string
		var b strings.Builder
		for _, p := range it.Paragraphs {
			if b.Len() > 0 && b.Len()+len(p.Text) > ChunkChars {
				chunks = append(chunks, b.String())
				b.Reset()
			}
			if b.Len() == 0 {
				b.WriteString(it.Title + "\n")
				if p.Heading != "" && p.Heading != it.Title {
					b.WriteString(p.Heading + "\n")
				}
			}
			b.WriteString(p.Text + "\n")
		}
		if b.Len() > 0 {
			chunks = append(chunks, b.String())
		}
		if len(chunks) == 0 {
			chunks = []string{it.Title}
		}
		return chunks
	}
	rnd := rand.New(rand.NewPCG(4, 0))
	many := 0
	for round := range 200 {
		it := &item.Item{Title: strings.Repeat("T", rnd.IntN(30))}
		for range rnd.IntN(40) {
			p := item.Paragraph{Text: strings.Repeat("w ", rnd.IntN(ChunkChars/2))}
			switch rnd.IntN(3) {
			case 0:
				p.Heading = "H" + strings.Repeat("h", rnd.IntN(20))
			case 1:
				p.Heading = it.Title
			}
			it.Paragraphs = append(it.Paragraphs, p)
		}
		want := reference(it)
		var got []string
		for _, c := range Chunks(it) {
			got = append(got, string(c))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: %d chunks, want %d", round, len(got), len(want))
		}
		if len(want) > 2 {
			many++
		}
	}
	if many < 50 {
		t.Errorf("only %d items of more than two chunks", many)
	}
}

// TestDropOldSnapshots checks that DropOldSnapshots leaves in the index's
// folder the segment files of its newest state and no others. A reader held
// across a merge keeps the state before it alive past bleve's cleaning
// between changes (as in a long add, where the last merge's cleaning may
// come before the old state is let go), so without DropOldSnapshots the
// merged files stay until the next writer opens the index.
func TestDropOldSnapshots(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	n := makeSegments(t, dir, 3, 2, 4, 1)
	x, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := x.si.Reader()
	if err != nil {
		t.Fatal(err)
	}
	if err := x.MergeSmallest(1); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if err := x.DropOldSnapshots(); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
	x, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if x.Segments() != 1 || len(files) != 1 {
		t.Errorf("%d segment files in the index's folder for %d segments, want 1 and 1", len(files), x.Segments())
	}
	if hits, err := x.Search("kettle", 100); err != nil || len(hits) != n {
		t.Errorf("%d hits (%v), want %d", len(hits), err, n)
	}
}

// TestReaderBeforeNextWriter checks that a reader waiting for the index
// while a writer has it gets in before the writer's next open (a long add
// opens the index again at once for its next batch): the next Create
// returns only once the reader has the index open.
func TestReaderBeforeNextWriter(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	makeSegments(t, dir, 2)
	x, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	var opened atomic.Bool
	readerIn, readerDone := make(chan error), make(chan bool)
	go func() {
		r, err := Open(dir) // waits: the writer has the index
		opened.Store(err == nil)
		readerIn <- err
		if err == nil {
			<-readerDone
			r.Close()
		}
	}()
	// The reader is waiting once it holds its turn: it tries the index
	// every 50 ms from then on.
	for start := time.Now(); ; time.Sleep(time.Millisecond) {
		f, err := os.Open(filepath.Join(dir, turnFile))
		if err == nil {
			busy := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil
			if !busy {
				syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			}
			f.Close()
			if busy {
				break
			}
		}
		if time.Since(start) > time.Minute { // a hang, not a measure
			t.Fatal("the reader never waited for the index")
		}
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	next := make(chan error)
	var after bool // the reader had the index when the writer's next open returned
	go func() {
		x, err := Create(dir)
		after = opened.Load()
		if err == nil {
			err = x.Close()
		}
		next <- err
	}()
	if err := <-readerIn; err != nil {
		t.Fatal(err)
	}
	close(readerDone)
	if err := <-next; err != nil {
		t.Fatal(err)
	}
	if !after {
		t.Error("the writer's next open came before the reader waiting for the index")
	}
}

// A new index has its turn file from the start, so that a search waiting
// during a new library's first batch is seen by the writer's next open.
func TestCreateMakesTurnFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	x, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if _, err := os.Stat(filepath.Join(dir, turnFile)); err != nil {
		t.Errorf("a new index has no %s: %v", turnFile, err)
	}
}
