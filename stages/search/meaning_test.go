package search

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/vectors"
	"github.com/sponge-library/sponge/internal/model/catalog"
	"github.com/sponge-library/sponge/internal/model/embed"
	"github.com/sponge-library/sponge/internal/testsupport/stagetest"
	"github.com/sponge-library/sponge/jsonl"
)

// conceptEmbedder is a hand-made model whose right answers are known: each
// dimension is a concept, and a text's vector counts the words of each
// concept it uses. Texts without such words get a zero vector (no match).
type conceptEmbedder struct{ queries []string }

var concepts = [][]string{
	{"container", "tin", "jar", "sealed", "airtight"},
	{"whisk", "chasen", "tines"},
	{"espresso", "pressure", "bars"},
	{"temperature", "degrees", "hot", "boil", "boiling"},
}

func (e *conceptEmbedder) Embed(texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 8)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !('a' <= r && r <= 'z') }) {
			for c, ws := range concepts {
				for _, x := range ws {
					if w == x {
						v[c]++
					}
				}
			}
		}
		embed.Normalize(v)
		out[i] = v
	}
	if len(texts) == 1 {
		e.queries = append(e.queries, texts[0])
	}
	return out, nil
}

func (e *conceptEmbedder) Info() embed.Info {
	return embed.Info{Name: "concepts", Dims: 8, Pooling: "cls", ContextLength: 512}
}
func (e *conceptEmbedder) Close() error { return nil }

// meaningLibrary is the test library with an embedding model "installed"
// (a manifest and a stand-in file) and its paragraphs embedded by hand.
func meaningLibrary(t *testing.T) (string, *conceptEmbedder) {
	t.Helper()
	dir := t.TempDir()
	lib, err := stagetest.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	installFake(t, lib, strings.Repeat("c", 64))
	e := &conceptEmbedder{}
	_, m, err := vectors.Installed("", lib) // no shared models folder: the library's own
	if err != nil {
		t.Fatal(err)
	}
	m.Dims = 8
	if _, err := vectors.Update(context.Background(), lib, e, vectors.UpdateOptions{Model: m}); err != nil {
		t.Fatal(err)
	}
	old := startEmbedder
	startEmbedder = func(path string) func() (embed.Embedder, error) {
		return func() (embed.Embedder, error) { return e, nil }
	}
	t.Cleanup(func() { startEmbedder = old })
	return dir, e
}

func installFake(t *testing.T, lib *library.Library, sha string) {
	t.Helper()
	data := []byte("GGUF stand-in")
	os.MkdirAll(catalog.OwnDir(lib.Dir), 0o755)
	if err := os.WriteFile(filepath.Join(catalog.OwnDir(lib.Dir), catalog.Embedding.File()), data, 0o644); err != nil {
		t.Fatal(err)
	}
	mf, _ := json.Marshal(catalog.Manifest{Kind: catalog.Embedding, Name: "concepts", File: catalog.Embedding.File(), SHA256: sha, Size: int64(len(data))})
	if err := os.WriteFile(filepath.Join(catalog.OwnDir(lib.Dir), catalog.Embedding.ManifestFile()), mf, 0o644); err != nil {
		t.Fatal(err)
	}
}

func intp(i int) *int { return &i }

func hitsOf(t *testing.T, out string) ([]*jsonl.Hit, []*jsonl.Warning) {
	t.Helper()
	var hits []*jsonl.Hit
	var warns []*jsonl.Warning
	r := jsonl.NewReader(strings.NewReader(out), "<stdout>")
	for {
		l, err := r.Next()
		if err != nil {
			break
		}
		switch rec := l.Record.(type) {
		case *jsonl.Hit:
			hits = append(hits, rec)
		case *jsonl.Warning:
			warns = append(warns, rec)
		}
	}
	return hits, warns
}

// TestMeaningOnly: words the library does not use still find the item
// whose paragraph means the same, and name that paragraph.
func TestMeaningOnly(t *testing.T) {
	lib, e := meaningLibrary(t)
	r := stagetest.Run(Main, []string{"--library", lib, "sealed container"}, nil, "whole")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	hits, warns := hitsOf(t, r.Stdout)
	if len(warns) != 0 {
		t.Errorf("warnings with meaning search set up: %+v", warns[0])
	}
	want := []*jsonl.Hit{{Header: jsonl.Header{V: 1, Type: "hit"}, ItemID: stagetest.TeaNotes, Title: "Tea notes", Source: "/home/ana/notes/tea.md", Kind: "markdown",
		Score: round(60.0 / 61), Rank: 1, FoundBy: []string{"meaning"}, Paragraph: intp(3)}}
	if d := cmp.Diff(want, hits); d != "" {
		t.Errorf("hits (-want +got):\n%s", d)
	}
	// The question goes to the model with bge's query prefix only if the
	// model is bge: this one is not.
	if len(e.queries) != 1 || e.queries[0] != "sealed container" {
		t.Errorf("the model was asked %q", e.queries)
	}
}

// TestBothKinds: an item found by keyword and by meaning is marked so, and
// outranks items found one way only.
func TestBothKinds(t *testing.T) {
	lib, _ := meaningLibrary(t)
	r := stagetest.Run(Main, []string{"--library", lib, "--limit", "3", "whisk the tea"}, nil, "whole")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	hits, _ := hitsOf(t, r.Stdout)
	if len(hits) != 3 {
		t.Fatalf("%d hits: %s", len(hits), r.Stdout)
	}
	top := hits[0]
	if top.ItemID != stagetest.Podcast || !cmp.Equal(top.FoundBy, []string{"keyword", "meaning"}) || top.Paragraph == nil || *top.Paragraph != 1 {
		t.Errorf("top hit: %+v", top)
	}
	for _, h := range hits[1:] {
		if !cmp.Equal(h.FoundBy, []string{"keyword"}) || h.Paragraph != nil || h.Score >= top.Score {
			t.Errorf("other hit: %+v", h)
		}
	}
}

// TestMeaningRefused: vectors made by another model are not used, and the
// warning says why and what to do.
func TestMeaningRefused(t *testing.T) {
	lib, _ := meaningLibrary(t)
	installFake(t, &library.Library{Dir: lib}, strings.Repeat("d", 64))
	r := stagetest.Run(Main, []string{"--library", lib, "a sealed container about tea"}, nil, "whole")
	hits, warns := hitsOf(t, r.Stdout)
	if r.Code != 0 || len(warns) != 1 || warns[0].Code != jsonl.WarnSemanticUnavailable ||
		!strings.Contains(warns[0].Message, "were made by concepts (sha256 cccccccccccc…), not by the embedding model concepts (sha256 dddddddddddd…)") ||
		warns[0].Hint != "run sponge setup --embedding to embed the paragraphs with the installed model" {
		t.Fatalf("exit %d, warnings %+v", r.Code, warns)
	}
	for _, h := range hits {
		if !cmp.Equal(h.FoundBy, []string{"keyword"}) {
			t.Errorf("hit found by %v with refused vectors", h.FoundBy)
		}
	}

	os.RemoveAll(vectors.Dir(lib))
	r = stagetest.Run(Main, []string{"--library", lib, "tea"}, nil, "whole")
	_, warns = hitsOf(t, r.Stdout)
	if len(warns) != 1 || warns[0].Message != "items are found by keyword only: the paragraphs are not embedded yet" {
		t.Errorf("without vectors: %+v", warns)
	}
}

func TestFuse(t *testing.T) {
	got := fuse([]string{"A", "B", "C"}, []meaningHit{{"C", 4, 0.9}, {"D", 0, 0.8}, {"A", 2, 0.7}})
	var order []string
	for _, f := range got {
		order = append(order, f.itemID)
	}
	// A and C tie (1st+3rd places): A's keyword place is better. B and D
	// tie (2nd places): B was found by keyword.
	if !cmp.Equal(order, []string{"A", "C", "B", "D"}) {
		t.Errorf("order %v", order)
	}
	if got[0].paragraph != 2 || got[1].paragraph != 4 || got[2].meaningRank != 0 || got[3].keywordRank != 0 {
		t.Errorf("fused %v", got)
	}
	if want := 60.0/61 + 60.0/63; got[0].score != want {
		t.Errorf("score %v, want %v", got[0].score, want)
	}
}
