//go:build cgo

package embed

import (
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sponge-library/sponge/internal/gguf"
)

var (
	tinyOnce sync.Once
	tinyDir  string
	tinyErr  error
)

// tinyModel writes the random-weight BERT model once per test binary.
func tinyModel(t testing.TB) string {
	t.Helper()
	tinyOnce.Do(func() {
		tinyDir, tinyErr = os.MkdirTemp("", "sponge-embed-test")
		if tinyErr == nil {
			tinyErr = gguf.WriteBert(filepath.Join(tinyDir, "bert.gguf"), gguf.BertTiny())
		}
	})
	if tinyErr != nil {
		t.Fatal(tinyErr)
	}
	return filepath.Join(tinyDir, "bert.gguf")
}

func load(t testing.TB, opt Options) *Model {
	t.Helper()
	m, err := Load(tinyModel(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestLoadInfo(t *testing.T) {
	m := load(t, Options{Threads: 1})
	info := m.Info()
	spec := gguf.BertTiny()
	if info.Name != spec.Name || info.Architecture != "bert" || info.Dims != spec.EmbeddingLength || info.Pooling != "cls" || info.ContextLength != spec.ContextLength {
		t.Errorf("Info = %+v", info)
	}
}

func TestEmbed(t *testing.T) {
	m := load(t, Options{Threads: 1})
	texts := []string{"green tea is steeped at eighty degrees", "black tea is brewed with water just off the boil", "", "green tea is steeped at eighty degrees"}
	vs, err := m.Embed(texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vs), len(texts))
	}
	for i, v := range vs {
		if len(v) != 64 {
			t.Fatalf("vector %d has %d dimensions", i, len(v))
		}
		if n := dot(v, v); math.Abs(n-1) > 1e-4 {
			t.Errorf("vector %d has squared length %v, not 1", i, n)
		}
	}
	if d := dot(vs[0], vs[3]); math.Abs(d-1) > 1e-4 {
		t.Errorf("the same text twice in one batch gives different vectors (cos %v)", d)
	}
	if d := dot(vs[0], vs[1]); d > 0.9999 {
		t.Errorf("different texts give the same vector (cos %v)", d)
	}
}
