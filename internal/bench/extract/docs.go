package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// A site is a documentation site's HTML pages.
type site struct {
	name string
	glob []string // under -work/pkgs
	skip []string // pages a tool made of the others' links, with no text of their own
}

var sites = []site{
	{"Debian Reference", []string{"debian-reference-en/usr/share/debian-reference/*.en.html"}, nil},
	{"Debian Handbook", []string{"debian-handbook/usr/share/doc/debian-handbook/html/en-US/*.html"}, nil},
	{"Python 3.11 docs", []string{"python3.11-doc/usr/share/doc/python3.11/html/*.html", "python3.11-doc/usr/share/doc/python3.11/html/*/*.html"},
		[]string{"genindex*.html", "py-modindex.html", "search.html"}},
}

// navOnly is the share of a page's words below which a reader has kept
// only its navigation.
const navOnly = 0.2

// docs scores each HTML reader on each documentation site against the
// page as a browser shows it: w3m -dump, less the lines that repeat on at
// least half the site's pages (menus, headers, footers) and a page's table
// of contents (see browserWords). What stays of the furniture (a page's
// previous and next titles) is in every reader's reference alike.
func docs(sponge []reader) {
	readers := append([]reader{}, sponge...)
	if *others {
		readers = append(readers,
			reader{"go-trafilatura", textReader("go-trafilatura", func(p string) (string, string, error) { return trafilaturaRead(p, "") })},
			reader{"go-readability", textReader("go-readability", func(p string) (string, string, error) { return readabilityRead(p, "") })})
	}
	for _, s := range sites {
		var paths []string
		for _, g := range s.glob {
			m, _ := filepath.Glob(filepath.Join(*work, "pkgs", g))
			for _, p := range m {
				if !slices.ContainsFunc(s.skip, func(k string) bool { ok, _ := filepath.Match(k, filepath.Base(p)); return ok }) {
					paths = append(paths, p)
				}
			}
		}
		if len(paths) == 0 {
			fmt.Fprintf(os.Stderr, "extract: docs: no pages of %s in %s (make extract-corpora fetches them)\n", s.name, filepath.Join(*work, "pkgs"))
			continue
		}
		paths = sample(paths, *docPages)
		var refs map[string][]string
		timed(fmt.Sprintf("docs: w3m -dump of %s (%d pages)", s.name, len(paths)), func() { refs = browserWords(s.name, paths) })
		total := 0
		for _, w := range refs {
			total += len(w)
		}
		for _, r := range readers {
			docs := readAll("docs "+s.name, r, paths)
			type score struct {
				path       string
				kept, pres float64
				words      int
			}
			var scores []score
			var kept, got, gotKept, nav int
			timed(fmt.Sprintf("docs: scoring %s's %s", s.name, r.name), func() {
				scores = make([]score, 0, len(paths))
				res := parallel(paths, func(p string) score {
					ref, have := refs[p], docWords(docs[p], true)
					k := lcs(ref, have)
					return score{p, float64(k) / float64(max(1, len(ref))), float64(k) / float64(max(1, len(have))), len(have)}
				})
				for _, p := range paths {
					sc := res[p]
					k := int(sc.kept*float64(len(refs[p])) + 0.5)
					kept += k
					got += sc.words
					gotKept += int(sc.pres*float64(sc.words) + 0.5)
					if sc.kept < navOnly && len(refs[p]) > 0 {
						nav++
					}
					scores = append(scores, sc)
				}
			})
			sort.Slice(scores, func(i, j int) bool { return scores[i].kept < scores[j].kept })
			mean, empty := 0.0, 0
			for _, sc := range scores {
				mean += sc.kept
				if sc.words == 0 {
					empty++
				}
			}
			mean /= float64(len(scores))
			rows = append(rows, row{"docs", s.name, r.name, len(paths), []string{
				fmt.Sprintf("kept %.3f of %d words", float64(kept)/float64(max(1, total)), total),
				fmt.Sprintf("page mean %.3f", mean),
				fmt.Sprintf("p10 %.3f", scores[len(scores)/10].kept),
				fmt.Sprintf("nav-only (<%.1f) %d", navOnly, nav),
				fmt.Sprintf("empty %d", empty),
				fmt.Sprintf("not in page %.3f", 1-float64(gotKept)/float64(max(1, got))),
			}, readerSec(docs)})
			var worstOnes []string
			for i, sc := range scores {
				if i == *worst {
					break
				}
				worstOnes = append(worstOnes, fmt.Sprintf("%.2f %s (%d words)", sc.kept, filepath.Base(sc.path), len(refs[sc.path])))
			}
			details = append(details, fmt.Sprintf("  docs %s, %s: %s", s.name, r.name, strings.Join(worstOnes, ", ")))
		}
	}
}

// browserWords are each page's words as w3m shows them (kept in
// -work/ref), less the lines that repeat on at least half the pages and
// the short lines that come again further down the same page.
func browserWords(siteName string, paths []string) map[string][]string {
	cache := filepath.Join(*work, "ref", "w3m")
	texts := parallel(paths, func(p string) string {
		key := filepath.Join(cache, strings.ReplaceAll(strings.TrimPrefix(p, *work), "/", "_")+".txt")
		if b, err := os.ReadFile(key); err == nil {
			return string(b)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		// -cols wide: a paragraph is one line, so that a line that repeats is furniture, not a phrase.
		out, err := exec.CommandContext(ctx, "w3m", "-dump", "-cols", "10000", "-T", "text/html", "-O", "UTF-8", "-I", "UTF-8", p).Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "extract: w3m %s: %v\n", p, err)
			return ""
		}
		os.MkdirAll(cache, 0o755)
		os.WriteFile(key, out, 0o644)
		return string(out)
	})
	out, furniture, toc := referenceWords(texts)
	notes = append(notes, fmt.Sprintf("docs %s: left out of the reference: %d lines on at least half the pages, %d table-of-contents lines (their heading comes later on the page)", siteName, furniture, toc))
	return out
}

// referenceWords are the words of a site's pages (their w3m text by path),
// less the lines that repeat on at least half of them (furniture) and the
// short lines whose words come again on a later line of the same page.
func referenceWords(texts map[string]string) (out map[string][]string, furniture, toc int) {
	pagesWith := map[string]int{}
	for _, t := range texts {
		seen := map[string]bool{}
		for _, l := range strings.Split(t, "\n") {
			l = strings.Join(strings.Fields(l), " ")
			if l != "" && !seen[l] {
				seen[l] = true
				pagesWith[l]++
			}
		}
	}
	out = map[string][]string{}
	for p, t := range texts {
		var lines [][]string
		for _, l := range strings.Split(t, "\n") {
			l = strings.Join(strings.Fields(l), " ")
			if l == "" {
				continue
			}
			if len(texts) >= 4 && 2*pagesWith[l] >= len(texts) {
				furniture++
				continue
			}
			lines = append(lines, words(l))
		}
		// A short line whose words come again on a later line of the same
		// page is a table of contents' entry for its heading ("□ Basic
		// Usage" before "Basic Usage¶"): the heading is kept, the entry not.
		later := map[string]int{}
		for _, w := range lines {
			later[strings.Join(w, " ")]++
		}
		var w []string
		for _, l := range lines {
			key := strings.Join(l, " ")
			later[key]--
			if len(l) > 0 && len(l) <= 12 && later[key] > 0 {
				toc++
				continue
			}
			w = append(w, l...)
		}
		out[p] = w
	}
	return out, furniture, toc
}
