package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/vectors"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
)

// A new version's paragraphs are embedded and the old version's vectors go,
// whether the new version comes from sponge add or sponge update.
func TestNewVersionVectors(t *testing.T) {
	texts := withEmbedding(t)
	lib, docs := t.TempDir(), t.TempDir()
	writeNotes(t, docs, "kettles", "teapots")
	if _, errs, code := runSponge(t, "add", "--library", lib, docs); code != 0 {
		t.Fatalf("add: %s", errs)
	}
	model := filepath.Join(t.TempDir(), "bert.gguf")
	if err := ggufgen.WriteBert(model, ggufgen.BertTiny()); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runSponge(t, "setup", "--embedding", "--from", model, "--library", lib); code != 0 {
		t.Fatalf("setup --embedding: %s", errs)
	}
	note := filepath.Join(docs, "kettles.md")
	idOf := func() string {
		t.Helper()
		srcs, err := (&library.Library{Dir: lib}).Sources()
		if err != nil || len(srcs[note]) != 1 {
			t.Fatalf("the items of %s: %v %v", note, srcs[note], err)
		}
		return srcs[note][0].ID
	}
	has := func(id string) bool {
		t.Helper()
		s, err := vectors.Open(vectors.Dir(lib))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return s.Has(id)
	}
	old := idOf()
	if !has(old) {
		t.Fatal("set-up: the note has no vectors")
	}
	for _, how := range []string{"add", "update"} {
		if err := os.WriteFile(note, []byte("# kettles\n\nA new word on kettles: "+how+".\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		past := time.Now().Add(-time.Hour)
		os.Chtimes(note, past, past)
		*texts = 0
		args := []string{how, "--library", lib}
		if how == "add" {
			args = append(args, note)
		}
		out, errs, code := runSponge(t, args...)
		if code != 0 || !strings.Contains(out, "updated ") {
			t.Fatalf("%s: exit %d\n%s%s", how, code, out, errs)
		}
		cur := idOf()
		if cur == old || has(old) || !has(cur) || *texts != 1 {
			t.Errorf("%s: the old version has vectors %v, the new one %v (%d paragraphs embedded)", how, has(old), has(cur), *texts)
		}
		old = cur
	}
	// sponge search finds the new version by meaning and keyword, and never
	// names a removed one.
	out, _, _ := runSponge(t, "search", "--library", lib, "--json", "kettles update")
	if !strings.Contains(out, old) {
		t.Errorf("search does not find the current version:\n%s", out)
	}
}
