// Command manpages measures sponge's reading of manual pages against the
// page as a person reads it: `man -l` (groff, -Tutf8, 2,000 columns so
// that no line is broken or hyphenated), less its header and footer
// lines. For each page of a sample of the machine's /usr/share/man (English
// sections only, every k-th of them in name order, .so stubs left out) it
// scores the share of the rendered words that sponge keeps, in order (the
// longest common subsequence of the two word lists over the rendered
// words), and prints the share of pages at 0.99 or more, the mean, the
// worst pages, and the pages sponge skips.
//
// Words are compared as a reader would: lower case, with the marks at
// either end left out ("gzip(1)." is "gzip(1"), hyphens, minus signs and
// quotes of every kind the same. Headings count: sponge keeps them as each
// paragraph's heading path.
//
// With -before BIN (this program built at an earlier commit) the pages
// are read by both, side by side:
//
//	git worktree add /tmp/before <commit>
//	mkdir -p /tmp/before/internal/bench/manpages
//	cp internal/bench/manpages/main.go /tmp/before/internal/bench/manpages/
//	(cd /tmp/before && go build -o /tmp/manpages-before ./internal/bench/manpages)
//	go run ./internal/bench/manpages -before /tmp/manpages-before -n 600 -cache /tmp/manref
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/sponge-library/sponge/internal/library/extract"
)

type para struct {
	H string `json:"h"`
	T string `json:"t"`
}

type page struct {
	Path  string `json:"path"`
	Err   string `json:"err,omitempty"`
	Paras []para `json:"paras,omitempty"`
}

func read(path string) page {
	data, err := os.ReadFile(path)
	if err != nil {
		return page{Path: path, Err: err.Error()}
	}
	d, err := extract.Bytes(data, path, "")
	if err != nil {
		return page{Path: path, Err: err.Error()}
	}
	p := page{Path: path}
	for _, q := range d.Paragraphs {
		p.Paras = append(p.Paras, para{q.Heading, q.Text})
	}
	return p
}

func main() {
	root := flag.String("root", "/usr/share/man", "the manual pages")
	n := flag.Int("n", 500, "pages in the sample (0: every page)")
	before := flag.String("before", "", "this program built at an earlier commit")
	cache := flag.String("cache", "", "a folder keeping man -l's renderings between runs")
	worst := flag.Int("worst", 15, "worst pages listed")
	dump := flag.Bool("dump", false, "read the pages named on stdin, one JSON line each (what -before runs)")
	flag.Parse()
	if *dump {
		sc := bufio.NewScanner(os.Stdin)
		enc := json.NewEncoder(os.Stdout)
		for sc.Scan() {
			enc.Encode(read(sc.Text()))
		}
		return
	}
	pages := sample(*root, *n)
	fmt.Fprintf(os.Stderr, "manpages: %d pages of %s\n", len(pages), *root)
	refs := render(pages, *cache)
	after := map[string]page{}
	for _, p := range pages {
		after[p] = read(p)
	}
	var beforePages map[string]page
	if *before != "" {
		var err error
		if beforePages, err = runBefore(*before, pages); err != nil {
			fmt.Fprintln(os.Stderr, "manpages:", err)
			os.Exit(1)
		}
	}
	type row struct {
		path          string
		words         int
		after, before float64
		errA, errB    string
	}
	var rows []row
	for _, p := range pages {
		ref := refs[p]
		if len(ref) == 0 {
			continue
		}
		r := row{path: p, words: len(ref)}
		r.after, r.errA = score(ref, after[p])
		if beforePages != nil {
			r.before, r.errB = score(ref, beforePages[p])
		}
		rows = append(rows, r)
	}
	summary := func(get func(row) (float64, string)) string {
		good, skipped, sum := 0, 0, 0.0
		var all []float64
		for _, r := range rows {
			s, e := get(r)
			if e != "" {
				skipped++
			}
			if s >= 0.99 {
				good++
			}
			sum += s
			all = append(all, s)
		}
		sort.Float64s(all)
		return fmt.Sprintf("%5.1f%%  %6.4f  %6.4f  %6.4f  %4d", 100*float64(good)/float64(len(rows)), sum/float64(len(rows)),
			all[len(all)/2], all[len(all)/20], skipped)
	}
	fmt.Printf("man pages: %d scored against man -l (groff -Tutf8) of %s\n\n", len(rows), *root)
	fmt.Printf("%-8s %7s  %6s  %6s  %6s  %4s\n", "reader", "≥0.99", "mean", "median", "p5", "skipped")
	if beforePages != nil {
		fmt.Printf("%-8s %s\n", "before", summary(func(r row) (float64, string) { return r.before, r.errB }))
	}
	fmt.Printf("%-8s %s\n", "after", summary(func(r row) (float64, string) { return r.after, r.errA }))
	sort.Slice(rows, func(i, j int) bool { return rows[i].after < rows[j].after })
	fmt.Printf("\nworst pages (after; before):\n")
	for i, r := range rows {
		if i == *worst {
			break
		}
		fmt.Printf("  %6.4f  %6.4f  %6d words  %s %s\n", r.after, r.before, r.words, r.path, r.errA)
	}
}

// sample is every k-th page of the English sections, in name order.
func sample(root string, n int) []string {
	var all []string
	dirs, _ := filepath.Glob(filepath.Join(root, "man[1-9]*"))
	for _, d := range dirs {
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || !e.Type().IsRegular() {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil && !isStub(data) {
				all = append(all, p)
			}
			return nil
		})
	}
	sort.Strings(all)
	if n <= 0 || n >= len(all) {
		return all
	}
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

// isStub says whether a page is a .so redirect to another.
func isStub(data []byte) bool {
	return len(data) < 512 && soRE.Match(gunzipSmall(data))
}

var soRE = regexp.MustCompile(`(?m)^\.so\s`)

func gunzipSmall(data []byte) []byte {
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return data
	}
	cmd := exec.Command("zcat")
	cmd.Stdin = bytes.NewReader(data)
	out, _ := cmd.Output()
	return out
}

// render is each page's words as man -l shows them, two pages at a time.
func render(pages []string, cache string) map[string][]string {
	out := map[string][]string{}
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				text := renderOne(p, cache)
				w := words(dropHeaderFooter(text))
				mu.Lock()
				out[p] = w
				mu.Unlock()
			}
		}()
	}
	for _, p := range pages {
		work <- p
	}
	close(work)
	wg.Wait()
	return out
}

func renderOne(p, cache string) string {
	key := ""
	if cache != "" {
		key = filepath.Join(cache, strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", "_")+".txt")
		if b, err := os.ReadFile(key); err == nil {
			return string(b)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "man", "-l", p)
	cmd.Env = []string{"MANWIDTH=2000", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin", "MAN_DISABLE_SECCOMP=1"}
	b, _ := cmd.Output()
	text := stripOverstrike(string(b))
	if key != "" {
		os.MkdirAll(cache, 0o755)
		os.WriteFile(key, []byte(text), 0o644)
	}
	return text
}

func stripOverstrike(s string) string {
	if !strings.Contains(s, "\b") {
		return s
	}
	var out []rune
	for _, c := range s {
		if c == '\b' && len(out) > 0 {
			out = out[:len(out)-1]
			continue
		}
		out = append(out, c)
	}
	return string(out)
}

// dropHeaderFooter leaves out the first and last lines that hold words:
// "SSH(1) General Commands Manual SSH(1)" and the footer.
func dropHeaderFooter(s string) string {
	lines := strings.Split(s, "\n")
	first, last := -1, -1
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 || first == last {
		return ""
	}
	return strings.Join(lines[first+1:last], "\n")
}

var fold = strings.NewReplacer("‐", "-", "‑", "-", "−", "-", "–", "-", "’", "'", "‘", "'", "`", "'", "´", "'", "“", `"`, "”", `"`, "\u00a0", " ")

// words are a text's words as compared.
func words(s string) []string {
	var out []string
	for _, w := range strings.Fields(fold.Replace(s)) {
		w = strings.TrimFunc(strings.ToLower(w), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// score is the share of ref's words that p keeps in order.
func score(ref []string, p page) (float64, string) {
	if p.Err != "" {
		return 0, p.Err
	}
	var got []string
	var prev []string
	for _, q := range p.Paras {
		path := strings.Split(q.H, " › ")
		if q.H == "" {
			path = nil
		}
		for i, h := range path {
			if i >= len(prev) || prev[i] != h {
				got = append(got, words(h)...)
			}
		}
		prev = path
		got = append(got, words(q.T)...)
	}
	return float64(lcs(ref, got)) / float64(len(ref)), ""
}

// lcs is the length of the longest common subsequence of a and b.
func lcs(a, b []string) int {
	// common ends first: most pages are nearly the same
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	a, b = a[pre:], b[pre:]
	suf := 0
	for suf < len(a) && suf < len(b) && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	a, b = a[:len(a)-suf], b[:len(b)-suf]
	if len(a) == 0 || len(b) == 0 {
		return pre + suf
	}
	ids := map[string]int32{}
	id := func(s []string) []int32 {
		out := make([]int32, len(s))
		for i, w := range s {
			v, ok := ids[w]
			if !ok {
				v = int32(len(ids))
				ids[w] = v
			}
			out[i] = v
		}
		return out
	}
	x, y := id(a), id(b)
	prev := make([]int32, len(y)+1)
	cur := make([]int32, len(y)+1)
	for i := range x {
		for j := range y {
			switch {
			case x[i] == y[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return pre + suf + int(prev[len(y)])
}

func runBefore(bin string, pages []string) (map[string]page, error) {
	cmd := exec.Command(bin, "-dump")
	cmd.Stdin = strings.NewReader(strings.Join(pages, "\n") + "\n")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v", bin, err)
	}
	res := map[string]page{}
	dec := json.NewDecoder(&out)
	for {
		var p page
		if err := dec.Decode(&p); err != nil {
			break
		}
		res[p.Path] = p
	}
	return res, nil
}
