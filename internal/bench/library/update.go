package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
)

// updateCase is one way the folder changed before a `sponge update`.
type updateCase struct {
	name   string
	change func(files []string, round int) error
}

// updateResult is the wall times of the rounds of one case, and the
// summary line of the last.
type updateResult struct {
	label   string
	c       string
	walls   []time.Duration
	cpus    []time.Duration // user+system time of each run
	summary string
}

// benchUpdate measures `sponge update` on the library just added from in:
// with nothing changed, with 1% of the files touched (a new time, the same
// bytes), and with 1% edited (a new version of each). The cases take turns,
// round after round, so that each median is measured beside the others on
// the same shared machine.
func benchUpdate(sponge, lib, in, label string, rounds int) ([]updateResult, error) {
	var files []string
	filepath.WalkDir(in, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	pick := func(round int) []string { // a different 1% each round
		n := max(1, len(files)/100)
		var out []string
		for i := range n {
			out = append(out, files[(round*n+i)*7919%len(files)])
		}
		return out
	}
	cases := []updateCase{
		{"nothing changed", func([]string, int) error { return nil }},
		{"1% touched", func(files []string, round int) error {
			// A time an hour back: a time of just now is not trusted by
			// design (a racy stat), and would hide the cost of reading.
			t := time.Now().Add(-time.Hour - time.Duration(round)*time.Second)
			for _, f := range pick(round) {
				if err := os.Chtimes(f, t, t); err != nil {
					return err
				}
			}
			return nil
		}},
		{"1% edited", func(files []string, round int) error {
			t := time.Now().Add(-time.Hour)
			for _, f := range pick(round + rounds) {
				data, err := os.ReadFile(f)
				if err != nil {
					return err
				}
				// The inputs are hard links to the unpacked package: a new
				// file, not a write through the link.
				os.Remove(f)
				data = append(data, fmt.Sprintf("\n<!-- edited in round %d -->\n", round)...)
				if err := os.WriteFile(f, data, 0o644); err != nil {
					return err
				}
				if err := os.Chtimes(f, t, t); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	// A first update brings the file stats up to date (files added within
	// the last seconds are read again once).
	if _, _, _, err := updateProcess(sponge, lib); err != nil {
		return nil, err
	}
	results := make([]updateResult, len(cases))
	for round := range rounds {
		for i, c := range cases {
			if err := c.change(files, round); err != nil {
				return nil, err
			}
			wall, cpu, summary, err := updateProcess(sponge, lib)
			if err != nil {
				return nil, err
			}
			results[i].label, results[i].c = label, c.name
			results[i].walls = append(results[i].walls, wall)
			results[i].cpus = append(results[i].cpus, cpu)
			results[i].summary = summary
		}
	}
	return results, nil
}

// updateProcess runs `sponge update --library lib` and returns its wall time,
// its CPU time (user+system, from wait4) and its last line.
func updateProcess(sponge, lib string) (wall, cpu time.Duration, last string, err error) {
	var out, errOut bytes.Buffer
	cmd := exec.Command(sponge, "update", "--library", lib)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	if err != nil && (cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1) {
		return 0, 0, "", fmt.Errorf("sponge update: %v\n%s", err, errOut.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return wall, cpu, lines[len(lines)-1], nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func printUpdate(results []updateResult, files int) {
	if len(results) == 0 {
		return
	}
	fmt.Printf("\nsponge update, a second one over the library just added (%d files; median of %d rounds, the cases in turn)\n\n", files, len(results[0].walls))
	var rows [][]string
	for _, r := range results {
		ws := make([]string, len(r.walls))
		for i, w := range r.walls {
			ws[i] = fmt.Sprintf("%.2f", w.Seconds())
		}
		rows = append(rows, []string{r.label, r.c, fmt.Sprintf("%.2f s", median(r.walls).Seconds()), fmt.Sprintf("%.2f s", median(r.cpus).Seconds()), strings.Join(ws, " "), r.summary})
	}
	fmt.Print(bench.Table([]string{"library", "since the last update", "median wall", "median CPU", "each round's wall (s)", "the last one's summary"}, rows))
	fmt.Printf("\ntarget: nothing changed ≤ 1 s for 3,000 files. CPU: user+system time of the process, less noisy than wall\n"+
		"on a shared machine; load average %s\n", bench.LoadAverage())
}
