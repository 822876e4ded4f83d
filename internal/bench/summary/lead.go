package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
	"github.com/sponge-library/sponge/stages/draft/sentences"
)

// The first-statement measures (issue 40: a summary says what the item is
// first). Each set is split by position: the even ones are the tuning half,
// the odd ones the report half, whose misses nobody studies.
//
//   - SciFact: the summary's first statement is the abstract's first
//     sentence, or holds most (more than half) of the title's content words.
//   - Manual pages (English: man1 and man8 of -man-root, every k-th page in
//     name order, read by sponge's man reader; Google Cloud's apart): the first statement holds at
//     least two thirds of the content words of the NAME line's description
//     ("ssh — OpenSSH remote login client": openssh, remote, login, client).

var showTuning = flag.Bool("show-tuning", false, "with -lead: print each manual page of the tuning half, its NAME line, the summary's first statement and first passage (never the report half's)")

// leadFigures are one build's first-statement shares, by set and half.
type leadFigures struct {
	Build string            `json:"build"`
	Sets  map[string][2]hit `json:"sets"` // [tune, report]
}

// hit counts summaries whose first statement says what the item is.
type hit struct{ N, Hits int }

func (h hit) String() string {
	if h.N == 0 {
		return "—"
	}
	return fmt.Sprintf("%.3f (%d of %d)", float64(h.Hits)/float64(h.N), h.Hits, h.N)
}

func (h *hit) add(ok bool) {
	h.N++
	if ok {
		h.Hits++
	}
}

// leadMeasures summarizes nSciFact abstracts and manPages manual pages and
// counts first statements that say what the item is.
func leadMeasures(work, manRoot string, nSciFact, manPages int, build string) (*leadFigures, error) {
	f := &leadFigures{Build: build, Sets: map[string][2]hit{}}
	if nSciFact > 0 {
		_, docs, err := bench.SciFactCorpus()
		if err != nil {
			return nil, err
		}
		docs = docs[:min(nSciFact, len(docs))]
		lib, err := openBuilt(filepath.Join(work, "libs", fmt.Sprintf("summary-scifact-%d", len(docs))), docs)
		if err != nil {
			return nil, err
		}
		var halves [2]hit
		for i, d := range docs {
			it, _ := bench.ItemOf(d)
			r, err := summarize(lib, it.ID, nil)
			if err != nil {
				return nil, err
			}
			first := ""
			if len(r.stream.Verified) > 0 {
				first = r.stream.Verified[0].Saved
			}
			sents := sentences.Sentences(d.Text)
			ok := first != "" && (len(sents) > 0 && strings.TrimSpace(first) == strings.TrimSpace(sents[0]) || covers(first, d.Title) > 0.5)
			halves[i%2].add(ok)
		}
		f.Sets["SciFact abstracts"] = halves
	}
	if manPages > 0 {
		// Google Cloud's pages are nine in ten of a Debian machine's with
		// the Cloud SDK, each with a long NAME line: they are a set apart
		// (a sixth as many), so that the other pages are not a tenth.
		for _, set := range []struct {
			name   string
			gcloud bool
			n      int
		}{
			{fmt.Sprintf("manual pages (%s man1, man8), not gcloud_*", manRoot), false, manPages},
			{fmt.Sprintf("manual pages (%s man1, man8), gcloud_*", manRoot), true, manPages / 6},
		} {
			halves, err := manFirsts(work, manRoot, set.n, set.gcloud)
			if err != nil {
				return nil, err
			}
			if halves[0].N+halves[1].N > 0 {
				f.Sets[set.name] = halves
			}
		}
	}
	return f, nil
}

// manFirsts summarizes n manual pages (Google Cloud's, or the others) and
// counts by half those whose first statement covers the NAME line's
// description.
func manFirsts(work, manRoot string, n int, gcloud bool) ([2]hit, error) {
	var halves [2]hit
	lib, pages, err := manLibrary(work, manRoot, n, gcloud)
	if err != nil {
		return halves, err
	}
	ids, err := lib.IDs()
	if err != nil {
		return halves, err
	}
	byPath := map[string]string{}
	for _, id := range ids {
		it, err := lib.Item(id)
		if err != nil {
			return halves, err
		}
		byPath[filepath.Base(it.Source)] = id
	}
	for i, p := range pages {
		id := byPath[filepath.Base(p)]
		if id == "" {
			continue // not read (an empty page)
		}
		it, err := lib.Item(id)
		if err != nil {
			return halves, err
		}
		desc := nameDescription(it.Paragraphs)
		if desc == "" {
			continue // no NAME line of the "name - what it is" form
		}
		r, err := summarize(lib, id, nil)
		if err != nil {
			return halves, err
		}
		first := ""
		if len(r.stream.Verified) > 0 {
			first = r.stream.Verified[0].Saved
		}
		if *showTuning && i%2 == 0 {
			p1 := ""
			if len(r.stream.Passages) > 0 {
				p1 = r.stream.Passages[0].Heading + " | " + r.stream.Passages[0].Text
			}
			fmt.Fprintf(os.Stderr, "%s\n  NAME: %s\n  first: %s\n  passage 1: %.150s\n", filepath.Base(p), desc, first, p1)
		}
		halves[i%2].add(covers(first, desc) >= 2.0/3)
	}
	return halves, nil
}

// openBuilt opens the SciFact library at dir, made when missing.
func openBuilt(dir string, docs []bench.Doc) (*library.Library, error) {
	if _, err := bench.BuildLibrary(dir, docs); err != nil {
		return nil, err
	}
	return library.Open(dir)
}

// manLibrary saves every k-th English manual page (man1, man8; n of them,
// in name order; Google Cloud's, gcloud_*, or the others) in a library of its own (kept when already made) and
// returns the pages in that order.
func manLibrary(work, root string, n int, gcloud bool) (*library.Library, []string, error) {
	var all []string
	for _, sect := range []string{"man1", "man8"} {
		filepath.WalkDir(filepath.Join(root, sect), func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() && strings.HasPrefix(e.Name(), "gcloud") == gcloud {
				all = append(all, p)
			}
			return nil
		})
	}
	sort.Strings(all)
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("no manual pages in %s", root)
	}
	k := max(1, len(all)/n)
	var pages []string
	for i := 0; i < len(all) && len(pages) < n; i += k {
		pages = append(pages, all[i])
	}
	name := fmt.Sprintf("summary-man-other-%d", len(pages))
	if gcloud {
		name = fmt.Sprintf("summary-man-gcloud-%d", len(pages))
	}
	dir := filepath.Join(work, "libs", name)
	if lib, err := library.Open(dir); err == nil {
		if ids, err := lib.IDs(); err == nil && len(ids) > 0 {
			return lib, pages, nil
		}
	}
	var ins []ingest.Input
	for _, p := range pages {
		got, _, errs := ingest.Expand(p, ingest.WalkOptions{})
		if len(errs) == 0 {
			ins = append(ins, got...)
		}
	}
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		return nil, nil, err
	}
	ingest.Add(context.Background(), w, ins, ingest.AddOptions{}, func(ingest.Added) {})
	if err := w.Close(); err != nil {
		return nil, nil, err
	}
	lib, err := library.Open(dir)
	return lib, pages, err
}

// nameDescription is what a manual page's NAME line says the command is:
// the words after its dash ("OpenSSH remote login client" of "ssh —
// OpenSSH remote login client"), or "" when it has none.
func nameDescription(paras []item.Paragraph) string {
	for _, p := range paras {
		if !strings.EqualFold(strings.TrimSpace(p.Heading), "NAME") {
			continue
		}
		for _, dash := range []string{" — ", " – ", " - ", " -- "} {
			if _, desc, ok := strings.Cut(p.Text, dash); ok {
				return strings.TrimSpace(desc)
			}
		}
		return ""
	}
	return ""
}

// covers is the share of ref's content words (lower-cased, not English
// stop words) that text holds.
func covers(text, ref string) float64 {
	en := lang.For("en")
	want := map[string]bool{}
	for _, w := range lowerWords(ref) {
		if !en.Has(lang.Stop, w) {
			want[w] = true
		}
	}
	if len(want) == 0 {
		return 0
	}
	have := map[string]bool{}
	for _, w := range lowerWords(text) {
		have[w] = true
	}
	n := 0
	for w := range want {
		if have[w] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

func lowerWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// leadBefore measures the summaries of commit rev beside: in a worktree of
// it (under work, removed after), with this bench's own files copied in,
// so that both builds are measured by the same code.
func leadBefore(work, rev string, args []string) (*leadFigures, error) {
	tree, err := filepath.Abs(filepath.Join(work, "before-"+strings.ReplaceAll(rev, "/", "_")))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(tree); err != nil {
		if out, err := exec.Command("git", "worktree", "add", "--detach", tree, rev).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git worktree add %s: %v: %s", rev, err, out)
		}
	} else if out, err := exec.Command("git", "-C", tree, "checkout", "--detach", "-q", rev).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("git checkout %s: %v: %s", rev, err, out)
	}
	own, err := filepath.Glob("internal/bench/summary/*.go")
	if err != nil || len(own) == 0 {
		return nil, fmt.Errorf("-before: run from the repository's top folder")
	}
	for _, f := range own {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(tree, f), data, 0o644); err != nil {
			return nil, err
		}
	}
	absWork, err := filepath.Abs(work)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("go", append([]string{"run", "./internal/bench/summary", "-work", absWork, "-lead-json", "-build", rev}, args...)...)
	cmd.Dir = tree
	if dir, err := bench.SciFactDir(); err == nil {
		cmd.Env = append(os.Environ(), "SPONGE_SCIFACT="+dir) // the worktree is not beside ../shared
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	// The worktree goes when measured: a checkout others see in git
	// worktree list is not left behind.
	if rm, rerr := exec.Command("git", "worktree", "remove", "--force", tree).CombinedOutput(); rerr != nil {
		fmt.Fprintf(os.Stderr, "bench-summary: git worktree remove %s: %v: %s\n", tree, rerr, rm)
	}
	if err != nil {
		return nil, fmt.Errorf("the bench in %s: %v", tree, err)
	}
	var f leadFigures
	if err := json.Unmarshal(out, &f); err != nil {
		return nil, fmt.Errorf("the bench in %s: %v", tree, err)
	}
	return &f, nil
}

// leadTable prints the figures of each build side by side, a row a set.
func leadTable(builds []*leadFigures) string {
	var sets []string
	for s := range builds[0].Sets {
		sets = append(sets, s)
	}
	sort.Strings(sets)
	head := []string{"set"}
	for _, b := range builds {
		head = append(head, b.Build+": tuning half", b.Build+": report half")
	}
	var rows [][]string
	for _, s := range sets {
		r := []string{s}
		for _, b := range builds {
			h := b.Sets[s]
			r = append(r, h[0].String(), h[1].String())
		}
		rows = append(rows, r)
	}
	return bench.Table(head, rows)
}
