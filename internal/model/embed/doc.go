// Package embed turns text into vectors with an embedding model (a BERT-style
// GGUF such as bge-small-en-v1.5) run by llama.cpp, for meaning search.
//
// Load runs the model in-process; it needs cgo (see the Makefile's llama
// block), and without it reports that this build has no model runtime. A
// program built without cgo (the sponge command) uses the helper instead:
// StartHelper runs `sponge-embed --serve`, which loads the model once and
// answers requests on its stdin and stdout. Start picks whichever this build
// can do. Every Embedder gives unit-length vectors, so a dot product is the
// cosine similarity.
package embed

import (
	"errors"
	"math"
	"strings"
)

// Embedder turns texts into unit-length vectors.
type Embedder interface {
	// Embed returns one vector per text, in order. Texts longer than the
	// model's context are cut to it.
	Embed(texts []string) ([][]float32, error)
	Info() Info
	Close() error
}

// Info describes a loaded embedding model.
type Info struct {
	Path         string `json:"path"`
	Name         string `json:"name"`         // general.name, or the file name
	Architecture string `json:"architecture"` // e.g. "bert"
	Dims         int    `json:"dims"`
	// Pooling is how token vectors become one vector: "cls", "mean" or "last".
	Pooling string `json:"pooling"`
	// ContextLength is the most tokens of a text the model reads.
	ContextLength int `json:"contextLength"`
}

// Options tune Load. The zero value is good.
type Options struct {
	// Threads is the number of CPU threads, each with a context of its own
	// that encodes whole steps; 0 means one per core.
	Threads int
	// BatchTokens is how many tokens are encoded in one step, several texts
	// together; 0 means 512. Attention costs the square of it, so larger is
	// not faster.
	BatchTokens int
}

// ErrNoRuntime is returned by Load in a build without cgo.
var ErrNoRuntime = errors.New("this build has no model runtime (it was built without cgo)")

// Conventions are the prefixes a model was trained to see before a search
// question and before a passage; they matter (bge finds less without its
// query instruction).
type Conventions struct {
	QueryPrefix    string
	DocumentPrefix string
}

// ConventionsFor returns the prefixes of the model family named name
// (general.name or the file name): bge's English models, nomic-embed-text
// and e5 have theirs; others (all-MiniLM, gte) use none.
func ConventionsFor(name string) Conventions {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "nomic-embed") || strings.Contains(n, "nomic embed"):
		return Conventions{QueryPrefix: "search_query: ", DocumentPrefix: "search_document: "}
	case strings.Contains(n, "bge") && !strings.Contains(n, "bge-m3") && !strings.Contains(n, "zh"):
		return Conventions{QueryPrefix: "Represent this sentence for searching relevant passages: "}
	case strings.Contains(n, "e5-") || strings.HasPrefix(n, "e5"):
		return Conventions{QueryPrefix: "query: ", DocumentPrefix: "passage: "}
	}
	return Conventions{}
}

// Normalize scales v to unit length in place (a zero vector stays zero).
func Normalize(v []float32) {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(ss))
	for i := range v {
		v[i] *= inv
	}
}

// embeddingArchitectures are the llama.cpp architectures that make
// embeddings with pooling (v0.17.4's LLM_ARCH_NAMES).
var embeddingArchitectures = map[string]bool{
	"bert": true, "nomic-bert": true, "nomic-bert-moe": true, "neo-bert": true,
	"jina-bert-v2": true, "jina-bert-v3": true, "gemma-embedding": true,
}

// poolingNames are the values of <arch>.pooling_type.
var poolingNames = map[int]string{1: "mean", 2: "cls", 3: "last"}
