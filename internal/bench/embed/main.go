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
//
// -baseline DIR times an earlier build beside this tree's, the runs
// interleaved so that both see the same machine load: DIR holds that
// build's sponge-search (no cgo), sponge-embed, and sponge-search-cgo
// (sponge-search built with cgo). -timing prints, for the last size, where
// a search's time goes: the median of each step's time since exec, from the
// lines embed.TimingEnv makes the programs print.
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
	"strconv"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/vectors"
	"github.com/sponge-library/sponge/internal/model/catalog"
	"github.com/sponge-library/sponge/internal/model/catalog/install"
	"github.com/sponge-library/sponge/internal/model/embed"
	"github.com/sponge-library/sponge/internal/model/embed/llamaembed"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
)

func main() {
	libDir := flag.String("library", ".bench/scifact-embed", "where to build the SciFact library")
	modelsDir := flag.String("models", ".bench/models", "where to write the random-weight model")
	binDir := flag.String("bin", "bin", "the folder with sponge-search (no cgo) and sponge-embed")
	paragraphs := flag.Int("paragraphs", 256, "abstracts to embed for the speed row")
	runs := flag.Int("runs", 15, "searches per size and build")
	sizes := flag.String("sizes", "10000,100000,300000", "paragraph counts for the latency rows")
	baseline := flag.String("baseline", "", "a folder with an earlier build to time beside this one (sponge-search, sponge-embed, sponge-search-cgo)")
	timing := flag.Bool("timing", false, "print where the time of a search goes, at the last size")
	skipSpeed := flag.Bool("skip-speed", false, "leave out the embedding speed table")
	flag.Parse()
	opt := options{baseline: *baseline, timing: *timing, skipSpeed: *skipSpeed}
	if err := run(*libDir, *modelsDir, *binDir, *paragraphs, *runs, *sizes, opt); err != nil {
		fmt.Fprintln(os.Stderr, "bench-embed:", err)
		os.Exit(1)
	}
}

type options struct {
	baseline  string
	timing    bool
	skipSpeed bool
}

// build is one way sponge-search is built.
type build struct {
	name string
	exe  string
}

func run(libDir, modelsDir, binDir string, nParas, runs int, sizeList string, opt options) error {
	if !llamaembed.HasRuntime {
		return fmt.Errorf("build with cgo (make bench-embed)")
	}
	dir, docs, err := bench.SciFactCorpus()
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
		if err := ggufgen.WriteBert(modelPath, ggufgen.BgeSmall(ggufgen.Words(strings.ToLower(text.String())))); err != nil {
			return err
		}
	}
	fmt.Printf("machine: %d cores, load average %s\n", runtime.NumCPU(), bench.LoadAverage())
	fmt.Printf("model: %s\n\n", modelPath)

	// 1. Embedding speed, on SciFact abstracts (one paragraph each).
	if !opt.skipSpeed {
		if err := speed(docs, modelPath, nParas); err != nil {
			return err
		}
	}
	return latency(docs, libDir, modelPath, binDir, runs, sizeList, opt, dir)
}

// speed prints the embedding speed table.
func speed(docs []bench.Doc, modelPath string, nParas int) error {
	fmt.Println("| threads | paragraphs | mean tokens | paragraphs/s | tokens/s |")
	fmt.Println("|---|---|---|---|---|")
	texts := make([]string, 0, nParas)
	for _, d := range docs[:nParas] {
		it, _ := bench.ItemOf(d)
		texts = append(texts, vectors.ParagraphText(it.Paragraphs[0]))
	}
	for _, th := range []int{1, 2} {
		m, err := llamaembed.Load(modelPath, embed.Options{Threads: th})
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
	return nil
}

// latency times sponge-search on the library at each size.
func latency(docs []bench.Doc, libDir, modelPath, binDir string, runs int, sizeList string, opt options, dir string) error {
	// The library, with the model installed.
	if _, err := bench.BuildLibrary(libDir, docs); err != nil {
		return err
	}
	lib, err := library.Open(libDir)
	if err != nil {
		return err
	}
	if _, err := install.From(context.Background(), catalog.OwnDir(lib.Dir), catalog.Embedding, modelPath, install.Options{}); err != nil && !strings.Contains(err.Error(), "installed") {
		return err
	}
	_, tag, err := vectors.Installed(settings.FromOS().ModelsDir(), lib)
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
	// Each build is timed beside the baseline's, if there is one.
	kwBuilds := []build{{"this tree", pureSearch}}
	meaningBuilds := []build{{"cgo", cgoSearch}, {"child", pureSearch}}
	if opt.baseline != "" {
		base, err := filepath.Abs(opt.baseline)
		if err != nil {
			return err
		}
		for _, f := range []string{"sponge-search", "sponge-embed", "sponge-search-cgo"} {
			if _, err := os.Stat(filepath.Join(base, f)); err != nil {
				return fmt.Errorf("-baseline: %v", err)
			}
		}
		kwBuilds = append(kwBuilds, build{"baseline", filepath.Join(base, "sponge-search")})
		meaningBuilds = append(meaningBuilds, build{"baseline cgo", filepath.Join(base, "sponge-search-cgo")},
			build{"baseline child", filepath.Join(base, "sponge-search")})
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
	fmt.Println("| paragraphs | build | store size | bytes/paragraph | per 100k paragraphs | vector search alone | sponge-search, keyword only | sponge-search + meaning (cgo, in-process) | sponge-search + meaning (no cgo, sponge-embed child) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	var last []build
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
		kw := timeSearch(kwBuilds, lib.Dir, questions, runs, `"semantic-unavailable"`)
		os.Rename(vectors.Dir(lib.Dir)+".aside", vectors.Dir(lib.Dir))
		mn := timeSearch(meaningBuilds, lib.Dir, questions, runs, `"meaning"`)
		fmt.Printf("| %d | this tree | %.1f MB | %.1f | %.1f MB | %s | %s | %s | %s |\n", n, float64(size)/1e6, float64(size)/float64(n),
			float64(size)/float64(n)*100000/1e6, scan, kw[0], mn[0], mn[1])
		if opt.baseline != "" {
			fmt.Printf("| %d | baseline | | | | | %s | %s | %s |\n", n, kw[1], mn[2], mn[3])
		}
		last = meaningBuilds
	}
	if opt.timing && last != nil {
		fmt.Println()
		if err := timeline(last, lib.Dir, questions, runs); err != nil {
			return err
		}
	}
	fmt.Printf("\nload average at the end: %s\n", bench.LoadAverage())
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

// timeSearch runs each build of sponge-search as a process for runs
// questions, the builds in turn for each question; it reports, per build,
// the median and the 90th percentile of the wall time. Each build's first
// output must contain want (proof that meaning search ran, or did not).
func timeSearch(builds []build, lib string, questions []string, runs int, want string) []string {
	ds := make([][]time.Duration, len(builds))
	failed := make([]string, len(builds))
	for i := range runs + 1 {
		q := questions[(i*37)%len(questions)]
		for b, bd := range builds {
			if failed[b] != "" {
				continue
			}
			out, d, _, err := runSearch(bd.exe, lib, q, false)
			if err != nil {
				failed[b] = "failed: " + err.Error()
				continue
			}
			if i == 0 {
				if !strings.Contains(string(out), want) {
					failed[b] = "failed: the output lacks " + want
				}
				continue // the first run warms the page cache
			}
			ds[b] = append(ds[b], d)
		}
	}
	res := make([]string, len(builds))
	for b := range builds {
		res[b] = failed[b]
		if res[b] == "" {
			res[b] = stats(ds[b])
		}
	}
	return res
}

// runSearch runs sponge-search once; with timing, embed.TimingEnv holds the
// time just before exec, and its stderr is returned.
func runSearch(exe, lib, question string, timing bool) (out []byte, d time.Duration, stderr []byte, err error) {
	cmd := exec.Command(exe, "--library", lib, question)
	var eb strings.Builder
	cmd.Stderr = &eb
	t0 := time.Now()
	if timing {
		cmd.Env = append(os.Environ(), embed.TimingEnv+"="+strconv.FormatInt(t0.UnixNano(), 10))
	}
	out, err = cmd.Output()
	d = time.Since(t0)
	if err != nil {
		if eb.Len() > 0 {
			err = fmt.Errorf("%v: %s", err, strings.TrimSpace(eb.String()))
		}
		return nil, d, nil, err
	}
	return out, d, []byte(eb.String()), nil
}

// timeline runs each build runs times with embed.TimingEnv set and prints
// the median time since exec of each step the programs name, in order, and
// of the whole process.
func timeline(builds []build, lib string, questions []string, runs int) error {
	type step struct {
		label string
		at    []float64
		first int // order of first appearance
	}
	steps := make([]map[string]*step, len(builds))
	whole := make([][]float64, len(builds))
	for b := range builds {
		steps[b] = map[string]*step{}
	}
	for i := range runs {
		q := questions[(i*53)%len(questions)]
		for b, bd := range builds {
			_, d, stderr, err := runSearch(bd.exe, lib, q, true)
			if err != nil {
				return fmt.Errorf("%s: %v", bd.name, err)
			}
			whole[b] = append(whole[b], float64(d.Microseconds())/1000)
			for _, line := range strings.Split(string(stderr), "\n") {
				prog, rest, ok := strings.Cut(line, ": timing: ")
				if !ok {
					continue
				}
				f := strings.Fields(rest)
				if len(f) < 3 {
					continue
				}
				ms, err := strconv.ParseFloat(f[0], 64)
				if err != nil {
					continue
				}
				label := prog + ": " + strings.Join(f[2:], " ")
				st := steps[b][label]
				if st == nil {
					st = &step{label: label, first: len(steps[b])}
					steps[b][label] = st
				}
				st.at = append(st.at, ms)
			}
		}
	}
	for b, bd := range builds {
		var all []*step
		for _, st := range steps[b] {
			all = append(all, st)
		}
		sort.Slice(all, func(i, j int) bool {
			mi, mj := median(all[i].at), median(all[j].at)
			if mi != mj {
				return mi < mj
			}
			return all[i].first < all[j].first
		})
		fmt.Printf("%s (%s), median ms since exec over %d runs:\n\n", bd.name, bd.exe, runs)
		fmt.Println("| step | at | since the step before |")
		fmt.Println("|---|---|---|")
		prev := 0.0
		for _, st := range all {
			m := median(st.at)
			fmt.Printf("| %s | %.1f | %+.1f |\n", st.label, m, m-prev)
			prev = m
		}
		m := median(whole[b])
		fmt.Printf("| (process ended) | %.1f | %+.1f |\n\n", m, m-prev)
	}
	return nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
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
