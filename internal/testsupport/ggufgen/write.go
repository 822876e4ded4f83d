package ggufgen

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/model/gguf"
)

// Spec describes a random-weight model for WriteRandom. Speed depends on the
// shape and the tensor type, not on the weights, so a random model with a real
// model's shape measures what the real one would.
//
// Unless Tokenizer gives a real model's tokenizer (see Families), the
// vocabulary is made up, SentencePiece-style (tokenizer.ggml.model "llama") with
// byte fallback: <unk>, the special tokens, the 256 byte tokens <0x00>..<0xFF>,
// the printable ASCII characters, then Words with every prefix (so each word
// becomes one token, as in a trained vocabulary), then pieces from inside the
// words, then unused tokens up to VocabSize. Real Qwen 2.5 models use a
// byte-level BPE tokenizer instead; an SPM vocabulary of the same size costs
// the same per token in the output layer and in sampling, and with the
// benchmark text's words in it a prompt takes about as many tokens as with the
// real tokenizer, without writing 150,000 BPE merges.
type Spec struct {
	Name         string
	Architecture string // "llama", "qwen2" (which adds Q/K/V biases) or "gemma3"
	// VocabSize is the number of tokens; 0 means just the base tokens and Words.
	VocabSize int
	// Words get a token each (with a leading space, as "▁word").
	Words []string

	EmbeddingLength   int
	FeedForwardLength int
	BlockCount        int
	HeadCount         int
	HeadCountKV       int
	// HeadDim is the width of one attention head, when it is not
	// EmbeddingLength/HeadCount (Gemma 3: 256).
	HeadDim       int
	ContextLength int
	// SlidingWindow is the attention window of Gemma 3's local layers.
	SlidingWindow int
	RopeFreqBase  float32
	// Type is the type of the weight matrices: gguf.F32, gguf.F16, gguf.Q8_0 or gguf.Q4_0.
	// Norms and biases are always gguf.F32.
	Type gguf.TensorType
	// TiedEmbeddings leaves out output.weight: llama.cpp then uses
	// token_embd.weight for the output layer, as Qwen 2.5 0.5B and Llama 3.2 1B do.
	TiedEmbeddings bool

	// ChatTemplate is written as tokenizer.chat_template.
	ChatTemplate string
	// Special are control tokens (chat markers) added after <unk>.
	Special []string
	// BOS and EOS name the begin and end tokens; they are added to the
	// vocabulary when not among Special. AddBOS sets tokenizer.ggml.add_bos_token.
	BOS, EOS string
	AddBOS   bool

	// Tokenizer, when set, is a real model's tokenizer, written instead of
	// the made-up vocabulary of VocabSize, Words, Special, BOS and EOS name
	// tokens of it then.
	Tokenizer *Tokenizer

	// Seed makes the weights; the same Spec always gives the same file.
	Seed uint64
}

// headDim is the width of one attention head.
func (s Spec) headDim() int {
	if s.HeadDim > 0 {
		return s.HeadDim
	}
	return s.EmbeddingLength / s.HeadCount
}

// ChatMLTemplate is a Qwen 2.5 style chat template (the markers are what
// matters: internal/chat chooses the format from them).
const ChatMLTemplate = `{%- for message in messages %}{{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- endif %}`

// Llama3Template is a Llama 3 style chat template.
const Llama3Template = `{{- bos_token }}{%- for message in messages %}{{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{%- endif %}`

// Tiny is a model small enough to write and load in a test in milliseconds:
// llama architecture, gguf.F32, a vocabulary of about 1,000 tokens with byte
// fallback, and a ChatML template.
func Tiny() Spec {
	return Spec{
		Name:              "sponge-tiny-random",
		Architecture:      "llama",
		VocabSize:         1024,
		Words:             CommonWords,
		EmbeddingLength:   64,
		FeedForwardLength: 128,
		BlockCount:        2,
		HeadCount:         4,
		HeadCountKV:       2,
		ContextLength:     4096,
		RopeFreqBase:      10000,
		Type:              gguf.F32,
		ChatTemplate:      ChatMLTemplate,
		Special:           []string{"<|im_start|>", "<|im_end|>"},
		BOS:               "<s>",
		EOS:               "<|im_end|>",
		AddBOS:            false,
		// With seed 10 the random weights happen to choose to write
		// statements for the tests' questions (many seeds choose Done).
		Seed: 10,
	}
}

// Qwen25_05B has the shape of Qwen2.5-0.5B-Instruct in gguf.Q8_0: 24 blocks,
// 896 wide, 14 heads (2 for keys and values), 151,936 tokens, tied embeddings.
func Qwen25_05B(words []string) Spec {
	return Spec{
		Name:              "qwen2.5-0.5b-shape-random-q8_0",
		Architecture:      "qwen2",
		VocabSize:         151936,
		Words:             words,
		EmbeddingLength:   896,
		FeedForwardLength: 4864,
		BlockCount:        24,
		HeadCount:         14,
		HeadCountKV:       2,
		ContextLength:     32768,
		RopeFreqBase:      1000000,
		Type:              gguf.Q8_0,
		TiedEmbeddings:    true,
		ChatTemplate:      ChatMLTemplate,
		Special:           []string{"<|endoftext|>", "<|im_start|>", "<|im_end|>"},
		BOS:               "<|endoftext|>",
		EOS:               "<|im_end|>",
		Seed:              2,
	}
}

// Llama32_1B has the shape of Llama-3.2-1B-Instruct in gguf.Q4_0: 16 blocks,
// 2048 wide, 32 heads (8 for keys and values), 128,256 tokens, tied embeddings.
func Llama32_1B(words []string) Spec {
	return Spec{
		Name:              "llama-3.2-1b-shape-random-q4_0",
		Architecture:      "llama",
		VocabSize:         128256,
		Words:             words,
		EmbeddingLength:   2048,
		FeedForwardLength: 8192,
		BlockCount:        16,
		HeadCount:         32,
		HeadCountKV:       8,
		ContextLength:     131072,
		RopeFreqBase:      500000,
		Type:              gguf.Q4_0,
		TiedEmbeddings:    true,
		ChatTemplate:      Llama3Template,
		Special:           []string{"<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"},
		BOS:               "<|begin_of_text|>",
		EOS:               "<|eot_id|>",
		AddBOS:            true,
		Seed:              3,
	}
}

// Token types of tokenizer.ggml.token_type.
const (
	tokenNormal      = 1
	tokenUnknown     = 2
	tokenControl     = 3
	tokenUserDefined = 4
	tokenUnused      = 5
	tokenByte        = 6
)

type vocab struct {
	tokens []string
	scores []float32
	types  []int32
	index  map[string]int
	size   int // the vocabulary's size; 0: as many tokens as are added
}

func newVocab(size int) *vocab { return &vocab{index: map[string]int{}, size: size} }

// full reports whether the vocabulary has its size.
func (v *vocab) full() bool { return v.size > 0 && len(v.tokens) >= v.size }

// addPieces adds the pieces of 2 to 6 characters from inside the words, as
// a trained vocabulary has ("tion", "ing"), each scored by score(length).
func (v *vocab) addPieces(words []string, lower bool, score func(n int) float32) {
	for n := 2; n <= 6 && !v.full(); n++ {
		for _, w := range words {
			if lower {
				w = strings.ToLower(w)
			}
			rs := []rune(w)
			for i := 1; i+n <= len(rs) && !v.full(); i++ {
				v.add(string(rs[i:i+n]), score(n), tokenNormal)
			}
			if v.full() {
				break
			}
		}
	}
}

// fillUnused fills the vocabulary up to its size with unused tokens named
// by format from number first on, and fails when the tokens added before
// are more than its size.
func (v *vocab) fillUnused(format string, first int) error {
	for i := first; !v.full() && v.size > 0; i++ {
		v.add(fmt.Sprintf(format, i), 0, tokenUnused)
	}
	if v.size > 0 && len(v.tokens) > v.size {
		return fmt.Errorf("vocabulary size %d is smaller than the %d base tokens", v.size, len(v.tokens))
	}
	return nil
}

func (v *vocab) add(tok string, score float32, typ int32) bool {
	if _, ok := v.index[tok]; ok || tok == "" {
		return false
	}
	v.index[tok] = len(v.tokens)
	v.tokens = append(v.tokens, tok)
	v.scores = append(v.scores, score)
	v.types = append(v.types, typ)
	return true
}

// buildVocab makes the SPM vocabulary described on Spec.
func buildVocab(s Spec) (*vocab, error) {
	v := newVocab(s.VocabSize)
	v.add("<unk>", 0, tokenUnknown)
	for _, t := range append(slices.Clone(s.Special), s.BOS, s.EOS) {
		v.add(t, 0, tokenControl)
	}
	for b := range 256 {
		v.add(fmt.Sprintf("<0x%02X>", b), 0, tokenByte)
	}
	v.add("▁", 1, tokenNormal)
	for c := '!'; c <= '~'; c++ {
		v.add(string(c), 1, tokenNormal)
	}
	for _, r := range "“”‘’–—…°±×μαβ" {
		v.add(string(r), 1, tokenNormal)
	}
	// Each word with all its prefixes, so that SPM's pairwise merging can
	// always grow a word's first piece into the whole word.
	for _, w := range s.Words {
		w = strings.ReplaceAll(w, " ", "")
		rs := []rune(w)
		for i := 1; i <= len(rs) && !v.full(); i++ {
			v.add("▁"+string(rs[:i]), float32(i)+0.5, tokenNormal)
		}
		if v.full() {
			break
		}
	}
	v.addPieces(s.Words, false, func(n int) float32 { return float32(n) })
	if err := v.fillUnused("<unused%d>", 0); err != nil {
		return nil, err
	}
	return v, nil
}

// Words returns the distinct words of text, most frequent first (ties in
// order of first use): a word is a run of letters, digits, apostrophes and
// hyphens.
func Words(text string) []string {
	count := map[string]int{}
	var order []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '-')
	}) {
		w = strings.Trim(w, "'-")
		if w == "" || utf8.RuneCountInString(w) > 24 {
			continue
		}
		if count[w] == 0 {
			order = append(order, w)
		}
		count[w]++
	}
	slices.SortStableFunc(order, func(a, b string) int { return count[b] - count[a] })
	return order
}

// CommonWords are the words of the Tiny model's vocabulary.
var CommonWords = strings.Fields(`the of and to in is was that for it with as on be by at this are from or
have an they which one you were her all she there would their we him been has when who will more no if out
so said what up its about into than them can only other new some could time these two may then do first
any my now such like our over man me even most made after also did many before must through back years where
much your way well down should because each just those people how too little state good very make world
still own see men work long get here between both life being under never day same another know while last might
us great old year off come since against go came right used take three green tea water leaves cup hot cold
brewed steeped minutes degrees flavour bitter sweet health study studies found cells protein risk effect
effects patients results data model models increase decrease level levels high low blood heart brain sleep
memory learning reading book books page paper note notes passage question answer quote statement library
river mountain city village garden tree trees flower flowers bird birds sun moon star stars light dark night
morning evening summer winter spring autumn rain snow wind storm sea ocean lake forest field stone road
bridge house door window room table chair bread milk salt sugar coffee wine fruit apple orange lemon`)

// WriteRandom writes a random-weight GGUF model of spec s to path, through a
// temporary file renamed into place.
func WriteRandom(path string, s Spec) error {
	if s.Architecture != "llama" && s.Architecture != "qwen2" && s.Architecture != "gemma3" {
		return fmt.Errorf("gguf: cannot write architecture %q", s.Architecture)
	}
	if s.HeadCount == 0 || (s.HeadDim == 0 && s.EmbeddingLength%s.HeadCount != 0) || s.HeadCountKV == 0 || s.HeadCount%s.HeadCountKV != 0 {
		return fmt.Errorf("gguf: %d heads (%d for keys and values) do not divide %d", s.HeadCount, s.HeadCountKV, s.EmbeddingLength)
	}
	if s.Type != gguf.F32 && s.Type != gguf.F16 && s.Type != gguf.Q8_0 && s.Type != gguf.Q4_0 {
		return fmt.Errorf("gguf: cannot write tensors of type %v", s.Type)
	}
	if s.Type != gguf.F32 && s.Type != gguf.F16 && (s.EmbeddingLength%32 != 0 || s.FeedForwardLength%32 != 0) {
		return fmt.Errorf("gguf: %v needs widths that are multiples of 32", s.Type)
	}
	if s.Tokenizer != nil {
		tensors := s.tensors(len(s.Tokenizer.Tokens))
		return writeFile(path, s.Seed, tensors, func(w *writer) { s.header(w, nil, tensors) })
	}
	v, err := buildVocab(s)
	if err != nil {
		return fmt.Errorf("gguf: %v", err)
	}
	tensors := s.tensors(len(v.tokens))
	return writeFile(path, s.Seed, tensors, func(w *writer) { s.header(w, v, tensors) })
}

// writeFile writes a model to path through a temporary file: the header,
// then each tensor with random weights from seed, aligned.
func writeFile(path string, seed uint64, tensors []tensor, header func(w *writer)) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gguf-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := &writer{w: bufio.NewWriterSize(tmp, 1<<20)}
	header(w)
	rng := rand.New(rand.NewPCG(seed, 0x5350_4f4e_4745)) // "SPONGE"
	for _, t := range tensors {
		w.pad()
		t.write(w, rng)
	}
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if w.err != nil {
		tmp.Close()
		return w.err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

type tensor struct {
	name string
	dims []uint64 // ne0 (row length) first
	typ  gguf.TensorType
	// fill: "ones" for norms, "small" for biases, "" for weights.
	fill  string
	scale float32 // largest weight magnitude
}

func (t tensor) elems() uint64 {
	n := uint64(1)
	for _, d := range t.dims {
		n *= d
	}
	return n
}

func (t tensor) bytes() uint64 {
	return t.typ.Bytes(t.elems())
}

func (s Spec) tensors(nvocab int) []tensor {
	e, ff := uint64(s.EmbeddingLength), uint64(s.FeedForwardLength)
	hd := uint64(s.headDim())
	q, kv := hd*uint64(s.HeadCount), hd*uint64(s.HeadCountKV)
	nv := uint64(nvocab)
	mat := func(name string, in, out uint64) tensor {
		return tensor{name: name, dims: []uint64{in, out}, typ: s.Type, scale: float32(1.7 / math.Sqrt(float64(in)))}
	}
	vec := func(name string, n uint64, fill string) tensor {
		return tensor{name: name, dims: []uint64{n}, typ: gguf.F32, fill: fill, scale: 0.02}
	}
	ts := []tensor{mat("token_embd.weight", e, nv), vec("output_norm.weight", e, "ones")}
	ts[0].scale = 1
	if !s.TiedEmbeddings {
		ts = append(ts, mat("output.weight", e, nv))
	}
	for i := range s.BlockCount {
		b := fmt.Sprintf("blk.%d.", i)
		ts = append(ts,
			vec(b+"attn_norm.weight", e, "ones"),
			mat(b+"attn_q.weight", e, q),
			mat(b+"attn_k.weight", e, kv),
			mat(b+"attn_v.weight", e, kv),
			mat(b+"attn_output.weight", q, e),
			vec(b+"ffn_norm.weight", e, "ones"),
			mat(b+"ffn_gate.weight", e, ff),
			mat(b+"ffn_up.weight", e, ff),
			mat(b+"ffn_down.weight", ff, e),
		)
		switch s.Architecture {
		case "qwen2":
			ts = append(ts, vec(b+"attn_q.bias", q, "small"), vec(b+"attn_k.bias", kv, "small"), vec(b+"attn_v.bias", kv, "small"))
		case "gemma3":
			// Gemma 3 norms the queries and keys, and the outputs of
			// attention and of the feed-forward block.
			ts = append(ts,
				vec(b+"attn_q_norm.weight", hd, "ones"), vec(b+"attn_k_norm.weight", hd, "ones"),
				vec(b+"post_attention_norm.weight", e, "ones"), vec(b+"post_ffw_norm.weight", e, "ones"))
		}
	}
	return ts
}

// header writes everything before the tensor data.
func (s Spec) header(w *writer, v *vocab, ts []tensor) {
	a := s.Architecture
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
		{a + ".attention.head_count_kv", uint32(s.HeadCountKV)},
		{a + ".attention.layer_norm_rms_epsilon", float32(1e-6)},
		{a + ".rope.freq_base", s.RopeFreqBase},
		{a + ".rope.dimension_count", uint32(s.headDim())},
	}
	if s.HeadDim > 0 {
		kvs = append(kvs, kv{a + ".attention.key_length", uint32(s.HeadDim)}, kv{a + ".attention.value_length", uint32(s.HeadDim)})
	}
	if s.SlidingWindow > 0 {
		kvs = append(kvs, kv{a + ".attention.sliding_window", uint32(s.SlidingWindow)})
	}
	if t := s.Tokenizer; t != nil {
		kvs = append(kvs,
			kv{"tokenizer.ggml.model", t.Model},
			kv{"tokenizer.ggml.pre", t.Pre},
			kv{"tokenizer.ggml.tokens", t.Tokens},
			kv{"tokenizer.ggml.token_type", t.Types})
		if t.Scores != nil {
			kvs = append(kvs, kv{"tokenizer.ggml.scores", t.Scores})
		}
		if t.Merges != nil {
			kvs = append(kvs, kv{"tokenizer.ggml.merges", t.Merges})
		}
		if id := t.id("<unk>"); id >= 0 {
			kvs = append(kvs, kv{"tokenizer.ggml.unknown_token_id", uint32(id)})
		}
		if id := t.id("<pad>"); id >= 0 {
			kvs = append(kvs, kv{"tokenizer.ggml.padding_token_id", uint32(id)})
		}
		kvs = append(kvs,
			kv{"tokenizer.ggml.bos_token_id", uint32(t.id(s.BOS))},
			kv{"tokenizer.ggml.eos_token_id", uint32(t.id(s.EOS))},
			kv{"tokenizer.ggml.add_bos_token", s.AddBOS},
			kv{"tokenizer.ggml.add_eos_token", false})
		if t.Model == "llama" {
			// Gemma's normalizer writes no space before the text.
			kvs = append(kvs, kv{"tokenizer.ggml.add_space_prefix", false})
		}
	} else {
		kvs = append(kvs,
			kv{"tokenizer.ggml.model", "llama"},
			kv{"tokenizer.ggml.tokens", v.tokens},
			kv{"tokenizer.ggml.scores", v.scores},
			kv{"tokenizer.ggml.token_type", v.types},
			kv{"tokenizer.ggml.unknown_token_id", uint32(0)},
			kv{"tokenizer.ggml.bos_token_id", uint32(v.index[s.BOS])},
			kv{"tokenizer.ggml.eos_token_id", uint32(v.index[s.EOS])},
			kv{"tokenizer.ggml.add_bos_token", s.AddBOS},
			kv{"tokenizer.ggml.add_eos_token", false})
	}
	if s.ChatTemplate != "" {
		kvs = append(kvs, kv{"tokenizer.chat_template", s.ChatTemplate})
	}
	w.header(kvs, ts)
}

// kv is one metadata entry of a GGUF header.
type kv struct {
	key string
	val any
}

// header writes the GGUF header: magic, version 3, the metadata, and each
// tensor's name, shape, type and offset (aligned to 32 bytes).
func (w *writer) header(kvs []kv, ts []tensor) {
	w.raw([]byte(gguf.Magic))
	w.u32(3)
	w.u64(uint64(len(ts)))
	w.u64(uint64(len(kvs)))
	for _, p := range kvs {
		w.str(p.key)
		w.value(p.val)
	}
	var off uint64
	for _, t := range ts {
		w.str(t.name)
		w.u32(uint32(len(t.dims)))
		for _, d := range t.dims {
			w.u64(d)
		}
		w.u32(uint32(t.typ))
		w.u64(off)
		off += (t.bytes() + 31) / 32 * 32
	}
}

// writer writes little-endian values and keeps the first error.
type writer struct {
	w   *bufio.Writer
	n   int64
	err error
	b   [8]byte
}

func (w *writer) raw(p []byte) {
	if w.err != nil {
		return
	}
	_, w.err = w.w.Write(p)
	w.n += int64(len(p))
}

func (w *writer) u32(x uint32) { binary.LittleEndian.PutUint32(w.b[:4], x); w.raw(w.b[:4]) }
func (w *writer) u64(x uint64) { binary.LittleEndian.PutUint64(w.b[:8], x); w.raw(w.b[:8]) }
func (w *writer) f32(x float32) {
	w.u32(math.Float32bits(x))
}
func (w *writer) str(s string) { w.u64(uint64(len(s))); w.raw([]byte(s)) }

func (w *writer) value(v any) {
	switch x := v.(type) {
	case string:
		w.u32(gguf.ValueString)
		w.str(x)
	case uint32:
		w.u32(gguf.ValueUint32)
		w.u32(x)
	case float32:
		w.u32(gguf.ValueFloat32)
		w.f32(x)
	case bool:
		w.u32(gguf.ValueBool)
		if x {
			w.raw([]byte{1})
		} else {
			w.raw([]byte{0})
		}
	case []string:
		w.u32(gguf.ValueArray)
		w.u32(gguf.ValueString)
		w.u64(uint64(len(x)))
		for _, s := range x {
			w.str(s)
		}
	case []float32:
		w.u32(gguf.ValueArray)
		w.u32(gguf.ValueFloat32)
		w.u64(uint64(len(x)))
		for _, f := range x {
			w.f32(f)
		}
	case []int32:
		w.u32(gguf.ValueArray)
		w.u32(gguf.ValueInt32)
		w.u64(uint64(len(x)))
		for _, i := range x {
			w.u32(uint32(i))
		}
	default:
		panic(fmt.Sprintf("gguf: no encoding for %T", v))
	}
}

// pad writes zeros up to the next 32-byte boundary, GGUF's default alignment.
func (w *writer) pad() {
	if r := w.n % 32; r != 0 {
		w.raw(make([]byte, 32-r))
	}
}

// write writes the tensor's random data. Quantized blocks get one scale for
// the whole tensor and random quants, so every weight lies in ±scale.
func (t tensor) write(w *writer, rng *rand.Rand) {
	n := t.elems()
	buf := make([]byte, 0, 1<<16)
	flush := func() {
		w.raw(buf)
		buf = buf[:0]
	}
	switch t.typ {
	case gguf.F32, gguf.F16:
		for i := uint64(0); i < n; i++ {
			x := float32(1)
			switch t.fill {
			case "ones":
			case "small":
				x = (rng.Float32()*2 - 1) * t.scale
			default:
				x = (rng.Float32()*2 - 1) * t.scale
			}
			if t.typ == gguf.F32 {
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
			} else {
				buf = binary.LittleEndian.AppendUint16(buf, float16(x))
			}
			if len(buf) >= cap(buf)-8 {
				flush()
			}
		}
	case gguf.Q8_0:
		d := float16(t.scale / 127)
		for i := uint64(0); i < n/32; i++ {
			buf = binary.LittleEndian.AppendUint16(buf, d)
			for range 4 {
				buf = binary.LittleEndian.AppendUint64(buf, rng.Uint64())
			}
			if len(buf) >= cap(buf)-64 {
				flush()
			}
		}
	case gguf.Q4_0:
		d := float16(t.scale / 8)
		for i := uint64(0); i < n/32; i++ {
			buf = binary.LittleEndian.AppendUint16(buf, d)
			buf = binary.LittleEndian.AppendUint64(buf, rng.Uint64())
			buf = binary.LittleEndian.AppendUint64(buf, rng.Uint64())
			if len(buf) >= cap(buf)-64 {
				flush()
			}
		}
	}
	flush()
}

// float16 converts x to IEEE half precision, rounding toward zero (enough
// for random weights).
func float16(x float32) uint16 {
	b := math.Float32bits(x)
	sign := uint16(b>>16) & 0x8000
	exp := int((b>>23)&0xff) - 127 + 15
	mant := (b >> 13) & 0x3ff
	switch {
	case exp <= 0:
		return sign // too small: zero
	case exp >= 31:
		return sign | 0x7bff // largest finite
	}
	return sign | uint16(exp)<<10 | uint16(mant)
}

// fileType is general.file_type (llama.cpp's LLAMA_FTYPE_*) for a model whose
// matrices are of type t.
func fileType(t gguf.TensorType) uint32 {
	switch t {
	case gguf.F16:
		return 1
	case gguf.Q4_0:
		return 2
	case gguf.Q8_0:
		return 7
	}
	return 0 // all gguf.F32
}
