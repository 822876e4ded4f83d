package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"
	trafilatura "github.com/markusmobius/go-trafilatura"
)

// articles scores sponge, go-trafilatura and go-readability on the
// article extraction benchmark with its own evaluate.py, on all pages and
// on each half: the tuning half (odd places in key order) and the report
// half (even places), so that a reader tuned on one is judged on the other.
func articles(sponge []reader) {
	dir := filepath.Join(*shared, "article-extraction")
	var truth map[string]map[string]any
	data, err := os.ReadFile(filepath.Join(dir, "ground-truth.json"))
	if err == nil {
		err = json.Unmarshal(data, &truth)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "extract: articles:", err)
		return
	}
	keys := make([]string, 0, len(truth))
	for k := range truth {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pageURL := map[string]string{}
	var paths []string
	for _, k := range keys {
		p := filepath.Join(dir, "html", k+".html.gz")
		paths = append(paths, p)
		if u, ok := truth[k]["url"].(string); ok {
			pageURL[p] = u
		}
	}
	readers := append([]reader{}, sponge...)
	if *others {
		readers = append(readers,
			reader{"go-trafilatura", textReader("go-trafilatura", func(p string) (string, string, error) { return trafilaturaRead(p, pageURL[p]) })},
			reader{"go-readability", textReader("go-readability", func(p string) (string, string, error) { return readabilityRead(p, pageURL[p]) })})
	}
	bodies := map[string]map[string]string{} // reader → key → body
	secs := map[string]float64{}
	for _, r := range readers {
		docs := readAll("articles", r, paths)
		secs[r.name] = readerSec(docs)
		bodies[r.name] = map[string]string{}
		for i, k := range keys {
			bodies[r.name][k] = docText(docs[paths[i]])
		}
	}
	halves := []struct {
		name string
		keep func(i int) bool
	}{
		{"all", func(int) bool { return true }},
		{"tuning half (odd)", func(i int) bool { return i%2 == 0 }},
		{"report half (even)", func(i int) bool { return i%2 == 1 }},
	}
	for _, h := range halves {
		folder := filepath.Join(*work, "articles", strings.Fields(h.name)[0])
		os.RemoveAll(folder)
		os.MkdirAll(filepath.Join(folder, "output"), 0o755)
		sub := map[string]map[string]any{}
		n := 0
		for i, k := range keys {
			if h.keep(i) {
				sub[k] = truth[k]
				n++
			}
		}
		writeJSON(filepath.Join(folder, "ground-truth.json"), sub)
		empty := map[string]int{}
		for _, r := range readers {
			out := map[string]map[string]string{}
			for k := range sub {
				out[k] = map[string]string{"articleBody": bodies[r.name][k]}
				if len(words(bodies[r.name][k])) == 0 {
					empty[r.name]++
				}
			}
			writeJSON(filepath.Join(folder, "output", r.name+".json"), map[string]any{"version": "", "output": out})
		}
		var res map[string]map[string]any
		timed(fmt.Sprintf("articles: evaluate.py on %s (%d pages, %d readers)", h.name, n, len(readers)), func() {
			res, err = evaluate(dir, folder)
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "extract: articles: evaluate.py:", err)
			return
		}
		for _, r := range readers {
			m := res[r.name]
			f := func(k string) string { return fmt.Sprintf("%.3f±%.3f", m[k], m[k+"_std"]) }
			sec := 0.0
			if h.name == "all" {
				sec = secs[r.name]
			}
			rows = append(rows, row{"articles", h.name, r.name, n,
				[]string{"F1 " + f("f1"), "precision " + f("precision"), "recall " + f("recall"), fmt.Sprintf("empty %d", empty[r.name])}, sec})
		}
	}
}

// evaluate runs the benchmark's evaluate.py in folder (ground-truth.json
// and output/*.json) and reads its figures.
func evaluate(dir, folder string) (map[string]map[string]any, error) {
	script, err := filepath.Abs(filepath.Join(dir, "evaluate.py"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("python3", script, "--output", "results.json")
	cmd.Dir = folder
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(folder, "results.json"))
	if err != nil {
		return nil, err
	}
	var res map[string]map[string]any
	return res, json.Unmarshal(data, &res)
}

func writeJSON(path string, v any) {
	data, err := json.Marshal(v)
	if err == nil {
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "extract:", err)
		os.Exit(1)
	}
}

// htmlOf is a page's HTML, unpacked when it is gzip.
func htmlOf(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return data, err
	}
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// trafilaturaRead is go-trafilatura's text of a page, with its fallback
// readers (readability and dom-distiller) on, as in its own benchmark.
func trafilaturaRead(path, pageURL string) (string, string, error) {
	data, err := htmlOf(path)
	if err != nil {
		return "", "", err
	}
	opts := trafilatura.Options{EnableFallback: true}
	if u, err := url.Parse(pageURL); err == nil && pageURL != "" {
		opts.OriginalURL = u
	}
	res, err := trafilatura.Extract(bytes.NewReader(data), opts)
	if err != nil {
		return "", "", err
	}
	return res.Metadata.Title, res.ContentText, nil
}

// readabilityRead is go-readability's (readeck's, v2) text of a page.
func readabilityRead(path, pageURL string) (string, string, error) {
	data, err := htmlOf(path)
	if err != nil {
		return "", "", err
	}
	var u *url.URL
	if pageURL != "" {
		u, _ = url.Parse(pageURL)
	}
	if u == nil {
		u, _ = url.Parse("file://" + path)
	}
	a, err := readability.FromReader(bytes.NewReader(data), u)
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	if a.Node != nil {
		if err := a.RenderText(&b); err != nil {
			return "", "", err
		}
	}
	return a.Title(), b.String(), nil
}
