// Command latency measures how long a person waits. First on a library of
// real documentation (realdocs.go: about 300 HTML pages, PDFs and manual
// pages from Debian packages): `sponge search`, `sponge ask` without a
// model and `sponge ask --passages` side by side, and each stage of the ask
// alone, with its share (issue 43's targets); -realdocs-only stops there.
// Then for passages: `sponge ask
// --passages QUESTION` and `sponge-search QUESTION` run as whole processes
// (a new process each run, page cache warm) on four libraries: the 5,183
// SciFact abstracts, the HTML pages of linux-doc-6.1 (made by the library
// benchmark), and the reStructuredText pages of linux-doc-6.1 saved as
// Markdown (3,183 items, ×1), and the same eight times over, each copy of a
// page with one changed line (×8). It builds the two kernel-docs libraries,
// timing `sponge add`, and asks each library 30 fixed questions,
// interleaving libraries and binaries so that a busy machine weighs on all
// of them alike.
//
// With -before DIR (the binaries of an earlier commit, which `make
// bench-latency` builds from BEFORE, default main) every figure is measured
// for both side by side, each binary on libraries it made itself (SciFact's
// and the HTML pages' copied and remade by each build's sponge reindex), and
// the answers of the two are compared byte for byte, each on its own library
// and both on the earlier one's. It prints the load average
// with each table: on a loaded machine read the after/before ratios.
//
//	make bench-latency                      (BEFORE=main)
//	go run ./internal/bench/latency -bin bin -before .bench/before/bin -keep
//	go run ./internal/bench/latency -bin bin -before .bench/before/bin -realdocs-only
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
)

// Targets on a 2-core machine at load ≤ 1.5 (issue 20), for the ×8 library.
const (
	targetMedian = 50 * time.Millisecond
	targetP95    = 100 * time.Millisecond
	targetScale  = 1.2  // ×8 median over ×1 median
	targetAddMBs = 10.0 // sponge add, MB of input a second
	targetRSSMB  = 200  // any process of a question
	targetAddRSS = 500  // MB, sponge add of kernel-docs ×8
)

// kernelQuestions are keyword questions a person asks the kernel docs.
var kernelQuestions = []string{
	"cgroup memory limit", "page cache writeback", "interrupt handler threaded irq", "rcu read lock",
	"spinlock irqsave", "dma mapping coherent", "device tree bindings", "kprobes tracing",
	"ftrace function graph", "huge pages transparent", "numa memory policy", "ext4 journal",
	"btrfs subvolume snapshot", "network namespace", "tcp congestion control", "usb gadget configfs",
	"pci hotplug", "power management suspend resume", "cpufreq governor", "watchdog timer",
	"kernel module parameters", "sysfs attributes", "block device queue", "io scheduler",
	"seccomp filter", "selinux policy", "kasan memory errors", "lockdep deadlock",
	"workqueue", "printk log level",
}

func main() {
	work := flag.String("work", ".bench", "working folder: packages, inputs and libraries")
	bin := flag.String("bin", "bin", "folder with sponge and the stage binaries")
	before := flag.String("before", "", "folder with the binaries to compare with (empty: none)")
	keep := flag.Bool("keep", false, "use the kernel-docs libraries made by an earlier run, if there")
	n := flag.Int("questions", len(kernelQuestions), "questions per library (at most 30)")
	addRuns := flag.Int("add-runs", 3, "how many times each build adds each kernel-docs corpus (the median is reported)")
	kernelOnly := flag.Bool("kernel-only", false, "leave out SciFact and the linux-doc HTML pages (a BEFORE too old to read their libraries)")
	realDocsOnly := flag.Bool("realdocs-only", false, "time the real-documentation library alone (sponge search, ask and ask --passages, and ask's stages; issue 43), a few minutes")
	flag.Parse()
	if err := run(*work, *bin, *before, *keep, *kernelOnly, *realDocsOnly, min(*n, len(kernelQuestions)), max(*addRuns, 1)); err != nil {
		fmt.Fprintln(os.Stderr, "latency bench:", err)
		os.Exit(1)
	}
}

// setAside moves the library at dir, if any, out of the way of a timed add:
// into work/libs/old, which run deletes once every figure is taken. Deleting
// it there and then would charge the add for it: on ext4 without a journal
// (this bench's machine), a new file skips every inode deleted in the last
// minutes, and a ×8 add's inode allocation took 16% of its CPU (perf:
// __ext4_new_inode, recently_deleted) right after the library before it was
// deleted, against 1% without. A person's add does not follow a deletion of
// 50,000 files; a run of the bench right after another still does.
//
// ext4 passes over an inode deleted in the last five minutes when its
// table block is not yet written back, and one deleted in the last minute
// in any case (RECENTCY_DIRTY, RECENTCY_MIN in fs/ext4/ialloc.c): a run
// right after another waits forgetDeleted from the other's deletion.
func setAside(work, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	old := filepath.Join(work, "libs", "old")
	if err := os.MkdirAll(old, 0o755); err != nil {
		return err
	}
	return os.Rename(dir, filepath.Join(old, fmt.Sprintf("%s-%d", filepath.Base(dir), time.Now().UnixNano())))
}

// forgetDeleted is how long after a deletion of many files an add no longer pays
// for it (see setAside), with a margin.
const forgetDeleted = 330 * time.Second

// binSet is one build of the programs.
type binSet struct {
	name, dir string
}

// lib is one library as each build sees it.
type lib struct {
	name      string
	dirs      map[string]string // by build: the library folder
	questions []string
	stages    bool // time the stages alone too
}

// sample is one process run.
type sample struct {
	wall, cpu time.Duration
	rssKB     int64
	faults    int64 // page faults (minor: the page cache is warm)
	out       []byte
}

func run(work, bin, before string, keep, kernelOnly, realDocsOnly bool, nq, addRuns int) (err error) {
	// The libraries of earlier runs, set aside, go once every figure is
	// taken (see setAside); a run that follows within forgetDeleted waits
	// until that long after, so that its adds do not pay for the deletion.
	deleted := filepath.Join(work, "libs", "deleted-at")
	if st, err := os.Stat(deleted); err == nil {
		if wait := forgetDeleted - time.Since(st.ModTime()); wait > 0 {
			fmt.Fprintf(os.Stderr, "note: waiting %s: the last run deleted its libraries %s ago (see setAside)\n",
				wait.Round(time.Second), time.Since(st.ModTime()).Round(time.Second))
			time.Sleep(wait)
		}
	}
	defer func() {
		old := filepath.Join(work, "libs", "old")
		if _, serr := os.Stat(old); serr != nil {
			return // nothing set aside, nothing deleted
		}
		if rerr := os.RemoveAll(old); err == nil {
			err = rerr
		}
		if werr := os.WriteFile(deleted, nil, 0o644); err == nil {
			err = werr
		}
	}()
	sets := []binSet{{"after", bin}}
	if before != "" {
		sets = []binSet{{"before", before}, {"after", bin}}
	}
	for i := range sets {
		abs, err := filepath.Abs(sets[i].dir)
		if err != nil {
			return err
		}
		sets[i].dir = abs
	}
	// A BEFORE folder without a sponge-draft (which links llama.cpp; make
	// before-bin builds it) runs BIN's, so that the two builds differ in
	// the pure binaries only.
	last := sets[len(sets)-1].dir
	for _, s := range sets[:len(sets)-1] {
		draft := filepath.Join(s.dir, "sponge-draft")
		if _, err := os.Lstat(draft); err != nil {
			if err := os.Symlink(filepath.Join(last, "sponge-draft"), draft); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "note: %s has no sponge-draft: it runs %s's\n", s.dir, last)
		}
	}
	for _, s := range sets {
		for _, b := range []string{"sponge", "sponge-search", "sponge-rank", "sponge-draft", "sponge-verify", "sponge-render"} {
			if _, err := os.Stat(filepath.Join(s.dir, b)); err != nil {
				return fmt.Errorf("no %s in %s (make build, or -bin DIR)", b, s.dir)
			}
		}
	}

	// The real documentation first: the figures issue 43 asks for.
	if err := runRealDocs(work, sets, nq, keep); err != nil {
		return err
	}
	if realDocsOnly {
		return nil
	}

	// The kernel docs, ×1 and ×8, each build adding them into its own library.
	x1, x8, err := kernelInputs(work)
	if err != nil {
		return err
	}
	var addRows [][]string
	add8 := "; sponge add of ×8: not run (-keep)"
	fmt.Printf("\nsponge add of the kernel docs (%d cores, load average %s)\n\n", runtime.NumCPU(), bench.LoadAverage())
	kd1 := lib{name: "kernel-docs ×1", dirs: map[string]string{}, stages: true}
	kd8 := lib{name: "kernel-docs ×8", dirs: map[string]string{}, stages: true}
	for _, in := range []struct {
		l    *lib
		path string
		tag  string
	}{{&kd1, x1, "x1"}, {&kd8, x8, "x8"}} {
		size, err := dirSize(in.path)
		if err != nil {
			return err
		}
		// Each build adds the corpus addRuns times, the builds taking
		// turns, each run into a new library: the last run's is the one
		// asked, the others are set aside.
		adds := map[string][]sample{}
		for r := range addRuns {
			for _, s := range sets {
				dir := filepath.Join(work, "libs", "kernel-docs-"+in.tag+"-"+s.name)
				in.l.dirs[s.name] = dir
				if _, err := library.Open(dir); keep && err == nil {
					if r == 0 {
						addRows = append(addRows, []string{in.l.name, s.name, fmt.Sprintf("%.0f", float64(size)/1e6), "(kept)", "", "", "", "", "", "", "", ""})
					}
					continue
				}
				if err := setAside(work, dir); err != nil {
					return err
				}
				smp, err := runOnce(filepath.Join(s.dir, "sponge"), []string{"add", "-q", "--library", dir, in.path}, nil)
				if err != nil {
					return fmt.Errorf("sponge add (%s) of %s: %v", s.name, in.path, err)
				}
				adds[s.name] = append(adds[s.name], smp)
			}
		}
		for _, s := range sets {
			ss := adds[s.name]
			if len(ss) == 0 {
				continue
			}
			dir := in.l.dirs[s.name]
			wall := bench.Percentile(walls(ss), 50)
			cpu := bench.Percentile(cpus(ss), 50)
			rss := maxRSS(ss)
			mbs := float64(size) / 1e6 / wall.Seconds()
			cpuMBs := float64(size) / 1e6 / cpu.Seconds()
			if in.tag == "x8" && s.name == "after" {
				add8 = fmt.Sprintf("; sponge add of ×8 %.1f MB/s (≥ %.0f): %s, peak RSS %.0f MB (≤ %d): %s",
					mbs, targetAddMBs, yes(mbs >= targetAddMBs), float64(rss)*1024/1e6, targetAddRSS, yes(float64(rss)*1024/1e6 <= targetAddRSS))
			}
			files, indexBytes, err := indexFiles(filepath.Join(dir, "index"))
			if err != nil {
				return fmt.Errorf("the index sponge add (%s) made of %s: %v", s.name, in.path, err)
			}
			var each []string
			for _, smp := range ss {
				each = append(each, fmt.Sprintf("%.1f", smp.wall.Seconds()))
			}
			addRows = append(addRows, []string{in.l.name, s.name, fmt.Sprintf("%.0f", float64(size)/1e6),
				fmt.Sprintf("%.1f", wall.Seconds()), strings.Join(each, " "), fmt.Sprintf("%.1f", cpu.Seconds()),
				fmt.Sprintf("%.1f", mbs), fmt.Sprintf("%.1f", cpuMBs), fmt.Sprint(rss >> 10),
				fmt.Sprint(files), fmt.Sprintf("%.0f", float64(indexBytes)/1e6), yes(mbs >= targetAddMBs)})
		}
	}
	fmt.Print(bench.Table([]string{"corpus", "build", "MB", "median wall s", "each run s", "median CPU s", "MB/s", "MB per CPU-s", "peak RSS MiB", "segment files", "index MB", "≥ 10 MB/s"}, addRows))
	fmt.Printf("(load average after: %s; %d runs of each build, taking turns; MB/s is of the median wall;\n"+
		"MB per CPU-second is what a quiet 2-core machine would give at most ×2;\n"+
		"segment files and index MB: what the add left in the index's folder, older states' files too;\n"+
		"each add makes a new library: the last run's are deleted after the timings, not before, see setAside)\n", bench.LoadAverage(), addRuns)
	kd1.questions = kernelQuestions[:nq]
	kd8.questions = kernelQuestions[:nq]

	// SciFact and the linux-doc HTML pages: one library, asked by every build.
	var libs []lib
	if !kernelOnly {
		if libs, err = sharedLibs(work, sets, nq); err != nil {
			return err
		}
	}
	libs = append(libs, kd1, kd8)

	// Every question of every library, each build, each command: interleaved.
	type key struct{ lib, set, cmd string }
	times := map[key][]sample{}
	differ := map[string]int{}
	differSame := map[string]int{}  // after on before's library
	unreadable := map[string]bool{} // after cannot open before's library
	commands := []string{"ask --passages", "sponge-search"}
	stageNames := []string{"search stage", "rank stage", "render stage"}
	// A child's peak RSS counts the pages of this program it was forked
	// from (Linux keeps the larger across exec): a process's peak below
	// this floor reads as the floor.
	floor, err := runOnce("/bin/true", nil, nil)
	if err != nil {
		return err
	}
	loadBefore := bench.LoadAverage()
	for qi := -2; qi < nq; qi++ { // two rounds of warm-up
		for _, l := range libs {
			q := l.questions[max(qi, 0)]
			var outs []string
			for _, s := range sets {
				ld := l.dirs[s.name]
				for _, c := range commands {
					var args []string
					if c == "ask --passages" {
						args = []string{filepath.Join(s.dir, "sponge"), "ask", "--passages", "--library", ld, "--", q}
					} else {
						args = []string{filepath.Join(s.dir, "sponge-search"), "--library", ld, "--", q}
					}
					r, err := runOnce(args[0], args[1:], nil)
					if err != nil && !nothingFound(err) {
						return fmt.Errorf("%s %s on %s: %v", s.name, c, l.name, err)
					}
					if qi >= 0 {
						times[key{l.name, s.name, c}] = append(times[key{l.name, s.name, c}], r)
						if c == "ask --passages" {
							outs = append(outs, string(r.out))
						}
					}
				}
				if !l.stages {
					continue
				}
				// The stages alone, each reading what the one before wrote.
				var in []byte
				for i, st := range []string{"sponge-search", "sponge-rank", "sponge-render"} {
					args := []string{"--library", ld}
					if i == 0 {
						args = append(args, "--", q)
					} else if i == 2 {
						args = nil
					}
					r, err := runOnce(filepath.Join(s.dir, st), args, in)
					if err != nil && !nothingFound(err) {
						return fmt.Errorf("%s %s on %s: %v", s.name, st, l.name, err)
					}
					in = r.out
					if qi >= 0 {
						times[key{l.name, s.name, stageNames[i]}] = append(times[key{l.name, s.name, stageNames[i]}], r)
					}
				}
			}
			if len(outs) == 2 && outs[0] != outs[1] {
				differ[l.name]++
			}
			// Both builds on one library (before's): the answers differ
			// only where the code does, not where the index's layout
			// breaks ties among equal scores otherwise.
			if len(sets) == 2 && qi >= 0 {
				r, err := runOnce(filepath.Join(sets[1].dir, "sponge"), []string{"ask", "--passages", "--library", l.dirs[sets[0].name], "--", q}, nil)
				switch {
				case err != nil && !nothingFound(err):
					unreadable[l.name] = true
				case string(r.out) != outs[0]:
					differSame[l.name]++
				}
			}
		}
	}

	fmt.Printf("\nlatency: a new process per run, page cache warm, %d questions per library, libraries and builds interleaved\n(%d cores, load average before %s, after %s)\n\n", nq, runtime.NumCPU(), loadBefore, bench.LoadAverage())
	var rows [][]string
	med := func(k key) time.Duration { return bench.Percentile(walls(times[k]), 50) }
	for _, l := range libs {
		for _, c := range append(append([]string{}, commands...), stageNames...) {
			if c != commands[0] && c != commands[1] && !l.stages {
				continue
			}
			row := []string{l.name, c}
			for _, s := range sets {
				k := key{l.name, s.name, c}
				row = append(row, ms(med(k)), ms(bench.Percentile(walls(times[k]), 95)), ms(bench.Percentile(cpus(times[k]), 50)), fmt.Sprint(medianFaults(times[k])))
			}
			if len(sets) == 2 {
				row = append(row, fmt.Sprintf("%.2f", ratio(med(key{l.name, "after", c}), med(key{l.name, "before", c}))))
			}
			rss := maxRSS(times[key{l.name, "after", c}])
			if rss <= floor.rssKB {
				row = append(row, fmt.Sprintf("≤ %d", rss>>10))
			} else {
				row = append(row, fmt.Sprint(rss>>10))
			}
			rows = append(rows, row)
		}
	}
	header := []string{"library", "command"}
	for _, s := range sets {
		header = append(header, s.name+" median ms", s.name+" p95 ms", s.name+" CPU ms", s.name+" faults")
	}
	if len(sets) == 2 {
		header = append(header, "after/before")
	}
	header = append(header, "after peak RSS MiB")
	defer fmt.Printf("(peak RSS: \"≤ N\" is below what a child of this program starts with, %d MiB)\n", floor.rssKB>>10)
	fmt.Print(bench.Table(header, rows))

	fmt.Printf("\nscale: median on ×8 over median on ×1 (load average %s)\n\n", bench.LoadAverage())
	rows = nil
	for _, c := range commands {
		row := []string{c}
		for _, s := range sets {
			row = append(row, fmt.Sprintf("%.2f", ratio(med(key{kd8.name, s.name, c}), med(key{kd1.name, s.name, c}))))
		}
		rows = append(rows, row)
	}
	header = []string{"command"}
	for _, s := range sets {
		header = append(header, s.name+" ×8/×1")
	}
	fmt.Print(bench.Table(header, rows))

	if len(sets) == 2 {
		fmt.Println()
		for _, l := range libs {
			same := fmt.Sprintf("%d of %d", nq-differSame[l.name], nq)
			if unreadable[l.name] {
				same = "not comparable (after cannot open before's index)"
			}
			fmt.Printf("answers of ask --passages the same before and after on %s: each on its own library %d of %d; both on before's library %s\n",
				l.name, nq-differ[l.name], nq, same)
		}
	}
	k8 := key{kd8.name, "after", commands[0]}
	fmt.Printf("\ntargets (at load ≤ 1.5, ×8): ask --passages median %s ms (≤ %d): %s; p95 %s ms (≤ %d): %s; ×8/×1 %.2f (≤ %.1f): %s; peak RSS ≤ %d MiB%s\n",
		ms(med(k8)), targetMedian.Milliseconds(), yes(med(k8) <= targetMedian),
		ms(bench.Percentile(walls(times[k8]), 95)), targetP95.Milliseconds(), yes(bench.Percentile(walls(times[k8]), 95) <= targetP95),
		ratio(med(k8), med(key{kd1.name, "after", commands[0]})), targetScale,
		yes(ratio(med(k8), med(key{kd1.name, "after", commands[0]})) <= targetScale), targetRSSMB, add8)
	return nil
}

// sharedLibs makes SciFact's library and finds the linux-doc HTML one (if
// make bench-library made it), each copied for every build (perBuild).
func sharedLibs(work string, sets []binSet, nq int) ([]lib, error) {
	var libs []lib
	dir, docs, err := bench.SciFactCorpus()
	if err != nil {
		return nil, err
	}
	qs, err := bench.Queries(dir)
	if err != nil {
		return nil, err
	}
	qrels, err := bench.Qrels(dir, "test")
	if err != nil {
		return nil, err
	}
	sciDir := filepath.Join(work, "scifact")
	if _, err := bench.BuildLibrary(sciDir, docs); err != nil {
		return nil, err
	}
	var sciQ []string
	for qid := range qrels {
		sciQ = append(sciQ, qs[qid])
	}
	sort.Strings(sciQ)
	sciDirs, err := perBuild(sets, sciDir)
	if err != nil {
		return nil, err
	}
	libs = append(libs, lib{name: "SciFact", dirs: sciDirs, questions: pick(sciQ, nq)})
	htmlDir := filepath.Join(work, "libs", "linux-doc")
	if html, err := library.Open(htmlDir); err != nil {
		fmt.Fprintf(os.Stderr, "note: no linux-doc HTML library at %s (make bench-library makes it): its rows are left out\n", htmlDir)
	} else {
		hq, err := titleQuestions(html)
		if err != nil {
			return nil, err
		}
		htmlDirs, err := perBuild(sets, htmlDir)
		if err != nil {
			return nil, err
		}
		libs = append(libs, lib{name: "linux-doc HTML", dirs: htmlDirs, questions: pick(hq, nq)})
	}
	return libs, nil
}

// kernelInputs makes the kernel-docs inputs under work/inputs: the
// reStructuredText sources of linux-doc-6.1's HTML pages as .md files (×1),
// and eight copies of them, each file of copy N with " (copy N)" added to
// its first line (×8).
func kernelInputs(work string) (x1, x8 string, err error) {
	pkgDir := filepath.Join(work, "pkgs", "linux-doc-6.1")
	src := filepath.Join(pkgDir, "usr/share/doc/linux-doc-6.1/html/_sources")
	if _, err := os.Stat(src); err != nil {
		if err := bench.FetchDeb(work, "linux-doc-6.1", pkgDir); err != nil {
			return "", "", err
		}
	}
	x1 = filepath.Join(work, "inputs", "kernel-docs-x1")
	x8 = filepath.Join(work, "inputs", "kernel-docs-x8")
	if _, err := os.Stat(filepath.Join(x8, "copy8")); err == nil {
		return x1, x8, nil
	}
	for _, d := range []string{x1, x8} {
		if err := os.RemoveAll(d); err != nil {
			return "", "", err
		}
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".rst.txt") {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = strings.TrimSuffix(rel, ".rst.txt") + ".md"
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(x1, rel), data); err != nil {
			return err
		}
		for c := 1; c <= 8; c++ {
			first, rest, _ := bytes.Cut(data, []byte("\n"))
			changed := append(append(append([]byte{}, first...), fmt.Sprintf(" (copy %d)\n", c)...), rest...)
			if err := writeFile(filepath.Join(x8, fmt.Sprintf("copy%d", c), rel), changed); err != nil {
				return err
			}
		}
		return nil
	})
	return x1, x8, err
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// indexFiles counts the segment files in an index's folder (those of older
// states too, if bleve left them) and the bytes of the whole folder.
func indexFiles(dir string) (files int, size int64, err error) {
	segments, err := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
	if err != nil {
		return 0, 0, err
	}
	size, err = dirSize(dir)
	return len(segments), size, err
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		st, err := d.Info()
		if err == nil {
			n += st.Size()
		}
		return err
	})
	return n, err
}

// runOnce runs a program once with stdin and takes its wall time, CPU time
// (user and system, its children's included) and peak RSS (the largest of
// it and the children it waited for).
func runOnce(prog string, args []string, stdin []byte) (sample, error) {
	return runWith(prog, args, stdin, nil)
}

// runWith is runOnce in the environment env (nil: this program's).
func runWith(prog string, args []string, stdin []byte, env []string) (sample, error) {
	cmd := exec.Command(prog, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	start := time.Now()
	err := cmd.Run()
	s := sample{wall: time.Since(start), out: out.Bytes()}
	if cmd.ProcessState != nil {
		s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			s.rssKB = ru.Maxrss
			s.faults = ru.Minflt + ru.Majflt
		}
	}
	if err != nil {
		return s, fmt.Errorf("%s %s: %w\n%s", filepath.Base(prog), strings.Join(args, " "), err, errb.String())
	}
	return s, nil
}

// nothingFound is the exit code 4 of a question the library has no answer for.
func nothingFound(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == 4
}

// perBuild gives each build its own copy of the library at dir: the items
// copied and the index remade by that build's sponge reindex, since an older
// build may not open an index of newer word rules, and an index made in one
// pass differs in layout (segments) from one made by adds. The copies are
// made again each run.
func perBuild(sets []binSet, dir string) (map[string]string, error) {
	m := map[string]string{}
	for _, s := range sets {
		cp := dir + "-" + s.name
		if err := os.RemoveAll(cp); err != nil {
			return nil, err
		}
		if out, err := exec.Command("cp", "-a", dir, cp).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("copy %s: %v\n%s", dir, err, out)
		}
		if _, err := runOnce(filepath.Join(s.dir, "sponge"), []string{"reindex", "--library", cp}, nil); err != nil {
			return nil, fmt.Errorf("sponge reindex (%s) of %s: %v", s.name, cp, err)
		}
		// An older build may not read items saved in a newer layout (its
		// reindex sets them aside): its copy is then made by its own sponge
		// add of the same files.
		if n, want := itemCount(cp), itemCount(dir); n != want {
			srcs, err := sourcesOf(dir)
			if err != nil {
				return nil, fmt.Errorf("%s read %d of the %d items of %s, and %v", s.name, n, want, dir, err)
			}
			if err := os.RemoveAll(cp); err != nil {
				return nil, err
			}
			if _, err := runOnce(filepath.Join(s.dir, "sponge"), append([]string{"add", "-q", "--library", cp, "--"}, srcs...), nil); err != nil {
				return nil, fmt.Errorf("sponge add (%s) of the files of %s: %v", s.name, dir, err)
			}
			if n := itemCount(cp); n != want {
				return nil, fmt.Errorf("sponge add (%s) of the files of %s saved %d items, not %d", s.name, dir, n, want)
			}
		}
		m[s.name] = cp
	}
	return m, nil
}

// itemCount is how many items the library at dir holds (-1 if it cannot
// be read).
func itemCount(dir string) int {
	l, err := library.Open(dir)
	if err != nil {
		return -1
	}
	ids, err := l.IDs()
	if err != nil {
		return -1
	}
	return len(ids)
}

// sourcesOf lists the files the items of the library at dir were saved
// from; every item must name a file that is there.
func sourcesOf(dir string) ([]string, error) {
	l, err := library.Open(dir)
	if err != nil {
		return nil, err
	}
	ids, err := l.IDs()
	if err != nil {
		return nil, err
	}
	var srcs []string
	for _, id := range ids {
		m, err := l.Meta(id)
		if err != nil {
			return nil, err
		}
		if !filepath.IsAbs(m.Source) {
			return nil, fmt.Errorf("item %s was not saved from a file (%s)", id[:12], m.Source)
		}
		if _, err := os.Stat(m.Source); err != nil {
			return nil, err
		}
		srcs = append(srcs, m.Source)
	}
	sort.Strings(srcs)
	return srcs, nil
}

func walls(ss []sample) []time.Duration {
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = s.wall
	}
	return out
}

func cpus(ss []sample) []time.Duration {
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = s.cpu
	}
	return out
}

// medianFaults is the median of the runs' page faults: on a virtual
// machine each costs microseconds, and with the garbage collector off for a
// question every page the heap grows by is one.
func medianFaults(ss []sample) int64 {
	if len(ss) == 0 {
		return 0
	}
	f := make([]int64, len(ss))
	for i, s := range ss {
		f[i] = s.faults
	}
	slices.Sort(f)
	return f[(len(f)-1)/2]
}

func maxRSS(ss []sample) int64 {
	var m int64
	for _, s := range ss {
		m = max(m, s.rssKB)
	}
	return m
}

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// pick takes n questions spread evenly over qs (repeating if there are fewer).
func pick(qs []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = qs[(i*len(qs)/n)%len(qs)]
	}
	return out
}

// titleQuestions makes a question of each page title, as a person would ask
// about the subject of a page ("What should I know about SELinux?").
func titleQuestions(lib *library.Library) ([]string, error) {
	ids, err := lib.IDs()
	if err != nil {
		return nil, err
	}
	var qs []string
	for _, id := range ids {
		m, err := lib.Meta(id)
		if err != nil {
			return nil, err
		}
		t := strings.TrimSpace(m.Title)
		// "6. ACPI considerations for PCI host bridges": drop the section number.
		if i := strings.IndexByte(t, ' '); i > 0 && strings.Trim(t[:i], "0123456789.") == "" {
			t = strings.TrimSpace(t[i:])
		}
		if len(strings.Fields(t)) >= 2 {
			qs = append(qs, "What should I know about "+t+"?")
		}
	}
	if len(qs) == 0 {
		return nil, errors.New("the linux-doc library has no titles to ask about")
	}
	return qs, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }
