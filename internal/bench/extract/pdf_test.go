package main

import (
	"slices"
	"strings"
	"testing"
)

func TestMisnumbered(t *testing.T) {
	for _, c := range []struct {
		name string
		ref  []string // the reference's pages
		got  []string // sponge's, by page
		want []bool   // misnumbered, each page
	}{
		{
			// testmath.pdf p38: a short page of code under a running head;
			// sponge drops the head, and the long page before holds "for"
			// and "the" as well as the code. Its page numbers are right.
			name: "running head dropped",
			ref: []string{
				`Sample paper for the amsmath package. When the gather is used for the split, the numbers are suppressed for the lines. \zeta^0 &=\xi^0 37`,
				`Sample paper for the amsmath package \zeta^0 &=\xi^0 \end{align} 38`,
			},
			got: []string{
				`When the gather is used for the split, the numbers are suppressed for the lines. \zeta^0 &=\xi^0`,
				`\zeta^0 &=\xi^0 \end{align}`,
			},
			want: []bool{false, false},
		},
		{
			// ltxtable.pdf p3: letters of a table on every page
			name: "letters on every page",
			ref:  []string{"a b c c c c first", "a b cccc second", "c c third"},
			got:  []string{"a b c c c c first", "a b c c c c second", "c c third"},
			want: []bool{false, false, false},
		},
		{
			name: "a page's words on the page before",
			ref:  []string{"one page of tea", "brewing green tea takes eighty degrees", "storage in a tin"},
			got:  []string{"one page of tea brewing green tea takes eighty degrees", "", "storage in a tin"},
			want: []bool{false, true, false},
		},
		{
			name: "most of a page on the page after",
			ref:  []string{"one page of tea", "brewing green tea takes eighty degrees", "storage in a tin"},
			got:  []string{"one page of tea", "brewing", "green tea takes eighty degrees storage in a tin"},
			want: []bool{false, true, false},
		},
	} {
		refs := make([][]string, len(c.ref))
		for i, p := range c.ref {
			refs[i] = words(p)
		}
		got := map[int][]string{}
		for i, p := range c.got {
			got[i+1] = words(p)
		}
		for i, want := range c.want {
			if m := misnumbered(refs, got, i); m != want {
				t.Errorf("%s: page %d misnumbered %v, want %v", c.name, i+1, m, want)
			}
		}
	}
}

// pdftotext writes the codes of cmsy's angle brackets, h and i; they are
// read as ⟨ ⟩ where sponge shows the same text in brackets, and nowhere
// else.
func TestAngleBrackets(t *testing.T) {
	ref := []string{
		"\\bitsetSet {hBitSeti} {hIndexi}\nuse hcmd i and extrashlanguagei here\n",
		"which is this; thai, hname i\n",
	}
	sponge := map[int]string{
		1: "\\bitsetSet {⟨BitSet⟩} {⟨Index⟩}\nuse ⟨cmd⟩ and extras⟨language⟩ here\n",
		2: "which is this; thai\n⟨a⟩ ⟨is⟩\n",
	}
	got := angleBrackets(ref, sponge)
	want := []string{
		"\\bitsetSet {⟨BitSet⟩} {⟨Index⟩}\nuse ⟨cmd⟩ and extras⟨language⟩ here\n",
		// "hname i": sponge has no ⟨name⟩ (lost, or never there)
		"which is this; thai, hname i\n",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("page %d: %q, want %q", i+1, got[i], want[i])
		}
	}
	if w := words(got[0]); strings.Join(w, " ") != "bitsetset bitset index use cmd and extras⟨language here" {
		t.Errorf("words %q", w)
	}
	// babel's doubled brackets, read twice over; "ahhxii" is no bracket
	ref = []string{"\\def\\bbl@date{ hhdateii} and hh∗More optionsii, ahhxii\n"}
	sponge = map[int]string{1: "\\def\\bbl@date{⟨⟨date⟩⟩} and ⟨⟨∗More options⟩⟩, ⟨⟨x⟩⟩\n"}
	if got, want := angleBrackets(ref, sponge)[0], "\\def\\bbl@date{ ⟨⟨date⟩⟩} and ⟨⟨∗More options⟩⟩, ahhxii\n"; got != want {
		t.Errorf("doubled: %q, want %q", got, want)
	}
}

// A placeholder in angle brackets is a word of its own, whether or not a
// reader writes TeX's italic correction before ⟩ as a space; the same
// words either way.
func TestPDFWords(t *testing.T) {
	for _, c := range [][2]string{
		{`\⟨type ⟩_map_break:n and ⟨item1 ⟩⟨item2 ⟩`, `\⟨type⟩_map_break:n and ⟨item1⟩⟨item2⟩`},
		{`g__hook_⟨hook ⟩_code_prop`, `g__hook_⟨hook⟩_code_prop`},
	} {
		a, b := pdfWords(c[0]), pdfWords(c[1])
		if !slices.Equal(a, b) {
			t.Errorf("%q: %q; %q: %q", c[0], a, c[1], b)
		}
	}
	if got := strings.Join(pdfWords(`\⟨type⟩_map_break:n`), " "); got != "type map_break:n" {
		t.Errorf("words %q", got)
	}
}

// pdftotext reads the lowered E of TeX's logos as a line of its own; the
// logo is read whole, one lone E taken off the page for each, in any
// reader's text, and a text without the split is left as it is.
func TestTeXLogos(t *testing.T) {
	for _, c := range [][2]string{
		{"safe with any LAT X3-defined function.\nNew: 2017-12-11\n\nE\nother code", "safe with any LATEX3-defined function.\nNew: 2017-12-11\n\nother code"},
		{"dated 2022/05/13, © L\nAT X Project.\n\nE\n\n1", "dated 2022/05/13, © LATEX Project.\n\n\n1"},
		{"the T Xbook and SLiT X, ε-T X\nE\nE\nE\nE", "the TEXbook and SLiTEX, ε-TEX\nE"},
		{"column E of LATEX and TEX\nE", "column E of LATEX and TEX\nE"},
	} {
		if got := texLogos(c[0]); got != c[1] {
			t.Errorf("texLogos(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	if a, b := pdfWords(texLogos("any LAT X3-defined\nE\nfunction")), pdfWords(texLogos("any LATEX3-defined function")); !slices.Equal(a, b) {
		t.Errorf("%q and %q", a, b)
	}
}

// The tuning half is the first, third, … PDF of the sample, the report
// half the others, and the two together are the sample.
func TestHalf(t *testing.T) {
	paths := []string{"a", "b", "c", "d", "e"}
	for which, want := range map[string][]string{"tune": {"a", "c", "e"}, "report": {"b", "d"}, "": paths} {
		got, err := half(paths, which)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("half(%q) = %q, %v; want %q", which, got, err, want)
		}
	}
	if _, err := half(paths, "odd"); err == nil {
		t.Error("half(odd): no error")
	}
}
