package ingest

import (
	"context"
	"errors"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/vectors"
	"github.com/sponge-library/sponge/internal/model/embed"
)

// ErrNoEmbeddingModel: the library has no embedding model set up, so there
// is nothing to embed with.
var ErrNoEmbeddingModel = errors.New("no embedding model is set up")

// EmbedOptions say what Embed embeds and how it waits.
type EmbedOptions struct {
	vectors.UpdateOptions
	// Models is the shared models folder (settings.Environ.ModelsDir), where
	// the embedding model is looked for before the library's own.
	Models string
	// Wait makes Embed wait for another process that is embedding the
	// library (Waiting is told); without it Embed fails with vectors.ErrLocked.
	Wait    bool
	Waiting func()
	// Start loads the embedding model; nil is embed.Start (a sponge-embed
	// child in a build without cgo).
	Start func(path string) (embed.Embedder, error)
}

// Embedded is what Embed did, and with which model.
type Embedded struct {
	vectors.Stats
	Model vectors.Model
}

// Embed brings the paragraph vectors up to date with the library's
// embedding model (vectors.Update), holding the vectors lock while it works.
// Progress goes to opt.Progress.
func Embed(ctx context.Context, lib *library.Library, opt EmbedOptions) (Embedded, error) {
	path, model, err := vectors.Installed(opt.Models, lib)
	if err != nil {
		return Embedded{}, err
	}
	if path == "" {
		return Embedded{}, ErrNoEmbeddingModel
	}
	lock, err := vectors.TakeLock(lib.Dir, opt.Wait, opt.Waiting)
	if err != nil {
		return Embedded{}, err
	}
	defer lock.Unlock()
	start := opt.Start
	if start == nil {
		start = func(path string) (embed.Embedder, error) { return embed.Start(path, embed.Options{}) }
	}
	emb, err := start(path)
	if err != nil {
		return Embedded{}, err
	}
	defer emb.Close()
	info := emb.Info()
	model.Dims = info.Dims
	up := opt.UpdateOptions
	up.Model = model
	up.DocumentPrefix = embed.ConventionsFor(info.Name + " " + model.Name).DocumentPrefix
	st, err := vectors.Update(ctx, lib, emb, up)
	return Embedded{Stats: st, Model: model}, err
}
