package extract

import (
	"testing"

	"github.com/go-pdf/fpdf"
	"github.com/google/go-cmp/cmp"
)

// A table of contents keeps its entries and page numbers but not the dot
// leaders between them, laid out as LaTeX does (a dot every 4.5 points up
// to the number), close or as one string; an ellipsis in prose stays.
func TestPDFDotLeaders(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "B", 16)
		f.Text(72, 80, "Contents")
		f.SetFont("Helvetica", "", 11)
		entries := []struct {
			text, page string
			gap        float64
		}{{"1 Introduction", "3", 4.5}, {"2 Brewing green tea", "12", 4.5}, {"3 Storage and the tin", "xiv", 2.8}}
		y := 110.0
		for _, e := range entries {
			f.Text(72, y, e.text)
			for x := 72 + f.GetStringWidth(e.text) + 6; x < 500; x += e.gap {
				f.Text(x, y, ".")
			}
			f.Text(520, y, e.page)
			y += 14
		}
		f.Text(72, y, "4 Recipes ........................................ 20")
		f.Text(72, y+40, "The water boils... then it rests for 3")
		f.Text(72, y+54, "minutes. . . and the tea waits.")
	})
	d := mustExtract(t, data, "contents.pdf")
	got := texts(d)
	want := []string{
		"1 Introduction 3 2 Brewing green tea 12 3 Storage and the tin xiv 4 Recipes 20",
		"The water boils... then it rests for 3 minutes. . . and the tea waits.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// An index in two columns: a leader runs to page numbers that go on, or
// ends a line with its numbers on the next, and its dots may begin that
// line. None is kept, nor are the dots of two lines joined into a run.
func TestPDFIndexLeaders(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		lines := []string{
			"\\box . . . . . . . . . . . . . . . . . . . . 501, 512",
			"\\catcode . . . . . . . . . 2, 3, 5, 6,",
			"7, 8, 9 \\ltx@car . . . . . . . . . 5, 185 \\ltx@cdr 200",
			"\\ltx@firstofone . . . . . . . . . . . . . .",
			". . . . . . 4, 170 \\ltx@firstofthree . . .",
			". . 173, 552",
			"\\ltx@two . . . . . . . . . .",
			". 181, 183 \\btxandlong . . . 547, 717, 868,",
			"1030, 1177 \\btxinshort . . . 550",
			"\\l__graphics_decodearray_str . . .",
			"1753, 1754,",
			"1765, 1793 \\l__graphics_tmp . . . 12",
		}
		for i, l := range lines {
			f.Text(72, 80+float64(i)*12, l)
		}
	})
	d := mustExtract(t, data, "index.pdf")
	got := texts(d)
	want := []string{"\\box 501, 512 \\catcode 2, 3, 5, 6, 7, 8, 9 \\ltx@car 5, 185 \\ltx@cdr 200 " +
		"\\ltx@firstofone 4, 170 \\ltx@firstofthree 173, 552 \\ltx@two 181, 183 " +
		"\\btxandlong 547, 717, 868, 1030, 1177 \\btxinshort 550 " +
		"\\l__graphics_decodearray_str 1753, 1754, 1765, 1793 \\l__graphics_tmp 12"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

func TestDropLeaders(t *testing.T) {
	for in, want := range map[string]string{
		"\\box . . . . . . . 501, 512":     "\\box 501, 512",
		"\\a . . . . 5, 185 \\b . . . . 7": "\\a 5, 185 \\b 7",
		". . . . . . 4, 170 \\c":           "4, 170 \\c",
		"\\d . . . . . . . .":              "\\d",
		"\\def\\zzz......new":              "\\def\\zzz......new",
		"\\hbox{\\normalfont....}\\vss":    "\\hbox{\\normalfont....}\\vss",
		"Introduction . . . . . . . . 3":   "Introduction 3",
		"Introduction ........ 3":          "Introduction 3",
		"Preface · · · · · · xii":          "Preface xii",
		"Index…………… 210":                   "Index 210",
		". . . . . . . . 42":               "42",
		"A long title that fills it . . 7": "A long title that fills it . . 7",
		"He waited... 3":                   "He waited... 3",
		"and then. . . 3":                  "and then. . . 3",
		"version 1.2.3":                    "version 1.2.3",
		"Appendix . . . . . . A-2":         "Appendix A-2",
		// An index entry too long for more than three dots (kvoptions.pdf,
		// amsldoc.pdf, refcount.pdf).
		"\\@@unprocessedoptions . . . 1217, 1252": "\\@@unprocessedoptions 1217, 1252",
		"\\@chapter . . . 268, 269":               "\\@chapter 268, 269",
		"\\the . . . 77, 78":                      "\\the 77, 78",
		"It goes on . . . 3 more times":           "It goes on . . . 3 more times",
		// its numbers go on on the next line (babelbib.pdf, source3.pdf)
		"\\btxandlong . . . 547, 717, 868,":          "\\btxandlong 547, 717, 868,",
		"\\providebibliographyfont . . . 298, 6047–": "\\providebibliographyfont 298, 6047–",
		// dots that end a word with no page number after them (clsguide.pdf)
		"\\usepackage or \\RequirePackage....": "\\usepackage or \\RequirePackage....",
		"\\ProcessOptions.... and then":        "\\ProcessOptions.... and then",
		// an index's numbers with a letter before them (doc-code.pdf)
		"\\Describe... . . . . . . ℓ-1202": "\\Describe ℓ-1202",
		"F.... exim4":                      "F.... exim4",
	} {
		if got, _ := dropLeaders(in); got != want {
			t.Errorf("dropLeaders(%q) = %q, want %q", in, got, want)
		}
	}
}

// Dots glued to the word before them with no page number after them are
// the text's, not a leader (clsguide.pdf's "\RequirePackage...." at a
// sentence's end), and the paragraph after them is a paragraph of its
// own; glued dots before a page number, or at a line's end with page
// numbers on the next line, are a leader still.
func TestPDFDotsEndWord(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		lines := []string{
			"Options are not processed if the package is read with \\input rather than",
			"loaded by means of \\usepackage or \\RequirePackage....",
			"",
			"If the package teapot.sty loads the package cup.sty with \\input cup.sty",
			"then the user will get a warning.",
			"",
			"Index............ 210",
			"\\brew..................",
			"12, 14",
		}
		for i, l := range lines {
			f.Text(72, 80+float64(i)*12, l)
		}
	})
	got := texts(mustExtract(t, data, "clsguide.pdf"))
	want := []string{
		"Options are not processed if the package is read with \\input rather than loaded by means of \\usepackage or \\RequirePackage....",
		"If the package teapot.sty loads the package cup.sty with \\input cup.sty then the user will get a warning.",
		"Index 210 \\brew 12, 14",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}
