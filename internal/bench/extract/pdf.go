package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

var (
	pdfCount = flag.Int("pdfs", 45, "texlive PDFs in the sample, every k-th in name order (0: all 269)")
	pdfHalf  = flag.String("half", "", "the PDFs of one half of the sample: tune (odd places in name order, 1-based) or report (even places); default both")
	pdfMiss  = flag.String("pdf-misses", "", "write, for each page under 0.99 less running heads, the words of its body that the last reader measured lost, to this file (JSON lines: path, page, kept, missing), to study the tuning half")
)

// half is the paths at odd places (1-based: the first, third, …) for
// "tune", at even places for "report", all of them for "": a reader tuned
// on one half is judged on the other.
func half(paths []string, which string) ([]string, error) {
	if which == "" {
		return paths, nil
	}
	if which != "tune" && which != "report" {
		return nil, fmt.Errorf("-half %q: tune or report", which)
	}
	var out []string
	for i, p := range paths {
		if (i%2 == 0) == (which == "tune") {
			out = append(out, p)
		}
	}
	return out, nil
}

// dotLeader is a run of four or more dots, spaced or not, or of two or
// more ellipses: a table of contents' leader, unless it is within a word
// (code: "\\def\\x{....}", "a......b"; see countLeaders).
var dotLeader = regexp.MustCompile(`(?:\. ?){4,}|…{2,}`)

// countLeaders counts the dot leaders of s: the runs of dotLeader that are not
// within a word (a character other than a space right before and after
// them, and no space in them), nor glued to the end of a word with no page
// number after them (clsguide.pdf's "\\RequirePackage....", source2e's
// "\\end....": the document's text, which pdftotext has too; an index's
// "\\Describe... . . . ℓ-1202" and a contents' "Index........ 20" are
// leaders).
func countLeaders(s string) int {
	n := 0
	for _, m := range dotLeader.FindAllStringIndex(s, -1) {
		run := strings.TrimRight(s[m[0]:m[1]], " ")
		end := m[0] + len(run)
		glued := m[0] > 0 && s[m[0]-1] != ' ' && s[m[0]-1] != '\n'
		if glued && end < len(s) && !strings.Contains(run, " ") && s[end] != ' ' && s[end] != '\n' {
			continue
		}
		if glued && !pageNumberNext(lineRest(s[end:])) {
			continue
		}
		n++
	}
	return n
}

// lineRest is where a page number after dots glued to a word may be:
// what follows them on their line, or the next line when that holds only
// page numbers ("Preface......." then "xii" in pdftotext's text). A line
// of code that ends in dots glued to a name, before the next line of the
// listing (source2e.pdf's "\ver@...." then "847 \edef…", a listing
// sponge keeps whole), has no page number after them.
func lineRest(rest string) string {
	line, next, _ := strings.Cut(rest, "\n")
	if strings.TrimSpace(line) != "" {
		return line
	}
	next, _, _ = strings.Cut(next, "\n")
	for _, f := range strings.Fields(next) {
		if !pageNumberNext(strings.TrimRight(f, ",")) {
			return ""
		}
	}
	return next
}

// pageNumberNext says whether rest begins with a page number: digits, or
// a digit after two characters at most ("ℓ-1202", "b398", "A-2"), or a
// roman one ("xii").
func pageNumberNext(rest string) bool {
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return false
	}
	first := fields[0]
	if romanPage.MatchString(first) {
		return true
	}
	d := strings.IndexAny(first, "0123456789")
	return d >= 0 && utf8.RuneCountInString(first[:d]) <= 2
}

var romanPage = regexp.MustCompile(`^[ivxlc]{1,8}$`)

// pdfs scores sponge's PDF reader page by page against pdftotext (its
// reading order, not -layout): the words of each page that sponge keeps
// on that page in any order (two good readers may order margin notes,
// table columns and page numbers differently), on it or a page beside
// it, on it in pdftotext's order (LCS), pages whose words sponge puts on
// a page beside it instead (page numbers wrong), and dot leaders.
func pdfs(sponge []reader) {
	paths, _ := filepath.Glob(filepath.Join(*work, "pkgs/texlive-latex-base-doc/usr/share/doc/texlive-doc/*/*/*.pdf"))
	more, _ := filepath.Glob(filepath.Join(*work, "pkgs/texlive-latex-base-doc/usr/share/doc/texlive-doc/*/*/*/*.pdf"))
	paths = append(paths, more...)
	if len(paths) == 0 {
		fmt.Fprintf(os.Stderr, "extract: pdf: no PDFs in %s (make extract-corpora fetches them)\n", filepath.Join(*work, "pkgs"))
		return
	}
	paths, err := half(sample(paths, *pdfCount), *pdfHalf)
	if err != nil {
		fmt.Fprintln(os.Stderr, "extract: pdf:", err)
		os.Exit(2)
	}
	refPages := map[string][]string{}
	refLeaders := 0
	timed(fmt.Sprintf("pdf: pdftotext of %d PDFs", len(paths)), func() {
		texts := parallel(paths, pdftotext)
		for p, t := range texts {
			refLeaders += countLeaders(t)
			pages := strings.Split(t, "\f")
			if len(pages) > 0 && strings.TrimSpace(pages[len(pages)-1]) == "" {
				pages = pages[:len(pages)-1]
			}
			refPages[p] = pages
		}
	})
	for _, r := range sponge {
		docs := readAll("pdf", r, paths)
		// each reader's reference: pdftotext's pages, its angle brackets
		// read where sponge shows them (angleBrackets)
		var refs, bodies map[string][][]string
		timed("pdf: the reference for "+r.name, func() {
			type ref struct{ words, bodies [][]string }
			res := parallel(paths, func(p string) ref {
				pages := angleBrackets(refPages[p], pageTexts(docs[p]))
				pages = slices.Clone(pages)
				for i := range pages {
					pages[i] = texLogos(pages[i])
				}
				var out ref
				for _, pg := range pages {
					out.words = append(out.words, pdfWords(pg))
				}
				out.bodies = pageBodies(pages)
				return out
			})
			refs, bodies = map[string][][]string{}, map[string][][]string{}
			for p, x := range res {
				refs[p], bodies[p] = x.words, x.bodies
			}
		})
		type pageScore struct {
			path         string
			page, words  int
			same, nearby float64
			inOrder      float64
			body         float64  // same, of the page's words less its running heads and page number
			missing      []string // the body's words the reader lost, for -pdf-misses
			saved, extra int      // the reader's words on the page; those of them the reference's page lacks (duplicates too)
			misnumbered  bool
		}
		var scores []pageScore
		leaders, failed := 0, 0
		timed("pdf: scoring "+r.name, func() {
			res := parallel(paths, func(p string) []pageScore {
				d := docs[p]
				got := pageWords(d)
				var out []pageScore
				for i, ref := range refs[p] {
					if len(ref) == 0 {
						continue
					}
					n := i + 1
					same := common(ref, got[n])
					extra := len(got[n]) - common(got[n], ref)
					var near []string
					near = append(append(append(near, got[n-1]...), got[n]...), got[n+1]...)
					body := 1.0
					var missing []string
					if b := bodies[p][i]; len(b) > 0 {
						body = float64(common(b, got[n])) / float64(len(b))
						if body < 0.99 && *pdfMiss != "" {
							missing = without(b, got[n])
						}
					}
					out = append(out, pageScore{p, n, len(ref), float64(same) / float64(len(ref)),
						float64(common(ref, near)) / float64(len(ref)), float64(lcs(ref, got[n])) / float64(len(ref)), body, missing, len(got[n]), extra, misnumbered(refs[p], got, i)})
				}
				return out
			})
			for _, p := range paths {
				scores = append(scores, res[p]...)
				if docs[p].Err != "" {
					failed++
				}
				for _, q := range docs[p].Paras {
					leaders += countLeaders(q.T)
				}
			}
		})
		var sameW, nearW, orderW, refW, savedW, extraW float64
		good, wrong, goodBody := 0, 0, 0
		for _, s := range scores {
			if s.body >= 0.99 {
				goodBody++
			}
			sameW += s.same * float64(s.words)
			nearW += s.nearby * float64(s.words)
			orderW += s.inOrder * float64(s.words)
			refW += float64(s.words)
			savedW += float64(s.saved)
			extraW += float64(s.extra)
			if s.same >= 0.99 {
				good++
			}
			if s.misnumbered {
				wrong++
			}
		}
		if *pdfMiss != "" {
			var b strings.Builder
			enc := json.NewEncoder(&b)
			for _, s := range scores {
				if len(s.missing) > 0 {
					_ = enc.Encode(map[string]any{"path": filepath.Base(s.path), "page": s.page, "kept": s.body, "missing": s.missing})
				}
			}
			if err := os.WriteFile(*pdfMiss, []byte(b.String()), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "extract: pdf:", err)
			}
		}
		sort.Slice(scores, func(i, j int) bool { return scores[i].same < scores[j].same })
		rows = append(rows, row{"pdf", fmt.Sprintf("%s%d PDFs, %d pages", halfName(*pdfHalf), len(paths), len(scores)), r.name, len(paths), []string{
			fmt.Sprintf("kept on its page %.3f", sameW/refW),
			fmt.Sprintf("within a page %.3f", nearW/refW),
			fmt.Sprintf("in order %.3f", orderW/refW),
			fmt.Sprintf("saved words not on the page %.4f", extraW/max(savedW, 1)),
			fmt.Sprintf("pages ≥0.99 %.1f%%", 100*float64(good)/float64(len(scores))),
			fmt.Sprintf("less running heads and page numbers ≥0.99 %.1f%%", 100*float64(goodBody)/float64(len(scores))),
			fmt.Sprintf("page p5 %.3f", scores[len(scores)/20].same),
			fmt.Sprintf("misnumbered %d", wrong),
			fmt.Sprintf("dot leaders %d (pdftotext %d)", leaders, refLeaders),
			fmt.Sprintf("failed %d", failed),
		}, readerSec(docs)})
		var wrongOnes []string
		for _, s := range scores {
			if s.misnumbered {
				wrongOnes = append(wrongOnes, fmt.Sprintf("%s p%d", filepath.Base(s.path), s.page))
			}
		}
		if len(wrongOnes) > 0 {
			details = append(details, fmt.Sprintf("  pdf, %s, misnumbered: %s", r.name, strings.Join(wrongOnes, ", ")))
		}
		var worstOnes []string
		for i, s := range scores {
			if i == *worst {
				break
			}
			worstOnes = append(worstOnes, fmt.Sprintf("%.2f %s p%d (%d words)", s.same, filepath.Base(s.path), s.page, s.words))
		}
		details = append(details, fmt.Sprintf("  pdf, %s: %s", r.name, strings.Join(worstOnes, ", ")))
	}
}

// angleBrackets is pdftotext's pages with the angle brackets it misreads
// put back. The symbol fonts of Computer Modern and Latin Modern (cmsy,
// LMMathSymbols) have no ToUnicode map, and their Encoding names the
// glyphs of codes h and i angbracketleft and angbracketright (⟨ ⟩), which
// pdftotext does not know: it writes the codes, so "⟨cmd⟩" reads "hcmd i"
// or "hcmdi", and the word lost was pdftotext's (on 410 of the 1,449
// pages under 0.99 at 7badc6b, less running heads). The h and i around a
// text X become ⟨X⟩ only where sponge's document shows ⟨X⟩: the same
// glyphs, read two ways. A word sponge lost stays lost: X must be in
// sponge's text. Doubled brackets (babel's docstrip modules, ⟨⟨date⟩⟩,
// ⟨⟨∗More options⟩⟩) read "hhdateii", which the single pass leaves as
// "h⟨date⟩i": it is ⟨⟨date⟩⟩ where sponge shows that (the h after no
// letter), and was babel.pdf's main loss on 14 pages of the tuning half
// at 94bc9f6.
func angleBrackets(pages []string, sponge map[int]string) []string {
	inner := map[string]bool{}
	var doubled []string
	longest := 0
	for _, t := range sponge {
		for _, m := range angled.FindAllStringSubmatch(t, -1) {
			inner[m[1]] = true
			longest = max(longest, len(m[1]))
		}
		for _, m := range angledTwice.FindAllStringSubmatch(t, -1) {
			doubled = append(doubled, m[1])
		}
	}
	if len(inner) == 0 {
		return pages
	}
	out := make([]string, len(pages))
	for n, pg := range pages {
		if !strings.Contains(pg, "h") {
			out[n] = pg
			continue
		}
		var b strings.Builder
		for i := 0; i < len(pg); i++ {
			if pg[i] != 'h' {
				b.WriteByte(pg[i])
				continue
			}
			// the longest X in sponge's ⟨X⟩ that h…i holds here
			end := -1
			for j := i + 2; j < len(pg) && j-i-1 <= longest+1; j++ {
				if pg[j] != 'i' {
					continue
				}
				x := strings.TrimSuffix(pg[i+1:j], " ")
				// a short X only after a word's start: "thai" is no "t⟨a⟩"
				if x != "" && inner[x] && (len(x) > 2 || i == 0 || !isASCIILetter(pg[i-1])) {
					end = j
				}
			}
			if end < 0 {
				b.WriteByte(pg[i])
				continue
			}
			b.WriteString("⟨" + strings.TrimSuffix(pg[i+1:end], " ") + "⟩")
			i = end
		}
		out[n] = b.String()
		if strings.Contains(out[n], "h⟨") {
			for _, x := range doubled {
				out[n] = replaceAfterNoLetter(out[n], "h⟨"+x+"⟩i", "⟨⟨"+x+"⟩⟩")
			}
		}
	}
	return out
}

// replaceAfterNoLetter is s with each old that follows no ASCII letter
// replaced by new.
func replaceAfterNoLetter(s, old, new string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		if i > 0 && isASCIILetter(s[i-1]) {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i] + new)
		s = s[i+len(old):]
	}
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// pdfWords are a PDF page's words as words reads them, each angle bracket
// ending a word as a space would, in both readers' texts alike. TeX's
// documentation sets a placeholder as ⟨name⟩ in italics, and the italic
// correction before ⟩ is a gap that pdftotext reads as a space:
// "\⟨type ⟩_map_break:", "⟨item1 ⟩⟨item2 ⟩", "g__hook_⟨hook⟩_code_prop"
// where sponge writes "\⟨type⟩_map_break:". Read as words, the one text
// gave "type" and "map_break", the other "type⟩_map_break": the same glyphs,
// cut two ways, and on the tuning half at 9162afa most of the body words
// lost on l3 and LaTeX kernel pages (source3, interface3, source2e,
// lthooks-code) were such cuts. A placeholder's name is a word of its own
// for a person too.
func pdfWords(s string) []string {
	if !strings.ContainsAny(s, "⟨⟩") {
		return words(s)
	}
	return words(angleSpace.Replace(s))
}

var angleSpace = strings.NewReplacer("⟨", " ⟨ ", "⟩", " ⟩ ")

// texLogos is a page's text with TeX's logos whole, in either reader's
// text alike: TeX (and LaTeX, ε-TeX, SLiTeX, the TeXbook) lowers the E of
// its logo by half an x-height, and pdftotext reads the lowered E as a
// line of its own, often after the next line: "LAT X3-defined" and a line
// "E" below, "© L" at a line's end and "AT X Project." on the next. The
// logo's words ("latex3-defined", "latex") were counted lost from the 73
// pages of the tuning half (9162afa) whose main loss they were, and
// pdftotext's "lat", "x3-defined", "e" were its split, not sponge's. Here
// "T X" (after "LA", "L" and a line break, "SLi", or no letter) is "TEX",
// and for each logo so mended one lone E, a line of its own, is taken off
// the page. Sponge writes the logos whole, and its text is read the same
// way, so a reader that split them as pdftotext does would be forgiven
// the same.
func texLogos(pg string) string {
	if !strings.Contains(pg, "T X") {
		return pg
	}
	n := 0
	pg = loweredE.ReplaceAllStringFunc(pg, func(m string) string {
		n++
		return strings.Join(strings.Fields(strings.TrimSuffix(m, "T X")), "") + "TEX"
	})
	if n == 0 {
		return pg
	}
	lines := strings.Split(pg, "\n")
	out := lines[:0]
	for _, l := range lines {
		if n > 0 && strings.TrimSpace(l) == "E" {
			n--
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// loweredE is a TeX logo whose lowered E a reader left out: "LAT X",
// "L\nAT X", "SLiT X", "T X" after no letter.
var loweredE = regexp.MustCompile(`(?:\bL\s?A|\bSLi|\b)T X`)

// angled is a text in angle brackets on one line; angledTwice one in
// doubled brackets.
var (
	angled      = regexp.MustCompile(`⟨([^⟨⟩\n]{1,60})⟩`)
	angledTwice = regexp.MustCompile(`⟨⟨([^⟨⟩\n]{1,60})⟩⟩`)
)

// misnumbered says whether sponge gives the words of the reference's page
// i (0-based; refs are the pages' words, got sponge's by page number) to a
// page beside it rather than to its own: whether page i-1's or i+1's words
// in sponge hold more of the words that mark page i than page i's do. The
// words that mark a page are those its neighbours in the reference do not
// hold (each counted as often as it is over): a word on the pages before and
// after as well ("the", a table's "c", a running head sponge drops) says
// nothing of which page a text is on, and counting it called a page of
// six words that sponge gives right misnumbered, its running head's "the"
// and "for" being on the long page before.
func misnumbered(refs [][]string, got map[int][]string, i int) bool {
	var beside []string
	if i > 0 {
		beside = append(beside, refs[i-1]...)
	}
	if i+1 < len(refs) {
		beside = append(beside, refs[i+1]...)
	}
	marks := without(refs[i], beside)
	n := i + 1
	return max(common(marks, got[n-1]), common(marks, got[n+1])) > common(marks, got[n])
}

// without is a's words less those of b, each word of b taking away one.
func without(a, b []string) []string {
	have := map[string]int{}
	for _, w := range b {
		have[w]++
	}
	var out []string
	for _, w := range a {
		if have[w] > 0 {
			have[w]--
			continue
		}
		out = append(out, w)
	}
	return out
}

// pageBodies is the words of each page of pdftotext's text less what a
// reader keeps once or drops as page furniture: the lines that repeat on at
// least half the pages (running heads and feet: "LaTeX News · Issue 31",
// digits counted as one, so "Page 3" repeats as "Page 4"; a line without a
// letter never counts as one, or every table's numbers would), the lines
// among a page's first or last two that repeat there on half the pages of
// its side, odd or even (a two-sided document's heads: "THE AMSMATH
// PACKAGE" on the left pages, a section's title on the right ones), and a
// number alone among the page's first or last two lines (its page number).
// A number alone elsewhere (a table's cell) stays; so does a roman
// numeral, unless the page before or after has the one before or after
// it at its edge: a front matter's page numbers ("xv", "xvi"), which
// source2e.pdf and source3.pdf number so and which counted as body words
// lost by a reader that leaves page numbers out, while a lone "i" or "x"
// at a page's foot (a formula's, a table's) stays. A side's running head
// is taken off once from each page of that side wherever it stands:
// amsclass.pdf sets margin notes beside it, which pdftotext reads first,
// and its "THE AMSART, AMSPROC, AND AMSBOOK DOCUMENT CLASSES" was the 4th,
// 7th, 11th, 38th line of six left pages, counted as body words lost by a
// reader that leaves running heads out. The pages' whole words
// stay the first measure; this one says how much of the rest is lost.
func pageBodies(pages []string) [][]string {
	norm := func(line string) string {
		var b strings.Builder
		digits := false
		for _, r := range strings.TrimSpace(line) {
			if r >= '0' && r <= '9' {
				if !digits {
					b.WriteByte('#')
				}
				digits = true
				continue
			}
			digits = false
			b.WriteRune(r)
		}
		return b.String()
	}
	edge := func(ls []string, j int) bool { return j < 2 || j >= len(ls)-2 }
	seen := map[string]int{}
	var side [2]map[string]int // the pages of each side holding a line at their edge
	side[0], side[1] = map[string]int{}, map[string]int{}
	lines := make([][]string, len(pages))
	romans := make([]map[int]bool, len(pages)) // the roman numerals alone at each page's edge
	for i, pg := range pages {
		for _, l := range strings.Split(pg, "\n") {
			if strings.TrimSpace(l) != "" {
				lines[i] = append(lines[i], l)
			}
		}
		on, atEdge := map[string]bool{}, map[string]bool{}
		romans[i] = map[int]bool{}
		for j, l := range lines[i] {
			on[norm(l)] = true
			if edge(lines[i], j) {
				atEdge[norm(l)] = true
				if v := romanValue(strings.TrimSpace(l)); v > 0 {
					romans[i][v] = true
				}
			}
		}
		for l := range on {
			seen[l]++
		}
		for l := range atEdge {
			side[i%2][l]++
		}
	}
	sidePages := [2]int{(len(pages) + 1) / 2, len(pages) / 2}
	out := make([][]string, len(pages))
	for i, ls := range lines {
		var keep []string
		headOff := false // the side's running head taken off this page
		for j, l := range ls {
			n := norm(l)
			sideHead := side[i%2][n] >= 2 && side[i%2][n]*2 >= sidePages[i%2]
			oneSide := sideHead && (edge(ls, j) || !headOff)
			if len(pages) >= 4 && (seen[n]*2 >= len(pages) || oneSide) && strings.ContainsFunc(n, unicode.IsLetter) {
				headOff = headOff || oneSide
				continue
			}
			if n == "#" && (j < 2 || j >= len(ls)-2) {
				continue
			}
			if v := romanValue(strings.TrimSpace(l)); v > 0 && edge(ls, j) && (i > 0 && romans[i-1][v-1] || i+1 < len(pages) && romans[i+1][v+1]) {
				continue // a front matter's page number, "xvi" after "xv"
			}
			keep = append(keep, l)
		}
		out[i] = pdfWords(strings.Join(keep, "\n"))
	}
	return out
}

// pdftotext is a PDF's text by pdftotext, pages ending in form feeds.
func pdftotext(p string) string {
	// named by the whole path: texlive has two slides.pdf, two manual.pdf
	cache := filepath.Join(*work, "ref", "pdftotext", strings.ReplaceAll(strings.TrimPrefix(p, *work), "/", "_")+".txt")
	if b, err := os.ReadFile(cache); err == nil {
		return string(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "pdftotext", "-enc", "UTF-8", p, "-").Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "extract: pdftotext %s: %v\n", p, err)
		return ""
	}
	os.MkdirAll(filepath.Dir(cache), 0o755)
	os.WriteFile(cache, out, 0o644)
	return string(out)
}

// halfName heads the table's part for -half.
func halfName(which string) string {
	switch which {
	case "tune":
		return "tuning half: "
	case "report":
		return "report half: "
	}
	return ""
}

// romanRE is a roman numeral in lower case or in capitals, I to MMMCMXCIX.
var romanRE = regexp.MustCompile(`^(?:m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})|M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3}))$`)

// romanValue is the value of the roman numeral s ("xvi" 16), 0 for none.
func romanValue(s string) int {
	if s == "" || !romanRE.MatchString(s) {
		return 0
	}
	digit := map[byte]int{'i': 1, 'v': 5, 'x': 10, 'l': 50, 'c': 100, 'd': 500, 'm': 1000}
	s = strings.ToLower(s)
	v := 0
	for k := 0; k < len(s); k++ {
		d := digit[s[k]]
		if k+1 < len(s) && digit[s[k+1]] > d {
			v -= d
		} else {
			v += d
		}
	}
	return v
}
