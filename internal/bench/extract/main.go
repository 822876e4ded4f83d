// Command extract measures each of sponge's readers against a reference
// reader that none of sponge's code wrote, on real files, and prints one
// table (issue 39; `make bench-extract` fetches the files into
// .bench/extract):
//
//   - articles: the article extraction benchmark of ../shared/bench (181
//     web pages with the body text a person marked), scored by its own
//     evaluate.py, for sponge and for go-trafilatura and go-readability;
//     all pages, the tuning half (odd places in key order) and the report
//     half (even places);
//   - docs: Debian Reference, the Debian Administrator's Handbook and
//     Python's HTML docs against `w3m -dump`, less the lines that repeat on
//     most pages of the same site;
//   - pdf: texlive-latex-base-doc's PDFs, page by page against pdftotext
//     (-half tune: the odd places of the sample in name order, to tune a
//     reader on; -half report: the even ones, to judge it on);
//   - man: a sample of the machine's /usr/share/man against `man -l`;
//   - office: EPUB, DOCX and ODT files of Debian packages against pandoc's
//     plain text.
//
// Words are compared as a reader would (see words), and "kept" is the
// share of the reference's words that a reader keeps in order: the longest
// common subsequence of the two word lists over the reference's words.
//
// Sponge reads through internal/bench/extract/dump, built from the working
// tree (or from -after COMMIT: another engineer's unfinished work in the
// tree is then not measured); -before COMMIT builds it from that commit
// too, and each table row of sponge gets a "before" row beside it.
//
//	go run ./internal/bench/extract -only articles,docs -before main
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

var (
	work          = flag.String("work", ".bench/extract", "the working folder: pkgs/ (unpacked Debian packages) and the references made here")
	shared        = flag.String("shared", "../shared/bench", "the shared benchmark data")
	only          = flag.String("only", "", "the corpora to run, comma-separated: articles, docs, pdf, man, office (default all)")
	before        = flag.String("before", "", "a commit whose readers are measured beside -after's")
	afterCommit   = flag.String("after", "", "the commit whose readers are measured (default: the working tree)")
	manPages      = flag.Int("man-pages", 500, "English man pages in the sample, every k-th in name order (0: every page)")
	manTranslated = flag.Int("man-translated", 300, "translated man pages (/usr/share/man/de, fr, …) in the sample, every k-th in name order (0: every page)")
	docPages      = flag.Int("doc-pages", 0, "pages of each documentation site, every k-th in name order (0: every page)")
	worst         = flag.Int("worst", 5, "worst files listed for each corpus and reader")
	others        = flag.Bool("others", true, "measure go-trafilatura and go-readability beside sponge on the HTML corpora (-others=false: sponge's readers alone, quicker)")
)

// doc is a file as a reader gave it.
type doc struct {
	Path  string  `json:"path"`
	Err   string  `json:"err,omitempty"`
	Title string  `json:"title,omitempty"`
	Paras []para  `json:"paras,omitempty"`
	Sec   float64 `json:"sec"`
}

type para struct {
	H  string      `json:"h,omitempty"`
	T  string      `json:"t"`
	P  int         `json:"p,omitempty"`
	HP int         `json:"hp,omitempty"` // the heading's page where not P
	Ps []pageStart `json:"ps,omitempty"`
}

type pageStart struct {
	Offset int `json:"o"`
	Page   int `json:"p"`
}

// reader reads files into docs.
type reader struct {
	name string
	read func(paths []string) map[string]*doc
}

// row is a line of the table.
type row struct {
	corpus, part, reader string
	n                    int
	figs                 []string // each "name value"
	sec                  float64  // the reader's time on these files
}

// spent is where the time went.
type spent struct {
	what string
	sec  float64
}

var (
	rows   []row
	spents []spent
	notes  []string
	// details are lines printed below the table: each corpus's worst files.
	details []string
	// cleanups run as the program ends.
	cleanups []func()
)

func timed(what string, f func()) {
	start := time.Now()
	f()
	spents = append(spents, spent{what, time.Since(start).Seconds()})
}

func main() {
	flag.Parse()
	start := time.Now()
	corpora := []struct {
		name string
		run  func(sponge []reader)
	}{
		{"articles", articles},
		{"docs", docs},
		{"pdf", pdfs},
		{"man", manPagesCorpus},
		{"office", office},
	}
	want := map[string]bool{}
	for _, c := range strings.Split(*only, ",") {
		if c = strings.TrimSpace(c); c != "" {
			want[c] = true
		}
	}
	for c := range want {
		if !slices.ContainsFunc(corpora, func(k struct {
			name string
			run  func([]reader)
		}) bool {
			return k.name == c
		}) {
			fmt.Fprintf(os.Stderr, "extract: error: no corpus %q (articles, docs, pdf, man, office)\n", c)
			os.Exit(2)
		}
	}
	var sponge []reader
	var err error
	timed("building the dump program", func() { sponge, err = spongeReaders() })
	defer func() {
		for _, f := range cleanups {
			f()
		}
	}()
	if err != nil {
		fmt.Fprintln(os.Stderr, "extract: error:", err)
		for _, f := range cleanups {
			f()
		}
		os.Exit(1)
	}
	for _, c := range corpora {
		if len(want) > 0 && !want[c.name] {
			continue
		}
		fmt.Fprintf(os.Stderr, "extract: %s\n", c.name)
		c.run(sponge)
	}
	printTable(os.Stdout, time.Since(start))
}

// spongeReaders are sponge's readers: -after's (the working tree's by
// default) and -before's.
func spongeReaders() ([]reader, error) {
	// a folder of this run's own: two runs at once (the tree's and a
	// commit's, say) must not read through each other's dump program
	bin, err := os.MkdirTemp("", "bench-extract-")
	if err != nil {
		return nil, err
	}
	cleanups = append(cleanups, func() { os.RemoveAll(bin) })
	after, err := buildDump(bin, "after", *afterCommit)
	if err != nil {
		return nil, err
	}
	if *before == "" {
		return []reader{{"sponge", dumpReader(after)}}, nil
	}
	old, err := buildDump(bin, "before", *before)
	if err != nil {
		return nil, err
	}
	return []reader{{"before", dumpReader(old)}, {"after", dumpReader(after)}}, nil
}

// buildDump builds the dump program in bin, of the working tree when
// commit is "", else of the commit's extract package with this tree's
// dump/main.go.
func buildDump(bin, name, commit string) (string, error) {
	exe := filepath.Join(bin, "dump-"+name)
	src := "."
	if commit != "" {
		src = filepath.Join(bin, "src-"+name)
		if err := os.MkdirAll(src, 0o755); err != nil {
			return "", err
		}
		archive := exec.Command("sh", "-c", "git archive \"$1\" | tar -x -C \"$2\"", "sh", commit, src)
		if out, err := archive.CombinedOutput(); err != nil {
			return "", fmt.Errorf("git archive %s: %v\n%s", commit, err, out)
		}
		dst := filepath.Join(src, "internal/bench/extract/dump")
		code, err := os.ReadFile("internal/bench/extract/dump/main.go")
		if err == nil {
			err = os.MkdirAll(dst, 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dst, "main.go"), code, 0o644)
		}
		if err != nil {
			return "", err
		}
		rev, _ := exec.Command("git", "log", "-1", "--format=%h %cd", "--date=iso", commit).Output()
		notes = append(notes, fmt.Sprintf("%s: %s (%s)", name, commit, strings.TrimSpace(string(rev))))
	}
	cmd := exec.Command("go", "build", "-o", exe, "./internal/bench/extract/dump")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build dump (%s): %v\n%s", name, err, out)
	}
	return exe, nil
}

// dumpReader reads files with a dump program.
func dumpReader(bin string) func([]string) map[string]*doc {
	return func(paths []string) map[string]*doc {
		cmd := exec.Command(bin)
		cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			panic(err)
		}
		if err := cmd.Start(); err != nil {
			panic(err)
		}
		docs := map[string]*doc{}
		dec := json.NewDecoder(bufio.NewReader(out))
		for {
			var d doc
			if err := dec.Decode(&d); err != nil {
				break
			}
			docs[d.Path] = &d
		}
		if err := cmd.Wait(); err != nil {
			fmt.Fprintf(os.Stderr, "extract: %s: %v\n", bin, err)
		}
		for _, p := range paths {
			if docs[p] == nil {
				docs[p] = &doc{Path: p, Err: "the reader gave nothing (crashed?)"}
			}
		}
		return docs
	}
}

// textReader is a reader of whole text (the other HTML readers): each
// line of its text a paragraph, two files at a time. What it gave is kept
// in -work/ref/NAME (these readers are pinned by go.mod, so a second run
// reads it back, with the time the first took).
func textReader(name string, read func(path string) (title, text string, err error)) func([]string) map[string]*doc {
	return func(paths []string) map[string]*doc {
		return parallel(paths, func(p string) *doc {
			key := filepath.Join(*work, "ref", name, strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", "_")+".json")
			var d doc
			if data, err := os.ReadFile(key); err == nil && json.Unmarshal(data, &d) == nil && d.Path == p {
				return &d
			}
			start := time.Now()
			title, text, err := read(p)
			d = doc{Path: p, Title: title, Sec: time.Since(start).Seconds()}
			if err != nil {
				d.Err = err.Error()
			}
			for _, l := range strings.Split(text, "\n") {
				if l = strings.TrimSpace(l); l != "" {
					d.Paras = append(d.Paras, para{T: l})
				}
			}
			if data, err := json.Marshal(&d); err == nil {
				os.MkdirAll(filepath.Dir(key), 0o755)
				os.WriteFile(key, data, 0o644)
			}
			return &d
		})
	}
}

// parallel is f of each path, two at a time (the machine is shared).
func parallel[T any](paths []string, f func(string) T) map[string]T {
	out := map[string]T{}
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				v := f(p)
				mu.Lock()
				out[p] = v
				mu.Unlock()
			}
		}()
	}
	for _, p := range paths {
		work <- p
	}
	close(work)
	wg.Wait()
	return out
}

// readAll reads paths with r, and counts its time.
func readAll(corpus string, r reader, paths []string) map[string]*doc {
	var docs map[string]*doc
	timed(fmt.Sprintf("%s: %s read %d files", corpus, r.name, len(paths)), func() { docs = r.read(paths) })
	return docs
}

func readerSec(docs map[string]*doc) float64 {
	s := 0.0
	for _, d := range docs {
		s += d.Sec
	}
	return s
}

// sample is every k-th of paths (sorted), n of them; all when n is 0.
func sample(paths []string, n int) []string {
	sort.Strings(paths)
	if n <= 0 || n >= len(paths) {
		return paths
	}
	out := make([]string, n)
	for i := range out {
		out[i] = paths[i*len(paths)/n]
	}
	return out
}

func printTable(w *os.File, total time.Duration) {
	what := "the working tree"
	if *afterCommit == "" {
		head, _ := exec.Command("git", "log", "-1", "--format=%h %cd", "--date=iso").Output()
		what += " at " + strings.TrimSpace(string(head))
		if dirty, _ := exec.Command("git", "status", "--porcelain", "--untracked-files=no", "internal/library/extract").Output(); len(dirty) > 0 {
			what += " (internal/library/extract has changes not committed)"
		}
	} else {
		what = "the commits below"
	}
	fmt.Fprintf(w, "sponge's readers (%s) against reference readers\n", what)
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	// each part's readers together, before beside after
	partAt := map[string]int{}
	for i, r := range rows {
		if _, ok := partAt[r.corpus+"\x00"+r.part]; !ok {
			partAt[r.corpus+"\x00"+r.part] = i
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		return partAt[rows[i].corpus+"\x00"+rows[i].part] < partAt[rows[j].corpus+"\x00"+rows[j].part]
	})
	corpus := ""
	for _, r := range rows {
		if r.corpus != corpus {
			corpus = r.corpus
			fmt.Fprintf(w, "\n%-10s %-22s %-15s %6s  %s\n", r.corpus, "part", "reader", "files", "figures (read time: the reader's CPU-side seconds, summed)")
		}
		sec := ""
		if r.sec > 0 {
			sec = fmt.Sprintf("  (%.1f s)", r.sec)
		}
		fmt.Fprintf(w, "%-10s %-22s %-15s %6d  %s%s\n", "", r.part, r.reader, r.n, strings.Join(r.figs, "  "), sec)
	}
	if len(details) > 0 {
		fmt.Fprintf(w, "\nworst files (kept: the share of the reference's words a reader keeps in order):\n")
		for _, d := range details {
			fmt.Fprintln(w, d)
		}
	}
	fmt.Fprintf(w, "\nwhere the time went (wall, %.0f s in all):\n", total.Seconds())
	for _, s := range spents {
		fmt.Fprintf(w, "  %7.1f s  %s\n", s.sec, s.what)
	}
}
