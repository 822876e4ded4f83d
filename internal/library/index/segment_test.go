package index

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/character"
	"github.com/blevesearch/bleve/v2/document"
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/blevesearch/vellum"
	zap "github.com/blevesearch/zapx/v17"
)

// What the segments built by zapx v17.2.5 as published hold, for the
// documents of TestSegmentAsStock (the SHA-256 of segmentDump): sponge's copy
// (internal/third_party/zapx) builds a segment faster, and must build the
// same, so that the index files are those stock bleve writes and reads (see
// its SPONGE.md). Stock zapx does not write the same bytes twice: the order
// of a field's sections follows a map's.
var stockSegments = []string{
	"f3989898f81055aa734b5cd72d8266e729c647c3bfd458ee0e13a3587e9aedb2",
	"aba7c13179d7a91cd6d05c137673935f7124676efaa45443b15ca4170a4524bc",
	"3d599fd9439f3e5a74a1f2265b3472d8e84d0d14c86c05922bb332b733b7ed96",
	"2f1e83781c6d248f6e83bb0d0d3e2014052a3bfa37cf801e198e90bdcea28de9",
	"54df8da042f5981e1af0ab0f9a46557ea29306a392da7effa468bb4ad65cda31",
	"6ad1ac2ba12af5dd4c2f934e169af0a61c0ee570bd067b5ed62e7ab2465141ff",
}

// TestSegmentAsStock builds segments of documents that take every path of
// zapx's segment build (a field twice in a document, term locations, doc
// values, stored-only fields, numbers, a term in every document and terms in
// one, empty documents) one after another, so that the later ones reuse
// what the first left in zapx's pool, and compares what they hold, and their
// size, with what stock zapx builds.
func TestSegmentAsStock(t *testing.T) {
	var got []string
	// zapx's copy takes its own way unless a document has a field twice
	// (twice) or a field keeps its terms' locations (locations):
	for i, n := range []int{4200, 3, 300, 1, 500, 300} {
		docs := segmentDocs(rand.New(rand.NewPCG(uint64(i), 7)), n, i%3 == 1, i%3 == 2)
		seg, _, err := (&zap.ZapPlugin{}).New(docs)
		if err != nil {
			t.Fatal(err)
		}
		dump, err := segmentDump(seg.(*zap.SegmentBase))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%x", sha256.Sum256(dump)))
		seg.Close()
	}
	if strings.Join(got, "\n") != strings.Join(stockSegments, "\n") {
		t.Errorf("segments differ from stock zapx's:\n%q\nwant\n%q", got, stockSegments)
	}
}

// segmentDocs makes n analysed documents of random words; with twice, some
// documents have a field twice; with locations, some fields keep their terms'
// locations.
func segmentDocs(r *rand.Rand, n int, twice, locations bool) []bindex.Document {
	words := func(k, vocabulary int) []byte {
		var b []byte
		for j := range k {
			if j > 0 {
				b = append(b, ' ')
			}
			// Zipf-like: low numbers are common
			w := int(float64(vocabulary) * r.Float64() * r.Float64() * r.Float64())
			b = fmt.Appendf(b, "w%d", w)
		}
		return b
	}
	spaces := &analysis.DefaultAnalyzer{Tokenizer: character.NewCharacterTokenizer(func(c rune) bool { return c != ' ' })}
	docs := make([]bindex.Document, 0, n)
	for i := range n {
		d := document.NewDocument(fmt.Sprintf("item%d/%d", r.IntN(n), i))
		d.AddField(document.NewTextFieldCustom("item", nil, fmt.Appendf(nil, "item%d", i/3), bindex.IndexField, spaces))
		text := append([]byte("every "), words(r.IntN(80), 5000)...)
		if i%97 == 5 {
			text = nil // no terms at all
		}
		d.AddField(document.NewTextFieldCustom("text", nil, text, bindex.IndexField, spaces))
		if twice && i%5 == 0 {
			// the same field again: its terms merge with the first's
			d.AddField(document.NewTextFieldCustom("text", nil, words(r.IntN(20), 50), bindex.IndexField, spaces))
		}
		if locations && i%3 == 0 {
			d.AddField(document.NewTextFieldCustom("body", []uint64{uint64(i % 4)}, words(r.IntN(30), 300), bindex.IndexField|bindex.IncludeTermVectors|bindex.StoreField, spaces))
		}
		if i%4 != 1 {
			d.AddField(document.NewTextFieldCustom("tag", nil, words(1+r.IntN(3), 20), bindex.IndexField|bindex.DocValues, spaces))
		}
		d.AddField(document.NewTextFieldCustom("title", nil, words(r.IntN(6), 1000), bindex.StoreField, nil))
		if i%7 == 0 {
			d.AddField(document.NewNumericField("year", nil, float64(1900+r.IntN(200))))
		}
		d.VisitFields(func(f bindex.Field) { f.Analyze() })
		d.AddIDField()
		docs = append(docs, d)
	}
	return docs
}

// segmentDump writes out what a segment holds, in an order of its own: its
// size, documents, fields, every term of every field with its postings
// (document, frequency, norm, locations), and every document's stored fields
// and doc values.
func segmentDump(sb *zap.SegmentBase) ([]byte, error) {
	var out bytes.Buffer
	var size bytes.Buffer
	if _, err := sb.WriteTo(&size); err != nil {
		return nil, err
	}
	fmt.Fprintf(&out, "size %d docs %d fields %q\n", size.Len(), sb.Count(), sb.Fields())
	for _, field := range sb.Fields() {
		d, err := sb.Dictionary(field)
		if err != nil {
			return nil, err
		}
		it := d.AutomatonIterator(&vellum.AlwaysMatch{}, nil, nil)
		for e, err := it.Next(); e != nil || err != nil; e, err = it.Next() {
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&out, "%s %q %d:", field, e.Term, e.Count)
			pl, err := d.PostingsList([]byte(e.Term), nil, nil)
			if err != nil {
				return nil, err
			}
			pi := pl.Iterator(true, true, true, nil)
			for p, err := pi.Next(); p != nil || err != nil; p, err = pi.Next() {
				if err != nil {
					return nil, err
				}
				fmt.Fprintf(&out, " %d/%d/%g", p.Number(), p.Frequency(), p.Norm())
				for _, l := range p.Locations() {
					fmt.Fprintf(&out, "@%s,%d,%d,%d,%v", l.Field(), l.Start(), l.End(), l.Pos(), l.ArrayPositions())
				}
			}
			out.WriteByte('\n')
		}
	}
	dvFields, err := sb.VisitableDocValueFields()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&out, "doc values %q\n", dvFields)
	for n := range sb.Count() {
		err := sb.VisitStoredFields(n, func(field string, typ byte, value []byte, pos []uint64) bool {
			fmt.Fprintf(&out, "%d stored %s %c %q %v\n", n, field, typ, value, pos)
			return true
		})
		if err != nil {
			return nil, err
		}
		_, err = sb.VisitDocValues(n, dvFields, func(field string, term []byte) {
			fmt.Fprintf(&out, "%d value %s %q\n", n, field, term)
		}, nil)
		if err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

// smallDocs makes n analysed documents of a word or two: "every" in all,
// "tenth" in every tenth, "one" in one.
func smallDocs(n int) []bindex.Document {
	spaces := &analysis.DefaultAnalyzer{Tokenizer: character.NewCharacterTokenizer(func(c rune) bool { return c != ' ' })}
	docs := make([]bindex.Document, 0, n)
	for i := range n {
		d := document.NewDocument(fmt.Sprintf("small%d", i))
		text := "every"
		switch {
		case i == n/2:
			text += " one"
		case i%10 == 0:
			text += " tenth"
		}
		d.AddField(document.NewTextFieldCustom("text", nil, []byte(text), bindex.IndexField, spaces))
		d.VisitFields(func(f bindex.Field) { f.Analyze() })
		d.AddIDField()
		docs = append(docs, d)
	}
	return docs
}

// BenchmarkSegmentBuild is zapx's segment build of 2,000 documents of about
// a hundred words (a writer's batch is 1,000–3,000 chunks): compare builds
// with and without go.mod's replace of zapx.
func BenchmarkSegmentBuild(b *testing.B) {
	docs := segmentDocs(rand.New(rand.NewPCG(1, 2)), 2000, false, false)
	b.ReportAllocs()
	for b.Loop() {
		seg, _, err := (&zap.ZapPlugin{}).New(docs)
		if err != nil {
			b.Fatal(err)
		}
		seg.Close()
	}
}

// BenchmarkSegmentBuildAfterGC is BenchmarkSegmentBuild with the collector
// run twice before each build, as between a writer's batches of a long add:
// zapx's pool of interims is then empty, and each build starts from nothing.
func BenchmarkSegmentBuildAfterGC(b *testing.B) {
	docs := segmentDocs(rand.New(rand.NewPCG(1, 2)), 2000, false, false)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		runtime.GC()
		b.StartTimer()
		seg, _, err := (&zap.ZapPlugin{}).New(docs)
		if err != nil {
			b.Fatal(err)
		}
		seg.Close()
	}
}

// What stock zapx v17.2.5 makes of mergeSegments' merge (the SHA-256 of
// segmentDump and the new document numbers).
const stockMerge = "f829be526f4273b35a2b459c6c2ac11b183baba8d7d37095f8175b1dc37eda25"

// TestMergeAsStock merges segments of documents that take every path
// (mergeSegments) and compares what the merged segment holds, and the new
// numbers of the documents, with what stock zapx merges: sponge's copy
// merges faster, and must merge the same.
func TestMergeAsStock(t *testing.T) {
	t.Parallel() // TestSegmentAsStock, which counts on what zapx's pool holds, stays serial
	got, err := mergeSegments(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if got != stockMerge {
		t.Errorf("merged segment differs from stock zapx's:\n%s\nwant\n%s", got, stockMerge)
	}
}

// mergeSegments builds four segments (one with a field twice in some
// documents, one with term locations), merges them with some documents of
// two of them dropped, and returns the SHA-256 of what the merged segment
// holds and of the documents' new numbers.
func mergeSegments(dir string) (string, error) {
	var segs []segment.Segment
	var drops []*roaring.Bitmap
	for i, n := range []int{900, 200, 4300, 40} {
		docs := segmentDocs(rand.New(rand.NewPCG(uint64(i), 11)), n, i == 1, i == 3)
		s, _, err := (&zap.ZapPlugin{}).New(docs)
		if err != nil {
			return "", err
		}
		defer s.Close()
		segs = append(segs, s)
		var drop *roaring.Bitmap
		if i%2 == 0 {
			drop = roaring.New()
			for d := 0; d < n; d += 3 + i {
				drop.Add(uint32(d))
			}
		}
		drops = append(drops, drop)
	}
	// Past 65,536 documents a postings list is more than one roaring
	// container: a segment of small documents, some dropped.
	s, _, err := (&zap.ZapPlugin{}).New(smallDocs(70000))
	if err != nil {
		return "", err
	}
	defer s.Close()
	drop := roaring.New()
	for d := 0; d < 70000; d += 1000 {
		drop.AddRange(uint64(d), uint64(d+7))
	}
	segs, drops = append(segs, s), append(drops, drop)
	path := filepath.Join(dir, "merged.zap")
	numbers, _, err := (&zap.ZapPlugin{}).Merge(segs, drops, path, nil, nil)
	if err != nil {
		return "", err
	}
	merged, err := (&zap.ZapPlugin{}).Open(path)
	if err != nil {
		return "", err
	}
	defer merged.Close()
	dump, err := segmentDump(&merged.(*zap.Segment).SegmentBase)
	if err != nil {
		return "", err
	}
	dump = fmt.Appendf(dump, "new numbers %v\n", numbers)
	return fmt.Sprintf("%x", sha256.Sum256(dump)), nil
}

// BenchmarkSegmentMerge is zapx's merge of four segments of 2,000 documents
// each into one file, a tenth of each dropped (a writer merges its batches'
// segments as an add goes on).
func BenchmarkSegmentMerge(b *testing.B) {
	var segs []segment.Segment
	var drops []*roaring.Bitmap
	for i := range 4 {
		s, _, err := (&zap.ZapPlugin{}).New(segmentDocs(rand.New(rand.NewPCG(uint64(i), 3)), 2000, false, false))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		segs = append(segs, s)
		drop := roaring.New()
		for d := i; d < 2000; d += 10 {
			drop.Add(uint32(d))
		}
		drops = append(drops, drop)
	}
	path := filepath.Join(b.TempDir(), "merged.zap")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := (&zap.ZapPlugin{}).Merge(segs, drops, path, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// mapOnly is a field without its TermLists: zapx reads its terms from
// AnalyzedTokenFrequencies, as it reads any bleve field's.
type mapOnly struct{ document.Field }

// A segment of chunk documents (Index.document) holds the same whether zapx
// reads each chunk's terms as lists (chunkField.TermLists) or from bleve's
// map of them.
func TestSegmentOfChunkLists(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 8))
	var words []string
	for _, text := range chunkTexts {
		words = append(words, strings.Fields(text)...)
	}
	texts := make([][]byte, 600)
	for i := range texts {
		for range r.IntN(300) {
			texts[i] = append(append(texts[i], words[r.IntN(len(words))]...), " \n"[r.IntN(2)])
		}
	}
	lists, maps := listsAndMaps(texts, "t", false)
	var dumps [2][]byte
	for k, docs := range [][]bindex.Document{lists, maps} {
		seg, _, err := (&zap.ZapPlugin{}).New(docs)
		if err != nil {
			t.Fatal(err)
		}
		if dumps[k], err = segmentDump(seg.(*zap.SegmentBase)); err != nil {
			t.Fatal(err)
		}
		seg.Close()
	}
	if !bytes.Equal(dumps[0], dumps[1]) {
		t.Errorf("the segment built from term lists differs from the one built from maps")
	}
	if !bytes.Contains(dumps[0], []byte("kettl")) {
		t.Errorf("the segment has not the chunks' terms")
	}
}

// BenchmarkSegmentBuildChunks is zapx's build of a segment of 2,000 chunk
// documents (Index.document) of about a hundred words, already analysed,
// their terms read as lists (chunkField.TermLists) or from bleve's maps of
// them, as zapx reads any other field's.
func BenchmarkSegmentBuildChunks(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	texts := make([][]byte, 2000)
	for i := range texts {
		for range r.IntN(200) {
			texts[i] = fmt.Appendf(texts[i], "w%d ", int(5000*r.Float64()*r.Float64()*r.Float64()))
		}
	}
	lists, maps := listsAndMaps(texts, "", true)
	for _, c := range []struct {
		name string
		docs []bindex.Document
	}{{"lists", lists}, {"maps", maps}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				seg, _, err := (&zap.ZapPlugin{}).New(c.docs)
				if err != nil {
					b.Fatal(err)
				}
				seg.Close()
			}
		})
	}
}

// listsAndMaps makes the chunk document (Index.document) of each text, its
// terms counted, twice: as it is, and with its chunk field a mapOnly, whose
// terms zapx reads from bleve's map. made: each chunk's map is made
// beforehand, as a bleve field holds it.
func listsAndMaps(texts [][]byte, title string, made bool) (lists, maps []bindex.Document) {
	x := &Index{}
	for i, text := range texts {
		d := x.document(fmt.Sprintf("item%d/%d", i/3, i%3), doc{Item: fmt.Sprintf("item%d", i/3), Title: title}, text)
		d.VisitFields(func(f bindex.Field) {
			if f.Options().IsIndexed() {
				f.Analyze()
			}
		})
		d.AddIDField()
		m := document.NewDocument(d.ID())
		for _, f := range d.Fields {
			if cf, ok := f.(*chunkField); ok {
				if made {
					cf.AnalyzedTokenFrequencies()
				}
				f = mapOnly{f}
			}
			m.AddField(f)
		}
		lists, maps = append(lists, d), append(maps, m)
	}
	return lists, maps
}
