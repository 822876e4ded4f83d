// Command start measures what starting each program costs, as whole
// processes: the programs' --help and --version (package initialisation,
// the runtime, the binary's pages; not sponge --version, which asks
// sponge-draft) and one question of sponge ask --passages
// and sponge-search on a library. With -before, the two builds run
// interleaved, command by command, and the table puts them side by side.
//
//	go run ./internal/bench/start -bin bin -before .bench/before/bin -library .bench/libs/kernel-docs-x8-after
//
// CPU is user+system time and faults are minor page faults, both from the
// process's rusage; wall is from start to exit. Each figure is the median of
// -runs runs.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
)

func main() {
	bin := flag.String("bin", "bin", "folder with sponge and the stage binaries")
	before := flag.String("before", "", "folder with the binaries to compare with (empty: none)")
	lib := flag.String("library", ".bench/libs/kernel-docs-x8-after", "library for the question rows (skipped if missing)")
	question := flag.String("question", "cgroup memory limit", "the question of the question rows")
	runs := flag.Int("runs", 30, "runs of each command and build")
	flag.Parse()
	if err := run(*bin, *before, *lib, *question, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "start bench:", err)
		os.Exit(1)
	}
}

// sample is one run of a process.
type sample struct {
	wall, cpu time.Duration
	faults    int64
	out       []byte
}

// row is one command, run by each build.
type row struct {
	name string
	args func(dir string) []string // the command line, for the build in dir
	same bool                      // the builds must print the same bytes
}

func run(bin, before, lib, question string, runs int) error {
	builds := []string{bin}
	if before != "" {
		builds = []string{before, bin}
	}
	for i, b := range builds {
		abs, err := filepath.Abs(b)
		if err != nil {
			return err
		}
		builds[i] = abs
		for _, p := range []string{"sponge", "sponge-search", "sponge-rank", "sponge-render"} {
			if _, err := os.Stat(filepath.Join(abs, p)); err != nil {
				return fmt.Errorf("no %s in %s (make build, or -bin DIR)", p, abs)
			}
		}
	}
	empty, err := emptyProgram()
	if err != nil {
		return err
	}
	defer os.RemoveAll(filepath.Dir(empty))

	prog := func(name string, args ...string) func(string) []string {
		return func(dir string) []string { return append([]string{filepath.Join(dir, name)}, args...) }
	}
	rows := []row{
		{"an empty Go main", func(string) []string { return []string{empty} }, true},
		{"sponge --help", prog("sponge", "--help"), false},
		{"sponge-search --version", prog("sponge-search", "--version"), false},
		{"sponge-rank --version", prog("sponge-rank", "--version"), false},
		{"sponge-render --version", prog("sponge-render", "--version"), false},
	}
	if _, err := os.Stat(filepath.Join(lib, "index")); err == nil {
		rows = append(rows,
			row{"sponge ask --passages Q", prog("sponge", "ask", "--library", lib, "--passages", question), true},
			row{"sponge-search Q", prog("sponge-search", "--library", lib, question), true})
	} else {
		fmt.Fprintf(os.Stderr, "start bench: no library at %s: the question rows are left out\n", lib)
	}

	samples := make([][][]sample, len(rows)) // by row, build
	for i := range rows {
		samples[i] = make([][]sample, len(builds))
	}
	for range runs {
		for i, r := range rows {
			for j, b := range builds {
				s, err := runOnce(r.args(b))
				if err != nil {
					return fmt.Errorf("%s (%s): %w", r.name, b, err)
				}
				samples[i][j] = append(samples[i][j], s)
			}
		}
	}

	fmt.Printf("\nStarting the programs: median of %d runs each, builds interleaved (%d cores, load average %s)\n", runs, runtime.NumCPU(), bench.LoadAverage())
	fmt.Printf("question rows: %q on %s\n\n", question, lib)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	head := "command\t"
	for _, b := range builds {
		n := "after"
		if len(builds) == 2 && b == builds[0] {
			n = "before"
		}
		head += n + " wall ms\t" + n + " CPU ms\t" + n + " faults\t"
	}
	if len(builds) == 2 {
		head += "wall after/before\tCPU after/before\tsame output\t"
	}
	fmt.Fprintln(w, head)
	for i, r := range rows {
		line := r.name + "\t"
		var wall, cpu []float64
		for j := range builds {
			ws, cs, fs := stats(samples[i][j])
			wall, cpu = append(wall, ws), append(cpu, cs)
			line += fmt.Sprintf("%.1f\t%.1f\t%.0f\t", ws, cs, fs)
		}
		if len(builds) == 2 {
			same := "-"
			if r.same {
				same = "yes"
				if !bytes.Equal(samples[i][0][0].out, samples[i][1][0].out) {
					same = "NO"
				}
			}
			line += fmt.Sprintf("%.2f\t%.2f\t%s\t", wall[1]/wall[0], cpu[1]/cpu[0], same)
		}
		fmt.Fprintln(w, line)
	}
	return w.Flush()
}

// runOnce runs a command line with its output to a buffer.
func runOnce(args []string) (sample, error) {
	cmd := exec.Command(args[0], args[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return sample{}, fmt.Errorf("no rusage on %s", runtime.GOOS)
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return sample{wall: wall, cpu: cpu, faults: ru.Minflt, out: out.Bytes()}, nil
}

// stats are the medians of wall and CPU time (ms) and of page faults.
func stats(ss []sample) (wall, cpu, faults float64) {
	var w, c, f []float64
	for _, s := range ss {
		w = append(w, float64(s.wall.Microseconds())/1000)
		c = append(c, float64(s.cpu.Microseconds())/1000)
		f = append(f, float64(s.faults))
	}
	return median(w), median(c), median(f)
}

func median(v []float64) float64 {
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// emptyProgram builds a Go program that does nothing: the floor every
// program starts from.
func emptyProgram() (string, error) {
	dir, err := os.MkdirTemp("", "start-bench-")
	if err != nil {
		return "", err
	}
	files := map[string]string{"go.mod": "module empty\n", "main.go": "package main\n\nfunc main() {}\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	exe := filepath.Join(dir, "empty")
	cmd := exec.Command("go", "build", "-o", exe, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build of an empty program: %v\n%s", err, out)
	}
	return exe, nil
}
