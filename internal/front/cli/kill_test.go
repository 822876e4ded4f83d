package cli_test

// These tests run the real sponge binary as separate processes: one is killed
// with SIGKILL halfway through a folder, two others write to one library at
// the same time. What a person would check afterwards is checked: the
// library opens, `sponge list` works, the index and the store agree, and
// running the same add again completes it.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/testsupport"

	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

var (
	buildOnce sync.Once
	spongeBin string
	buildErr  error
)

// spongeBinary builds cmd/sponge and cmd/sponge-full once per test binary,
// side by side in a temporary folder that TestMain removes: sponge add
// runs in sponge-full, in sponge's process (exec), which the kills reach.
func spongeBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the sponge binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sponge-kill-test-")
		if err != nil {
			buildErr = err
			return
		}
		goTool := "go"
		spongeBin = filepath.Join(dir, "sponge")
		cmd := exec.Command(goTool, "build", "-o", dir+string(filepath.Separator),
			"github.com/sponge-library/sponge/cmd/sponge", "github.com/sponge-library/sponge/cmd/sponge-full")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return spongeBin
}

func TestMain(m *testing.M) {
	// No test reads or writes the settings and models of the person who
	// runs them (testsupport); a test that needs its own calls isolate.
	code := testsupport.Isolated(m).Run()
	if spongeBin != "" {
		os.RemoveAll(filepath.Dir(spongeBin))
	}
	os.Exit(code)
}

// writeNotes makes n Markdown notes under dir, spread over subfolders, each
// with a heading, a few paragraphs, the word "kettle" and its own number.
func writeNotes(t *testing.T, dir, prefix string, n int) {
	t.Helper()
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("part%02d", i%20))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# %s note %d\n\n", prefix, i)
		fmt.Fprintf(&b, "The kettle of %s note %d whistles at dawn, and the tea waits.\n\n", prefix, i)
		fmt.Fprintf(&b, "## Steeping\n\nGreen tea wants water at eighty degrees for %d seconds; black tea wants it boiling.\n\n", 60+i%120)
		for j := range 4 {
			fmt.Fprintf(&b, "Paragraph %d of %s note %d: leaves unfurl slowly in the pot, and the cup darkens minute by minute.\n\n", j, prefix, i)
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("%s-%04d.md", prefix, i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var (
	addedRE   = regexp.MustCompile(`^added ([0-9a-f]{12})… `)
	summaryRE = regexp.MustCompile(`^added (\d+), already saved (\d+), failed (\d+)$`)
)

// run is one sponge add process and what it printed.
type run struct {
	added   []string // short ids of the "added" lines
	summary []int    // added, already saved, failed; nil if it never got there
	stderr  string
	killed  bool
	code    int
}

// addUntil runs `sponge add --library lib folder` and kills it with SIGKILL
// once it has printed killAfterLines "added" lines, or once killAfter has
// passed (whichever is set); with neither, it lets it finish.
func addUntil(t *testing.T, bin, lib, folder string, killAfterLines int, killAfter time.Duration) run {
	t.Helper()
	return runUntil(t, bin, []string{"add", "--library", lib, folder}, addedRE, killAfterLines, killAfter)
}

// runUntil runs sponge with args, counts the lines that match lineRE (their
// first group is a short id), and kills it as addUntil does.
func runUntil(t *testing.T, bin string, args []string, lineRE *regexp.Regexp, killAfterLines int, killAfter time.Duration) run {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var r run
	kill := func() { cmd.Process.Signal(syscall.SIGKILL) }
	if killAfter > 0 {
		timer := time.AfterFunc(killAfter, kill)
		defer timer.Stop()
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if m := lineRE.FindStringSubmatch(line); m != nil {
			r.added = append(r.added, m[1])
			if killAfterLines > 0 && len(r.added) == killAfterLines {
				kill()
			}
		}
		if m := summaryRE.FindStringSubmatch(line); m != nil {
			r.summary = make([]int, 3)
			for i := range 3 {
				r.summary[i], _ = strconv.Atoi(m[i+1])
			}
		}
	}
	err = cmd.Wait()
	r.stderr = stderr.String()
	r.code = cmd.ProcessState.ExitCode()
	// Not killed if it finished before the signal came.
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	r.killed = ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
	if err != nil && !r.killed {
		t.Fatalf("sponge %s: %v\n%s", args[0], err, r.stderr)
	}
	return r
}

// storeIDs lists the items in the store, after checking that `sponge list
// --json` works and lists exactly them.
func storeIDs(t *testing.T, bin, lib string) []string {
	t.Helper()
	l, err := library.Open(lib)
	if err != nil {
		t.Fatalf("the library does not open: %v", err)
	}
	ids, err := l.IDs()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "list", "--json", "--library", lib).Output()
	if err != nil {
		t.Fatalf("sponge list: %v", err)
	}
	var metas []cmdline.ListItemJSON
	if len(ids) > 0 || strings.HasPrefix(strings.TrimSpace(string(out)), "[") {
		if err := json.Unmarshal(out, &metas); err != nil {
			t.Fatalf("sponge list --json: %v\n%.300s", err, out)
		}
	}
	listed := make([]string, len(metas))
	for i, m := range metas {
		listed[i] = m.ItemID
	}
	sort.Strings(listed)
	if strings.Join(listed, ",") != strings.Join(ids, ",") {
		t.Fatalf("sponge list shows %d items, the store holds %d", len(listed), len(ids))
	}
	return ids
}

// indexed returns the items the index holds (by a search for a word every
// note has) and checks that it holds each item's chunks exactly once.
func indexed(t *testing.T, lib string, store []string) map[string]bool {
	t.Helper()
	l := &library.Library{Dir: lib}
	x, err := index.Open(l.IndexDir())
	if err != nil {
		t.Fatalf("the index does not open: %v", err)
	}
	defer x.Close()
	hits, err := x.Search("kettle", 10000)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, h := range hits {
		got[h.ItemID] = true
	}
	chunks := 0
	for _, id := range store {
		if got[id] {
			it, err := l.Item(id)
			if err != nil {
				t.Fatalf("item %s is in the store and the index but does not load: %v", id, err)
			}
			chunks += len(index.Chunks(it))
		}
	}
	n, err := x.Count()
	if err != nil {
		t.Fatal(err)
	}
	inStore := map[string]bool{}
	for _, id := range store {
		inStore[id] = true
	}
	orphans := 0
	for id := range got {
		if !inStore[id] {
			orphans++
		}
	}
	if orphans == 0 && int(n) != chunks {
		t.Errorf("the index holds %d documents; the chunks of its %d items are %d", n, len(got), chunks)
	}
	return got
}

// checkConsistent checks a library a killed add left behind: before any
// writer opens it, store and index may differ only in items marked pending;
// after a writer has opened (and reconciled) it, they agree exactly.
func checkConsistent(t *testing.T, bin, lib string, printed []string) int {
	t.Helper()
	l, err := library.Open(lib)
	if err != nil {
		t.Fatalf("the library does not open after kill -9: %v", err)
	}
	pending, err := l.Pending()
	if err != nil {
		t.Fatal(err)
	}
	isPending := map[string]bool{}
	for _, id := range pending {
		isPending[id] = true
	}
	store := storeIDs(t, bin, lib)
	if _, err := os.Stat(l.IndexDir()); err == nil {
		inIndex := indexed(t, lib, store)
		inStore := map[string]bool{}
		for _, id := range store {
			inStore[id] = true
			if !inIndex[id] && !isPending[id] {
				t.Errorf("before reconcile: item %s is in the store, not in the index, and not pending", id[:12])
			}
		}
		for id := range inIndex {
			if !inStore[id] && !isPending[id] {
				t.Errorf("before reconcile: item %s is in the index, not in the store, and not pending", id[:12])
			}
		}
	}

	// The next writer puts right what the killed one left.
	w, err := ingest.OpenWriter(lib, nil)
	if err != nil {
		t.Fatalf("a writer cannot open the library after kill -9: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if p, _ := l.Pending(); len(p) > 0 {
		t.Errorf("%d items still pending after a writer opened the library", len(p))
	}
	store = storeIDs(t, bin, lib)
	inStore := map[string]bool{}
	for _, id := range store {
		inStore[id] = true
	}
	inIndex := map[string]bool{}
	if len(store) > 0 {
		inIndex = indexed(t, lib, store)
	}
	for _, id := range store {
		if !inIndex[id] {
			t.Errorf("item %s is in the store but not in the index", id[:12])
		}
	}
	for id := range inIndex {
		if !inStore[id] {
			t.Errorf("item %s is in the index but not in the store", id[:12])
		}
	}
	// A killed process loses nothing it wrote, only what it had not: every
	// item it said it added is saved.
	for _, short := range printed {
		i := sort.SearchStrings(store, short)
		if i == len(store) || !strings.HasPrefix(store[i], short) {
			t.Errorf("sponge add printed \"added %s…\" but the item is not in the library", short)
		}
	}
	return len(store)
}

func TestKillAddMidFolder(t *testing.T) {
	bin := spongeBinary(t)
	t.Parallel() // a library of its own
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes")
	lib := filepath.Join(dir, "library")
	const total = 2000
	writeNotes(t, notes, "tea", total)

	var printed []string
	have := 0
	// Kill it after some items, then early (while it opens the library and
	// walks the folder), then after more items; then let it finish.
	for i, kill := range []struct {
		lines int
		after time.Duration
	}{{lines: 150}, {after: 30 * time.Millisecond}, {lines: 400}} {
		r := addUntil(t, bin, lib, notes, kill.lines, kill.after)
		if !r.killed {
			t.Logf("round %d: sponge add finished before the kill (%d added)", i+1, len(r.added))
		}
		printed = append(printed, r.added...)
		if r.killed && r.summary != nil {
			t.Errorf("round %d: a killed add printed its summary", i+1)
		}
		n := checkConsistent(t, bin, lib, printed)
		if n < have {
			t.Errorf("round %d: the library went from %d items to %d", i+1, have, n)
		}
		t.Logf("round %d: killed=%v after %d added lines; the library holds %d items", i+1, r.killed, len(r.added), n)
		have = n
	}
	if have == 0 || have >= total {
		t.Fatalf("the kills did not land halfway: %d of %d items saved", have, total)
	}

	r := addUntil(t, bin, lib, notes, 0, 0)
	if r.code != 0 || r.summary == nil {
		t.Fatalf("the last add: exit %d, summary %v\n%s", r.code, r.summary, r.stderr)
	}
	if added, had, failed := r.summary[0], r.summary[1], r.summary[2]; added+had != total || failed != 0 || had != have {
		t.Errorf("the last add: added %d, already saved %d, failed %d; want added %d, already saved %d", added, had, failed, total-have, have)
	}
	if r.summary[0] != len(r.added) {
		t.Errorf("the summary says added %d, but %d \"added\" lines were printed", r.summary[0], len(r.added))
	}
	if n := checkConsistent(t, bin, lib, append(printed, r.added...)); n != total {
		t.Errorf("the library holds %d items, want %d", n, total)
	}
}

func TestTwoAddsAtOnce(t *testing.T) {
	bin := spongeBinary(t)
	t.Parallel() // a library of its own
	dir := t.TempDir()
	lib := filepath.Join(dir, "library")
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	writeNotes(t, a, "oolong", 1000)
	writeNotes(t, b, "sencha", 300)

	// The first add holds the lock once it prints its first "added" line;
	// the second starts then, and has to wait its turn.
	first := exec.Command(bin, "add", "--library", lib, a)
	stdout, err := first.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var firstErr strings.Builder
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	var firstOut []string
	for sc.Scan() {
		firstOut = append(firstOut, sc.Text())
		if addedRE.MatchString(sc.Text()) {
			break
		}
	}
	second := exec.Command(bin, "add", "--library", lib, b)
	var secondOut, secondErr strings.Builder
	second.Stdout, second.Stderr = &secondOut, &secondErr
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		firstOut = append(firstOut, sc.Text())
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("the first add: %v\n%s", err, firstErr.String())
	}
	if err := second.Wait(); err != nil {
		t.Fatalf("the second add: %v\n%s", err, secondErr.String())
	}
	const waiting = "sponge: waiting for another sponge command to finish with the library…\n"
	if !strings.Contains(secondErr.String(), waiting) {
		t.Errorf("the second add did not say it was waiting; its stderr:\n%s", secondErr.String())
	}
	if strings.Contains(firstErr.String(), "waiting") {
		t.Errorf("the first add waited; its stderr:\n%s", firstErr.String())
	}
	if got := firstOut[len(firstOut)-1]; got != "added 1000, already saved 0, failed 0" {
		t.Errorf("the first add ended with %q", got)
	}
	if got := strings.TrimSpace(secondOut.String()); !strings.HasSuffix(got, "added 300, already saved 0, failed 0") {
		t.Errorf("the second add ended with %q", got[max(0, len(got)-80):])
	}
	if n := checkConsistent(t, bin, lib, nil); n != 1300 {
		t.Errorf("the library holds %d items, want 1300", n)
	}
}

// TestKillUpdateMidFolder: sponge update killed with SIGKILL while it reads
// a folder's edited notes leaves a library that opens, with store and index
// in agreement once the next writer opens it; each edited note then has
// one or both of its versions (the old one goes once the new is saved), and
// the next update finishes the job: one item per note, its new version.
func TestKillUpdateMidFolder(t *testing.T) {
	bin := spongeBinary(t)
	t.Parallel() // a library of its own
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes")
	lib := filepath.Join(dir, "library")
	const total = 1000
	writeNotes(t, notes, "tea", total)
	if r := addUntil(t, bin, lib, notes, 0, 0); r.code != 0 {
		t.Fatalf("sponge add: exit %d\n%s", r.code, r.stderr)
	}
	// Every note is edited: a word added at its end.
	filepath.WalkDir(notes, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("Edited.\n")
			f.Close()
		}
		return nil
	})
	updatedRE := regexp.MustCompile(`^updated ([0-9a-f]{12})… `)
	var printed []string
	for i, kill := range []struct {
		lines int
		after time.Duration
	}{{lines: 80}, {after: 30 * time.Millisecond}, {lines: 200}} {
		r := runUntil(t, bin, []string{"update", "--library", lib}, updatedRE, kill.lines, kill.after)
		printed = append(printed, r.added...)
		n := checkConsistent(t, bin, lib, printed)
		if n < total || n > 2*total {
			t.Errorf("round %d: the library holds %d items for %d notes", i+1, n, total)
		}
		t.Logf("round %d: killed=%v after %d updated lines; the library holds %d items", i+1, r.killed, len(r.added), n)
	}
	r := runUntil(t, bin, []string{"update", "--library", lib}, updatedRE, 0, 0)
	if r.code != 0 {
		t.Fatalf("the last update: exit %d\n%s", r.code, r.stderr)
	}
	if n := checkConsistent(t, bin, lib, append(printed, r.added...)); n != total {
		t.Errorf("after the last update the library holds %d items, want one per note, %d", n, total)
	}
	l, _ := library.Open(lib)
	srcs, err := l.Sources()
	if err != nil {
		t.Fatal(err)
	}
	for s, ms := range srcs {
		if len(ms) != 1 {
			t.Errorf("%s has %d items", s, len(ms))
			continue
		}
		data, err := os.ReadFile(s)
		if err != nil || library.ItemID(data) != ms[0].ID {
			t.Errorf("%s: its item is not the edited note", s)
		}
	}
	out, err := exec.Command(bin, "update", "--library", lib).Output()
	if err != nil || !strings.HasPrefix(string(out), "nothing changed") {
		t.Errorf("an update after the last one: %v\n%s", err, out)
	}
}
