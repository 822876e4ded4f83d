package search

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

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
