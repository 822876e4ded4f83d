package mcp_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sponge-library/sponge/internal/bench"
)

var (
	scifactOnce    sync.Once
	scifactLib     string
	scifactQueries []string
	scifactErr     error
)

// sciFact builds the SciFact library (5,183 abstracts) once per run, in the
// tests' temporary folder, and reads the first 100 test claims in the order of
// qrels-test.tsv.
func sciFact(b *testing.B) (string, []string) {
	scifactOnce.Do(func() {
		dir, err := bench.SciFactDir()
		if err != nil {
			scifactErr = err
			return
		}
		docs, err := bench.Corpus(dir)
		if err != nil {
			scifactErr = err
			return
		}
		scifactLib = filepath.Join(tmpRoot, "scifact")
		if _, err := bench.BuildLibrary(scifactLib, docs); err != nil {
			scifactErr = err
			return
		}
		queries, err := bench.Queries(dir)
		if err != nil {
			scifactErr = err
			return
		}
		f, err := os.Open(filepath.Join(dir, "qrels-test.tsv"))
		if err != nil {
			scifactErr = err
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Scan() // the header
		seen := map[string]bool{}
		for sc.Scan() && len(scifactQueries) < 100 {
			qid, _, _ := strings.Cut(sc.Text(), "\t")
			if !seen[qid] && queries[qid] != "" {
				seen[qid] = true
				scifactQueries = append(scifactQueries, queries[qid])
			}
		}
		scifactErr = sc.Err()
	})
	if scifactErr != nil {
		b.Skipf("no SciFact library: %v", scifactErr)
	}
	return scifactLib, scifactQueries
}

// BenchmarkFindPassagesSciFact times find_passages calls through a real
// client session with a child `sponge mcp`, on the SciFact library, for the
// first 100 test claims (run with -benchtime 100x for each once), and
// reports the median and 95th percentile of the round trip.
func BenchmarkFindPassagesSciFact(b *testing.B) {
	lib, queries := sciFact(b)
	cs := connect(b, lib)
	ctx := context.Background()
	times := make([]time.Duration, 0, b.N)
	answered := 0
	b.ResetTimer()
	for i := range b.N {
		q := queries[i%len(queries)]
		start := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "find_passages", Arguments: map[string]any{"question": q}})
		times = append(times, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("find_passages %q: %v %+v", q, err, res)
		}
		if m, ok := res.StructuredContent.(map[string]any); ok {
			if ps, ok := m["passages"].([]any); ok && len(ps) > 0 {
				answered++
			}
		}
	}
	b.StopTimer()
	slices.Sort(times)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	median, p95 := times[len(times)/2], times[min(len(times)-1, len(times)*95/100)]
	b.ReportMetric(ms(median), "ms-median")
	b.ReportMetric(ms(p95), "ms-p95")
	b.Logf("find_passages on SciFact (5,183 abstracts), %d calls: median %.2f ms, p95 %.2f ms, max %.2f ms; %d with passages",
		len(times), ms(median), ms(p95), ms(times[len(times)-1]), answered)
}
