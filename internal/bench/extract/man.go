package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

var manRoot = flag.String("man-root", "/usr/share/man", "the manual pages")

// manPagesCorpus scores sponge's reading of manual pages against the page
// as a person reads it: `man -l` (groff, -Tutf8, 2,000 columns so that no
// line is broken or hyphenated), less its header and footer lines, in two
// parts: a sample of the machine's English pages (every k-th in name order,
// ssh(1) always in) and one of its translated pages (/usr/share/man/de,
// fr, ru, ja …), .so stubs left out. For each it gives the share of pages
// at 0.99 or more, the mean, median and 5th percentile, and the pages
// sponge skips. Headings count: sponge keeps them as each paragraph's
// heading path.
func manPagesCorpus(sponge []reader) {
	english := manPagesUnder(filepath.Join(*manRoot, "man[1-9]*"))
	translated := manPagesUnder(filepath.Join(*manRoot, "*", "man[1-9]*"))
	if len(english)+len(translated) == 0 {
		fmt.Fprintf(os.Stderr, "extract: man: no pages in %s\n", *manRoot)
		return
	}
	pages := sample(english, *manPages)
	ssh := ""
	for _, p := range english {
		if b := filepath.Base(p); b == "ssh.1" || b == "ssh.1.gz" {
			ssh = p
			if !slices.Contains(pages, p) {
				pages = append(pages, p)
			}
		}
	}
	if len(english) > 0 {
		manPart("man", fmt.Sprintf("%d of %d pages", len(pages), len(english)), pages, sponge, ssh)
	}
	if len(translated) > 0 {
		pages := sample(translated, *manTranslated)
		manPart("man", fmt.Sprintf("%d of %d translated pages", len(pages), len(translated)), pages, sponge, "")
	}
}

// manPagesUnder lists the pages, less .so stubs, in the folders pattern
// matches (man[1-9]* of a root or of its languages).
func manPagesUnder(pattern string) []string {
	var all []string
	dirs, _ := filepath.Glob(pattern)
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
	return all
}

// manPart scores one part of the man corpus (its pages, named part in the
// table) and, given ssh, says how ssh(1)'s description opens.
func manPart(corpus, part string, pages []string, sponge []reader, ssh string) {
	var refs map[string][]string
	timed(fmt.Sprintf("%s: man -l of %d pages", corpus, len(pages)), func() {
		refs = parallel(pages, func(p string) []string { return words(dropHeaderFooter(renderMan(p))) })
	})
	for _, r := range sponge {
		docs := readAll(corpus, r, pages)
		type score struct {
			path    string
			words   int
			kept    float64
			skipped bool
		}
		var scores []score
		timed(corpus+": scoring "+r.name+" ("+part+")", func() {
			res := parallel(pages, func(p string) score {
				d := docs[p]
				return score{p, len(refs[p]), float64(lcs(refs[p], docWords(d, false))) / float64(max(1, len(refs[p]))), d.Err != ""}
			})
			for _, p := range pages {
				if len(refs[p]) > 0 {
					scores = append(scores, res[p])
				}
			}
		})
		good, skipped, sum := 0, 0, 0.0
		for _, s := range scores {
			if s.kept >= 0.99 {
				good++
			}
			if s.skipped {
				skipped++
			}
			sum += s.kept
		}
		sort.Slice(scores, func(i, j int) bool { return scores[i].kept < scores[j].kept })
		rows = append(rows, row{corpus, part, r.name, len(scores), []string{
			fmt.Sprintf("pages ≥0.99 %.1f%%", 100*float64(good)/float64(len(scores))),
			fmt.Sprintf("mean %.4f", sum/float64(len(scores))),
			fmt.Sprintf("median %.4f", scores[len(scores)/2].kept),
			fmt.Sprintf("p5 %.4f", scores[len(scores)/20].kept),
			fmt.Sprintf("skipped %d", skipped),
		}, readerSec(docs)})
		var worstOnes []string
		for i, s := range scores {
			if i == *worst {
				break
			}
			e := ""
			if s.skipped {
				e = ", skipped: " + docs[s.path].Err
			}
			worstOnes = append(worstOnes, fmt.Sprintf("%.2f %s (%d words%s)", s.kept, filepath.Base(s.path), s.words, e))
		}
		details = append(details, fmt.Sprintf("  %s (%s), %s: %s", corpus, part, r.name, strings.Join(worstOnes, "; ")))
		if d := docs[ssh]; ssh != "" && d != nil {
			first := d.Err
			for i, q := range d.Paras {
				if i == 0 || strings.Contains(strings.ToUpper(q.H), "DESCRIPTION") {
					first = q.T
				}
				if strings.Contains(strings.ToUpper(q.H), "DESCRIPTION") {
					break
				}
			}
			if len(first) > 100 {
				first = first[:100] + "…"
			}
			notes = append(notes, fmt.Sprintf("man, %s: ssh(1)'s description opens %q", r.name, first))
		}
	}
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

// renderMan is a page as man -l shows it (kept in -work/ref/man).
func renderMan(p string) string {
	key := filepath.Join(*work, "ref", "man", strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", "_")+".txt")
	if b, err := os.ReadFile(key); err == nil {
		return string(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "man", "-l", p)
	cmd.Env = []string{"MANWIDTH=2000", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin", "MAN_DISABLE_SECCOMP=1"}
	b, _ := cmd.Output()
	text := stripOverstrike(string(b))
	os.MkdirAll(filepath.Dir(key), 0o755)
	os.WriteFile(key, []byte(text), 0o644)
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
