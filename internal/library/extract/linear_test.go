package extract

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestMarkdownLinear: reading Markdown takes time linear in its size, even
// for input made to be slow (issue 19: 200 KB of nested '>' took a minute).
// Each case is timed at sizes n, 2n, 4n and 8n: the time of a linear
// reader grows as size^1, of a quadratic one as size^2, and of one that
// searches the rest of the text for each of √n openers as size^1.5; the
// test allows size^1.3 (2.46 times the time for twice the size).
func TestMarkdownLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's own work does not grow linearly with memory")
	}
	if testing.Short() {
		t.Skip("-short (make check): the linearity test times large inputs; make test runs it")
	}
	cases := []struct {
		name string
		make func(n int) string // about n bytes of Markdown
	}{
		{"nested quote", func(n int) string { return strings.Repeat(">", n) + " deep\n" }},
		{"nested quote with spaces", func(n int) string { return strings.Repeat("> ", n/2) + "deep\n" }},
		{"quote lines", func(n int) string { return strings.Repeat("> > > a quoted line\n", n/20) }},
		{"code span openers", func(n int) string { return codeRuns(n) }},
		{"emphasis openers, then closers", func(n int) string {
			return strings.Repeat("**x ", n/8) + strings.Repeat("x* ", n/6)
		}},
		{"link openers", func(n int) string { return strings.Repeat("[a](b ", n/6) }},
		{"brackets", func(n int) string { return strings.Repeat("[", n) }},
		{"image openers", func(n int) string { return strings.Repeat("![a](", n/5) }},
		{"tag openers", func(n int) string { return strings.Repeat("<a b ", n/5) }},
		{"comment openers", func(n int) string { return strings.Repeat("<!-- ", n/5) }},
		{"escapes", func(n int) string { return strings.Repeat(`\*`, n/2) }},
		{"entities", func(n int) string { return strings.Repeat("&amp", n/4) }},
		{"list items", func(n int) string { return strings.Repeat("- item\n", n/7) }},
		{"table rows", func(n int) string { return "| a | b |\n|---|---|\n" + strings.Repeat("| 1 | 2 |\n", n/10) }},
		{"headings", func(n int) string { return strings.Repeat("# h\n## g\n", n/9) }},
		{"one long line", func(n int) string { return strings.Repeat("tea ", n/4) }},
		{"one long word", func(n int) string { return strings.Repeat("t", n) }},
		{"unclosed fence", func(n int) string { return "```\n" + strings.Repeat("code\n", n/5) }},
		{"front matter", func(n int) string { return "---\n" + strings.Repeat("k: v\n", n/5) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			read := func(n int) time.Duration {
				data := []byte(c.make(n))
				return cpuTime(func() {
					Bytes(data, "slow.md", "") // an error (empty document) is fine: the time is what counts
				})
			}
			n := 16 << 10
			for n < 1<<20 && read(n) < 5*time.Millisecond {
				n *= 2
			}
			// The growth is the slope of log time over log size, fitted
			// over three doublings: a step in the speed per byte at some size
			// (a cache outgrown, regexp trading its backtracker for the NFA)
			// weighs a third of what it would over one doubling. On a busy
			// machine the bigger sizes can lose their caches to other
			// programs and fit a slope of ~1.4 for a linear reader: the fit is
			// made again, up to three times, and the least slope counts. A
			// reader that is not linear never fits below its own growth.
			fit := func() (float64, string) {
				var xs, ys []float64
				var report strings.Builder
				for k := range 4 {
					tk := read(n << k)
					xs, ys = append(xs, float64(k)), append(ys, math.Log2(float64(max(tk, time.Microsecond))))
					fmt.Fprintf(&report, " %d bytes %v,", n<<k, tk.Round(time.Microsecond))
					if tk > 2*time.Second {
						break // already far too slow: no need to wait for more
					}
				}
				return slope(xs, ys), strings.TrimSuffix(report.String(), ",")
			}
			growth, report := fit()
			for try := 1; try < 3 && growth > 1.3; try++ {
				if g, r := fit(); g < growth {
					growth, report = g, r
				}
			}
			if growth > 1.3 {
				t.Errorf("time grows as size^%.2f, not linearly:%s", growth, report)
			}
			t.Logf("size^%.2f:%s", growth, report)
		})
	}
}

// cpuTime is the best of a few runs of f, each timed in the CPU time of
// its thread where the system says it (Linux), so that other programs
// busy on a shared machine do not count; the collector is off while f runs,
// so that its work, done on other threads, does not come and go.
func cpuTime(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	best := time.Duration(1 << 62)
	for range 3 {
		runtime.GC()
		start := threadTime()
		f()
		best = min(best, threadTime()-start)
		if best > time.Second {
			break // slow enough to time once (the old reader of nested quotes)
		}
	}
	return best
}

// slope is the least-squares slope of ys over xs.
func slope(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx += xs[i] / float64(len(xs))
		my += ys[i] / float64(len(xs))
	}
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	return sxy / sxx
}

// codeRuns is backtick runs of growing length, none of which is closed:
// each opener looks for a closer of its own length.
func codeRuns(n int) string {
	var b strings.Builder
	for k := 1; b.Len() < n; k++ {
		fmt.Fprintf(&b, "%s x ", strings.Repeat("`", k))
	}
	return b.String()
}
