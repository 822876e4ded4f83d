// Command embed measures meaning search (issue 7) with a random-weight model
// of bge-small-en-v1.5's shape (12 blocks, 384 wide, Q8_0; speed depends on
// the shape, not the weights): paragraphs embedded per second, the vector
// store's size per 100,000 paragraphs, and the whole-process latency of
// `sponge-search` with meaning search at 10k, 100k and 300k paragraphs.
//
// The library is SciFact's 5,183 abstracts (built once in -library). For the
// latency rows the vector store is synthesized: random unit vectors, spread
// over the abstracts' ids, since embedding 300,000 paragraphs at the measured
// rate would take hours on this machine. sponge-search is timed two ways:
// built with cgo (the model in-process) and without (the model in a
// sponge-embed child).
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/embed"
	"github.com/sponge-library/sponge/internal/gguf"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/models"
	"github.com/sponge-library/sponge/internal/vectors"
)

func main() {
	libDir := flag.String("library", ".bench/scifact-embed", "where to build the SciFact library")
	modelsDir := flag.String("models", ".bench/models", "where to write the random-weight model")
	binDir := flag.String("bin", "bin", "the folder with sponge-search (no cgo) and sponge-embed")
	paragraphs := flag.Int("paragraphs", 256, "abstracts to embed for the speed row")
	runs := flag.Int("runs", 15, "searches per size and build")
	sizes := flag.String("sizes", "10000,100000,300000", "paragraph counts for the latency rows")
	flag.Parse()
	if err := run(*libDir, *modelsDir, *binDir, *paragraphs, *runs, *sizes); err != nil {
		fmt.Fprintln(os.Stderr, "bench-embed:", err)
		os.Exit(1)
	}
}

func run(libDir, modelsDir, binDir string, nParas, runs int, sizeList string) error {
	if !embed.HasRuntime {
		return fmt.Errorf("build with cgo (make bench-embed)")
	}
	dir, err := bench.SciFactDir()
	if err != nil {
		return err
	}
	docs, err := bench.Corpus(dir)
	if err != nil {
		return err
	}
	os.MkdirAll(modelsDir, 0o755)
	modelPath := filepath.Join(modelsDir, "bge-small-en-v1.5-shape-random-q8_0.gguf")
	if _, err := os.Stat(modelPath); err != nil {
		var text strings.Builder
		for _, d := range docs[:2000] {
			text.WriteString(d.Title + " " + d.Text + " ")
		}
		// A vocabulary with the corpus's words, so paragraphs take about as
		// many tokens as with bge's real WordPiece vocabulary.
		if err := gguf.WriteBert(modelPath, gguf.BgeSmall(gguf.Words(strings.ToLower(text.String())))); err != nil {
			return err
		}
	}
	fmt.Printf("machine: %d cores, load average %s", runtime.NumCPU(), loadavg())
	fmt.Printf("model: %s\n\n", modelPath)

	// 1. Embedding speed, on SciFact abstracts (one paragraph each).
	fmt.Println("| threads | paragraphs | mean tokens | paragraphs/s | tokens/s |")
	fmt.Println("|---|---|---|---|---|")
	texts := make([]string, 0, nParas)
	for _, d := range docs[:nParas] {
		it, _ := bench.ItemOf(d)
		texts = append(texts, vectors.ParagraphText(it.Paragraphs[0]))
	}
	for _, th := range []int{1, 2} {
		m, err := embed.Load(modelPath, embed.Options{Threads: th})
		if err != nil {
			return err
		}
		tokens := 0
		for _, t := range texts {
			n, _ := m.Tokens(t)
			tokens += n
		}
		t0 := time.Now()
		for i := 0; i < len(texts); i += 64 {
			if _, err := m.Embed(texts[i:min(len(texts), i+64)]); err != nil {
				return err
			}
		}
		sec := time.Since(t0).Seconds()
		fmt.Printf("| %d | %d | %.0f | %.1f | %.0f |\n", th, len(texts), float64(tokens)/float64(len(texts)), float64(len(texts))/sec, float64(tokens)/sec)
		m.Close()
	}

	// 2. The library, with the model installed.
	if _, err := bench.BuildLibrary(libDir, docs); err != nil {
		return err
	}
	lib, err := library.Open(libDir)
	if err != nil {
		return err
	}
	if _, err := models.InstallFrom(context.Background(), lib.ModelsDir(), models.Embedding, modelPath, models.Options{}); err != nil && !strings.Contains(err.Error(), "installed") {
		return err
	}
	_, tag, err := vectors.Installed(lib)
	if err != nil {
		return err
	}
	tag.Dims = 384
	ids, err := lib.IDs()
	if err != nil {
		return err
	}

	// Builds of sponge-search: with cgo (model in-process) and without.
	tmp, err := os.MkdirTemp("", "bench-embed")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cgoSearch := filepath.Join(tmp, "sponge-search")
	if out, err := exec.Command("go", "build", "-o", cgoSearch, "./cmd/sponge-search").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	pureSearch, err := filepath.Abs(filepath.Join(binDir, "sponge-search"))
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(binDir, "sponge-embed")); err != nil {
		return fmt.Errorf("no sponge-embed in %s (make build)", binDir)
	}
	claims, err := bench.Queries(dir)
	if err != nil {
		return err
	}
	var questions []string
	for _, q := range claims {
		questions = append(questions, q)
	}
	sort.Strings(questions)

	fmt.Println()
	fmt.Println("| paragraphs | store size | bytes/paragraph | per 100k paragraphs | vector search alone | sponge-search, keyword only | sponge-search + meaning (cgo, in-process) | sponge-search + meaning (no cgo, sponge-embed child) |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, f := range strings.Split(sizeList, ",") {
		var n int
		fmt.Sscan(f, &n)
		if err := synthesize(lib, tag, ids, n); err != nil {
			return err
		}
		size := dirSize(vectors.Dir(lib.Dir))
		scan, err := scanTime(lib, runs)
		if err != nil {
			return err
		}
		// Keyword only: the same library with the vectors moved aside.
		os.Rename(vectors.Dir(lib.Dir), vectors.Dir(lib.Dir)+".aside")
		kw := timeSearch(pureSearch, lib.Dir, questions, runs, `"semantic-unavailable"`)
		os.Rename(vectors.Dir(lib.Dir)+".aside", vectors.Dir(lib.Dir))
		in := timeSearch(cgoSearch, lib.Dir, questions, runs, `"meaning"`)
		child := timeSearch(pureSearch, lib.Dir, questions, runs, `"meaning"`)
		fmt.Printf("| %d | %.1f MB | %.1f | %.1f MB | %s | %s | %s | %s |\n", n, float64(size)/1e6, float64(size)/float64(n),
			float64(size)/float64(n)*100000/1e6, scan, kw, in, child)
	}
	fmt.Printf("\nload average at the end: %s", loadavg())
	return nil
}

// synthesize writes a store of n random unit vectors spread over ids.
func synthesize(lib *library.Library, m vectors.Model, ids []string, n int) error {
	dir := vectors.Dir(lib.Dir)
	os.RemoveAll(dir)
	w, err := vectors.Create(dir, m)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(uint64(n), 9))
	left := n
	for i, id := range ids {
		k := left / (len(ids) - i)
		vs := make([][]float32, k)
		for j := range vs {
			v := make([]float32, m.Dims)
			for d := range v {
				v[d] = float32(r.NormFloat64())
			}
			embed.Normalize(v)
			vs[j] = v
		}
		if err := w.Add(id, vs); err != nil {
			return err
		}
		left -= k
		if w.Pending() > 20000 {
			if err := w.Commit(); err != nil {
				return err
			}
		}
	}
	return w.Close()
}

// scanTime is the median time to open the store and search it for one
// question vector, in this process.
func scanTime(lib *library.Library, runs int) (string, error) {
	r := rand.New(rand.NewPCG(1, 1))
	var ds []time.Duration
	for range runs {
		q := make([]float32, 384)
		for d := range q {
			q[d] = float32(r.NormFloat64())
		}
		embed.Normalize(q)
		t0 := time.Now()
		s, err := vectors.Open(vectors.Dir(lib.Dir))
		if err != nil {
			return "", err
		}
		if _, err := s.Search(q, 500); err != nil {
			return "", err
		}
		s.Close()
		ds = append(ds, time.Since(t0))
	}
	return stats(ds), nil
}

// timeSearch runs sponge-search as a process for runs questions; it reports
// the median and the 90th percentile of the wall time. The first run's
// output must contain want (proof that meaning search ran, or did not).
func timeSearch(exe, lib string, questions []string, runs int, want string) string {
	var ds []time.Duration
	for i := range runs + 1 {
		q := questions[(i*37)%len(questions)]
		cmd := exec.Command(exe, "--library", lib, q)
		t0 := time.Now()
		out, err := cmd.Output()
		d := time.Since(t0)
		if err != nil {
			return "failed: " + err.Error()
		}
		if i == 0 {
			if !strings.Contains(string(out), want) {
				return "failed: the output lacks " + want
			}
			continue // the first run warms the page cache
		}
		ds = append(ds, d)
	}
	return stats(ds)
}

func stats(ds []time.Duration) string {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	med := ds[len(ds)/2]
	p90 := ds[len(ds)*9/10]
	return fmt.Sprintf("%.0f ms (p90 %.0f)", float64(med.Microseconds())/1000, float64(p90.Microseconds())/1000)
}

func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?\n"
	}
	return strings.Join(f[:3], " ") + "\n"
}
