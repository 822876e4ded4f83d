// Command ui measures sponge ui against the command line (issue 44):
//
//   - the ask page's first statement against sponge ask's, on a library of
//     1,000 SciFact abstracts (the abstracts the test claims cite, then the
//     corpus in order), for SciFact test claims: sponge ask is a new process
//     per question, as a person runs it; sponge ui is started once and each
//     question is one GET /ask (the page's stream), timed from the request
//     to its first statement event and to its end. Both run the drafter the
//     environment gives (here none is installed: the extractive one), and
//     the runs alternate;
//   - the item page of a long PDF (texlive's interface3.pdf, 345 pages, from
//     make extract-corpora): GET /item/ID whole, and opened at a quote.
//
// It prints a table. The programs come from -bin (make build).
//
//	go run ./internal/bench/ui -bin bin
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
)

func main() {
	bin := flag.String("bin", "bin", "folder with sponge, sponge-full and the stage programs")
	work := flag.String("work", ".bench/ui", "folder for the libraries (kept between runs)")
	questions := flag.Int("questions", 10, "SciFact test claims asked")
	runs := flag.Int("runs", 3, "times each question is asked of each")
	pageRuns := flag.Int("page-runs", 20, "GETs of the PDF's item page")
	pdf := flag.String("pdf", ".bench/extract/pkgs/texlive-latex-base-doc/usr/share/doc/texlive-doc/latex/l3kernel/interface3.pdf", "the long PDF (make extract-corpora)")
	flag.Parse()
	if err := run(*bin, *work, *pdf, *questions, *runs, *pageRuns); err != nil {
		fmt.Fprintln(os.Stderr, "ui bench:", err)
		os.Exit(1)
	}
}

func run(bin, work, pdf string, nq, runs, pageRuns int) error {
	bin, _ = filepath.Abs(bin)
	work, _ = filepath.Abs(work)
	// The bench's own settings and models folder: no model, no endpoint.
	home := filepath.Join(work, "home")
	os.RemoveAll(home)
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"SPONGE_ENDPOINT=", "NO_COLOR=1")
	lib := filepath.Join(work, "scifact-1000")
	claims, err := scifactLibrary(lib, nq)
	if err != nil {
		return err
	}
	var rows [][]string

	srv, base, err := startUI(bin, lib, env)
	if err != nil {
		return err
	}
	var cli, uiFirst, uiEnd []time.Duration
	cliNone, uiNone := 0, 0
	for r := 0; r < runs; r++ {
		for _, q := range claims {
			d, stated, err := cliFirst(bin, lib, env, q)
			if err != nil {
				srv.Process.Kill()
				return err
			}
			cli = append(cli, d)
			if !stated {
				cliNone++
			}
			f, e, stated, err := pageFirst(base, q)
			if err != nil {
				srv.Process.Kill()
				return err
			}
			uiFirst, uiEnd = append(uiFirst, f), append(uiEnd, e)
			if !stated {
				uiNone++
			}
		}
	}
	stopUI(srv)
	n := len(cli)
	rows = append(rows,
		[]string{"sponge ask: first line on stdout (new process)", ms(med(cli)), ms(bench.Percentile(cli, 90)), fmt.Sprintf("%d (%d nothing)", n, cliNone)},
		[]string{"sponge ui: GET /ask to its first statement event", ms(med(uiFirst)), ms(bench.Percentile(uiFirst, 90)), fmt.Sprintf("%d (%d nothing)", n, uiNone)},
		[]string{"sponge ui: GET /ask to its end event", ms(med(uiEnd)), ms(bench.Percentile(uiEnd, 90)), strconv.Itoa(n)})

	if _, err := os.Stat(pdf); err != nil {
		rows = append(rows, []string{"item page of " + filepath.Base(pdf), "no PDF (make extract-corpora)", "", ""})
	} else {
		r, err := pdfPage(bin, work, pdf, env, pageRuns)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	fmt.Printf("sponge ui against sponge ask, %d SciFact claims x %d runs, library of 1,000 abstracts\n\n", len(claims), runs)
	fmt.Print(bench.Table([]string{"what", "median", "p90", "runs"}, rows))
	return nil
}

// scifactLibrary builds the library of 1,000 abstracts at dir and returns
// nq test claims whose cited abstracts are in it.
func scifactLibrary(dir string, nq int) ([]string, error) {
	sdir, docs, err := bench.SciFactCorpus()
	if err != nil {
		return nil, err
	}
	qs, err := bench.Queries(sdir)
	if err != nil {
		return nil, err
	}
	qrels, err := bench.Qrels(sdir, "test")
	if err != nil {
		return nil, err
	}
	byID := map[string]bench.Doc{}
	for _, d := range docs {
		byID[d.ID] = d
	}
	var qids []string
	for q := range qrels {
		qids = append(qids, q)
	}
	sort.Slice(qids, func(i, j int) bool { a, _ := strconv.Atoi(qids[i]); b, _ := strconv.Atoi(qids[j]); return a < b })
	chosen := map[string]bool{}
	var picked []bench.Doc
	var claims []string
	for _, q := range qids {
		for d := range qrels[q] {
			if !chosen[d] && len(picked) < 1000 {
				chosen[d] = true
				picked = append(picked, byID[d])
			}
		}
		if len(claims) < nq {
			claims = append(claims, qs[q])
		}
	}
	for _, d := range docs {
		if len(picked) == 1000 {
			break
		}
		if !chosen[d.ID] {
			chosen[d.ID] = true
			picked = append(picked, d)
		}
	}
	if _, err := bench.BuildLibrary(dir, picked); err != nil {
		return nil, err
	}
	return claims, nil
}

// startUI starts sponge ui on a free port and returns its address.
func startUI(bin, lib string, env []string) (*exec.Cmd, string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(filepath.Join(bin, "sponge"), "ui", "--library", lib, "--port", strconv.Itoa(port))
	cmd.Env = env
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		return nil, "", fmt.Errorf("sponge ui printed no address: %v", err)
	}
	return cmd, strings.TrimSuffix(strings.TrimPrefix(line, "sponge ui: "), "/\n"), nil
}

func stopUI(cmd *exec.Cmd) {
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
}

// cliFirst runs sponge ask and times its first line on stdout; stated:
// the answer has a statement.
func cliFirst(bin, lib string, env []string, q string) (time.Duration, bool, error) {
	cmd := exec.Command(filepath.Join(bin, "sponge"), "ask", "--library", lib, "--", q)
	cmd.Env = env
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, false, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, false, err
	}
	r := bufio.NewReader(out)
	first := time.Duration(0)
	stated := true
	for {
		line, err := r.ReadString('\n')
		if strings.TrimSpace(line) != "" && first == 0 {
			first = time.Since(start)
			stated = !strings.Contains(line, "Nothing in your library answers that.")
		}
		if err != nil {
			break
		}
	}
	cmd.Wait() // exit 4 is "nothing answers"
	return first, stated, nil
}

// pageFirst GETs the ask page's stream and times its first statement event
// (or its end, when none comes) and its end.
func pageFirst(base, q string) (first, end time.Duration, stated bool, err error) {
	start := time.Now()
	resp, err := http.Get(base + "/ask?q=" + url.QueryEscape(q))
	if err != nil {
		return 0, 0, false, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		switch sc.Text() {
		case "event: statement":
			if first == 0 {
				first, stated = time.Since(start), true
			}
		case "event: end", "event: failure":
			end = time.Since(start)
			if first == 0 {
				first = end
			}
		}
	}
	if end == 0 {
		return 0, 0, false, fmt.Errorf("the stream of %q had no end", q)
	}
	return first, end, stated, sc.Err()
}

// pdfPage adds the PDF to a library of its own and times its item page.
func pdfPage(bin, work, pdf string, env []string, n int) ([][]string, error) {
	lib := filepath.Join(work, "pdf")
	if _, err := os.Stat(filepath.Join(lib, "index")); err != nil {
		add := exec.Command(filepath.Join(bin, "sponge"), "add", "--library", lib, pdf)
		add.Env = env
		if out, err := add.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("sponge add %s: %v\n%s", pdf, err, out)
		}
	}
	l, err := library.Open(lib)
	if err != nil {
		return nil, err
	}
	ids, err := l.IDs()
	if err != nil || len(ids) != 1 {
		return nil, fmt.Errorf("the PDF's library has %d items (%v)", len(ids), err)
	}
	it, err := l.Item(ids[0])
	if err != nil {
		return nil, err
	}
	mid := len(it.Paragraphs) / 2
	words := strings.Fields(it.Paragraphs[mid].Text)
	q := strings.Join(words[:min(8, len(words))], " ")
	m, err := l.Meta(ids[0])
	if err != nil {
		return nil, err
	}
	srv, base, err := startUI(bin, lib, env)
	if err != nil {
		return nil, err
	}
	defer stopUI(srv)
	var rows [][]string
	for _, c := range []struct{ what, path string }{
		{"whole", "/item/" + it.ID},
		{"opened at a quote", "/item/" + it.ID + "?" + url.Values{"p": {strconv.Itoa(mid)}, "q": {q}}.Encode()},
	} {
		var ds []time.Duration
		size := 0
		for i := 0; i < n; i++ {
			start := time.Now()
			resp, err := http.Get(base + c.path)
			if err != nil {
				return nil, err
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 {
				return nil, fmt.Errorf("%s: %d %v", c.path, resp.StatusCode, err)
			}
			ds = append(ds, time.Since(start))
			size = len(b)
		}
		rows = append(rows, []string{fmt.Sprintf("item page of %s (%d pages, %d paragraphs, %d KB of HTML), %s", filepath.Base(pdf), m.Pages, m.Paragraphs, size>>10, c.what),
			ms(med(ds)), ms(bench.Percentile(ds, 90)), strconv.Itoa(n)})
	}
	return rows, nil
}

func med(ds []time.Duration) time.Duration { return bench.Percentile(ds, 50) }

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000) }
