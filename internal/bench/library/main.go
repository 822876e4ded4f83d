// Command library measures `sponge add` (and `sponge update` after it): it saves the HTML pages of Debian's
// linux-doc-6.1 and the PDFs of texlive-latex-base-doc, each with the real
// sponge binary as a whole process into a fresh library, and prints a table:
// items/s, MB of extracted text/s, PDF pages/s, store and index size on disk
// (and their ratio to the extracted text), peak RSS (from wait4's rusage of
// the child) and wall time, beside the targets. Each corpus is added twice:
// as sponge add does by default, keeping a copy of every original, and with
// --link, which keeps the files where they are. After each add of
// linux-doc, `sponge update` runs again and again: with nothing changed, with
// 1% of the files touched, and with 1% edited, in turn (benchUpdate).
//
// The packages are fetched with `apt-get download` and unpacked with
// `dpkg-deb -x` under -work (git-ignored .bench/), never committed. The
// libraries it builds are kept there (.bench/libs/NAME) for the latency
// benchmark.
//
//	go run ./internal/bench/library -bin bin          (make bench)
//	go run ./internal/bench/library -cpuprofile add.prof -only linux-doc
//
// With -cpuprofile the add runs inside this process (cli.Main, the same code
// as the binary) under the CPU profiler, for `go tool pprof`.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/front/cli"
	"github.com/sponge-library/sponge/internal/library"
)

// corpus is one benchmark input: the files of a Debian package with a given
// extension, gathered (hard-linked) into one folder that `sponge add` reads.
type corpus struct {
	name string // also the library's folder under libs/
	pkg  string
	ext  string
	root string // where the files are inside the package
}

var corpora = []corpus{
	{"linux-doc", "linux-doc-6.1", ".html", "usr/share/doc/linux-doc-6.1/html"},
	{"texlive-pdf", "texlive-latex-base-doc", ".pdf", "usr/share/doc/texlive-doc"},
}

// Targets on a 2-core machine (issue 2).
const (
	targetMBps  = 5.0
	targetRatio = 1.5
	targetRSSMB = 500
)

func main() {
	work := flag.String("work", ".bench", "working folder (packages, inputs, libraries)")
	bin := flag.String("bin", "bin", "folder with the sponge binary")
	only := flag.String("only", "", "run one corpus: linux-doc or texlive-pdf")
	cpuprofile := flag.String("cpuprofile", "", "run the add in this process and write a CPU profile here")
	memprofile := flag.String("memprofile", "", "with -cpuprofile: write a heap profile here at the end")
	rounds := flag.Int("update-rounds", 5, "rounds of sponge update after each add of linux-doc (0: none)")
	flag.Parse()
	if err := run(*work, *bin, *only, *cpuprofile, *memprofile, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "library bench:", err)
		os.Exit(1)
	}
}

// result is what one add measured.
type result struct {
	c                   corpus
	link                bool // sponge add --link
	files               int
	added, had, failed  int
	wall                time.Duration
	cpu                 time.Duration
	maxRSS              int64 // bytes
	textBytes           int64
	paragraphs, pages   int
	storeDisk, idxDisk  int64 // allocated blocks
	storeBytes, idxSize int64 // apparent sizes
	sourcesDisk         int64 // the original bytes (part of storeDisk)
	sourcesBytes        int64
	sourceBytes         int64 // the input files
	chars, unread       int64 // characters of text, and of them U+FFFD (a glyph whose text the PDF does not say)
}

func run(work, bin, only, cpuprofile, memprofile string, rounds int) error {
	var results []result
	var updates []updateResult
	updateFiles := 0
	for _, c := range corpora {
		if only != "" && only != c.name {
			continue
		}
		in, n, size, err := prepare(work, c)
		if err != nil {
			return err
		}
		for _, link := range []bool{false, true} {
			if link && cpuprofile != "" {
				break
			}
			lib := filepath.Join(work, "libs", c.name)
			if link {
				lib += "-link"
			}
			if err := os.RemoveAll(lib); err != nil {
				return err
			}
			r := result{c: c, link: link, files: n, sourceBytes: size}
			how := ""
			if link {
				how = " with --link"
			}
			fmt.Fprintf(os.Stderr, "adding %d %s files of %s (%.1f MB)%s …\n", n, c.ext, c.pkg, mb(size), how)
			var out []byte
			if cpuprofile != "" {
				out, err = addInProcess(lib, in, &r, cpuprofile, memprofile)
			} else {
				out, err = addProcess(filepath.Join(bin, "sponge"), lib, in, work, &r)
			}
			if err != nil {
				return err
			}
			if err := summary(out, &r); err != nil {
				return err
			}
			if err := measure(lib, &r); err != nil {
				return err
			}
			results = append(results, r)
			if c.name == "linux-doc" && rounds > 0 && cpuprofile == "" {
				fmt.Fprintf(os.Stderr, "sponge update of the same library, %d rounds …\n", rounds)
				u, err := benchUpdate(filepath.Join(bin, "sponge"), lib, in, r.label(), rounds)
				if err != nil {
					return err
				}
				updates = append(updates, u...)
				updateFiles = n
			}
		}
	}
	if len(results) == 0 {
		return fmt.Errorf("no corpus named %q (linux-doc, texlive-pdf)", only)
	}
	print(results)
	printUpdate(updates, updateFiles)
	return nil
}

// prepare fetches and unpacks the package if needed and gathers its files
// into work/inputs/NAME, returning that folder, the file count and size.
func prepare(work string, c corpus) (string, int, int64, error) {
	pkgDir := filepath.Join(work, "pkgs", c.pkg)
	if _, err := os.Stat(filepath.Join(pkgDir, c.root)); err != nil {
		if err := bench.FetchDeb(work, c.pkg, pkgDir); err != nil {
			return "", 0, 0, err
		}
	}
	in := filepath.Join(work, "inputs", c.name)
	if err := os.RemoveAll(in); err != nil {
		return "", 0, 0, err
	}
	n, size := 0, int64(0)
	src := filepath.Join(pkgDir, c.root)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), c.ext) {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(in, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.Link(p, dst); err != nil {
			return err
		}
		st, err := d.Info()
		if err != nil {
			return err
		}
		n++
		size += st.Size()
		return nil
	})
	if err == nil && n == 0 {
		err = fmt.Errorf("no %s files under %s", c.ext, src)
	}
	return in, n, size, err
}

// addProcess runs `sponge add -q --library lib in` as a child process and
// takes its wall time, CPU time and peak RSS from wait4.
func addProcess(sponge, lib, in, work string, r *result) ([]byte, error) {
	if _, err := os.Stat(sponge); err != nil {
		return nil, fmt.Errorf("no sponge binary at %s (make build, or -bin DIR)", sponge)
	}
	logPath := filepath.Join(work, "logs", filepath.Base(lib)+".add.stderr")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return nil, err
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	var out bytes.Buffer
	args := []string{"add", "--library", lib, in} // not -q, which drops the summary
	if r.link {
		args = append(args, "--link")
	}
	cmd := exec.Command(sponge, args...)
	cmd.Stdout = &out
	cmd.Stderr = logf
	start := time.Now()
	err = cmd.Run()
	r.wall = time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, err
	}
	// Exit 1 can be expected: a file of the corpus that sponge cannot read
	// (pages with no text of their own, tables of contents, are skipped,
	// not failed); the summary counts them.
	if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
		return nil, fmt.Errorf("sponge add exited with %d (see %s)", code, logPath)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	r.maxRSS = ru.Maxrss * 1024
	r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return out.Bytes(), nil
}

// addInProcess runs the same add inside this process under the CPU profiler.
func addInProcess(lib, in string, r *result, cpuprofile, memprofile string) ([]byte, error) {
	f, err := os.Create(cpuprofile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out, errOut bytes.Buffer
	var before syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	if err := pprof.StartCPUProfile(f); err != nil {
		return nil, err
	}
	start := time.Now()
	code := cli.Main([]string{"add", "--library", lib, in}, strings.NewReader(""), &out, &errOut)
	r.wall = time.Since(start)
	pprof.StopCPUProfile()
	var after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	r.maxRSS = after.Maxrss * 1024
	r.cpu = time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	if memprofile != "" {
		mf, err := os.Create(memprofile)
		if err != nil {
			return nil, err
		}
		runtime.GC()
		pprof.Lookup("allocs").WriteTo(mf, 0)
		mf.Close()
	}
	if code != 0 && code != 1 {
		return nil, fmt.Errorf("sponge add exited with %d: %s", code, errOut.String())
	}
	return out.Bytes(), nil
}

var summaryRE = regexp.MustCompile(`^added (\d+), already saved (\d+), failed (\d+)`)

// summary reads sponge add's last line: "added N, already saved M, failed K".
func summary(out []byte, r *result) error {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := summaryRE.FindStringSubmatch(sc.Text()); m != nil {
			r.added, _ = strconv.Atoi(m[1])
			r.had, _ = strconv.Atoi(m[2])
			r.failed, _ = strconv.Atoi(m[3])
			return nil
		}
	}
	return fmt.Errorf("no summary line in sponge add's output: %q", out)
}

// measure reads the library back: the extracted text of every item, and the
// size of the store and the index on disk.
func measure(dir string, r *result) error {
	lib, err := library.Open(dir)
	if err != nil {
		return err
	}
	ids, err := lib.IDs()
	if err != nil {
		return err
	}
	if len(ids) != r.added {
		return fmt.Errorf("the library holds %d items, sponge add said it added %d", len(ids), r.added)
	}
	for _, id := range ids {
		it, err := lib.Item(id)
		if err != nil {
			return err
		}
		for _, p := range it.Paragraphs {
			r.textBytes += int64(len(p.Text))
			r.chars += int64(utf8.RuneCountInString(p.Text))
			r.unread += int64(strings.Count(p.Text, "\uFFFD"))
		}
		r.paragraphs += len(it.Paragraphs)
		m := library.MetaOf(it)
		r.pages += m.Pages
		n, err := lib.SourceSize(id)
		if err != nil {
			return err
		}
		r.sourcesBytes += n
	}
	r.storeDisk, r.storeBytes, err = du(filepath.Join(dir, "items"))
	if err != nil {
		return err
	}
	// The original bytes share their items' files; their share of the disk
	// is counted in proportion.
	if r.storeBytes > 0 {
		r.sourcesDisk = r.storeDisk * r.sourcesBytes / r.storeBytes
	}
	r.idxDisk, r.idxSize, err = du(lib.IndexDir())
	return err
}

// du returns the disk space (allocated blocks) and the apparent size of the
// files under dir.
func du(dir string) (disk, size int64, err error) {
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		size += st.Size()
		if s, ok := st.Sys().(*syscall.Stat_t); ok {
			disk += s.Blocks * 512
		}
		return nil
	})
	return disk, size, err
}

func (r result) label() string {
	l := r.c.pkg + " (" + strings.TrimPrefix(r.c.ext, ".")
	if r.link {
		l += ", --link"
	}
	return l + ")"
}

func mb(n int64) float64 { return float64(n) / 1e6 }

func print(results []result) {
	fmt.Printf("\nsponge add into a fresh library (%d cores; MB = 10^6 bytes; text = the extracted paragraphs, UTF-8)\n\n", runtime.NumCPU())
	var rows [][]string
	for _, r := range results {
		secs := r.wall.Seconds()
		pages := "-"
		if r.pages > 0 {
			pages = fmt.Sprintf("%.0f", float64(r.pages)/secs)
		}
		rows = append(rows, []string{
			r.label(),
			fmt.Sprintf("%d/%d", r.added, r.files),
			fmt.Sprintf("%.1f", mb(r.textBytes)),
			fmt.Sprint(r.pages),
			fmt.Sprintf("%.1f s", secs),
			fmt.Sprintf("%.0f", float64(r.added)/secs),
			fmt.Sprintf("%.2f", mb(r.textBytes)/secs),
			pages,
			fmt.Sprintf("%.1f", mb(r.storeDisk)),
			fmt.Sprintf("%.1f", mb(r.idxDisk)),
			fmt.Sprintf("%.2f×", float64(r.storeDisk+r.idxDisk)/float64(r.textBytes)),
			fmt.Sprintf("%.2f×", float64(r.storeDisk-r.sourcesDisk+r.idxDisk)/float64(r.textBytes)),
			fmt.Sprintf("%.0f", float64(r.maxRSS)/(1<<20)),
			fmt.Sprintf("%.0f%%", 100*r.cpu.Seconds()/secs),
		})
	}
	fmt.Print(bench.Table([]string{"input", "items saved/files", "text MB", "PDF pages", "wall", "items/s", "text MB/s", "pages/s", "store MB", "index MB", "(store+index)/text", "without originals", "peak RSS MiB", "CPU"}, rows))
	fmt.Printf("\ntargets: ≥ %.0f MB of text/s, (store+index) ≤ %.1f× the text, peak RSS ≤ %d MB\n", targetMBps, targetRatio, targetRSSMB)
	fmt.Printf("CPU: the add's user+system time over its wall time (200%% = both cores); load average %s\n", bench.LoadAverage())
	fmt.Printf("\nsizes in detail (MB: allocated on disk / apparent)\n\n")
	rows = nil
	for _, r := range results {
		rows = append(rows, []string{
			r.label(),
			fmt.Sprintf("%.1f", mb(r.sourceBytes)),
			fmt.Sprintf("%.1f", mb(r.textBytes)),
			fmt.Sprint(r.paragraphs),
			fmt.Sprintf("%.1f / %.1f", mb(r.storeDisk-r.sourcesDisk), mb(r.storeBytes-r.sourcesBytes)),
			fmt.Sprintf("%.1f / %.1f", mb(r.sourcesDisk), mb(r.sourcesBytes)),
			fmt.Sprintf("%.1f / %.1f", mb(r.idxDisk), mb(r.idxSize)),
			fmt.Sprintf("%d", r.failed),
			fmt.Sprintf("%d (%.2f per 10k)", r.unread, 1e4*float64(r.unread)/float64(max(r.chars, 1))),
		})
	}
	fmt.Print(bench.Table([]string{"input", "files MB", "text MB", "paragraphs", "store: items", "store: original bytes", "index", "not saved (empty or unreadable)", "U+FFFD in the text"}, rows))
}
