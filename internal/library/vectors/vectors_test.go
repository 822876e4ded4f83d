package vectors

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
