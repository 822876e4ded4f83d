package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
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

// TestWatch: sponge update --watch saves each change within seconds of it
// (issue 43): a burst of saves to one file is one update, a note in a new
// sub-folder is added, a file the .gitignore excludes is not, and the end
// (Ctrl-C) is exit 0. It waits for each change with a deadline, never for
// a fixed time.
func TestWatch(t *testing.T) {
	lib, docs := t.TempDir(), t.TempDir()
	note := func(name, text string) string {
		t.Helper()
		p := filepath.Join(docs, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	kettle := note("kettle.md", "# Kettle\n\nThe kettle boils in three minutes.\n")
	note(".gitignore", "build/\n")
	if _, errs, code := runSponge(t, "add", "--library", lib, docs); code != 0 {
		t.Fatalf("add: %s", errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	passes := make(chan struct{}, 100)
	savedContext, savedPassed := watchContext, watchPassed
	watchContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	watchPassed = func() { passes <- struct{}{} }
	t.Cleanup(func() { watchContext, watchPassed = savedContext, savedPassed })
	var out, errb bytes.Buffer // read once Main returned
	done := make(chan int)
	go func() {
		done <- Main([]string{"update", "--watch", "--library", lib}, strings.NewReader(""), &out, &errb)
	}()
	select {
	case <-passes: // the first pass is done, and the folders watched
	case code := <-done:
		t.Fatalf("update --watch ended at once (%d): %s", code, errb.String())
	case <-time.After(time.Minute):
		t.Fatal("no first pass in a minute")
	}
	// until waits for the library to hold what want says, or fails.
	until := func(what string, want func(map[string][]*library.Meta) bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			srcs, err := (&library.Library{Dir: lib}).Sources()
			if err == nil && want(srcs) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not saved within 30 s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	has := func(path, word string) func(map[string][]*library.Meta) bool {
		return func(srcs map[string][]*library.Meta) bool {
			for _, m := range srcs[path] {
				it, err := (&library.Library{Dir: lib}).Item(m.ID)
				if err == nil && len(it.Paragraphs) > 0 && strings.Contains(it.Paragraphs[0].Text, word) {
					return true
				}
			}
			return false
		}
	}
	// A burst: five saves, one after the other.
	for _, n := range []string{"four", "five", "six", "seven", "eight"} {
		note("kettle.md", "# Kettle\n\nThe kettle boils in "+n+" minutes.\n")
	}
	until("the kettle's last version", has(kettle, "eight"))
	// A new sub-folder, and a file the .gitignore excludes: the ignored
	// one is written first, so when the new note is saved, it would be too.
	ignored := note("build/out.md", "# Out\n\nBuild output.\n")
	deep := note("new/deeper/tea.md", "# Tea\n\nGreen tea is steeped at eighty degrees.\n")
	until("a note in a new folder", has(deep, "eighty"))
	if srcs, _ := (&library.Library{Dir: lib}).Sources(); len(srcs[ignored]) > 0 {
		t.Error("a file .gitignore excludes was saved")
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("update --watch ended with %d, want 0: %s", code, errb.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("update --watch did not end in a minute")
	}
	if n := len(regexp.MustCompile(`(?m)^updated `).FindAllString(out.String(), -1)); n != 1 {
		t.Errorf("the burst of five saves made %d updates, want 1:\n%s", n, out.String())
	}
}
