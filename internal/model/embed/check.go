package embed

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/model/gguf"
)

// Inspect reads the header of the GGUF file at path in pure Go and checks
// that it is an embedding model llama.cpp can run with pooling, before it
// reaches llama.cpp (which may abort the process on a malformed file). It is
// what `sponge setup --embedding --from FILE` checks first.
func Inspect(path string) (Info, error) {
	gi, err := gguf.ReadInfo(path)
	if err != nil {
		return Info{}, err
	}
	return infoOf(gi)
}

func infoOf(gi *gguf.Info) (Info, error) {
	info := Info{Path: gi.Path, Name: gi.Name, Architecture: gi.Architecture, Dims: gi.EmbeddingLength, ContextLength: gi.ContextLength}
	if info.Name == "" {
		info.Name = strings.TrimSuffix(filepath.Base(gi.Path), filepath.Ext(gi.Path))
	}
	if !embeddingArchitectures[gi.Architecture] {
		return info, &gguf.Error{Path: gi.Path, Msg: fmt.Sprintf("is a %q model, not an embedding model (such as bge-small-en-v1.5, architecture \"bert\")", gi.Architecture)}
	}
	if gi.VocabSize == 0 || gi.TokenizerModel == "" {
		return info, &gguf.Error{Path: gi.Path, Msg: "has no tokenizer vocabulary"}
	}
	if info.Dims <= 0 {
		return info, &gguf.Error{Path: gi.Path, Msg: "does not say its embedding length"}
	}
	p, ok := metaInt(gi.Metadata[gi.Architecture+".pooling_type"])
	if !ok || poolingNames[p] == "" {
		return info, &gguf.Error{Path: gi.Path, Msg: "does not say how it pools token vectors into one (no " + gi.Architecture + ".pooling_type)"}
	}
	info.Pooling = poolingNames[p]
	if info.ContextLength <= 0 {
		info.ContextLength = 512
	}
	return info, nil
}

func metaInt(v any) (int, bool) {
	switch x := v.(type) {
	case uint64:
		return int(x), true
	case int64:
		return int(x), true
	}
	return 0, false
}
