package vectors_test

// The tests of Update run on the stage tests' library, which is written by
// internal/library/ingest; ingest embeds through this package, so these
// tests are outside it.

import (
	"context"
	"errors"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
	. "github.com/sponge-library/sponge/internal/library/vectors"
	"github.com/sponge-library/sponge/internal/testsupport/stagetest"
)

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
		out[i] = Unit(v)
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
	if Exists(NewDir(lib.Dir)) || Exists(Dir(lib.Dir)+".old") {
		t.Error("the switch left a folder behind")
	}

	// Rebuild (reindex) copies the vectors of saved items and drops removed ones.
	w, err := ingest.OpenWriter(lib.Dir, nil)
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
