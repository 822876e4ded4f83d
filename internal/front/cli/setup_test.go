package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/model/catalog"
	"github.com/sponge-library/sponge/internal/model/catalog/install"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
	"github.com/sponge-library/sponge/internal/testsupport/home"
)

func runSponge(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// withDefaultModel serves data as the default writing model from 127.0.0.1
// for the length of the test, and stands in for the runtime's load check.
func withDefaultModel(t *testing.T, data []byte, check func(string) error) *int {
	t.Helper()
	home.Isolate(t)
	gets := new(int)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*gets++
		http.ServeContent(w, r, "m.gguf", time.Time{}, bytes.NewReader(data))
	}))
	t.Cleanup(srv.Close)
	sum := sha256.Sum256(data)
	saved := catalog.Known[catalog.Digest]
	catalog.Known[catalog.Digest] = catalog.Spec{Kind: catalog.Digest, Name: "Test Model Q4", URL: srv.URL + "/m.gguf",
		Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), License: "MIT"}
	savedCheck := checkModelLoads
	checkModelLoads = check
	t.Cleanup(func() {
		catalog.Known[catalog.Digest] = saved
		checkModelLoads = savedCheck
	})
	return gets
}

// squeeze turns each run of spaces into one, so tests do not depend on
// the width of aligned columns.
func squeeze(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// tinyModel returns a real GGUF file: a tiny random-weight llama model.
func tinyModel(t *testing.T, seed uint64) []byte {
	t.Helper()
	spec := ggufgen.Tiny()
	spec.Seed = seed
	p := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := ggufgen.WriteRandom(p, spec); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSetupShowsNothingInstalled(t *testing.T) {
	home.Isolate(t)
	lib := t.TempDir()
	out, errs, code := runSponge(t, "setup", "--library", lib)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"Models folder: " + modelsDir() + " (shared by every library; 0 bytes)",
		"Writing model (digest.gguf): not installed",
		"  install with: sponge setup --digest   (Qwen2.5 0.5B Instruct Q4_K_M, 398 MB)",
		"Embedding model (embedding.gguf): not installed",
		"sponge serve: not running",
	} {
		if !strings.Contains(out, want+"\n") && !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSetupDigest(t *testing.T) {
	data := tinyModel(t, 1)
	var checked []string
	gets := withDefaultModel(t, data, func(p string) error { checked = append(checked, p); return nil })
	lib := t.TempDir()
	out, errs, code := runSponge(t, "setup", "--digest", "--library", lib)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	sum := catalog.Known[catalog.Digest].SHA256
	size := catalog.Bytes(int64(len(data)))
	if !strings.Contains(out, "Installed the writing model: Test Model Q4, "+size+", sha256 "+sum) {
		t.Errorf("stdout:\n%s", out)
	}
	if !strings.HasPrefix(errs, "sponge: downloading Test Model Q4 ("+size+", MIT licence) from 127.0.0.1:") || strings.Contains(errs, "\r") {
		t.Errorf("stderr (not a terminal: no progress bar):\n%q", errs)
	}
	if len(checked) != 1 {
		t.Errorf("the load check ran %d times", len(checked))
	}
	got, _ := os.ReadFile(filepath.Join(modelsDir(), "digest.gguf"))
	if !bytes.Equal(got, data) {
		t.Fatal("digest.gguf is not the download")
	}

	out, _, _ = runSponge(t, "setup", "--library", lib)
	for _, want := range []string{"Writing model (digest.gguf): installed", "model Test Model Q4", "sha256 " + sum, fmt.Sprintf("size %s (%d bytes)", size, len(data)), "architecture llama"} {
		if !strings.Contains(squeeze(out), want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}

	out, _, code = runSponge(t, "setup", "--digest", "--library", lib)
	if code != 0 || !strings.Contains(out, "installed already") || *gets != 1 {
		t.Errorf("second --digest: exit %d, %d downloads:\n%s", code, *gets, out)
	}
	_, _, code = runSponge(t, "setup", "--digest", "--force", "--library", lib)
	if code != 0 || *gets != 2 {
		t.Errorf("--force: exit %d, %d downloads", code, *gets)
	}
}

func TestSetupDigestDoesNotLoad(t *testing.T) {
	withDefaultModel(t, tinyModel(t, 2), func(string) error { return errors.New(`llama.cpp could not load the model`) })
	lib := t.TempDir()
	_, errs, code := runSponge(t, "setup", "--digest", "--library", lib)
	if code != 1 || !strings.Contains(errs, `sponge: error: http://127.0.0.1:`) || !strings.Contains(errs, `does not load: llama.cpp could not load the model`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(modelsDir(), "digest.gguf")); err == nil {
		t.Error("a model that does not load was installed")
	}
}

func TestSetupFromKeepsOldModel(t *testing.T) {
	withDefaultModel(t, tinyModel(t, 3), func(string) error { return nil })
	lib := t.TempDir()
	if _, errs, code := runSponge(t, "setup", "--digest", "--library", lib); code != 0 {
		t.Fatal(errs)
	}
	notes := filepath.Join(t.TempDir(), "notes.gguf")
	os.WriteFile(notes, []byte("these are notes, not weights"), 0o644)
	_, errs, code := runSponge(t, "setup", "--from", notes, "--library", lib)
	want := "sponge: error: " + notes + " is not a GGUF model file: it does not start with the GGUF signature (it starts with \"thes\")\n" +
		"sponge: hint: sponge runs models in the GGUF format (llama.cpp); look for a .gguf file\n"
	if code != 1 || errs != want {
		t.Fatalf("exit %d:\n%s\nwant:\n%s", code, errs, want)
	}
	out, _, _ := runSponge(t, "setup", "--library", lib)
	if !strings.Contains(out, "Test Model Q4") {
		t.Errorf("the old model is gone:\n%s", out)
	}

	mine := filepath.Join(t.TempDir(), "my-model.gguf")
	os.WriteFile(mine, tinyModel(t, 4), 0o644)
	out, errs, code = runSponge(t, "setup", "--from", mine, "--library", lib)
	if code != 0 || !strings.Contains(out, "Installed the writing model: "+ggufgen.Tiny().Name+", 845 kB") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	out, _, _ = runSponge(t, "setup", "--library", lib)
	if !strings.Contains(squeeze(out), "source "+mine) || !strings.Contains(out, "(not the default writing model; 'sponge setup --digest' installs Test Model Q4)") {
		t.Errorf("status:\n%s", out)
	}
}

func TestSetupFromBrokenModels(t *testing.T) {
	withDefaultModel(t, tinyModel(t, 5), func(string) error { return nil })
	lib := t.TempDir()
	if _, errs, code := runSponge(t, "setup", "--digest", "--library", lib); code != 0 {
		t.Fatal(errs)
	}
	data := tinyModel(t, 6)
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.gguf")
	os.WriteFile(cut, data[:len(data)-1000], 0o644)
	// The same model, its architecture renamed to one llama.cpp lacks.
	odd := filepath.Join(dir, "odd.gguf")
	os.WriteFile(odd, bytes.ReplaceAll(data, []byte("llama"), []byte("llamz")), 0o644)
	for file, want := range map[string]string{
		cut: "sponge: error: " + cut + " is not a model sponge can run: the file is truncated: its tensors need ",
		odd: "sponge: error: " + odd + ` is not a model sponge can run: has the architecture "llamz", which this build of llama.cpp does not support` + "\n",
	} {
		_, errs, code := runSponge(t, "setup", "--from", file, "--library", lib)
		if code != 1 || !strings.HasPrefix(errs, want) {
			t.Errorf("exit %d:\n%s\nwant:\n%s", code, errs, want)
		}
	}
	out, _, _ := runSponge(t, "setup", "--library", lib)
	if !strings.Contains(out, "Test Model Q4") {
		t.Errorf("the old model is gone:\n%s", out)
	}
	if parts, _ := filepath.Glob(filepath.Join(modelsDir(), ".*part")); len(parts) > 0 {
		t.Errorf("left behind %v", parts)
	}
}

func TestSetupUsage(t *testing.T) {
	for _, args := range [][]string{
		{"setup", "--digest", "--from", "x.gguf"},
		{"setup", "--force"},
		{"setup", "model.gguf"},
	} {
		_, errs, code := runSponge(t, args...)
		if code != 2 || !strings.HasPrefix(errs, "sponge: error: ") {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
}

// TestSharedModels: a model is installed once, in the shared models folder,
// and every library uses it; a model a library has in its own folder is
// moved there, or kept and named when the shared folder has one already.
func TestSharedModels(t *testing.T) {
	data := tinyModel(t, 7)
	gets := withDefaultModel(t, data, func(string) error { return nil })
	withEmbedding(t) // isolates the models folder again: do it before any install
	libA, libB := t.TempDir(), t.TempDir()
	if _, errs, code := runSponge(t, "setup", "--digest", "--library", libA); code != 0 {
		t.Fatal(errs)
	}
	out, errs, code := runSponge(t, "setup", "--digest", "--library", libB)
	if code != 0 || !strings.Contains(out, "The writing model is installed already") || *gets != 1 {
		t.Fatalf("library B: exit %d, %d downloads: %s%s", code, *gets, out, errs)
	}
	shared := filepath.Join(modelsDir(), "digest.gguf")
	for _, lib := range []string{libA, libB} {
		if got := catalog.Path(modelsDir(), lib, catalog.Digest); got != shared {
			t.Errorf("%s uses %q, want %q", lib, got, shared)
		}
		if _, err := os.Stat(filepath.Join(lib, "models")); err == nil {
			t.Errorf("%s has a models folder of its own", lib)
		}
		out, _, _ := runSponge(t, "setup", "--library", lib)
		want := "Models folder: " + modelsDir() + " (shared by every library; " + catalog.Bytes(int64(len(data))) + ")\n"
		if !strings.HasPrefix(out, want) || !strings.Contains(out, "Writing model (digest.gguf): installed") || strings.Contains(out, "folder ") {
			t.Errorf("setup --library %s:\n%s", lib, out)
		}
	}

	// A library set up by an older sponge: its own writing model is not used
	// (the shared folder has one) and is kept; its own embedding model is
	// moved to the shared folder, where library A finds it too.
	libC := t.TempDir()
	own := catalog.OwnDir(libC)
	bert := filepath.Join(t.TempDir(), "bert.gguf")
	if err := ggufgen.WriteBert(bert, ggufgen.BertTiny()); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(t.TempDir(), "mine.gguf")
	os.WriteFile(mine, tinyModel(t, 8), 0o644)
	if _, err := install.From(t.Context(), own, catalog.Digest, mine, install.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := install.From(t.Context(), own, catalog.Embedding, bert, install.Options{}); err != nil {
		t.Fatal(err)
	}
	out, errs, code = runSponge(t, "setup", "--library", libC)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"Moved the embedding model from " + own + " to " + modelsDir() + ", where every library finds it.\n",
		"This library's own digest.gguf (845 kB) in " + own + " is not used: the shared models folder has a writing model. Delete it to free the space.\n",
		"Embedding model (embedding.gguf): installed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("setup of an older library lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(own, "digest.gguf")); err != nil {
		t.Errorf("the library's own writing model is gone: %v", err)
	}
	if got := catalog.Path(modelsDir(), libA, catalog.Embedding); got != filepath.Join(modelsDir(), "embedding.gguf") {
		t.Errorf("library A uses the embedding model %q", got)
	}

	// The default library lives in the same data folder: its models/ is the
	// shared folder, and nothing is moved or called unused.
	out, _, code = runSponge(t, "setup", "--library", filepath.Dir(modelsDir()))
	if code != 0 || strings.Contains(out, "Moved") || strings.Contains(out, "own") {
		t.Errorf("setup of the default library: exit %d:\n%s", code, out)
	}
}

// modelsDir is the shared models folder of this test binary's environment
// (testsupport's, never the person's).
func modelsDir() string { return settings.FromOS().ModelsDir() }
