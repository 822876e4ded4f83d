// Command summary measures item summaries (issue 17), made by the stages
// sponge summarize runs (sponge-rank --item | sponge-draft | sponge-verify),
// in this process: on the PDFs of texlive-latex-base-doc (fetched into
// -work with apt-get download, as bench-library does) and on the
// SciFact abstracts. It prints, for each corpus, the share of summary quotes
// that verify, how much of the item they cover (pages touched), their length,
// and the time per item: extractive, and with a random-weight model of
// Qwen2.5-0.5B's shape (ggufgen; cgo builds only), whose statements are made
// a fixed length since random weights never stop on their own.
//
// For SciFact each abstract's first sentence (and its title) is a reference
// of what the abstract is about; the table gives how many of its words the
// summary holds (ROUGE-1 recall), beside two plain methods with as many
// sentences: the first ones (lead, which holds the first sentence by
// construction) and random ones.
//
// Then the first statements (lead.go): the share of summaries whose first
// says what the item is, on SciFact and on English manual pages, by half;
// -lead measures only that, and -before COMMIT beside that commit's:
//
//	go run ./internal/bench/summary -lead -before HEAD
//
//	go run ./internal/bench/summary -work .bench     (make bench-summary)
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft"
	"github.com/sponge-library/sponge/stages/draft/sentences"
	"github.com/sponge-library/sponge/stages/rank"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/verify"
)

func main() {
	work := flag.String("work", ".bench", "working folder: the texlive PDFs (fetched with apt-get download into WORK/pkgs, as bench-library does) and the libraries")
	models := flag.String("models", ".bench/models", "folder for the random-weight model (written on first use)")
	nSciFact := flag.Int("scifact", 1000, "how many SciFact abstracts to summarize (0: none)")
	modelItems := flag.Int("model-items", 3, "how many PDFs to summarize with the random-weight model (0: none)")
	manPages := flag.Int("man", 600, "how many English manual pages (man1, man8) the first-statement measure reads (0: none)")
	manRoot := flag.String("man-root", "/usr/share/man", "the manual pages")
	leadOnly := flag.Bool("lead", false, "measure only the first statements (SciFact, manual pages), not the texlive PDFs nor the model")
	before := flag.String("before", "", "with -lead: a commit whose summaries are measured beside the working tree's, in a worktree under -work")
	leadJSON := flag.Bool("lead-json", false, "with -lead: write the figures as JSON (what -before reads)")
	build := flag.String("build", "this tree", "the name of this build in the first-statement table")
	flag.Parse()
	if *leadOnly || *leadJSON {
		if err := runLead(*work, *manRoot, *nSciFact, *manPages, *build, *before, *leadJSON); err != nil {
			fmt.Fprintln(os.Stderr, "bench-summary:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*work, *models, *nSciFact, *modelItems, *manRoot, *manPages); err != nil {
		fmt.Fprintln(os.Stderr, "bench-summary:", err)
		os.Exit(1)
	}
}

// result is one summary measured.
type result struct {
	it       *item.Item
	stream   *render.Stream
	took     time.Duration
	pages    int // the item's pages
	touched  int // pages its quotes stand on
	sections int // headings of the item
	inSect   int // headings its quotes stand under
	chars    int // the summary's length: its statements' text
	maxChars int // the longest statement
}

// runLead measures the first statements alone: this build's, and rev's
// beside them when rev is set.
func runLead(work, manRoot string, nSciFact, manPages int, build, rev string, asJSON bool) error {
	var builds []*leadFigures
	if rev != "" {
		f, err := leadBefore(work, rev, []string{"-scifact", fmt.Sprint(nSciFact), "-man", fmt.Sprint(manPages), "-man-root", manRoot})
		if err != nil {
			return err
		}
		builds = append(builds, f)
	}
	f, err := leadMeasures(work, manRoot, nSciFact, manPages, build)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(f)
	}
	builds = append(builds, f)
	fmt.Println("Summaries whose first statement says what the item is (even positions: tuning half; odd: report half)")
	fmt.Println(leadTable(builds))
	return nil
}

func run(work, models string, nSciFact, modelItems int, manRoot string, manPages int) error {
	// The same package and folder as bench-library's.
	pkgDir := filepath.Join(work, "pkgs", "texlive-latex-base-doc")
	pdfDir := filepath.Join(pkgDir, "usr", "share", "doc", "texlive-doc")
	if _, err := os.Stat(pdfDir); err != nil {
		if err := bench.FetchDeb(work, "texlive-latex-base-doc", pkgDir); err != nil {
			return err
		}
	}
	pdfLib := filepath.Join(work, "libs", "summary-texlive")
	if err := addAll(pdfLib, pdfDir); err != nil {
		return err
	}
	lib, err := library.Open(pdfLib)
	if err != nil {
		return err
	}
	ids, err := lib.IDs()
	if err != nil {
		return err
	}
	var pdfs []*result
	for _, id := range ids {
		r, err := summarize(lib, id, nil)
		if err != nil {
			return fmt.Errorf("%s: %v", id[:12], err)
		}
		pdfs = append(pdfs, r)
	}
	var rows [][]string
	rows = append(rows, row("texlive PDFs, extractive", pdfs))

	// The Go benchmark of the target: the PDF closest to 20 pages.
	near := pdfs[0]
	for _, r := range pdfs {
		if abs(r.pages-20) < abs(near.pages-20) {
			near = r
		}
	}
	b := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			if _, err := summarize(lib, near.it.ID, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	twenty := fmt.Sprintf("%s: %d pages, %d paragraphs, %d characters: %.1f ms per summary (testing.Benchmark, %d runs), %.1f ms median of %d PDFs of 15 to 25 pages",
		near.it.Title, near.pages, len(near.it.Paragraphs), chars(near.it), float64(b.NsPerOp())/1e6, b.N, medianMs(pdfs, 15, 25), count(pdfs, 15, 25))

	var sci []*result
	var lead, random, ours, oursTitle, leadTitle, randomTitle float64
	firstIn := 0
	if nSciFact > 0 {
		_, docs, err := bench.SciFactCorpus()
		if err != nil {
			return err
		}
		docs = docs[:min(nSciFact, len(docs))]
		sciLib := filepath.Join(work, "libs", fmt.Sprintf("summary-scifact-%d", len(docs)))
		if _, err := bench.BuildLibrary(sciLib, docs); err != nil {
			return err
		}
		slib, err := library.Open(sciLib)
		if err != nil {
			return err
		}
		rng := rand.New(rand.NewPCG(17, 17))
		for _, d := range docs {
			it, _ := bench.ItemOf(d)
			r, err := summarize(slib, it.ID, nil)
			if err != nil {
				return err
			}
			sci = append(sci, r)
			sents := sentences.Sentences(d.Text)
			if len(sents) == 0 {
				continue
			}
			k := max(1, len(r.stream.Verified))
			var summary []string
			for _, v := range r.stream.Verified {
				summary = append(summary, v.Saved)
			}
			perm := rng.Perm(len(sents))[:min(k, len(sents))]
			sort.Ints(perm)
			var rnd []string
			for _, i := range perm {
				rnd = append(rnd, sents[i])
			}
			leadK := sents[:min(k, len(sents))]
			ours += recall(sents[0], summary)
			lead += recall(sents[0], leadK)
			random += recall(sents[0], rnd)
			oursTitle += recall(d.Title, summary)
			leadTitle += recall(d.Title, leadK)
			randomTitle += recall(d.Title, rnd)
			for _, s := range summary {
				if strings.TrimSpace(s) == strings.TrimSpace(sents[0]) {
					firstIn++
					break
				}
			}
		}
		rows = append(rows, row("SciFact abstracts, extractive", sci))
	}

	if modelItems > 0 {
		mr, err := modelRows(lib, pdfs, models, modelItems)
		if err != nil {
			return err
		}
		rows = append(rows, mr...)
	}
	fmt.Println(bench.Table([]string{"corpus", "items", "statements/item", "quotes verified", "pages touched (mean)", "share of pages", "sections touched", "chars/summary (mean)", "longest statement", "ms/item (median)", "ms/item (p90)"}, rows))
	fmt.Println("20-page target:", twenty)
	if len(sci) > 0 {
		n := float64(len(sci))
		fmt.Println()
		fmt.Println("SciFact: words of the reference the summary holds (ROUGE-1 recall), against plain methods with as many sentences")
		fmt.Println(bench.Table([]string{"reference", "summary", "lead (first sentences)", "random sentences"}, [][]string{
			{"the abstract's first sentence", f2(ours / n), f2(lead / n), f2(random / n)},
			{"the title", f2(oursTitle / n), f2(leadTitle / n), f2(randomTitle / n)},
		}))
		fmt.Printf("summaries that quote the first sentence itself: %.2f\n", float64(firstIn)/n)
	}
	firsts, err := leadMeasures(work, manRoot, nSciFact, manPages, "this tree")
	if err != nil {
		return err
	}
	fmt.Println()
	fmt.Println("Summaries whose first statement says what the item is (even positions: tuning half; odd: report half)")
	fmt.Println(leadTable([]*leadFigures{firsts}))
	return nil
}

// addAll saves the PDFs under dir in a library (kept when already made).
func addAll(libDir, dir string) error {
	if lib, err := library.Open(libDir); err == nil {
		if ids, err := lib.IDs(); err == nil && len(ids) > 0 {
			return nil
		}
	}
	ins, _, errs := ingest.Expand(dir, ingest.WalkOptions{})
	if len(errs) > 0 {
		return errs[0]
	}
	var pdfs []ingest.Input
	for _, in := range ins {
		if strings.HasSuffix(in.Name, ".pdf") {
			pdfs = append(pdfs, in)
		}
	}
	w, err := ingest.OpenWriter(libDir, nil)
	if err != nil {
		return err
	}
	ingest.Add(context.Background(), w, pdfs, ingest.AddOptions{}, func(ingest.Added) {})
	return w.Close()
}

// summarize runs the stages of a summary of one item: sponge-rank --item,
// sponge-draft (extractive, or d), sponge-verify; and measures the result.
func summarize(lib *library.Library, id string, d pipeline.Stage) (*result, error) {
	if d == nil {
		d = &draft.Stage{Options: draft.Options{Library: lib.Dir, Extractive: true, Timeout: time.Minute}}
	}
	start := time.Now()
	var out bytes.Buffer
	err := pipeline.Chain(context.Background(), strings.NewReader(""), &out,
		&rank.Stage{Library: lib.Dir, Item: id}, d, verify.New(lib))
	if err != nil {
		return nil, err
	}
	st, err := render.Read(jsonl.NewReader(&out, "the stages"))
	if err != nil {
		return nil, err
	}
	took := time.Since(start)
	it, err := lib.Item(id)
	if err != nil {
		return nil, err
	}
	r := &result{it: it, stream: st, took: took}
	m := library.MetaOf(it)
	r.pages = m.Pages
	heads := map[string]bool{}
	for _, p := range it.Paragraphs {
		if p.Heading != "" {
			heads[p.Heading] = true
		}
	}
	r.sections = len(heads)
	pages, in := map[int]bool{}, map[string]bool{}
	for _, v := range st.Verified {
		pages[v.Page] = true
		if h := it.Paragraphs[v.Paragraph].Heading; h != "" {
			in[h] = true
		}
		n := utf8.RuneCountInString(v.Text)
		r.chars += n
		r.maxChars = max(r.maxChars, n)
	}
	delete(pages, 0)
	r.touched, r.inSect = len(pages), len(in)
	return r, nil
}

func row(name string, rs []*result) []string {
	var stmts, verified, left, touched, chars, maxChars int
	share, sectShare := 0.0, 0.0
	paged, sectioned := 0, 0
	var times []time.Duration
	for _, r := range rs {
		stmts += len(r.stream.Verified)
		verified += len(r.stream.Verified)
		left += len(r.stream.LeftOut) + len(r.stream.Statements)
		touched += r.touched
		if r.pages > 0 {
			share += float64(r.touched) / float64(r.pages)
			paged++
		}
		if r.sections > 1 {
			sectShare += float64(r.inSect) / float64(r.sections)
			sectioned++
		}
		chars += r.chars
		maxChars = max(maxChars, r.maxChars)
		times = append(times, r.took)
	}
	n := float64(len(rs))
	pagesCol, shareCol, sectCol := "—", "—", "—"
	if paged > 0 {
		pagesCol = fmt.Sprintf("%.1f", float64(touched)/float64(paged))
		shareCol = f2(share / float64(paged))
	}
	if sectioned > 0 {
		sectCol = fmt.Sprintf("%s of headings", f2(sectShare/float64(sectioned)))
	}
	ver := "—"
	if verified+left > 0 {
		ver = fmt.Sprintf("%.3f (%d of %d)", float64(verified)/float64(verified+left), verified, verified+left)
	}
	return []string{name, fmt.Sprint(len(rs)), fmt.Sprintf("%.1f", float64(stmts)/n), ver, pagesCol, shareCol, sectCol,
		fmt.Sprintf("%.0f", float64(chars)/n), fmt.Sprint(maxChars),
		ms(bench.Percentile(times, 50)), ms(bench.Percentile(times, 90))}
}

func medianMs(rs []*result, lo, hi int) float64 {
	var ts []time.Duration
	for _, r := range rs {
		if r.pages >= lo && r.pages <= hi {
			ts = append(ts, r.took)
		}
	}
	if len(ts) == 0 {
		return 0
	}
	return float64(bench.Percentile(ts, 50)) / 1e6
}

func count(rs []*result, lo, hi int) int {
	n := 0
	for _, r := range rs {
		if r.pages >= lo && r.pages <= hi {
			n++
		}
	}
	return n
}

// recall is the share of the reference's distinct words (lowercased, of
// letters and digits) that the texts hold.
func recall(ref string, texts []string) float64 {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			m[w] = true
		}
		return m
	}
	want := words(ref)
	have := words(strings.Join(texts, " "))
	if len(want) == 0 {
		return 0
	}
	n := 0
	for w := range want {
		if have[w] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

func chars(it *item.Item) int { return library.MetaOf(it).Chars }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func f2(x float64) string { return fmt.Sprintf("%.2f", x) }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/1e6) }
