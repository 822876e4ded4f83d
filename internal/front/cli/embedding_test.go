package cli

import (
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
	"github.com/sponge-library/sponge/internal/library/vectors"
	"github.com/sponge-library/sponge/internal/model/embed"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
	"github.com/sponge-library/sponge/internal/testsupport/home"
)

// wordVectors stands in for the embedding model: a text's vector counts its
// words by hash. It records how many texts it was given.
type wordVectors struct{ texts *int }

func (e wordVectors) Embed(texts []string) ([][]float32, error) {
	*e.texts += len(texts)
	out := make([][]float32, len(texts))
	for i, s := range texts {
		v := make([]float32, 16)
		for _, w := range strings.Fields(strings.ToLower(s)) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%16]++
		}
		embed.Normalize(v)
		out[i] = v
	}
	return out, nil
}
func (e wordVectors) Info() embed.Info { return embed.Info{Name: "words", Dims: 16, Pooling: "cls"} }
func (e wordVectors) Close() error     { return nil }

func withEmbedding(t *testing.T) *int {
	t.Helper()
	home.Isolate(t)
	n := new(int)
	savedStart, savedCheck := startEmbedding, checkEmbeddingLoads
	startEmbedding = func(string) (embed.Embedder, error) { return wordVectors{n}, nil }
	checkEmbeddingLoads = func(string) error { return nil }
	t.Cleanup(func() { startEmbedding, checkEmbeddingLoads = savedStart, savedCheck })
	return n
}

func writeNotes(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		text := "# " + n + "\n\nThe first paragraph about " + n + ".\n\nThe second paragraph about " + n + " and more.\n"
		if err := os.WriteFile(filepath.Join(dir, n+".md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSetupEmbeddingAddReindex(t *testing.T) {
	texts := withEmbedding(t)
	lib, docs := t.TempDir(), t.TempDir()
	writeNotes(t, docs, "kettles", "teapots", "cups")
	if _, errs, code := runSponge(t, "add", "--library", lib, docs); code != 0 {
		t.Fatalf("add: %s", errs)
	}
	if *texts != 0 {
		t.Fatal("add embedded without an embedding model")
	}
	model := filepath.Join(t.TempDir(), "bert.gguf")
	if err := ggufgen.WriteBert(model, ggufgen.BertTiny()); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runSponge(t, "setup", "--embedding", "--from", model, "--library", lib)
	if code != 0 {
		t.Fatalf("setup --embedding: exit %d: %s", code, errs)
	}
	for _, want := range []string{"Installed the embedding model: sponge-bert-tiny-random", "Embedded 6 paragraphs of 3 items", "Meaning search is on."} {
		if !strings.Contains(out, want) {
			t.Errorf("setup output lacks %q:\n%s", want, out)
		}
	}
	store := func() *vectors.Store {
		s, err := vectors.Open(vectors.Dir(lib))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	if s := store(); s.Items() != 3 || s.Paragraphs() != 6 || s.Model().Dims != 16 {
		t.Errorf("after setup: %d items, %d paragraphs", s.Items(), s.Paragraphs())
	}
	// Again: nothing to do.
	*texts = 0
	out, _, code = runSponge(t, "setup", "--embedding", "--library", lib, "--from", model)
	if code != 0 || *texts != 0 || !strings.Contains(out, "Every paragraph is embedded already (3 items). Meaning search is on.") {
		t.Errorf("second setup: exit %d, %d texts embedded:\n%s", code, *texts, out)
	}

	// sponge add embeds what it saves.
	more := t.TempDir()
	writeNotes(t, more, "saucers")
	if _, errs, code := runSponge(t, "add", "--library", lib, more); code != 0 {
		t.Fatalf("add: %s", errs)
	}
	if *texts != 2 {
		t.Errorf("add embedded %d paragraphs, want 2", *texts)
	}
	if s := store(); s.Items() != 4 {
		t.Errorf("after add: %d items", s.Items())
	}

	// sponge reindex makes the vectors again, keeping those of saved items.
	*texts = 0
	l := &library.Library{Dir: lib}
	ids, _ := l.IDs()
	w, _ := ingest.OpenWriter(lib, nil)
	w.Remove(ids[0])
	w.Close()
	out, errs, code = runSponge(t, "reindex", "--library", lib)
	if code != 0 || !strings.Contains(out, "reindexed 3 items") || *texts != 0 {
		t.Fatalf("reindex: exit %d, %d texts embedded: %s%s", code, *texts, out, errs)
	}
	if s := store(); s.Items() != 3 || s.Has(ids[0]) {
		t.Errorf("after reindex: %d items", s.Items())
	}
}

func TestSetupEmbeddingRefusesWritingModel(t *testing.T) {
	withEmbedding(t)
	lib := t.TempDir()
	model := filepath.Join(t.TempDir(), "qwen.gguf")
	if err := ggufgen.WriteRandom(model, ggufgen.Tiny()); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runSponge(t, "setup", "--embedding", "--from", model, "--library", lib)
	if code != 1 || !strings.Contains(errs, `is a "llama" model, not an embedding model`) {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(modelsDir(), "embedding.gguf")); err == nil {
		t.Error("a writing model was installed as the embedding model")
	}
}
