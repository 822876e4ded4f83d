package search

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/testsupport/stagetest"
)

var update = flag.Bool("update", false, "write the golden files instead of comparing")

func TestGolden(t *testing.T) {
	lib := t.TempDir()
	if _, err := stagetest.Build(lib); err != nil {
		t.Fatal(err)
	}
	stagetest.Golden(t, filepath.Join("..", "..", "golden", "search"), Main, lib, *update, "want.jsonl", nil)
}

func TestMissingAndEmptyLibrary(t *testing.T) {
	dir := t.TempDir()
	r := stagetest.Run(Main, []string{"--library", filepath.Join(dir, "none"), "tea"}, nil, "whole")
	if r.Code != 1 || r.Stdout != "" || r.Stderr != "sponge-search: error: no library at "+filepath.Join(dir, "none")+"\nsponge-search: hint: save something first: sponge add FILE|FOLDER|URL (or pass --library DIR)\n" {
		t.Errorf("missing library: %+v", r)
	}
	os.MkdirAll(filepath.Join(dir, "empty", "items"), 0o755)
	r = stagetest.Run(Main, []string{"--library", filepath.Join(dir, "empty"), "tea"}, nil, "whole")
	if r.Code != 1 || r.Stdout != "" || r.Stderr != "sponge-search: error: the library at "+filepath.Join(dir, "empty")+" is empty\nsponge-search: hint: save something first: sponge add FILE|FOLDER|URL\n" {
		t.Errorf("empty library: %+v", r)
	}
}

// An index with no documents (or none at all) while the store holds items is
// a broken index, which sponge reindex makes again, not an empty library
// (issue 42; noindex.txtar runs the missing one through every command).
func TestIndexEmptyItemsSaved(t *testing.T) {
	dir := t.TempDir()
	if _, err := stagetest.Build(dir); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := lib.IDs()
	if err != nil || len(ids) == 0 {
		t.Fatalf("the test library has %d items (%v)", len(ids), err)
	}
	if err := os.RemoveAll(lib.IndexDir()); err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"missing", "empty"} {
		if how == "empty" {
			x, err := index.Create(lib.IndexDir())
			if err != nil {
				t.Fatal(err)
			}
			x.Close()
		}
		r := stagetest.Run(Main, []string{"--library", dir, "tea"}, nil, "whole")
		want := fmt.Sprintf("sponge-search: error: the index of the library at %s is %s, but %d items are saved\n"+
			"sponge-search: hint: run 'sponge reindex --library %s' to rebuild it from the saved items\n", dir, how, len(ids), dir)
		if r.Code != 1 || r.Stdout != "" || r.Stderr != want {
			t.Errorf("index %s: %+v, want stderr %q", how, r, want)
		}
	}
}
