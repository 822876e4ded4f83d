package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/testsupport"
)

// TestMain runs the tests in an environment of their own (testsupport).
func TestMain(m *testing.M) { testsupport.Main(m) }

func TestWords(t *testing.T) {
	got := words("See gzip(1). It’s the “UNIX‐domain” socket …. .... The ﬁrst ﬁgure")
	want := []string{"see", "gzip(1", "it's", "the", "unix-domain", "socket", "the", "first", "figure"}
	if !slices.Equal(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
}

// A letter with its accents is one word however it is written: pdftotext
// writes "Thế" as ê and a combining acute.
func TestWordsComposed(t *testing.T) {
	if got, want := words("Hàn The\u0302\u0301 Thành"), words("Hàn Thế Thành"); !slices.Equal(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
}

func TestLCSAndCommon(t *testing.T) {
	ref := []string{"a", "b", "c", "d", "e"}
	for _, c := range []struct {
		got          []string
		lcs, common_ int
	}{
		{[]string{"a", "b", "c", "d", "e"}, 5, 5},
		{[]string{"e", "d", "c", "b", "a"}, 1, 5},
		{[]string{"a", "x", "c", "e"}, 3, 3},
		{[]string{"b", "a", "d", "c", "e", "e"}, 3, 5},
		{nil, 0, 0},
	} {
		if n := lcs(ref, c.got); n != c.lcs {
			t.Errorf("lcs(%q) = %d, want %d", c.got, n, c.lcs)
		}
		if n := common(ref, c.got); n != c.common_ {
			t.Errorf("common(%q) = %d, want %d", c.got, n, c.common_)
		}
	}
}

// A paragraph running on to the next page gives its words to both, cut
// at the page start's offset in code points; a heading counts where it
// changes, on its paragraph's page, or on its own where sponge gives one
// (a heading at a page's foot: "Last" on page 3, its paragraph on 4).
func TestPageWords(t *testing.T) {
	d := &doc{Paras: []para{
		{H: "Intro", T: "één twee drie", P: 1, Ps: []pageStart{{Offset: 9, Page: 2}}},
		{H: "Intro", T: "vier", P: 2},
		{H: "Next", T: "vijf", P: 3},
		{H: "Last", T: "zes", P: 4, HP: 3},
	}}
	got := pageWords(d)
	want := map[int][]string{1: {"intro", "één", "twee"}, 2: {"drie", "vier"}, 3: {"next", "vijf", "last"}, 4: {"zes"}}
	for p, w := range want {
		if !slices.Equal(got[p], w) {
			t.Errorf("page %d: %q, want %q", p, got[p], w)
		}
	}
}

func TestDocWords(t *testing.T) {
	d := &doc{Title: "Guide", Paras: []para{
		{H: "A › B", T: "one"}, {H: "A › B", T: "two"}, {H: "A › C", T: "three"}, {T: "four"},
	}}
	if got, want := docWords(d, true), []string{"guide", "a", "b", "one", "two", "c", "three", "four"}; !slices.Equal(got, want) {
		t.Errorf("docWords = %q, want %q", got, want)
	}
}

func TestDropHeaderFooter(t *testing.T) {
	in := "\nSSH(1)  General Commands Manual  SSH(1)\n\nNAME\n  ssh\n\nOpenBSD 7.3  June 2023  SSH(1)\n\n"
	if got, want := words(dropHeaderFooter(in)), []string{"name", "ssh"}; !slices.Equal(got, want) {
		t.Errorf("dropHeaderFooter: %q, want %q", got, want)
	}
}

// The reference of a documentation page leaves out the lines on at least
// half the site's pages and a table of contents' entries, not the text.
func TestReferenceWords(t *testing.T) {
	texts := map[string]string{
		"a": "Menu\nContents\n  □ Basic Usage\nBasic Usage\nOne sentence.\nPrevious topic\nb page\n",
		"b": "Menu\nAnother text here.\n",
		"c": "Menu\nMore.\n",
		"d": "Footer only on one\nMenu\n",
	}
	out, furniture, toc := referenceWords(texts)
	if got, want := out["a"], []string{"contents", "basic", "usage", "one", "sentence", "previous", "topic", "b", "page"}; !slices.Equal(got, want) {
		t.Errorf("page a: %q, want %q", got, want)
	}
	if got, want := out["d"], []string{"footer", "only", "on", "one"}; !slices.Equal(got, want) {
		t.Errorf("page d: %q, want %q", got, want)
	}
	if furniture != 4 || toc != 1 {
		t.Errorf("furniture %d, toc %d, want 4 and 1", furniture, toc)
	}
}

// The bit-vector LCS is the table's, on random word lists of every length
// about the 64-bit block edges, few words or many.
func TestLCSBits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	list := func(n, vocab int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = string(rune('a' + r.IntN(vocab)))
		}
		return out
	}
	for _, n := range []int{0, 1, 5, 63, 64, 65, 127, 128, 129, 300} {
		for _, vocab := range []int{2, 5, 26} {
			for range 5 {
				a, b := list(n, vocab), list(r.IntN(2*n+2), vocab)
				if got, want := lcsBits(a, b), lcsTable(a, b); got != want {
					t.Fatalf("n %d vocab %d: lcsBits %d, table %d", n, vocab, got, want)
				}
			}
		}
	}
}

func TestCountLeaders(t *testing.T) {
	for s, want := range map[string]int{
		"Introduction . . . . . . 3":          1,
		"Index ........ 20\nPreface....... v": 2,
		"\\def\\zzz......new and {....}":      0,
		"print('.....', rc)":                  0,
		"He waited... then":                   0,
		"a . . . .\n. . . . 5":                2,
		// the text's dots, glued to a word, no page number after them
		"\\usepackage or \\RequirePackage....":     0,
		"begins \\end.... This":                    0,
		"\\Describe... . . . . ℓ-1202":             1,
		"Preface.......\nxii":                      1,
		"\\opt@... and\n\\ver@....\n847 \\edef\\x": 0,
	} {
		if got := countLeaders(s); got != want {
			t.Errorf("countLeaders(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestPageBodies: the running head (its page number changing) and the page
// number alone at a page's foot are left out of the page's body; a number
// alone in the middle (a table's cell) and the text stay.
func TestPageBodies(t *testing.T) {
	var pages []string
	for i := 1; i <= 4; i++ {
		n := []string{"one", "two", "three", "four"}[i-1]
		pages = append(pages, fmt.Sprintf("LaTeX News · Issue %d\nWords of page %s here.\n%d\nclosing words of %s\n%d", 30+i, n, 40+i, n, i))
	}
	got := pageBodies(pages)
	if want := []string{"words", "of", "page", "two", "here", "42", "closing", "words", "of", "two"}; strings.Join(got[1], " ") != strings.Join(want, " ") {
		t.Errorf("page 2's body %q, want %q", got[1], want)
	}
}

// A two-sided document's running heads differ by side: the document's
// title on the left (even) pages, the section's on the right (odd) ones,
// each on half the pages or just under. They are left out; a line on one
// side's pages but not at their edges stays.
func TestPageBodiesTwoSided(t *testing.T) {
	names := []string{"one", "two", "three", "four", "five", "six", "seven"}
	var pages []string
	for i, n := range names {
		head, middle := "THE AMSMATH PACKAGE", ""
		if i%2 == 0 {
			head = "2. OPTIONS"
		}
		if i == 0 || i == 4 {
			middle = "\nSee the manual." // on two of the four right pages, not at their edge
		}
		pages = append(pages, fmt.Sprintf("%d\n%s\nText of page %s.%s\nMore of %s.\nLast of %s.", i+1, head, n, middle, n, n))
	}
	got := pageBodies(pages)
	if want := "text of page four more of four last of four"; strings.Join(got[3], " ") != want {
		t.Errorf("page 4's body %q, want %q", strings.Join(got[3], " "), want)
	}
	if want := "text of page five see the manual more of five last of five"; strings.Join(got[4], " ") != want {
		t.Errorf("page 5's body %q, want %q", strings.Join(got[4], " "), want)
	}
}

// A side's running head that pdftotext reads after margin notes, below
// the page's first two lines (amsclass.pdf), is taken off that page once;
// the head's words written again in the page's text stay.
func TestPageBodiesHeadBelowNotes(t *testing.T) {
	names := []string{"one", "two", "three", "four", "five", "six", "seven"}
	var pages []string
	for i, n := range names {
		head := "THE AMSART CLASSES"
		if i%2 == 0 {
			head = "2. IMPLEMENTATION"
		}
		lines := fmt.Sprintf("%d\n%s\nText of page %s.\nMore of %s.\nLast of %s.", i+1, head, n, n, n)
		if i == 3 {
			lines = fmt.Sprintf("%d\n\\@skipmath\n\\@xskipmath\n%s\nText of page %s.\n%s\nMore of %s.\nLast of %s.", i+1, head, n, head, n, n)
		}
		pages = append(pages, lines)
	}
	got := pageBodies(pages)
	if want := "skipmath xskipmath text of page four the amsart classes more of four last of four"; strings.Join(got[3], " ") != want {
		t.Errorf("page 4's body %q, want %q", strings.Join(got[3], " "), want)
	}
}

// A front matter's roman page numbers ("xv", "xvi", "xvii") are page
// numbers; a lone "x" at the foot of a page whose neighbours have no
// numeral before or after it stays.
func TestPageBodiesRomanNumbers(t *testing.T) {
	pages := []string{
		"Contents one\nxv",
		"Contents two\nxvi",
		"Contents three\nxvii",
		"Let y be\nx",
		"Some text\n5",
	}
	got := pageBodies(pages)
	if want := "contents two"; strings.Join(got[1], " ") != want {
		t.Errorf("page 2's body %q, want %q", strings.Join(got[1], " "), want)
	}
	if want := "let y be x"; strings.Join(got[3], " ") != want {
		t.Errorf("page 4's body %q, want %q", strings.Join(got[3], " "), want)
	}
	for s, want := range map[string]int{"xvi": 16, "XXIII": 23, "iv": 4, "mcmxcix": 1999, "x": 10, "xiv": 14, "Xvi": 0, "iiii": 0, "vx": 0, "": 0, "mix": 1009} {
		if got := romanValue(s); got != want {
			t.Errorf("romanValue(%q) = %d, want %d", s, got, want)
		}
	}
}
