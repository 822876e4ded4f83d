//go:build !cgo

package llamaembed

import "github.com/sponge-library/sponge/internal/model/embed"

// HasRuntime reports whether this build runs models in-process.
const HasRuntime = false

// Model is an embedding model loaded in this process; a build without cgo
// has none.
type Model struct{}

// Load fails in a build without cgo: there is no llama.cpp.
func Load(path string, opt embed.Options) (*Model, error) {
	if _, err := embed.Inspect(path); err != nil {
		return nil, err
	}
	return nil, embed.ErrNoRuntime
}

func (m *Model) Info() embed.Info                          { return embed.Info{} }
func (m *Model) Tokens(text string) (int, error)           { return 0, embed.ErrNoRuntime }
func (m *Model) Embed(texts []string) ([][]float32, error) { return nil, embed.ErrNoRuntime }
func (m *Model) Close() error                              { return nil }
