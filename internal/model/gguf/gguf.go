// Package gguf reads the header of GGUF model files, the format llama.cpp
// loads, and writes small random-weight models for tests and benchmarks.
//
// ReadInfo checks a file before it reaches llama.cpp, which may abort the
// whole process on a malformed file: the magic, the version, every metadata
// value and tensor description, and that the file is long enough to hold
// every tensor it describes.
package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
)

// Magic is the first four bytes of every GGUF file.
const Magic = "GGUF"

// Value types of metadata, as stored in the file (the reader here, the
// writer in internal/testsupport/ggufgen).
const (
	ValueUint8   = 0
	ValueInt8    = 1
	ValueUint16  = 2
	ValueInt16   = 3
	ValueUint32  = 4
	ValueInt32   = 5
	ValueFloat32 = 6
	ValueBool    = 7
	ValueString  = 8
	ValueArray   = 9
	ValueUint64  = 10
	ValueInt64   = 11
	ValueFloat64 = 12
)

// Info is what sponge needs to know about a model file before loading it.
type Info struct {
	Path     string
	Version  uint32
	FileSize int64
	// Architecture is general.architecture, e.g. "llama" or "qwen2".
	Architecture string
	// Name is general.name, or "" when the file has none.
	Name string
	// ChatTemplate is tokenizer.chat_template (a Jinja template), or "".
	ChatTemplate string
	// ContextLength is <architecture>.context_length: the longest context the
	// model was trained for, 0 when absent.
	ContextLength int
	// EmbeddingLength and BlockCount describe the shape, 0 when absent.
	EmbeddingLength int
	BlockCount      int
	// TokenizerModel is tokenizer.ggml.model, e.g. "llama" or "gpt2".
	TokenizerModel string
	// VocabSize is the number of tokens in tokenizer.ggml.tokens.
	VocabSize int
	// FileType is general.file_type (llama.cpp's LLAMA_FTYPE_*), -1 if absent.
	FileType    int
	TensorCount int
	// TensorBytes is the size of all tensor data.
	TensorBytes int64
	// Metadata holds every scalar and string value by key; arrays are left out.
	Metadata map[string]any
	// Tensors describes every tensor, in the file's order.
	Tensors []Tensor
}

// Tensor describes one tensor of a model file.
type Tensor struct {
	Name string
	Type TensorType
	// Dims are the lengths of its dimensions, the length of a row first.
	Dims []uint64
	// Offset is where its data starts, from the start of the file.
	Offset int64
	Size   int64 // bytes
}

// Error is a problem with a model file, worded for people: Error() reads
// "PATH: MSG".
type Error struct {
	Path string
	Msg  string
	// Kind is ErrNotGGUF, ErrTruncated or nil.
	Kind error
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }

func (e *Error) Unwrap() error { return e.Kind }

// ErrNotGGUF is wrapped by the error for a file that is not GGUF at all.
var ErrNotGGUF = errors.New("not a GGUF model file")

// ErrTruncated is wrapped by the error for a file cut short.
var ErrTruncated = errors.New("the file is truncated")

// ReadInfo reads and checks the header of the GGUF file at path.
func ReadInfo(path string) (*Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, &Error{Path: path, Msg: "is a folder, not a model file"}
	}
	info, err := readInfo(bufio.NewReaderSize(f, 1<<20), st.Size())
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.Path = path
			return nil, err
		}
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	info.Path = path
	return info, nil
}

// reader reads little-endian values and counts the bytes read, so that no
// length in the file can make it read or allocate past the end.
type reader struct {
	r    *bufio.Reader
	n    int64 // bytes read so far
	size int64 // file size
	buf  [8]byte
}

func (r *reader) truncated() error {
	return &Error{Msg: fmt.Sprintf("%v: it ends at byte %d, inside its header", ErrTruncated, r.size), Kind: ErrTruncated}
}

func (r *reader) read(n int) ([]byte, error) {
	if _, err := io.ReadFull(r.r, r.buf[:n]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, r.truncated()
		}
		return nil, err
	}
	r.n += int64(n)
	return r.buf[:n], nil
}

func (r *reader) u32() (uint32, error) {
	b, err := r.read(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (r *reader) u64() (uint64, error) {
	b, err := r.read(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

func (r *reader) skip(n int64) error {
	if n > r.size-r.n {
		return r.truncated()
	}
	if _, err := r.r.Discard(int(n)); err != nil {
		return r.truncated()
	}
	r.n += n
	return nil
}

// maxKeepString is the longest string value kept in Info.Metadata; longer
// ones (none of the keys sponge uses) are skipped.
const maxKeepString = 1 << 20

func (r *reader) str() (string, error) {
	n, err := r.u64()
	if err != nil {
		return "", err
	}
	if n > uint64(r.size-r.n) {
		return "", r.truncated()
	}
	if n > maxKeepString {
		return "", r.skip(int64(n))
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r.r, b); err != nil {
		return "", r.truncated()
	}
	r.n += int64(n)
	return string(b), nil
}

// scalarSize is the size of a value of each fixed-size type, by number (0:
// not one); an array, laid out by the compiler, as tensorTypes.
var scalarSize = [...]int{
	ValueUint8: 1, ValueInt8: 1, ValueBool: 1,
	ValueUint16: 2, ValueInt16: 2,
	ValueUint32: 4, ValueInt32: 4, ValueFloat32: 4,
	ValueUint64: 8, ValueInt64: 8, ValueFloat64: 8,
}

// sizeOf is the size of a value of type t, 0 if t is not a fixed-size type.
func sizeOf(t uint32) int {
	if int64(t) < int64(len(scalarSize)) {
		return scalarSize[t]
	}
	return 0
}

// value reads one metadata value of type t. Arrays are skipped and reported
// as their length (an int), since sponge needs only the vocabulary size.
func (r *reader) value(t uint32, depth int) (any, error) {
	switch t {
	case ValueString:
		return r.str()
	case ValueArray:
		if depth > 0 {
			return nil, fmt.Errorf("has an array nested in an array")
		}
		et, err := r.u32()
		if err != nil {
			return nil, err
		}
		n, err := r.u64()
		if err != nil {
			return nil, err
		}
		if sz := sizeOf(et); sz > 0 {
			if n > uint64(r.size-r.n)/uint64(sz) {
				return nil, r.truncated()
			}
			return int(n), r.skip(int64(n) * int64(sz))
		}
		if et != ValueString {
			return nil, fmt.Errorf("has an array of unknown value type %d", et)
		}
		// Each string takes at least its 8-byte length.
		if n > uint64(r.size-r.n)/8 {
			return nil, r.truncated()
		}
		for range n {
			l, err := r.u64()
			if err != nil {
				return nil, err
			}
			if err := r.skip(int64(min(l, math.MaxInt64/2))); err != nil {
				return nil, err
			}
		}
		return int(n), nil
	}
	sz := sizeOf(t)
	if sz == 0 {
		return nil, fmt.Errorf("has a value of unknown type %d", t)
	}
	b, err := r.read(sz)
	if err != nil {
		return nil, err
	}
	switch t {
	case ValueUint8:
		return uint64(b[0]), nil
	case ValueInt8:
		return int64(int8(b[0])), nil
	case ValueBool:
		return b[0] != 0, nil
	case ValueUint16:
		return uint64(binary.LittleEndian.Uint16(b)), nil
	case ValueInt16:
		return int64(int16(binary.LittleEndian.Uint16(b))), nil
	case ValueUint32:
		return uint64(binary.LittleEndian.Uint32(b)), nil
	case ValueInt32:
		return int64(int32(binary.LittleEndian.Uint32(b))), nil
	case ValueFloat32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), nil
	case ValueUint64:
		return binary.LittleEndian.Uint64(b), nil
	case ValueInt64:
		return int64(binary.LittleEndian.Uint64(b)), nil
	default: // ValueFloat64
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
	}
}

func readInfo(br *bufio.Reader, size int64) (*Info, error) {
	r := &reader{r: br, size: size}
	notGGUF := &Error{Msg: ErrNotGGUF.Error() + " (it does not start with \"GGUF\")", Kind: ErrNotGGUF}
	magic, err := r.read(4)
	if err != nil {
		if size < 4 {
			return nil, notGGUF
		}
		return nil, err
	}
	if string(magic) != Magic {
		return nil, notGGUF
	}
	version, err := r.u32()
	if err != nil {
		return nil, err
	}
	switch {
	case version == 2 || version == 3:
	case version >= 1<<16:
		return nil, fmt.Errorf("is a big-endian GGUF file, which llama.cpp on this machine cannot load")
	default:
		return nil, fmt.Errorf("is GGUF version %d; only versions 2 and 3 are supported", version)
	}
	tensors, err := r.u64()
	if err != nil {
		return nil, err
	}
	kvs, err := r.u64()
	if err != nil {
		return nil, err
	}
	// Every key-value pair and tensor description takes at least 12 bytes.
	if kvs > uint64(size)/12 || tensors > uint64(size)/12 {
		return nil, r.truncated()
	}
	info := &Info{Version: version, FileSize: size, FileType: -1, TensorCount: int(tensors), Metadata: map[string]any{}}
	arrays := map[string]int{}
	for range kvs {
		key, err := r.str()
		if err != nil {
			return nil, err
		}
		t, err := r.u32()
		if err != nil {
			return nil, err
		}
		v, err := r.value(t, 0)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				return nil, err
			}
			return nil, fmt.Errorf("metadata %q %v", key, err)
		}
		if t == ValueArray {
			arrays[key] = v.(int)
		} else {
			info.Metadata[key] = v
		}
	}
	alignment := int64(32)
	if a, ok := info.uint("general.alignment"); ok {
		if a == 0 || a&(a-1) != 0 || a > 1<<20 {
			return nil, fmt.Errorf("has an invalid alignment %d", a)
		}
		alignment = int64(a)
	}
	var end int64 // end of the furthest tensor, from the start of the data
	for range tensors {
		name, err := r.str()
		if err != nil {
			return nil, err
		}
		dims, err := r.u32()
		if err != nil {
			return nil, err
		}
		if dims == 0 || dims > 4 {
			return nil, fmt.Errorf("tensor %q has %d dimensions", name, dims)
		}
		elems := uint64(1)
		var ne0 uint64
		shape := make([]uint64, dims)
		for i := range dims {
			d, err := r.u64()
			if err != nil {
				return nil, err
			}
			shape[i] = d
			if i == 0 {
				ne0 = d
			}
			if d != 0 && elems > math.MaxInt64/d {
				return nil, fmt.Errorf("tensor %q is impossibly large", name)
			}
			elems *= d
		}
		t, err := r.u32()
		if err != nil {
			return nil, err
		}
		off, err := r.u64()
		if err != nil {
			return nil, err
		}
		tt, ok := typeOf(TensorType(t))
		if !ok {
			return nil, fmt.Errorf("tensor %q has a type (%d) this version of llama.cpp does not know", name, t)
		}
		if ne0%uint64(tt.block) != 0 {
			return nil, fmt.Errorf("tensor %q has a row of %d values, not a whole number of %d-value blocks", name, ne0, tt.block)
		}
		nbytes := elems / uint64(tt.block) * uint64(tt.size)
		if off%uint64(alignment) != 0 {
			return nil, fmt.Errorf("tensor %q is not aligned", name)
		}
		if off > math.MaxInt64/2 || nbytes > math.MaxInt64/2 {
			return nil, fmt.Errorf("tensor %q is impossibly large", name)
		}
		info.TensorBytes += int64(nbytes)
		end = max(end, int64(off+nbytes))
		info.Tensors = append(info.Tensors, Tensor{Name: name, Type: TensorType(t), Dims: shape, Offset: int64(off), Size: int64(nbytes)})
	}
	dataStart := (r.n + alignment - 1) / alignment * alignment
	for i := range info.Tensors {
		info.Tensors[i].Offset += dataStart
	}
	if need := dataStart + end; need > size {
		return nil, &Error{Msg: fmt.Sprintf("%v: its tensors need %d bytes but the file has %d", ErrTruncated, need, size), Kind: ErrTruncated}
	}
	info.Architecture, _ = info.Metadata["general.architecture"].(string)
	if info.Architecture == "" {
		return nil, fmt.Errorf("has no general.architecture: it is not a model llama.cpp can load")
	}
	info.Name, _ = info.Metadata["general.name"].(string)
	info.ChatTemplate, _ = info.Metadata["tokenizer.chat_template"].(string)
	info.TokenizerModel, _ = info.Metadata["tokenizer.ggml.model"].(string)
	info.VocabSize = arrays["tokenizer.ggml.tokens"]
	if v, ok := info.uint(info.Architecture + ".context_length"); ok {
		info.ContextLength = int(v)
	}
	if v, ok := info.uint(info.Architecture + ".embedding_length"); ok {
		info.EmbeddingLength = int(v)
	}
	if v, ok := info.uint(info.Architecture + ".block_count"); ok {
		info.BlockCount = int(v)
	}
	if v, ok := info.uint("general.file_type"); ok {
		info.FileType = int(v)
	}
	return info, nil
}

// uint returns an integer metadata value of any integer type.
func (info *Info) uint(key string) (uint64, bool) {
	switch v := info.Metadata[key].(type) {
	case uint64:
		return v, true
	case int64:
		if v >= 0 {
			return uint64(v), true
		}
	}
	return 0, false
}

// Check reports whether llama.cpp can load the model described by info to
// write text: its architecture must be one llama.cpp knows, not an encoder
// or a vision projector, and it must carry a vocabulary.
func (info *Info) Check() error {
	if !slices.Contains(knownArchitectures, info.Architecture) {
		return &Error{Path: info.Path, Msg: fmt.Sprintf("has the architecture %q, which this build of llama.cpp does not support", info.Architecture)}
	}
	if slices.Contains(nonWritingArchitectures, info.Architecture) {
		return &Error{Path: info.Path, Msg: fmt.Sprintf("is a %q model, which cannot write text", info.Architecture)}
	}
	if info.VocabSize == 0 || info.TokenizerModel == "" {
		return &Error{Path: info.Path, Msg: "has no tokenizer vocabulary"}
	}
	return nil
}

// knownArchitectures are the values of general.architecture that the
// llama.cpp vendored by github.com/ollama/ollama v0.17.4 loads (its
// LLM_ARCH_NAMES).
var knownArchitectures = []string{
	"clip", "llama", "llama4", "deci", "falcon", "grok", "gpt2", "gptj", "gptneox", "mpt", "baichuan",
	"starcoder", "refact", "bert", "nomic-bert", "nomic-bert-moe", "neo-bert", "jina-bert-v2", "jina-bert-v3",
	"bloom", "stablelm", "qwen", "qwen2", "qwen2moe", "qwen2vl", "qwen3", "qwen3moe", "qwen3next", "qwen3vl",
	"qwen3vlmoe", "phi2", "phi3", "phimoe", "plamo", "plamo2", "codeshell", "orion", "internlm2", "minicpm",
	"minicpm3", "gemma", "gemma2", "gemma3", "gemma3n", "gemma-embedding", "starcoder2", "mamba", "mamba2",
	"jamba", "falcon-h1", "xverse", "command-r", "cohere2", "dbrx", "olmo", "olmo2", "olmoe", "openelm",
	"arctic", "deepseek", "deepseek2", "chatglm", "glm4", "glm4moe", "bitnet", "t5", "t5encoder", "jais",
	"nemotron", "nemotron_h", "nemotron_h_moe", "exaone", "exaone4", "rwkv6", "rwkv6qwen2", "rwkv7", "arwkv7",
	"granite", "granitemoe", "granitehybrid", "chameleon", "solar", "wavtokenizer-dec", "plm", "bailingmoe",
	"bailingmoe2", "dots1", "arcee", "afmoe", "ernie4_5", "ernie4_5-moe", "hunyuan-moe", "hunyuan-dense",
	"smollm3", "gpt-oss", "lfm2", "lfm2moe", "dream", "smallthinker", "llada", "llada-moe", "seed_oss",
	"grovemoe", "apertus", "minimax-m2", "cogvlm", "rnd1", "pangu-embedded", "mistral3",
}

// nonWritingArchitectures load in llama.cpp but make embeddings, images or
// sound, not text.
var nonWritingArchitectures = []string{
	"clip", "bert", "nomic-bert", "nomic-bert-moe", "neo-bert", "jina-bert-v2", "jina-bert-v3",
	"t5encoder", "wavtokenizer-dec", "gemma-embedding",
}
