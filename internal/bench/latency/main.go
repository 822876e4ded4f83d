// Command latency measures how long a person waits for passages: `sponge ask
// --passages QUESTION` and `sponge-search QUESTION` run as whole processes
// (a new process each run, page cache warm) on two libraries, the 5,183
// SciFact abstracts and the linux-doc-6.1 pages, with a different question
// each run. It prints the median and p95 of the wall time and the peak RSS
// of the processes of each command.
//
// Each row is measured in a child of this program (it runs itself with
// -row), so getrusage(RUSAGE_CHILDREN) there is the largest RSS of that
// row's processes alone: sponge ask waits for its stage processes, so their
// peaks count too.
//
//	go run ./internal/bench/latency -bin bin     (make bench, after the library benchmark)
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
)

// Targets on a 2-core machine (issue 3).
const (
	targetMedian = 100 * time.Millisecond
	targetP95    = 200 * time.Millisecond
	targetRSSMB  = 200
)

// rowSpec is one row of the table, handed to the child that measures it.
type rowSpec struct {
	Name      string   `json:"name"`
	Command   []string `json:"command"` // without the question
	Questions []string `json:"questions"`
	Warmup    int      `json:"warmup"`
}

// rowResult is what the child measured.
type rowResult struct {
	Times    []time.Duration `json:"times"`
	MaxRSS   int64           `json:"maxRSS"`   // bytes, any process of the row
	DriverKB int64           `json:"driverKB"` // the direct child's own peak, KiB
	Empty    int             `json:"empty"`    // runs that found nothing
}

func main() {
	work := flag.String("work", ".bench", "working folder: libraries are built or found here")
	bin := flag.String("bin", "bin", "folder with sponge and the stage binaries")
	runs := flag.Int("runs", 60, "runs per row (each with its own question)")
	row := flag.String("row", "", "internal: measure one row given as JSON")
	flag.Parse()
	var err error
	if *row != "" {
		err = measureRow(*row)
	} else {
		err = run(*work, *bin, *runs)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "latency bench:", err)
		os.Exit(1)
	}
}

func run(work, bin string, runs int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	for _, b := range []string{"sponge", "sponge-search", "sponge-rank", "sponge-render"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			return fmt.Errorf("no %s in %s (make build, or -bin DIR)", b, bin)
		}
	}
	type lib struct {
		name, dir string
		questions []string
		items     int
		paras     int
	}
	var libs []lib

	dir, docs, err := bench.SciFactCorpus()
	if err != nil {
		return err
	}
	qs, err := bench.Queries(dir)
	if err != nil {
		return err
	}
	qrels, err := bench.Qrels(dir, "test")
	if err != nil {
		return err
	}
	sciDir := filepath.Join(work, "scifact")
	if _, err := bench.BuildLibrary(sciDir, docs); err != nil {
		return err
	}
	var sciQ []string
	for qid := range qrels {
		sciQ = append(sciQ, qs[qid])
	}
	sort.Strings(sciQ)
	libs = append(libs, lib{name: "SciFact", dir: sciDir, questions: pick(sciQ, runs)})

	ldDir := filepath.Join(work, "libs", "linux-doc")
	ld, err := library.Open(ldDir)
	if err != nil {
		return fmt.Errorf("no linux-doc library at %s: run go run ./internal/bench/library first", ldDir)
	}
	ldQ, err := titleQuestions(ld)
	if err != nil {
		return err
	}
	libs = append(libs, lib{name: "linux-doc", dir: ldDir, questions: pick(ldQ, runs)})

	for i := range libs {
		l, _ := library.Open(libs[i].dir)
		ids, err := l.IDs()
		if err != nil {
			return err
		}
		libs[i].items = len(ids)
		for _, id := range ids {
			m, err := l.Meta(id)
			if err != nil {
				return err
			}
			libs[i].paras += m.Paragraphs
		}
	}

	fmt.Printf("\nlatency: a new process per run, page cache warm, %d runs per row with different questions (%d cores, load average %s)\n\n", runs, runtime.NumCPU(), loadavg())
	var rows [][]string
	for _, l := range libs {
		for _, c := range []struct {
			name string
			cmd  []string
		}{
			{"sponge ask --passages", []string{filepath.Join(bin, "sponge"), "ask", "--passages", "--library", l.dir, "--"}},
			{"sponge-search", []string{filepath.Join(bin, "sponge-search"), "--library", l.dir, "--"}},
		} {
			spec := rowSpec{Name: c.name, Command: c.cmd, Questions: l.questions, Warmup: 3}
			res, err := runRow(spec)
			if err != nil {
				return fmt.Errorf("%s on %s: %v", c.name, l.name, err)
			}
			med, p95 := bench.Percentile(res.Times, 50), bench.Percentile(res.Times, 95)
			ok := func(b bool) string {
				if b {
					return "yes"
				}
				return "no"
			}
			rows = append(rows, []string{
				c.name, fmt.Sprintf("%s (%d items, %d paragraphs)", l.name, l.items, l.paras),
				fmt.Sprint(len(res.Times)),
				ms(med), ms(p95), ms(longest(res.Times)),
				fmt.Sprintf("%.0f", float64(res.MaxRSS)/(1<<20)),
				ok(med <= targetMedian && p95 <= targetP95 && res.MaxRSS <= targetRSSMB<<20),
			})
			if res.Empty > 0 {
				fmt.Fprintf(os.Stderr, "note: %s on %s found nothing for %d questions\n", c.name, l.name, res.Empty)
			}
		}
	}
	fmt.Print(bench.Table([]string{"command", "library", "runs", "median ms", "p95 ms", "max ms", "peak RSS MiB", "on target"}, rows))
	fmt.Printf("\ntargets: median ≤ %d ms, p95 ≤ %d ms, peak RSS ≤ %d MB (peak RSS: the largest process of the command, stages included)\n",
		targetMedian.Milliseconds(), targetP95.Milliseconds(), targetRSSMB)
	return nil
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

// runRow measures one row in a child process of this program.
func runRow(spec rowSpec) (*rowResult, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	arg, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-row", string(arg))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var res rowResult
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("row result: %v", err)
	}
	return &res, nil
}

// measureRow runs the command once per question and prints a rowResult.
func measureRow(arg string) error {
	var spec rowSpec
	if err := json.Unmarshal([]byte(arg), &spec); err != nil {
		return err
	}
	var res rowResult
	for i := -spec.Warmup; i < len(spec.Questions); i++ {
		q := spec.Questions[max(i, 0)]
		cmd := exec.Command(spec.Command[0], append(spec.Command[1:], q)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if err != nil {
			return fmt.Errorf("%s %q: %v\n%s", filepath.Base(spec.Command[0]), q, err, errb.String())
		}
		if i < 0 {
			continue
		}
		res.Times = append(res.Times, d)
		if out.Len() == 0 {
			res.Empty++
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			res.DriverKB = max(res.DriverKB, ru.Maxrss)
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return err
	}
	res.MaxRSS = ru.Maxrss * 1024
	return json.NewEncoder(os.Stdout).Encode(res)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

// longest returns the longest of the times.
func longest(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
