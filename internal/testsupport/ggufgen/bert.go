package ggufgen

import (
	"fmt"
	"math"
	"strings"

	"github.com/sponge-library/sponge/internal/model/gguf"
)

// BertSpec describes a random-weight BERT embedding model for WriteBert
// (general.architecture "bert", as llama.cpp loads bge, MiniLM and gte
// models). As with Spec, speed depends on the shape, not on the weights.
//
// The vocabulary is WordPiece-style (tokenizer.ggml.model "bert"), laid out as
// BERT's is: [PAD] 0, [unused0..98], [UNK] 100, [CLS] 101, [SEP] 102,
// [MASK] 103, then every printable ASCII character both at the start of a
// word ("▁a") and inside one ("a"), then Words (lowercase, as "▁word"), then
// pieces from inside the words, then unused tokens up to VocabSize. Any ASCII
// text tokenizes; a word with other characters becomes [UNK], as in BERT.
type BertSpec struct {
	Name string
	// VocabSize is the number of tokens; 0 means just the base tokens and Words.
	VocabSize int
	Words     []string

	EmbeddingLength   int
	FeedForwardLength int
	BlockCount        int
	HeadCount         int
	ContextLength     int
	// Pooling is bert.pooling_type: 1 mean, 2 CLS (the first token).
	Pooling int
	// Type is the type of the weight matrices: gguf.F32, gguf.F16 or gguf.Q8_0. Norms and
	// biases are always gguf.F32.
	Type gguf.TensorType
	Seed uint64
}

// Pooling types of bert.pooling_type (llama.h, enum llama_pooling_type).
const (
	PoolingMean = 1
	PoolingCLS  = 2
)

// BertTiny is a BERT embedding model small enough to write and load in a
// test in milliseconds: 2 blocks, 64 wide, CLS pooling, gguf.F32.
func BertTiny() BertSpec {
	return BertSpec{
		Name:              "sponge-bert-tiny-random",
		Words:             CommonWords,
		EmbeddingLength:   64,
		FeedForwardLength: 128,
		BlockCount:        2,
		HeadCount:         4,
		ContextLength:     512,
		Pooling:           PoolingCLS,
		Type:              gguf.F32,
		Seed:              7,
	}
}

// BgeSmall has the shape of bge-small-en-v1.5 in gguf.Q8_0 (the default
// embedding model): 12 blocks, 384 wide, 12 heads, 1,536 in the feed-forward
// layer, 30,522 tokens, 512 positions, CLS pooling.
func BgeSmall(words []string) BertSpec {
	return BertSpec{
		Name:              "bge-small-en-v1.5-shape-random-q8_0",
		VocabSize:         30522,
		Words:             words,
		EmbeddingLength:   384,
		FeedForwardLength: 1536,
		BlockCount:        12,
		HeadCount:         12,
		ContextLength:     512,
		Pooling:           PoolingCLS,
		Type:              gguf.Q8_0,
		Seed:              4,
	}
}

// The special tokens of a BERT vocabulary, at BERT's ids.
const (
	bertPAD  = 0
	bertUNK  = 100
	bertCLS  = 101
	bertSEP  = 102
	bertMASK = 103
)

func buildBertVocab(s BertSpec) (*vocab, error) {
	v := newVocab(s.VocabSize)
	v.add("[PAD]", 0, tokenControl)
	for i := 0; i < 99; i++ {
		v.add(fmt.Sprintf("[unused%d]", i), 0, tokenUnused)
	}
	v.add("[UNK]", 0, tokenUnknown)
	v.add("[CLS]", 0, tokenControl)
	v.add("[SEP]", 0, tokenControl)
	v.add("[MASK]", 0, tokenControl)
	for c := '!'; c <= '~'; c++ {
		if c >= 'A' && c <= 'Z' {
			continue // WordPiece lowercases the text first
		}
		v.add("▁"+string(c), 0, tokenNormal)
		v.add(string(c), 0, tokenNormal)
	}
	for _, w := range s.Words {
		w = strings.ToLower(strings.ReplaceAll(w, " ", ""))
		if w == "" || v.full() {
			break
		}
		v.add("▁"+w, 0, tokenNormal)
	}
	v.addPieces(s.Words, true, func(int) float32 { return 0 })
	if err := v.fillUnused("[unused%d]", 99); err != nil {
		return nil, err
	}
	return v, nil
}

// WriteBert writes a random-weight BERT embedding model of spec s to path,
// through a temporary file renamed into place.
func WriteBert(path string, s BertSpec) error {
	if s.HeadCount == 0 || s.EmbeddingLength%s.HeadCount != 0 {
		return fmt.Errorf("gguf: %d heads do not divide %d", s.HeadCount, s.EmbeddingLength)
	}
	if s.Type != gguf.F32 && s.Type != gguf.F16 && s.Type != gguf.Q8_0 {
		return fmt.Errorf("gguf: cannot write BERT tensors of type %v", s.Type)
	}
	if s.Type == gguf.Q8_0 && (s.EmbeddingLength%32 != 0 || s.FeedForwardLength%32 != 0) {
		return fmt.Errorf("gguf: %v needs widths that are multiples of 32", s.Type)
	}
	if s.Pooling != PoolingMean && s.Pooling != PoolingCLS {
		return fmt.Errorf("gguf: pooling type %d is neither mean (1) nor CLS (2)", s.Pooling)
	}
	v, err := buildBertVocab(s)
	if err != nil {
		return fmt.Errorf("gguf: %v", err)
	}
	tensors := s.tensors(len(v.tokens))
	return writeFile(path, s.Seed, tensors, func(w *writer) { s.header(w, v, tensors) })
}

func (s BertSpec) tensors(nvocab int) []tensor {
	e, ff := uint64(s.EmbeddingLength), uint64(s.FeedForwardLength)
	mat := func(name string, in, out uint64) tensor {
		return tensor{name: name, dims: []uint64{in, out}, typ: s.Type, scale: float32(1.7 / math.Sqrt(float64(in)))}
	}
	vec := func(name string, n uint64, fill string) tensor {
		return tensor{name: name, dims: []uint64{n}, typ: gguf.F32, fill: fill, scale: 0.02}
	}
	// The embedding tables are looked up, not multiplied: unit-sized rows, so
	// that different tokens give clearly different vectors.
	emb := func(name string, rows uint64) tensor {
		t := mat(name, e, rows)
		t.scale = 1
		return t
	}
	ts := []tensor{
		emb("token_embd.weight", uint64(nvocab)),
		emb("token_types.weight", 2),
		emb("position_embd.weight", uint64(s.ContextLength)),
		vec("token_embd_norm.weight", e, "ones"),
		vec("token_embd_norm.bias", e, "small"),
	}
	// The type and position tables are added to the token vectors as they
	// are (ggml cannot add a quantized row to gguf.F32), so they stay gguf.F32, as in
	// the published quantizations.
	ts[1].scale, ts[2].scale = 0.1, 0.1
	ts[1].typ, ts[2].typ = gguf.F32, gguf.F32
	for i := range s.BlockCount {
		b := fmt.Sprintf("blk.%d.", i)
		ts = append(ts,
			mat(b+"attn_q.weight", e, e), vec(b+"attn_q.bias", e, "small"),
			mat(b+"attn_k.weight", e, e), vec(b+"attn_k.bias", e, "small"),
			mat(b+"attn_v.weight", e, e), vec(b+"attn_v.bias", e, "small"),
			mat(b+"attn_output.weight", e, e), vec(b+"attn_output.bias", e, "small"),
			vec(b+"attn_output_norm.weight", e, "ones"), vec(b+"attn_output_norm.bias", e, "small"),
			mat(b+"ffn_up.weight", e, ff), vec(b+"ffn_up.bias", ff, "small"),
			mat(b+"ffn_down.weight", ff, e), vec(b+"ffn_down.bias", e, "small"),
			vec(b+"layer_output_norm.weight", e, "ones"), vec(b+"layer_output_norm.bias", e, "small"),
		)
	}
	return ts
}

func (s BertSpec) header(w *writer, v *vocab, ts []tensor) {
	const a = "bert"
	kvs := []kv{
		{"general.architecture", a},
		{"general.name", s.Name},
		{"general.file_type", fileType(s.Type)},
		{"general.quantization_version", uint32(2)},
		{a + ".context_length", uint32(s.ContextLength)},
		{a + ".embedding_length", uint32(s.EmbeddingLength)},
		{a + ".block_count", uint32(s.BlockCount)},
		{a + ".feed_forward_length", uint32(s.FeedForwardLength)},
		{a + ".attention.head_count", uint32(s.HeadCount)},
		{a + ".attention.layer_norm_epsilon", float32(1e-12)},
		{a + ".attention.causal", false},
		{a + ".pooling_type", uint32(s.Pooling)},
		{"tokenizer.ggml.model", "bert"},
		{"tokenizer.ggml.tokens", v.tokens},
		{"tokenizer.ggml.token_type", v.types},
		{"tokenizer.ggml.token_type_count", uint32(2)},
		{"tokenizer.ggml.unknown_token_id", uint32(bertUNK)},
		{"tokenizer.ggml.bos_token_id", uint32(bertCLS)},
		{"tokenizer.ggml.cls_token_id", uint32(bertCLS)},
		{"tokenizer.ggml.seperator_token_id", uint32(bertSEP)},
		{"tokenizer.ggml.padding_token_id", uint32(bertPAD)},
		{"tokenizer.ggml.mask_token_id", uint32(bertMASK)},
	}
	w.header(kvs, ts)
}
