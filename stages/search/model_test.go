//go:build cgo

package search

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sponge-library/sponge/internal/library/vectors"
	"github.com/sponge-library/sponge/internal/model/catalog"
	"github.com/sponge-library/sponge/internal/model/catalog/install"
	"github.com/sponge-library/sponge/internal/model/embed"
	"github.com/sponge-library/sponge/internal/model/embed/llamaembed"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
	"github.com/sponge-library/sponge/internal/testsupport/stagetest"
)

// TestMeaningWithModel runs meaning search with a real (random-weight)
// embedding model, loaded the way sponge-search loads it: the item whose
// paragraph is nearest to the question, as the model and the vectors tell
// it here directly, is a hit found by meaning that names that paragraph.
func TestMeaningWithModel(t *testing.T) {
	dir := t.TempDir()
	lib, err := stagetest.Build(filepath.Join(dir, "library"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "bert.gguf")
	if err := ggufgen.WriteBert(file, ggufgen.BertTiny()); err != nil {
		t.Fatal(err)
	}
	if _, err := install.From(context.Background(), catalog.OwnDir(lib.Dir), catalog.Embedding, file, install.Options{}); err != nil {
		t.Fatal(err)
	}
	path, tag, err := vectors.Installed("", lib) // no shared models folder: the library's own
	if err != nil {
		t.Fatal(err)
	}
	m, err := llamaembed.Load(path, embed.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	tag.Dims = m.Info().Dims
	if _, err := vectors.Update(context.Background(), lib, m, vectors.UpdateOptions{Model: tag}); err != nil {
		t.Fatal(err)
	}

	const question = "how hot should the water be for green tea"
	qv, err := m.Embed([]string{embed.ConventionsFor(m.Info().Name+" "+tag.Name).QueryPrefix + question})
	if err != nil {
		t.Fatal(err)
	}
	store, err := vectors.Open(vectors.Dir(lib.Dir))
	if err != nil {
		t.Fatal(err)
	}
	nearest, err := store.Search(qv[0], 1)
	store.Close()
	if err != nil || len(nearest) != 1 {
		t.Fatalf("nearest paragraph: %v, %v", nearest, err)
	}

	r := stagetest.Run(Main, []string{"--library", lib.Dir, "--limit", "20", question}, nil, "whole")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	hits, warns := hitsOf(t, r.Stdout)
	if len(warns) != 0 {
		t.Errorf("warnings: %+v", warns[0])
	}
	var found bool
	for _, h := range hits {
		if h.ItemID == nearest[0].ItemID {
			found = true
			if !slices.Contains(h.FoundBy, "meaning") || h.Paragraph == nil || *h.Paragraph != nearest[0].Paragraph {
				t.Errorf("the nearest paragraph's item: found by %v, paragraph %v; want meaning, %d", h.FoundBy, h.Paragraph, nearest[0].Paragraph)
			}
		}
	}
	if !found {
		t.Errorf("no hit for the item of the nearest paragraph (%s ¶%d):\n%s", nearest[0].ItemID, nearest[0].Paragraph, r.Stdout)
	}
}
