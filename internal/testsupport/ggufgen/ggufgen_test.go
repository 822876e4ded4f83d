package ggufgen

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/model/gguf"
)

func writeTiny(t testing.TB) (string, []byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := WriteRandom(p, Tiny()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, data
}

func TestReadInfo(t *testing.T) {
	p, data := writeTiny(t)
	info, err := gguf.ReadInfo(p)
	if err != nil {
		t.Fatal(err)
	}
	s := Tiny()
	if info.Version != 3 || info.Architecture != "llama" || info.Name != s.Name || info.ChatTemplate != ChatMLTemplate ||
		info.ContextLength != s.ContextLength || info.EmbeddingLength != s.EmbeddingLength || info.BlockCount != s.BlockCount ||
		info.TokenizerModel != "llama" || info.VocabSize != s.VocabSize || info.FileType != 0 || info.FileSize != int64(len(data)) {
		t.Errorf("gguf.ReadInfo = %+v", info)
	}
	// Embeddings, output norm and output, and 9 per block; their data is nearly all of the file.
	if info.TensorCount != 3+9*s.BlockCount || info.TensorBytes < int64(len(data))*9/10 {
		t.Errorf("%d tensors of %d bytes in a file of %d", info.TensorCount, info.TensorBytes, len(data))
	}
	if err := info.Check(); err != nil {
		t.Error(err)
	}
	// The same spec always writes the same file.
	p2 := filepath.Join(t.TempDir(), "again.gguf")
	if err := WriteRandom(p2, Tiny()); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(p2); !bytes.Equal(again, data) {
		t.Error("WriteRandom is not deterministic")
	}
}

func TestQuantizedShapes(t *testing.T) {
	for _, typ := range []gguf.TensorType{gguf.F16, gguf.Q8_0, gguf.Q4_0} {
		s := Tiny()
		s.Architecture = "qwen2"
		s.Type = typ
		s.TiedEmbeddings = true
		p := filepath.Join(t.TempDir(), "m.gguf")
		if err := WriteRandom(p, s); err != nil {
			t.Fatal(err)
		}
		info, err := gguf.ReadInfo(p)
		if err != nil {
			t.Fatal(err)
		}
		// Tied: no output.weight; qwen2: three biases per block.
		if info.TensorCount != 1+12*s.BlockCount+1 || info.FileType != int(fileType(typ)) || info.Architecture != "qwen2" {
			t.Errorf("%v: %d tensors, file type %d", typ, info.TensorCount, info.FileType)
		}
	}
}

func TestReadInfoBrokenFiles(t *testing.T) {
	_, data := writeTiny(t)
	dir := t.TempDir()
	read := func(b []byte) error {
		p := filepath.Join(dir, "m.gguf")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := gguf.ReadInfo(p)
		return err
	}
	// Cut anywhere, the file is found truncated (or, under 4 bytes, not GGUF).
	for n := 0; n < len(data); n += 1 + n/7 {
		err := read(data[:n])
		if err == nil {
			t.Fatalf("cut at %d of %d: no error", n, len(data))
		}
		if !errors.Is(err, gguf.ErrTruncated) && !(n < 4 && errors.Is(err, gguf.ErrNotGGUF)) {
			t.Fatalf("cut at %d: %v", n, err)
		}
		var e *gguf.Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), filepath.Join(dir, "m.gguf")+": ") {
			t.Fatalf("cut at %d: error %q does not start with the path", n, err)
		}
	}
	for name, tt := range map[string]struct {
		b    []byte
		want string
	}{
		"text":        {[]byte("hello, this is not a model"), "not a GGUF model file"},
		"version 1":   {append([]byte("GGUF\x01\x00\x00\x00"), data[8:]...), "version 1"},
		"big-endian":  {append([]byte("GGUF\x00\x00\x00\x03"), data[8:]...), "big-endian"},
		"huge counts": {append([]byte("GGUF\x03\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\x7f"), data[16:]...), "truncated"},
	} {
		if err := read(tt.b); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", name, err, tt.want)
		}
	}
	if _, err := gguf.ReadInfo(filepath.Join(dir, "missing.gguf")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestCheck(t *testing.T) {
	for arch, want := range map[string]string{
		"qwen2":   "",
		"gemma3":  "",
		"clip":    "cannot write text",
		"bert":    "cannot write text",
		"mystery": "does not support",
	} {
		err := (&gguf.Info{Path: "m.gguf", Architecture: arch, VocabSize: 10, TokenizerModel: "gpt2"}).Check()
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", arch, err, want)
		}
	}
	if err := (&gguf.Info{Architecture: "llama"}).Check(); err == nil || !strings.Contains(err.Error(), "vocabulary") {
		t.Errorf("no vocabulary: %v", err)
	}
}

func TestVocabulary(t *testing.T) {
	s := Tiny()
	v, err := buildVocab(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.tokens) != s.VocabSize {
		t.Errorf("%d tokens, want %d", len(v.tokens), s.VocabSize)
	}
	for b := range 256 {
		if v.types[v.index[byteToken(b)]] != tokenByte {
			t.Fatalf("no byte token for %d", b)
		}
	}
	// Every prefix of a word is a token, so SPM merging reaches the word.
	for _, w := range []string{"the", "green", "brewed"} {
		for i := 1; i <= len(w); i++ {
			if _, ok := v.index["▁"+w[:i]]; !ok {
				t.Errorf("no token %q", "▁"+w[:i])
			}
		}
	}
	if _, err := buildVocab(Spec{VocabSize: 100}); err == nil {
		t.Error("a vocabulary smaller than its base tokens was accepted")
	}
	if got := Words("Tea, tea and TEA; the tea's leaves - and tea."); !slices.Equal(got[:3], []string{"tea", "and", "Tea"}) {
		t.Errorf("Words = %q", got)
	}
}

func byteToken(b int) string {
	return "<0x" + strings.ToUpper(string("0123456789abcdef"[b>>4])+string("0123456789abcdef"[b&15])) + ">"
}

// FuzzReadInfo feeds gguf.ReadInfo damaged model files: it must return an error
// or a gguf.Info, never panic or allocate without bound.
func FuzzReadInfo(f *testing.F) {
	_, data := writeTiny(f)
	f.Add(data[:2000])
	f.Add(data[:64])
	f.Add([]byte("GGUF\x03\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "fuzz.gguf")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		info, err := gguf.ReadInfo(p)
		if err == nil && info.Architecture == "" {
			t.Fatal("a gguf.Info without an architecture")
		}
	})
}

func TestTensors(t *testing.T) {
	p, data := writeTiny(t)
	info, err := gguf.ReadInfo(p)
	if err != nil {
		t.Fatal(err)
	}
	s := Tiny()
	if len(info.Tensors) != info.TensorCount {
		t.Fatalf("%d tensors described, %d in the file", len(info.Tensors), info.TensorCount)
	}
	var sum int64
	for _, ts := range info.Tensors {
		if ts.Offset%32 != 0 || ts.Offset+ts.Size > int64(len(data)) {
			t.Errorf("%s: data at %d+%d, outside a %d-byte file or not aligned", ts.Name, ts.Offset, ts.Size, len(data))
		}
		sum += ts.Size
	}
	if sum != info.TensorBytes {
		t.Errorf("sizes add up to %d, TensorBytes is %d", sum, info.TensorBytes)
	}
	i := slices.IndexFunc(info.Tensors, func(ts gguf.Tensor) bool { return ts.Name == "output_norm.weight" })
	if i < 0 {
		t.Fatal("no output_norm.weight")
	}
	// The writer fills norms with ones: float32 1.0 at the tensor's offset.
	norm := info.Tensors[i]
	if norm.Type != gguf.F32 || !slices.Equal(norm.Dims, []uint64{uint64(s.EmbeddingLength)}) ||
		!bytes.Equal(data[norm.Offset:norm.Offset+4], []byte{0, 0, 0x80, 0x3f}) {
		t.Errorf("output_norm.weight = %+v, first bytes % x", norm, data[norm.Offset:norm.Offset+4])
	}
	i = slices.IndexFunc(info.Tensors, func(ts gguf.Tensor) bool { return ts.Name == "token_embd.weight" })
	if i < 0 || !slices.Equal(info.Tensors[i].Dims, []uint64{uint64(s.EmbeddingLength), uint64(s.VocabSize)}) {
		t.Errorf("token_embd.weight missing or of the wrong shape: %+v", info.Tensors)
	}
}
