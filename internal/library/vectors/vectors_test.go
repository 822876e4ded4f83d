package vectors

import (
	"context"
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/testsupport/stagetest"
)

func unit(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / math.Sqrt(s))
	}
	return v
}

func TestDotInt8(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 16, 31, 32, 33, 64, 100, 384, 768, 1000} {
		a, b := make([]int8, n), make([]int8, n)
		var want int32
		for i := range a {
			a[i], b[i] = int8(r.IntN(255)-127), int8(r.IntN(255)-127)
			want += int32(a[i]) * int32(b[i])
		}
		if got := dotInt8(a, b); got != want {
			t.Errorf("dotInt8 of %d values = %d, want %d", n, got, want)
		}
		if got := dotInt8Generic(a, b); got != want {
			t.Errorf("dotInt8Generic of %d values = %d, want %d", n, got, want)
		}
	}
	// The extremes: every product 127², then -127·127.
	a := make([]int8, 384)
	for i := range a {
		a[i] = 127
	}
	if got := dotInt8(a, a); got != 384*127*127 {
		t.Errorf("dot of all 127 = %d", got)
	}
}

func TestQuantize(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	v := make([]float32, 384)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	unit(v)
	q := make([]int8, len(v))
	scale := Quantize(v, q)
	var worst float64
	for i := range v {
		worst = max(worst, math.Abs(float64(v[i])-float64(scale)*float64(q[i])))
	}
	if worst > float64(scale)/2+1e-7 {
		t.Errorf("quantizing is off by %v, more than half a step (%v)", worst, scale/2)
	}
	zero := make([]float32, 8)
	if s := Quantize(zero, q[:8]); s != 0 {
		t.Errorf("a zero vector has scale %v", s)
	}
}

// id makes a full item id from a short name.
func id(name string) string {
	return strings.Repeat("0", 64-len(name)) + name
}

var modelA = Model{Name: "model-a", SHA256: strings.Repeat("a", 64), Dims: 4}

func TestWriteSearch(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, modelA)
	if err != nil {
		t.Fatal(err)
	}
	// Hand-made vectors: the question points along the first axis; item b's
	// second paragraph is nearest, then item a's first.
	add := func(name string, vs ...[]float32) {
		t.Helper()
		for _, v := range vs {
			unit(v)
		}
		if err := w.Add(id(name), vs); err != nil {
			t.Fatal(err)
		}
	}
	add("a", []float32{0.8, 0.6, 0, 0}, []float32{0, 0, 1, 0})
	add("b", []float32{0, 1, 0, 0}, []float32{0.99, 0.1, 0, 0}, []float32{-1, 0, 0, 0})
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	add("c") // an item without paragraphs is embedded too
	add("d", []float32{0.5, 0.5, 0.5, 0.5})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Items() != 4 || s.Paragraphs() != 6 || !s.Has(id("c")) || s.Has(id("e")) {
		t.Errorf("store has %d items, %d paragraphs", s.Items(), s.Paragraphs())
	}
	ms, err := s.Search([]float32{1, 0, 0, 0}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		item string
		para int
		cos  float64
	}{{"b", 1, 0.995}, {"a", 0, 0.8}, {"d", 0, 0.5}}
	if len(ms) != len(want) {
		t.Fatalf("Search = %+v", ms)
	}
	for i, m := range ms {
		if m.ItemID != id(want[i].item) || m.Paragraph != want[i].para || math.Abs(float64(m.Score)-want[i].cos) > 0.01 {
			t.Errorf("match %d = %s ¶%d %.3f, want %s ¶%d %.3f", i, m.ItemID[60:], m.Paragraph, m.Score, want[i].item, want[i].para, want[i].cos)
		}
	}
	if _, err := s.Search([]float32{1, 0}, 3); err == nil {
		t.Error("a question of the wrong dimensions is searched")
	}
	size, _ := os.Stat(filepath.Join(dir, dataFile))
	if size.Size() != headerLen+6*int64(RecordBytes(4)) {
		t.Errorf("the data file is %d bytes", size.Size())
	}
}

func TestOtherModelRefused(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, modelA)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(id("a"), [][]float32{unit([]float32{1, 1, 0, 0})})
	w.Close()
	other := Model{Name: "model-a", SHA256: strings.Repeat("b", 64), Dims: 4}
	_, err = Create(dir, other)
	var om *OtherModelError
	if !errors.As(err, &om) || om.Have.SHA256 != modelA.SHA256 {
		t.Fatalf("Create with another model: %v", err)
	}
	if !strings.Contains(err.Error(), "were made by model-a (sha256 aaaaaaaaaaaa…), not by the embedding model model-a (sha256 bbbbbbbbbbbb…)") {
		t.Errorf("message: %v", err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(other); !errors.As(err, &om) {
		t.Errorf("Check with another model: %v", err)
	}
	if err := s.Check(modelA); err != nil {
		t.Errorf("Check with its own model: %v", err)
	}
	if _, err := Open(t.TempDir()); !errors.Is(err, ErrNotBuilt) {
		t.Errorf("Open of nothing: %v", err)
	}
}

// TestTornWrite: records written without their entry (a writer killed
// between the two syncs) are not searched, and the next writer cuts them off.
func TestTornWrite(t *testing.T) {
	dir := t.TempDir()
	w, _ := Create(dir, modelA)
	w.Add(id("a"), [][]float32{unit([]float32{1, 0, 0, 0})})
	w.Close()
	f, _ := os.OpenFile(filepath.Join(dir, dataFile), os.O_APPEND|os.O_WRONLY, 0)
	f.Write(make([]byte, 3*RecordBytes(4)+5)) // records of an item never committed
	f.Close()
	f, _ = os.OpenFile(filepath.Join(dir, itemsFile), os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte("half an entry"))
	f.Close()

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Items() != 1 || s.Paragraphs() != 1 {
		t.Errorf("after a torn write the store has %d items, %d paragraphs", s.Items(), s.Paragraphs())
	}
	s.Close()
	w, err = Create(dir, modelA)
	if err != nil {
		t.Fatal(err)
	}
	if !w.Has(id("a")) || w.Has(id("b")) {
		t.Error("the writer does not know what is embedded")
	}
	w.Add(id("b"), [][]float32{unit([]float32{0, 1, 0, 0})})
	w.Close()
	s, _ = Open(dir)
	defer s.Close()
	ms, _ := s.Search([]float32{0, 1, 0, 0}, 1)
	if len(ms) != 1 || ms[0].ItemID != id("b") || ms[0].Paragraph != 0 {
		t.Errorf("after repair: %+v", ms)
	}
}

// wordsEmbedder makes vectors from the words of a text (each word adds to
// a dimension chosen by its hash), so that texts sharing words are close:
// a stand-in for a model whose right answers are known.
type wordsEmbedder struct {
	dims  int
	calls int
	texts int
	fail  int // fail on this call (1-based), 0: never
}

func (e *wordsEmbedder) Embed(texts []string) ([][]float32, error) {
	e.calls++
	if e.fail == e.calls {
		return nil, errors.New("the model fell over")
	}
	e.texts += len(texts)
	out := make([][]float32, len(texts))
	for i, s := range texts {
		v := make([]float32, e.dims)
		v[0] = 0.01
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !('a' <= r && r <= 'z') }) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%uint32(e.dims)]++
		}
		out[i] = unit(v)
	}
	return out, nil
}

func testLibrary(t *testing.T) *library.Library {
	t.Helper()
	lib, err := stagetest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func TestUpdateAndResume(t *testing.T) {
	lib := testLibrary(t)
	m := Model{Name: "words", SHA256: strings.Repeat("1", 64), Dims: 64}
	// The first run fails on its second batch (one paragraph per batch):
	// what was committed stays.
	e := &wordsEmbedder{dims: 64, fail: 3}
	_, err := Update(context.Background(), lib, e, UpdateOptions{Model: m, Batch: 1, CommitEvery: 1})
	if err == nil {
		t.Fatal("a failing embedder is not reported")
	}
	s, err := Open(Dir(lib.Dir))
	if err != nil {
		t.Fatal(err)
	}
	first := s.Items()
	s.Close()
	if first == 0 || first >= 4 {
		t.Fatalf("after the failure %d items are embedded", first)
	}
	e2 := &wordsEmbedder{dims: 64}
	var progress []int
	st, err := Update(context.Background(), lib, e2, UpdateOptions{Model: m, Progress: func(done, total int) { progress = append(progress, done, total) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Items != 4-first || st.Total != 4 {
		t.Errorf("resumed run: %+v (the first run embedded %d items)", st, first)
	}
	if e2.texts != st.Paragraphs || len(progress) == 0 || progress[len(progress)-2] != progress[len(progress)-1] {
		t.Errorf("resumed run embedded %d texts for %d paragraphs; progress %v", e2.texts, st.Paragraphs, progress)
	}
	// Nothing left to do.
	e3 := &wordsEmbedder{dims: 64}
	if st, err := Update(context.Background(), lib, e3, UpdateOptions{Model: m}); err != nil || st.Items != 0 || e3.calls != 0 {
		t.Errorf("third run: %+v, %v, %d calls", st, err, e3.calls)
	}

	// The store finds the paragraph about storing tea for a question in its words.
	s, _ = Open(Dir(lib.Dir))
	defer s.Close()
	q, _ := e3.Embed([]string{"airtight tin away from light"})
	ms, err := s.Search(q[0], 1)
	if err != nil || len(ms) != 1 || ms[0].ItemID != stagetest.TeaNotes || ms[0].Paragraph != 3 {
		t.Errorf("Search = %+v, %v", ms, err)
	}
}

func TestUpdateCancelled(t *testing.T) {
	lib := testLibrary(t)
	m := Model{Name: "words", SHA256: strings.Repeat("1", 64), Dims: 64}
	ctx, cancel := context.WithCancel(context.Background())
	e := &wordsEmbedder{dims: 64}
	n := 0
	_, err := Update(ctx, lib, e, UpdateOptions{Model: m, Batch: 1, Progress: func(done, total int) {
		if n++; n == 2 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Update: %v", err)
	}
	s, _ := Open(Dir(lib.Dir))
	got := s.Items()
	s.Close()
	if got < 2 || got >= 4 {
		t.Errorf("a cancelled Update kept %d items", got)
	}
}

func TestUpdateOtherModelAndRebuild(t *testing.T) {
	lib := testLibrary(t)
	m1 := Model{Name: "words", SHA256: strings.Repeat("1", 64), Dims: 64}
	if _, err := Update(context.Background(), lib, &wordsEmbedder{dims: 64}, UpdateOptions{Model: m1}); err != nil {
		t.Fatal(err)
	}
	// sponge add with another model does not mix vectors.
	m2 := Model{Name: "words-32", SHA256: strings.Repeat("2", 64), Dims: 32}
	var om *OtherModelError
	if _, err := Update(context.Background(), lib, &wordsEmbedder{dims: 32}, UpdateOptions{Model: m2, Only: []string{stagetest.Coffee}}); !errors.As(err, &om) {
		t.Fatalf("add with another model: %v", err)
	}
	// Setup with the other model makes a new store and swaps it in.
	e := &wordsEmbedder{dims: 32}
	st, err := Update(context.Background(), lib, e, UpdateOptions{Model: m2})
	if err != nil || st.Replaced == nil || st.Replaced.Name != "words" || st.Total != 4 {
		t.Fatalf("switch: %+v, %v", st, err)
	}
	s, err := Open(Dir(lib.Dir))
	if err != nil || s.Model().Name != "words-32" || s.Items() != 4 {
		t.Fatalf("after the switch: %v", err)
	}
	s.Close()
	if exists(newDir(lib.Dir)) || exists(Dir(lib.Dir)+".old") {
		t.Error("the switch left a folder behind")
	}

	// Rebuild (reindex) copies the vectors of saved items and drops removed ones.
	w, err := library.OpenWriter(lib.Dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Remove(stagetest.Coffee); err != nil {
		t.Fatal(err)
	}
	w.Close()
	e = &wordsEmbedder{dims: 32}
	st, err = Update(context.Background(), lib, e, UpdateOptions{Model: m2, Rebuild: true})
	if err != nil || st.Total != 3 || st.Copied != st.Paragraphs || e.calls != 0 {
		t.Fatalf("rebuild: %+v, %v, %d calls", st, err, e.calls)
	}
	s, _ = Open(Dir(lib.Dir))
	if s.Has(stagetest.Coffee) || !s.Has(stagetest.TeaNotes) {
		t.Error("rebuild kept a removed item or lost a saved one")
	}
	s.Close()

	// An item read again (reindex --extract) is embedded anew, even with
	// as many paragraphs as before.
	tea, err := lib.Item(stagetest.TeaNotes)
	if err != nil {
		t.Fatal(err)
	}
	e = &wordsEmbedder{dims: 32}
	st, err = Update(context.Background(), lib, e, UpdateOptions{Model: m2, Rebuild: true, Changed: map[string]bool{stagetest.TeaNotes: true}})
	if err != nil || st.Paragraphs-st.Copied != len(tea.Paragraphs) || e.calls == 0 {
		t.Fatalf("rebuild with a changed item: %+v, %v, %d calls, %d paragraphs", st, err, e.calls, len(tea.Paragraphs))
	}
	s, _ = Open(Dir(lib.Dir))
	defer s.Close()
	q, _ := e.Embed([]string{"whisk chasen tines foam"})
	if ms, _ := s.Search(q[0], 1); len(ms) != 1 || ms[0].ItemID != stagetest.Podcast || ms[0].Paragraph != 1 {
		t.Errorf("after rebuild: %+v", ms)
	}
}
