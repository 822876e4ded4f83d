//go:build cgo

package llamaembed

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sponge-library/sponge/internal/testsupport"

	"github.com/sponge-library/sponge/internal/model/embed"
	"github.com/sponge-library/sponge/internal/model/gguf"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
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
			tinyErr = ggufgen.WriteBert(filepath.Join(tinyDir, "bert.gguf"), ggufgen.BertTiny())
		}
	})
	if tinyErr != nil {
		t.Fatal(tinyErr)
	}
	return filepath.Join(tinyDir, "bert.gguf")
}

// TestMain lets the test binary stand in for sponge-embed.
func TestMain(m *testing.M) {
	if os.Getenv("SPONGE_EMBED_AS_HELPER") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := testsupport.Isolated(m).Run()
	if tinyDir != "" {
		os.RemoveAll(tinyDir)
	}
	os.Exit(code)
}

func load(t testing.TB, opt embed.Options) *Model {
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
	m := load(t, embed.Options{Threads: 1})
	info := m.Info()
	spec := ggufgen.BertTiny()
	if info.Name != spec.Name || info.Architecture != "bert" || info.Dims != spec.EmbeddingLength || info.Pooling != "cls" || info.ContextLength != spec.ContextLength {
		t.Errorf("Info = %+v", info)
	}
}

func TestEmbed(t *testing.T) {
	m := load(t, embed.Options{Threads: 1})
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

// TestBatching: texts encoded together in one step (packed as separate
// sequences) get the vectors they get alone, whatever the step size.
func TestBatching(t *testing.T) {
	alone := load(t, embed.Options{Threads: 1, BatchTokens: 64})
	packed := load(t, embed.Options{Threads: 2, BatchTokens: 512})
	texts := []string{
		"green tea is steeped at a lower temperature",
		"oolong",
		"keep tea in an airtight tin away from light heat and strong smells",
		"the whisk is called a chasen and it has about eighty tines",
		"coffee is brewed hotter than any tea",
	}
	all, err := packed.Embed(texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		one, err := alone.Embed([]string{s})
		if err != nil {
			t.Fatal(err)
		}
		if d := dot(one[0], all[i]); d < 0.9999 {
			t.Errorf("text %d: packed and alone differ (cos %v)", i, d)
		}
	}
}

// TestLongText: a text longer than a step is cut to fit, not refused (and
// llama.cpp is never asked for more than it can take).
func TestLongText(t *testing.T) {
	m := load(t, embed.Options{Threads: 1, BatchTokens: 64})
	long := strings.Repeat("the river runs past the old stone bridge ", 40)
	n, err := m.Tokens(long)
	if err != nil || n != 64 {
		t.Fatalf("Tokens = %d, %v; want 64", n, err)
	}
	vs, err := m.Embed([]string{long, "short", long + " and more"})
	if err != nil {
		t.Fatal(err)
	}
	// Both long texts are cut before they differ.
	if d := dot(vs[0], vs[2]); d < 0.9999 {
		t.Errorf("two texts that differ only past the cut differ (cos %v)", d)
	}
}

func TestInspectRefuses(t *testing.T) {
	dir := t.TempDir()
	writing := filepath.Join(dir, "writer.gguf")
	if err := ggufgen.WriteRandom(writing, ggufgen.Tiny()); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(writing, embed.Options{}); err == nil || !strings.Contains(err.Error(), `is a "llama" model, not an embedding model`) {
		t.Errorf("loading a writing model: %v", err)
	}
	junk := filepath.Join(dir, "junk.gguf")
	os.WriteFile(junk, []byte("not a model at all"), 0o644)
	if _, err := Load(junk, embed.Options{}); err == nil || !strings.Contains(err.Error(), "not a GGUF model file") {
		t.Errorf("loading junk: %v", err)
	}
}

func TestHelper(t *testing.T) {
	t.Setenv("SPONGE_EMBED_AS_HELPER", "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h, err := embed.StartHelper(exe, tinyModel(t), embed.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.Info().Dims != 64 || h.Info().Name != ggufgen.BertTiny().Name {
		t.Errorf("helper embed.Info = %+v", h.Info())
	}
	texts := []string{"green tea", "black tea with milk", ""}
	got, err := h.Embed(texts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := load(t, embed.Options{Threads: 1}).Embed(texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range texts {
		if d := dot(got[i], want[i]); d < 0.9999 {
			t.Errorf("text %d: the helper's vector differs from the in-process one (cos %v)", i, d)
		}
	}
	if vs, err := h.Embed(nil); err != nil || len(vs) != 0 {
		t.Errorf("no texts: %v, %v", vs, err)
	}

	// A model the helper cannot load: its error comes back.
	_, err = embed.StartHelper(exe, filepath.Join(t.TempDir(), "none.gguf"), embed.Options{})
	if err == nil || !strings.Contains(err.Error(), "none.gguf") {
		t.Errorf("helper with a missing model: %v", err)
	}
}

func TestBegin(t *testing.T) {
	wait := embed.Begin(tinyModel(t), embed.Options{Threads: 1})
	e, err := wait()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Info().Name != ggufgen.BertTiny().Name {
		t.Errorf("Info = %+v", e.Info())
	}
	got, err := e.Embed([]string{"green tea"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := load(t, embed.Options{Threads: 1}).Embed([]string{"green tea"})
	if err != nil {
		t.Fatal(err)
	}
	if d := dot(got[0], want[0]); d < 0.9999 {
		t.Errorf("Begin's vector differs from Load's (cos %v)", d)
	}
	if _, err := embed.Begin(filepath.Join(t.TempDir(), "none.gguf"), embed.Options{})(); err == nil || !strings.Contains(err.Error(), "none.gguf") {
		t.Errorf("a missing model: %v", err)
	}
}

// TestBeginHelper runs embed.Begin's way of a build without cgo: sponge-embed
// (this test binary, by that name on PATH) is started at once, and a model
// file it cannot load gets the error embed.Inspect gives.
func TestBeginHelper(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, embed.HelperName)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("SPONGE_EMBED_AS_HELPER", "1")

	e, err := helperBegin(tinyModel(t), embed.Options{Threads: 1})()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.(*embed.Helper); !ok {
		t.Fatalf("beginHelper gave a %T, not a *embed.Helper", e)
	}
	if e.Info().Dims != 64 || e.Info().Name != ggufgen.BertTiny().Name {
		t.Errorf("helper embed.Info = %+v", e.Info())
	}
	got, err := e.Embed([]string{"green tea"})
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	want, err := load(t, embed.Options{Threads: 1}).Embed([]string{"green tea"})
	if err != nil {
		t.Fatal(err)
	}
	if d := dot(got[0], want[0]); d < 0.9999 {
		t.Errorf("the helper's vector differs from the in-process one (cos %v)", d)
	}

	// A file that is not a model: named as embed.Inspect names it, with its
	// error (sponge setup tells a *gguf.Error apart).
	junk := filepath.Join(t.TempDir(), "junk.gguf")
	os.WriteFile(junk, []byte("not a model at all"), 0o644)
	var ge *gguf.Error
	if _, err := helperBegin(junk, embed.Options{})(); !errors.As(err, &ge) || !strings.Contains(err.Error(), "not a GGUF model file") {
		t.Errorf("junk: %v", err)
	}

	// No sponge-embed anywhere: the model file is still checked first.
	t.Setenv("PATH", t.TempDir())
	if _, err := helperBegin(junk, embed.Options{})(); err == nil || !strings.Contains(err.Error(), "not a GGUF model file") {
		t.Errorf("junk without a helper: %v", err)
	}
	if _, err := helperBegin(tinyModel(t), embed.Options{})(); err != embed.ErrNoHelper {
		t.Errorf("no helper: %v", err)
	}
}

// helperBegin is embed.Begin as the programs without the model runtime run
// it: through sponge-embed.
func helperBegin(path string, opt embed.Options) func() (embed.Embedder, error) {
	load := embed.InProcess
	embed.InProcess = nil
	defer func() { embed.InProcess = load }()
	return embed.Begin(path, opt)
}

// TestCheckModelHostileName: --check-model shows the model's name (the GGUF
// file's general.name) and the file's path with their escape sequences
// inert.
func TestCheckModelHostileName(t *testing.T) {
	spec := ggufgen.BertTiny()
	spec.Name = "bert\x1b]0;pwned\x07\u202e"
	path := filepath.Join(t.TempDir(), "m\x1b[2J.gguf")
	if err := ggufgen.WriteBert(path, spec); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	if code := Main([]string{"--check-model", path}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.ContainsAny(out.String(), "\x1b\x07\u202e") {
		t.Errorf("raw escapes: %q", out.String())
	}
	if !strings.Contains(out.String(), `m\x1b[2J.gguf: bert\x1b]0;pwned\x07\u202e,`) {
		t.Errorf("--check-model printed %q", out.String())
	}
}
