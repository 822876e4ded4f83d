package extract

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-pdf/fpdf"
	"github.com/google/go-cmp/cmp"

	"github.com/sponge-library/sponge/internal/base/item"
)

// pdfLine is a line of the test PDF: text at a baseline on a page.
type testLine struct {
	size float64
	bold bool
	y    float64
	text string
}

// writePDF lays out pages of lines with fpdf, a page number at the foot of
// each page, the way a word processor would. Coordinates are points from the top.
func writePDF(t testing.TB, pages [][]testLine, setup func(*fpdf.Fpdf)) []byte {
	t.Helper()
	f := fpdf.New("P", "pt", "A4", "")
	f.SetAutoPageBreak(false, 0)
	if setup != nil {
		setup(f)
	}
	for i, lines := range pages {
		f.AddPage()
		for _, l := range lines {
			style := ""
			if l.bold {
				style = "B"
			}
			f.SetFont("Helvetica", style, l.size)
			f.Text(72, l.y, l.text)
		}
		f.SetFont("Helvetica", "", 9)
		f.Text(297, 800, string(rune('1'+i)))
	}
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// drawPDF is a one-page PDF that draw lays out with fpdf, where a test
// needs each line's place (an indent, a margin note, a right-to-left word).
func drawPDF(t testing.TB, draw func(f *fpdf.Fpdf)) []byte {
	t.Helper()
	f := fpdf.New("P", "pt", "A4", "")
	f.SetAutoPageBreak(false, 0)
	f.AddPage()
	draw(f)
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// placedLine is a line of 10-point Helvetica, bold or not, whose
// baseline starts at x, y.
type placedLine struct {
	x, y float64
	bold bool
	text string
}

// placeLines draws lines where they say.
func placeLines(f *fpdf.Fpdf, lines []placedLine) {
	for _, l := range lines {
		style := ""
		if l.bold {
			style = "B"
		}
		f.SetFont("Helvetica", style, 10)
		f.Text(l.x, l.y, l.text)
	}
}

// teaPDF has a title, headings, a word hyphenated at a line end, a hyphen
// to keep, and a paragraph that runs from page 2 onto page 3.
func teaPDF(t testing.TB) []byte {
	return writePDF(t, [][]testLine{
		{
			{24, true, 80, "Notes on Tea"},
			{16, true, 120, "Brewing"},
			{11, false, 150, "Green tea is steeped at a lower temperature than black tea, usually"},
			{11, false, 164, "around eighty degrees, so the leaves do not turn bitter. A short infu-"},
			{11, false, 178, "sion keeps the taste fresh and sweet."},
			{11, false, 206, "Black tea wants boiling water and four minutes."},
		},
		{
			{16, true, 80, "Storage"},
			{11, false, 110, "Keep tea in a dark, dry tin away from spices and coffee."},
			{11, false, 740, "Whole leaves keep their aroma for a year or more when the tin is"},
			{11, false, 754, "closed tightly after every use, and"},
		},
		{
			{11, false, 80, "ground tea loses it within weeks."},
			{11, false, 108, "Recipes are kept in HTML-"},
			{11, false, 122, "based notes next to the kettle."},
		},
	}, nil)
}

func TestPDF(t *testing.T) {
	d, err := Bytes(teaPDF(t), "tea.pdf", "")
	if err != nil {
		t.Fatal(err)
	}
	checkDoc(t, d)
	if d.Title != "Notes on Tea" || d.Kind != item.KindPDF {
		t.Errorf("title %q kind %q", d.Title, d.Kind)
	}
	type para struct {
		Heading string
		Page    int
		Text    string
		Pages   []item.PageStart
	}
	var got []para
	for _, p := range d.Paragraphs {
		got = append(got, para{p.Heading, p.Page, p.Text, p.Pages})
	}
	cont := "Whole leaves keep their aroma for a year or more when the tin is closed tightly after every use, and "
	want := []para{
		{"Brewing", 1, "Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter. A short infusion keeps the taste fresh and sweet.", nil},
		{"Brewing", 1, "Black tea wants boiling water and four minutes.", nil},
		{"Storage", 2, "Keep tea in a dark, dry tin away from spices and coffee.", nil},
		{"Storage", 2, cont + "ground tea loses it within weeks.", []item.PageStart{{Offset: utf8.RuneCountInString(cont), Page: 3}}},
		{"Storage", 3, "Recipes are kept in HTML-based notes next to the kettle.", nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
	// A quote from the second half of the page-crossing paragraph is on page 3.
	p := d.Paragraphs[3]
	if page, _ := p.At(strings.Index(p.Text, "ground")); page != 3 {
		t.Errorf("At(ground) = page %d, want 3", page)
	}
	if page, _ := p.At(0); page != 2 {
		t.Errorf("At(0) = page %d, want 2", page)
	}
}

// A heading at the foot of a page, its first paragraph on the next, is on
// its own page: HeadingPage says so on that first paragraph, where a
// person citing the heading would otherwise be sent to the wrong page
// (epstopdf.pdf's "2.2 Base package" at the foot of page 8). The
// paragraphs after it, and a heading on its paragraph's page, have none.
// Fails without HeadingPage (0 for all).
func TestPDFHeadingAtPageFoot(t *testing.T) {
	data := writePDF(t, [][]testLine{
		{
			{24, true, 80, "Notes on Tea"},
			{16, true, 120, "Brewing"},
			{11, false, 150, "Green tea is steeped at a lower temperature than black tea, usually"},
			{11, false, 164, "around eighty degrees, so the leaves do not turn bitter."},
			{11, false, 192, "Black tea wants boiling water and four minutes."},
			{16, true, 740, "Storage"},
		},
		{
			{11, false, 80, "Keep tea in a dark, dry tin away from spices and coffee, where"},
			{11, false, 94, "the sun never reaches it."},
			{11, false, 122, "Whole leaves keep their aroma for a year or more."},
			{16, true, 164, "Serving"},
			{11, false, 194, "Warm the cups before you pour."},
		},
	}, nil)
	d, err := Bytes(data, "tea.pdf", "")
	if err != nil {
		t.Fatal(err)
	}
	type para struct {
		Heading           string
		Page, HeadingPage int
	}
	var got []para
	for _, p := range d.Paragraphs {
		got = append(got, para{p.Heading, p.Page, p.HeadingPage})
	}
	want := []para{{"Brewing", 1, 0}, {"Brewing", 1, 0}, {"Storage", 2, 1}, {"Storage", 2, 0}, {"Serving", 2, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

func TestPDFInfoTitle(t *testing.T) {
	data := writePDF(t, [][]testLine{{{11, false, 100, "Only body text here."}}}, func(f *fpdf.Fpdf) {
		f.SetTitle("A Field Guide to Teapots", true)
	})
	d, err := Bytes(data, "guide.pdf", "")
	if err != nil {
		t.Fatal(err)
	}
	if d.Title != "A Field Guide to Teapots" {
		t.Errorf("title %q", d.Title)
	}
	// A title that is a file name is not used.
	data = writePDF(t, [][]testLine{{{11, false, 100, "Only body text here."}}}, func(f *fpdf.Fpdf) {
		f.SetTitle("Microsoft Word - draft3.docx", true)
	})
	if d, err = Bytes(data, "dir/teapots.pdf", ""); err != nil || d.Title != "teapots" {
		t.Errorf("title %q, %v", d.Title, err)
	}
}

// A title with a footnote mark (LaTeX's \thanks) is the title without it.
func TestPDFTitleFootnote(t *testing.T) {
	for _, mark := range []string{"*", "\x86"} { // \x86 is the dagger in WinAnsiEncoding
		data := writePDF(t, [][]testLine{{
			{24, true, 80, "A Guide to Kettles" + mark},
			{11, false, 120, "Descale the kettle every Friday."},
		}}, nil)
		d, err := Bytes(data, "kettles.pdf", "")
		if err != nil || d.Title != "A Guide to Kettles" {
			t.Errorf("mark %q: title %q, %v", mark, d.Title, err)
		}
	}
}

// Lines that repeat on every page are dropped as running heads, unless
// they are all the document has.
func TestPDFOnlyRepeatedLines(t *testing.T) {
	data := writePDF(t, [][]testLine{{{11, false, 100, "Label 1"}}, {{11, false, 100, "Label 2"}}}, nil)
	d, err := Bytes(data, "labels.pdf", "")
	if err != nil {
		t.Fatal(err)
	}
	all := texts(d)
	if got := strings.Join(all, " / "); !strings.Contains(got, "Label 1") || !strings.Contains(got, "Label 2") {
		t.Errorf("paragraphs: %q", got)
	}
}

func TestPDFErrors(t *testing.T) {
	good := teaPDF(t)
	encrypted := writePDF(t, [][]testLine{{{11, false, 100, "A secret blend."}}}, func(f *fpdf.Fpdf) {
		f.SetProtection(fpdf.CnProtectPrint, "user-secret", "owner-secret")
	})
	scanned := func() []byte {
		f := fpdf.New("P", "pt", "A4", "")
		f.AddPage()
		f.Rect(50, 50, 400, 300, "F") // a picture of text is not text
		var b bytes.Buffer
		if err := f.Output(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}()
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not a PDF", []byte("<html>hello</html>"), "corrupt PDF: not a PDF file (no %PDF header)"},
		{"encrypted", encrypted, "encrypted PDF: sponge cannot read it"},
		{"scanned", scanned, "no readable text (a PDF of scanned images, which sponge does not read)"},
		{"truncated", good[:len(good)/3], "corrupt PDF: "},
		{"header only", []byte("%PDF-1.4\n%%EOF\n"), "corrupt PDF: "},
	} {
		_, err := Bytes(tc.data, tc.name+".pdf", "")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
			continue
		}
		if msg := err.Error(); !utf8.ValidString(msg) || strings.ContainsAny(msg, "\x00\n") || len(msg) > 200 {
			t.Errorf("%s: unreadable message %q", tc.name, msg)
		}
	}
	if !errors.Is(errPassword, errEncrypted) {
		t.Error("errPassword must read as errEncrypted")
	}
}

// A PDF whose cross-reference offset is wrong is read by rebuilding the
// table from the objects, as viewers do.
func TestPDFRepaired(t *testing.T) {
	good := teaPDF(t)
	i := bytes.LastIndex(good, []byte("startxref"))
	broken := append(append([]byte(nil), good[:i]...), "startxref\n99\n%%EOF\n"...)
	d, err := readPDF(broken, farDeadline())
	if err != nil {
		t.Fatal(err)
	}
	checkTea(t, d)
}

func checkTea(t *testing.T, d *Document) {
	t.Helper()
	checkDoc(t, d)
	if len(d.Paragraphs) != 5 || d.Paragraphs[4].Page != 3 || d.Paragraphs[0].Heading != "Brewing" ||
		!strings.Contains(d.Paragraphs[0].Text, "A short infusion keeps") {
		t.Errorf("read: %+v", d.Paragraphs)
	}
}

func farDeadline() time.Time { return time.Now().Add(time.Minute) }

// cleanText returns most PDF lines as they are (cleanASCII): that shortcut
// must keep only what the full cleaning would keep.
func TestCleanASCIIShortcut(t *testing.T) {
	for _, s := range []string{"", "a", "word", "two words", "a  b", " a", "a ", "a\tb", "x\x7fy", "x\x01y",
		"caf\u00e9", "\ufb01nd", "(p. 12) ~ [x] {y} <z>", "a\u00a0b"} {
		want := strings.Join(strings.Fields(s), " ") == s && !strings.ContainsFunc(s, func(r rune) bool {
			return r < ' ' || r > '~'
		})
		if got := cleanASCII(s); got != want {
			t.Errorf("cleanASCII(%q) = %v, want %v", s, got, want)
		}
		if got := cleanText(s); want && got != s {
			t.Errorf("cleanText(%q) = %q", s, got)
		}
	}
}

// The title on the first page is the title even when later pages repeat
// it small as their running head (the shared-mime-info spec); and a line
// on every page at one size is never the title, however large.
func TestPDFTitleNotRunningHead(t *testing.T) {
	body := func(n int) []testLine {
		return []testLine{{11, false, 200, "Body text of page " + string(rune('0'+n)) + " that says something."}, {11, false, 215, "More of it on the next line."}}
	}
	pages := [][]testLine{
		append([]testLine{{25, true, 60, "Shared Tea Database"}, {17, true, 90, "The Tea Group (tea.example.org)"}}, body(1)...),
		append([]testLine{{10, false, 40, "Shared Tea Database"}}, body(2)...),
		append([]testLine{{10, false, 40, "Shared Tea Database"}}, body(3)...),
	}
	d := mustExtract(t, writePDF(t, pages, nil), "spec.pdf")
	if d.Title != "Shared Tea Database" {
		t.Errorf("title %q", d.Title)
	}
	for _, p := range d.Paragraphs {
		if strings.Contains(p.Text, "Shared Tea") {
			t.Errorf("the running head is in a paragraph: %q", p.Text)
		}
	}
	// A banner repeated large on every page is a running head.
	for i := range pages {
		pages[i][0] = testLine{25, true, 40, "ACME CONFIDENTIAL"}
	}
	pages[0] = append(pages[0], testLine{17, true, 120, "Quarterly tea report"})
	d = mustExtract(t, writePDF(t, pages, nil), "report.pdf")
	if d.Title != "Quarterly tea report" && d.Title != "The Tea Group (tea.example.org)" || strings.Contains(d.Title, "ACME") {
		t.Errorf("title %q", d.Title)
	}
}

// A heading with no paragraph under it keeps its words: a part's title
// alone on its page, a chapter's heading right above its first section's,
// and a document's last heading. Each of them was lost, the next heading
// taking its place.
func TestPDFHeadingsInARow(t *testing.T) {
	d := mustExtract(t, writePDF(t, [][]testLine{
		{
			{24, true, 80, "A Book of Tea"},
			{11, false, 120, "This book is about tea, and how to keep it fresh."},
		},
		{{24, true, 300, "Part I Leaves"}},
		{
			{18, true, 80, "1 Green tea"},
			{14, true, 110, "1.1 Picking"},
			{11, false, 140, "The first leaves of spring are picked by hand,"},
			{11, false, 154, "a bud and two leaves."},
			{14, true, 180, "1.2 Rolling"},
			{14, true, 230, "1.3 Drying"},
			{11, false, 260, "Rolled leaves are dried in the sun,"},
			{11, false, 274, "on mats, for a day"},
			{11, false, 288, "or two."},
			{14, true, 330, "1.4 Questions"},
		},
	}, nil), "tea-book.pdf")
	type para struct {
		Heading string
		Page    int
		Text    string
	}
	var got []para
	for _, p := range d.Paragraphs {
		got = append(got, para{p.Heading, p.Page, p.Text})
	}
	want := []para{
		{Heading: "A Book of Tea", Page: 1, Text: "This book is about tea, and how to keep it fresh."},
		{Heading: "A Book of Tea", Page: 2, Text: "Part I Leaves"},
		{Heading: "1 Green tea › 1.1 Picking", Page: 3, Text: "The first leaves of spring are picked by hand, a bud and two leaves."},
		{Heading: "1 Green tea › 1.1 Picking", Page: 3, Text: "1.2 Rolling"},
		{Heading: "1.3 Drying", Page: 3, Text: "Rolled leaves are dried in the sun, on mats, for a day or two."},
		{Heading: "1.3 Drying", Page: 3, Text: "1.4 Questions"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// Headings one after another under the title, none with a paragraph
// (fntguide.pdf's first page: its copyright line, its date, "Contents"):
// each is kept as a paragraph of its own, once. The copyright line was
// saved as text and again as the heading of the date below it.
func TestPDFHeadingsUnderTitleOnce(t *testing.T) {
	d := mustExtract(t, writePDF(t, [][]testLine{{
		{24, true, 80, "Tea and its keeping"},
		{13, true, 120, "Copyright 2026 The Tea Group"},
		{13, true, 150, "August 2026"},
		{18, true, 190, "Contents"},
		{11, false, 230, "Tea is kept dry, cool and away from light."},
	}}, nil), "keeping.pdf")
	want := []string{": Copyright 2026 The Tea Group", ": August 2026", "Contents: Tea is kept dry, cool and away from light."}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A landscape page whose content is turned a quarter (as LaTeX's lscape
// does), and text turned upside down, keep their words and lines; each
// glyph was read as a line of its own ("T h e w a t e r").
func TestPDFRotatedText(t *testing.T) {
	lines := []string{
		"The water for green tea is not boiling,",
		"but about eighty degrees, and the leaves",
		"steep for two minutes at most.",
	}
	for _, angle := range []float64{90, 270, 180} {
		f := fpdf.New("P", "pt", "A4", "")
		f.SetAutoPageBreak(false, 0)
		f.AddPage()
		f.SetFont("Helvetica", "", 11)
		f.TransformBegin()
		f.TransformRotate(angle, 300, 420)
		for i, l := range lines {
			f.Text(150, 400+float64(i)*14, l)
		}
		f.TransformEnd()
		var b bytes.Buffer
		if err := f.Output(&b); err != nil {
			t.Fatal(err)
		}
		d := mustExtract(t, b.Bytes(), "landscape.pdf")
		got := texts(d)
		want := []string{strings.Join(lines, " ")}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("turned %v°: paragraphs (-want +got):\n%s", angle, diff)
		}
	}
}

// TeX's logos are one word each, the way a person reads them: XeTeX's
// reversed E, drawn mirrored to the left of its origin, and the lowered E
// of TeX and raised A of LaTeX touch the letters beside them. The mirrored
// E was placed right of its origin, past the T after it: "X E TEX".
func TestPDFTeXLogos(t *testing.T) {
	// Helvetica at 10 pt: "for " is 14.45 wide, X 6.67, E 6.67, T 6.11, A 6.67, L 5.56
	content := `BT /F1 10 Tf 100 700 Td (for X) Tj ET
q -1 0 0 1 254 0 cm BT /F1 10 Tf 127 698 Td (E) Tj ET Q
BT /F1 10 Tf 125.5 700 Td (T) Tj ET
BT /F1 10 Tf 130.5 698 Td (E) Tj ET
BT /F1 10 Tf 136 700 Td (X commands and ) Tj ET
BT /F1 10 Tf 100 680 Td (L) Tj ET
BT /F1 7 Tf 103.5 683 Td (A) Tj ET
BT /F1 10 Tf 107.5 680 Td (T) Tj ET
BT /F1 10 Tf 112.5 678 Td (E) Tj ET
BT /F1 10 Tf 118 680 Td (X3-defined ones.) Tj ET`
	d := mustExtract(t, onePagePDF(content), "logos.pdf")
	got := texts(d)
	want := []string{"for XETEX commands and LATEX3-defined ones."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// TeX draws an accented letter as an accent glyph and a letter at the same
// place (\"o: a dieresis, then an o); they are one letter, as a person
// reads it and searches for it. It was saved as "Sch¨opf". An accent drawn
// on no letter stays.
func TestPDFAccents(t *testing.T) {
	// Helvetica at 12 pt: "By Sch" is 38.02 wide, o 6.67, the dieresis 4
	content := `BT /F1 12 Tf 100 700 Td (By Sch) Tj ET
BT /F1 12 Tf 139.35 700 Td (\250) Tj ET
BT /F1 12 Tf 138.02 700 Td (opf: the \250 accent.) Tj ET`
	d := mustExtract(t, onePagePDF(content), "accents.pdf")
	got := texts(d)
	if want := []string{"By Schöpf: the ¨ accent."}; !cmp.Equal(want, got) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// TeX's \widetilde is cmex's tildewide drawn over the letters, a glyph
// the AGL does not name: it was read by the code's base encoding ("~",
// or U+FFFD by cmex's own encoding: testmath.pdf saved "D̃u" as "� Du"
// 242 times on one page). It is a tilde, put on the letter under it as
// an accent is.
func TestPDFWideTilde(t *testing.T) {
	// Helvetica at 12 pt: "Let " is 20.02 wide, D 8.66, ~ (code 126) 7.01
	content := `BT /F1 12 Tf 100 700 Td (Let D) Tj ET
BT /F1 12 Tf 120.85 709 Td (~) Tj ET
BT /F1 12 Tf 128.68 700 Td (u be the jump.) Tj ET`
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [126 /tildewide] >> >>"
	d := mustExtract(t, onePagePDFFont(content, font), "tilde.pdf")
	got := texts(d)
	if want := []string{"Let D\u0303u be the jump."}; !cmp.Equal(want, got) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// LaTeX's picture fonts (line10, lcircle10) draw a diagram's slanted
// lines, arrow heads and circles: no text. Their codes were read as
// letters (PDFDocEncoding) or U+FFFD, and fancyhdr.pdf's page diagram was
// saved as lines of "� 8", "� � 3" beside its labels.
func TestPDFPictureFontNoText(t *testing.T) {
	content := `BT /F1 12 Tf 100 700 Td (Header) Tj ET
BT /F2 10 Tf 100 680 Td (i6?) Tj ET
BT /F1 12 Tf 100 660 Td (Body) Tj ET
BT /F3 10 Tf 140 660 Td (a) Tj ET`
	d := mustExtract(t, onePagePDFFont(content, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /DWGWZA+LINE10 >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /HLYIQL+LCIRCLE10 >>"), "diagram.pdf")
	got := texts(d)
	if want := []string{"Header", "Body"}; !cmp.Equal(want, got) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// A numbered heading's second line is indented past its number; it goes
// on with the heading, as does a word hyphenated at a line's end. It was
// taken for a paragraph's first-line indent: "8.8 Bugs, … and other
// possi-" was saved as a paragraph and "bilities" as the heading.
func TestPDFHeadingHangingIndent(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "B", 12)
		f.Text(72, 100, "8.8 Bugs, misfeatures, future work, and other possi-")
		f.Text(96, 115, "bilities")
		f.SetFont("Helvetica", "", 10)
		for i, l := range []string{
			"The following need to be done now, before the next release of the kernel",
			"is made, and the documentation gets a more ordered shape than it has.",
			"Additional error-checking is to come, and a cleaner use of messages.",
		} {
			f.Text(72, 140+float64(i)*12, l)
		}
	})
	d := mustExtract(t, data, "hanging.pdf")
	want := []string{"8.8 Bugs, misfeatures, future work, and other possibilities: The following need to be done now, before the next release of the kernel is made, and the documentation gets a more ordered shape than it has. Additional error-checking is to come, and a cleaner use of messages."}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A hanging paragraph (a definition list's item, a bullet's) of two lines:
// its full first line runs on into its indented last line, which is no
// paragraph's first line though the next item comes back to the margin.
// lppl.pdf's "Derived Work Any work that under any applicable law is
// derived from the" and "Work." were saved as two paragraphs (a quote of
// the definition found nothing), as were 3,455 other lines of the 269
// texlive PDFs, bullets' last lines most of them.
func TestPDFHangingLastLine(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		for _, l := range []struct {
			x, y float64
			text string
		}{
			{72, 100, "In this license document the following terms are used:"},
			{72, 112, "Work Any work being distributed under this License."},
			{72, 124, "Derived Work Any work that under any applicable law is derived from the"},
			{90, 136, "Work."},
			{72, 148, "Modify To apply any procedure that produces a Derived Work."},
		} {
			f.Text(l.x, l.y, l.text)
		}
	})
	d := mustExtract(t, data, "license.pdf")
	want := []string{": In this license document the following terms are used:", ": Work Any work being distributed under this License.",
		": Derived Work Any work that under any applicable law is derived from the Work.", ": Modify To apply any procedure that produces a Derived Work."}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A list of hanging items: each item's mark at the left, its other lines
// indented. An item whose last line is full was saved in one paragraph
// with the next: lppl.pdf's "(b) … log of the changes." and "(c) No
// information …", ltnews's bullets.
func TestPDFHangingItems(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		// (b)'s lines are justified: both end at the right edge
		first, last := "(b) Every component of the Derived Work contains prominent notices that point", "to a complete and accurate log of the changes made to it."
		f.Text(72, 100, first)
		f.Text(72+f.GetStringWidth(first)-f.GetStringWidth(last), 112, last)
		f.Text(72, 124, "(c) No information in the Derived Work implies that anyone gives support.")
	})
	d := mustExtract(t, data, "items.pdf")
	want := []string{": (b) Every component of the Derived Work contains prominent notices that point to a complete and accurate log of the changes made to it.",
		": (c) No information in the Derived Work implies that anyone gives support."}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// LaTeX3's documentation (l3doc) breaks a long code name after an
// underscore with a hyphen that is no part of it: "\__hook_normalize_-"
// then "file_name:w" is \__hook_normalize_file_name:w, as pdftotext
// reads it. It was saved as "\__hook_normalize_- file_name:w", and a search
// for the name, or a quote of it, found nothing (1,357 such names in
// half of texlive's PDFs). A word's own hyphen stays: "HTML-" then "based".
func TestPDFCodeNameBrokenAfterUnderscore(t *testing.T) {
	data := writePDF(t, [][]testLine{{
		{11, false, 100, "The wrapper \\__hook_try_declaring_generic_hook:nnn then defers \\hook_-"},
		{11, false, 114, "gput_code:nnn if the generic hook was declared, and \\__hook_normalize_-"},
		{11, false, 128, "file_name:w tidies the name; \\c__-"},
		{11, false, 142, "hook_hash_tl is a hash sign. Recipes are kept in HTML-"},
		{11, false, 156, "based notes."},
	}}, nil)
	d := mustExtract(t, data, "l3doc.pdf")
	want := []string{": The wrapper \\__hook_try_declaring_generic_hook:nnn then defers \\hook_gput_code:nnn if the generic hook was declared, and \\__hook_normalize_file_name:w tidies the name; \\c__hook_hash_tl is a hash sign. Recipes are kept in HTML-based notes."}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// TeX's fonts name their grave accent's glyph grave, which is ASCII `:
// "Hàn Thành" drawn as H, a grave on an a, n was saved as "H` an", and a
// search for the name found nothing (French, Vietnamese, Italian set in
// OT1 fonts lose every such word). A backquote in code, set beside its
// letters and not on them, stays.
func TestPDFGraveAccent(t *testing.T) {
	// Helvetica at 12 pt: H is 8.66 wide, the grave 4, a 6.67
	content := `BT /F1 12 Tf 100 700 Td (H) Tj ET
BT /F1 12 Tf 110 700 Td (\140) Tj ET
BT /F1 12 Tf 108.66 700 Td (an and the code \\lccode\140I is kept.) Tj ET`
	d := mustExtract(t, onePagePDF(content), "grave.pdf")
	got := texts(d)
	if want := []string{"Hàn and the code \\lccode`I is kept."}; !cmp.Equal(want, got) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// A footnote's mark is raised and small before the note's first word; it
// is no part of it. "⁵Actually, any name" was saved as "5Actually", and a
// search for "actually" did not find the note (pdftotext parts them too).
func TestPDFFootnoteMark(t *testing.T) {
	// Helvetica: a 5 at 6 pt is 3.34 wide, so the note starts 0.16 pt after it
	content := `BT /F1 10 Tf 100 700 Td (A body paragraph of the page, longer than its note.) Tj ET
BT /F1 6 Tf 100 100 Td (5) Tj ET
BT /F1 8 Tf 103.5 98 Td (Actually, any name will do.) Tj ET`
	d := mustExtract(t, onePagePDF(content), "footnote.pdf")
	got := texts(d)
	if want := []string{"A body paragraph of the page, longer than its note.", "5 Actually, any name will do."}; !cmp.Equal(want, got) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// The factor after a subscript is a word of its own: b_{ij}x_i was saved
// as "bijxi", and "bij" was not found; a subscript goes on its word.
func TestPDFSubscriptEnd(t *testing.T) {
	// Helvetica: "Let " is 16.68 wide at 10 pt, b 5.56; i and j 1.55 at
	// 7 pt; x 5 at 10 pt, half a point after the subscript
	content := `BT /F1 10 Tf 100 700 Td (Let b) Tj ET
BT /F1 7 Tf 122.24 697.5 Td (ij) Tj ET
BT /F1 10 Tf 125.85 700 Td (x) Tj ET
BT /F1 7 Tf 130.85 697.5 Td (i) Tj ET
BT /F1 10 Tf 132.4 700 Td ( be the matrix, H) Tj ET
BT /F1 7 Tf 205.76 697.5 Td (2) Tj ET
BT /F1 10 Tf 209.65 700 Td ( water.) Tj ET`
	d := mustExtract(t, onePagePDF(content), "subscript.pdf")
	got := texts(d)
	if want := []string{"Let bij xi be the matrix, H2 water."}; !cmp.Equal(want, got) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// A chemical formula is one word, as a person searches for it: "H2O",
// "C6H12O6" (a capital goes on after a subscript), and a stop after a
// subscript goes on its word ("CO2."), where 8606028 parted every glyph
// after a subscript: "H2 O", "C6 H12 O6", "CO2 .".
func TestPDFChemicalFormula(t *testing.T) {
	// Helvetica: "Water is H" is 46.67 wide at 10 pt, O 7.78, C 7.22, H
	// 7.22, ", glucose C" 50.02, " and CO" 35.02; digits 3.892 at 7 pt.
	content := `BT /F1 10 Tf 100 700 Td (Water is H) Tj ET
BT /F1 7 Tf 146.67 697.5 Td (2) Tj ET
BT /F1 10 Tf 151.06 700 Td (O, glucose C) Tj ET
BT /F1 7 Tf 208.86 697.5 Td (6) Tj ET
BT /F1 10 Tf 213.25 700 Td (H) Tj ET
BT /F1 7 Tf 220.47 697.5 Td (12) Tj ET
BT /F1 10 Tf 228.75 700 Td (O) Tj ET
BT /F1 7 Tf 236.53 697.5 Td (6) Tj ET
BT /F1 10 Tf 240.92 700 Td ( and CO) Tj ET
BT /F1 7 Tf 275.94 697.5 Td (2) Tj ET
BT /F1 10 Tf 280.33 700 Td (.) Tj ET`
	d := mustExtract(t, onePagePDF(content), "formula.pdf")
	got := texts(d)
	if want := []string{"Water is H2O, glucose C6H12O6 and CO2."}; !cmp.Equal(want, got) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// An index breaks a long code name after an underscore and indents the
// rest under it: "\__color_model_devicen_parse_-" then "1:nn . . . 35943"
// was taken for a paragraph's first line, and the name was saved in two
// paragraphs, "…_parse_-" and "1:nn 35943 …" (source3.pdf's index).
func TestPDFIndexCodeNameIndented(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 11)
		f.Text(72, 100, "\\__color_model_devicen_parse_-")
		f.Text(84, 113, "1:nn 35943")
		f.Text(72, 126, "\\__color_model_devicen_parse_generic:nn 35943, 36004")
	})
	d := mustExtract(t, data, "index.pdf")
	want := []string{": \\__color_model_devicen_parse_1:nn 35943 \\__color_model_devicen_parse_generic:nn 35943, 36004"}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// The first page's largest heading is the document's title and is left
// out of the heading path. A big heading that a larger one follows was
// left out as the title, then the larger one became the title, and the
// first one's words were saved nowhere: colortbl-DE.pdf's "The colortbl
// package", its author's name set larger below it.
func TestPDFTitleOutgrown(t *testing.T) {
	data := writePDF(t, [][]testLine{{
		{17, false, 80, "The colortbl package"},
		{20, false, 120, "David Carlisle"},
		{11, false, 160, "The package colours the cells of a table, as a table has them."},
	}}, nil)
	d := mustExtract(t, data, "colortbl.pdf")
	want := []string{": The colortbl package", "David Carlisle: The package colours the cells of a table, as a table has them."}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
	if d.Title != "David Carlisle" {
		t.Errorf("title %q", d.Title)
	}
}

// ltxdoc sets a command's name in the left margin, on the baseline of the
// line that describes it, and may draw it after that line: when the line
// ended in a hyphen the note came between the word's halves, so
// ltluatex.pdf's "as de-", "disable_callback", "scribed" was saved as "as
// dedisable_callback scribed" and babelbib.pdf's "lan-",
// "\setbtxfallbacklanguage", "guage" as "lan-\setbtxfallbacklanguage
// guage": neither the word nor the name could be found. The notes now
// follow the line that ends the word.
func TestPDFMarginNoteInHyphenatedWord(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		for _, l := range []struct {
			x, y, size float64
			text       string
		}{
			{160, 100, 10, "luatexbase.disable_callback(callback) Sets the callback to false as de-"},
			{60, 100, 9, "disable_callback"},
			{160, 112, 10, "scribed in the LuaTeX manual, and a fall-back lan-"},
			{40, 112, 9, "\\setbtxfallbacklanguage"},
			{160, 124, 10, "guage is used when the field is missing from the entry, and"},
			{160, 136, 10, "the other fields are typeset as they are given in the file."},
		} {
			f.SetFont("Helvetica", "", l.size)
			f.Text(l.x, l.y, l.text)
		}
	})
	d := mustExtract(t, data, "ltluatex.pdf")
	want := []string{": luatexbase.disable_callback(callback) Sets the callback to false as described in the LuaTeX manual, and a fall-back language is used when the field is missing from the entry, and disable_callback \\setbtxfallbacklanguage the other fields are typeset as they are given in the file."}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A contents line's section number wider than the room left for it comes
// within 0.15 em of its title: source3.pdf's "45.3.10 Groups and
// alternations" was saved as "45.3.10Groups", and a search for "Groups"
// missed it. After a number, a letter set apart by more than 0.1 em (as
// pdftotext parts words) starts a word.
func TestPDFSectionNumberCloseToTitle(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		f.Text(72, 100, "45.3.9")
		f.Text(110, 100, "Character classes 488")
		f.Text(72, 112, "45.3.10")
		f.Text(72+f.GetStringWidth("45.3.10")+1.4, 112, "Groups and alternations 492")
	})
	d := mustExtract(t, data, "contents.pdf")
	want := []string{": 45.3.9 Character classes 488 45.3.10 Groups and alternations 492"}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A line ending in a slash goes on with the next line's text, an address
// broken after its slash, unless that line starts a reference of its own
// or another address: ltnews29.pdf's references were saved as
// "https://latex-project.org/publications/[2] LATEX News" and ltx3info.pdf's
// mirrors as "ftp://cam.ctan.org/tex-archive/ftp://dante.ctan.org/…", the
// addresses lost to a search.
func TestPDFLineAfterSlash(t *testing.T) {
	data := writePDF(t, [][]testLine{{
		{10, false, 100, "[1] Frank Mittelbach: New rules for reporting bugs. https://latex-project.org/publications/"},
		{10, false, 112, "[2] LaTeX News, Issue 28. In: TUGboat, 39#1, 2018, http://tug.org/TUGboat/"},
		{10, false, 124, "Articles/tb06-3.pdf and on the mirrors ftp://cam.ctan.org/tex-archive/"},
		{10, false, 136, "ftp://dante.ctan.org/tex-archive/"},
	}}, nil)
	d := mustExtract(t, data, "ltnews.pdf")
	want := []string{": [1] Frank Mittelbach: New rules for reporting bugs. https://latex-project.org/publications/ [2] LaTeX News, Issue 28. In: TUGboat, 39#1, 2018, http://tug.org/TUGboat/Articles/tb06-3.pdf and on the mirrors ftp://cam.ctan.org/tex-archive/ ftp://dante.ctan.org/tex-archive/"}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// Arabic and Hebrew are drawn right to left, each letter left of the one
// before it, and every letter was taken for a word of its own: babel.pdf's
// Arabic sample was saved as "و ﻗ ﺪ ﻋ ﺮ ﻓ ﺖ", its Hebrew "פ ר ק", and not a
// word of them could be found. A letter that ends where the one before it
// starts goes on with its word; a space's width apart starts the next. The
// rule reads positions, not letters: Latin letters drawn so stand in here.
func TestPDFRightToLeftWords(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		f.Text(72, 100, "The macro holds")
		x := 260.0
		for _, word := range []string{"shalom", "olam"} {
			for _, r := range word {
				x -= f.GetStringWidth(string(r))
				f.Text(x, 100, string(r))
			}
			x -= f.GetStringWidth(" ")
		}
		f.Text(270, 100, "as its text.")
	})
	d := mustExtract(t, data, "babel.pdf")
	want := []string{": The macro holds shalom olam as its text."}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A bold line of the body's size set in from the text around it, above a
// code listing (lthooks-code.pdf's "Warning: this support will vanish in
// future releases!"), is a paragraph, not the heading of all that
// follows; a bold heading at the text's left edge still is one.
func TestPDFBoldLineSetInIsNoHeading(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		placeLines(f, []placedLine{
			{72, 100, true, "4.4 Setting hooks up"},
			{72, 124, false, "The above is all in one convention, but we also provide an interface to legacy hooks of"},
			{72, 136, false, "another form, and if there is such a macro we add its contents as a chunk of code under"},
			{72, 148, false, "the label legacy."},
			{100, 168, true, "Warning: this support will vanish in future releases!"},
			{80, 188, false, "88 \\include_legacy_code_chunk:n {#1}"},
			{80, 200, false, "89 }"},
			{72, 220, false, "The end of the definition, with more text under the heading above it."},
		})
	})
	d := mustExtract(t, data, "lthooks-code.pdf")
	for _, p := range d.Paragraphs {
		if p.Heading != "4.4 Setting hooks up" {
			t.Errorf("%q has heading %q, want 4.4 Setting hooks up", p.Text, p.Heading)
		}
	}
	if !slices.ContainsFunc(d.Paragraphs, func(p item.Paragraph) bool { return p.Text == "Warning: this support will vanish in future releases!" }) {
		t.Errorf("the warning is no paragraph: %q", provenance(d))
	}
}

// A note in the right margin, beside a line of a paragraph (ltxguide's
// "New feature" and its date, as clsguide.pdf sets them), is a paragraph
// of its own after the paragraph, not words in its sentence: "that you
// want to New feature 1995/12/01 simply load a class".
func TestPDFRightMarginNote(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		// justify draws a line's words from x 72 to 472, as TeX sets them.
		justify := func(y float64, line string) {
			words := strings.Fields(line)
			w := 0.0
			for _, word := range words {
				w += f.GetStringWidth(word)
			}
			gap, x := (400-w)/float64(len(words)-1), 72.0
			for _, word := range words {
				f.Text(x, y, word)
				x += f.GetStringWidth(word) + gap
			}
		}
		f.SetFont("Helvetica", "", 10)
		justify(100, "This command has the same syntax as the author command documentclass,")
		justify(112, "and it allows classes to be based on the syntax and appearance of another")
		justify(124, "class: by loading the article class, a class writer has to change only the")
		f.Text(72, 136, "bits they do not like.")
		justify(154, "The following commands can be used in the common case that you want to")
		f.SetFont("Helvetica", "", 9)
		f.Text(484, 154, "New feature")
		f.Text(484, 165, "1995/12/01")
		f.SetFont("Helvetica", "", 10)
		justify(166, "simply load a class or package file with exactly those options that are")
		f.Text(72, 178, "being used by the current class.")
	})
	d := mustExtract(t, data, "clsguide.pdf")
	want := []string{
		": This command has the same syntax as the author command documentclass, and it allows classes to be based on the syntax and appearance of another class: by loading the article class, a class writer has to change only the bits they do not like.",
		": The following commands can be used in the common case that you want to simply load a class or package file with exactly those options that are being used by the current class.",
		": New feature 1995/12/01",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A page with three notes in its right margin or more keeps them out of
// the sentences too: the lines that end in a note were counted for the
// text's right edge, so on clsguide.pdf's page 17 the edge was the notes'
// and "… your own document class or New feature 1995/12/01 package by
// building on existing classes or packages." was one sentence.
func TestPDFRightMarginNotesMany(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		justify := func(y float64, line string) {
			words := strings.Fields(line)
			w := 0.0
			for _, word := range words {
				w += f.GetStringWidth(word)
			}
			gap, x := (400-w)/float64(len(words)-1), 72.0
			for _, word := range words {
				f.Text(x, y, word)
				x += f.GetStringWidth(word) + gap
			}
		}
		note := func(y float64) {
			f.SetFont("Helvetica", "", 9)
			f.Text(484, y, "New feature")
			f.Text(484, y+11, "1995/12/01")
			f.SetFont("Helvetica", "", 10)
		}
		f.SetFont("Helvetica", "", 10)
		for i, y := range []float64{100, 160, 220} {
			justify(y, "This group of commands can be used to create your own document class or")
			note(y)
			justify(y+12, "package by building on existing classes or packages, and this is the")
			f.Text(72, y+24, fmt.Sprintf("way number %d to do it.", i+1))
		}
	})
	d := mustExtract(t, data, "clsguide.pdf")
	var want []string
	for i := range 3 {
		want = append(want, fmt.Sprintf(": This group of commands can be used to create your own document class or package by building on existing classes or packages, and this is the way number %d to do it.", i+1),
			": New feature 1995/12/01")
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// Lines set in a typewriter font are a block of code: kept by their lines
// and indentation, a short one with the sentence announcing it, and not
// joined with the text around them (a LaTeX guide's verbatim examples ran
// into the sentence after them). A name in that font wrapped in a sentence
// ("curr_-" "submatches.") and a word hyphenated before such a line stay
// text.
func TestPDFCodeKeepsLines(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		f.Text(72, 100, "To load the package with its draft option, put this line in the preamble:")
		f.SetFont("Courier", "", 10)
		f.Text(90, 118, `\usepackage[draft]{teapot}`)
		f.Text(90, 130, `\teapotsetup{`)
		f.Text(102, 142, `temperature=80,`)
		f.Text(90, 154, `}`)
		f.SetFont("Helvetica", "", 10)
		f.Text(72, 172, "The package then draws a box where each pot would be, and a stack of")
		f.Text(72, 184, "cups for each saucer of the curr_-")
		f.SetFont("Courier", "", 10)
		f.Text(72, 196, "submatches.")
	})
	d := mustExtract(t, data, "teapot.pdf")
	want := []string{
		": To load the package with its draft option, put this line in the preamble:\n\n" +
			"\\usepackage[draft]{teapot}\n\\teapotsetup{\n  temperature=80,\n}",
		": The package then draws a box where each pot would be, and a stack of cups for each saucer of the curr_submatches.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A bold line set in from the text that opens with a section's number of
// two levels or more is a heading all the same: docstrip.pdf's "9.3.5
// Miscellaneous" (and bitset.pdf's "2.10.3 \bitsetGetSetBitList") were
// taken for lines standing aside, and their paragraphs stayed under the
// section before.
func TestPDFNumberedHeadingSetIn(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		placeLines(f, []placedLine{
			{72, 100, true, "9.3.4 Stream options"},
			{72, 124, false, "The streams are opened when the first file is written and closed when the last one is,"},
			{72, 136, false, "so that a batch file can write many files at once."},
			{90, 160, true, "9.3.5 Miscellaneous"},
			{72, 184, false, "A few more options are set here for the files of the batch, and none of them is needed"},
			{72, 196, false, "unless the defaults do not suit the installation."},
		})
	})
	d := mustExtract(t, data, "docstrip.pdf")
	want := []string{
		"9.3.4 Stream options: The streams are opened when the first file is written and closed when the last one is, so that a batch file can write many files at once.",
		"9.3.5 Miscellaneous: A few more options are set here for the files of the batch, and none of them is needed unless the defaults do not suit the installation.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A TS1 font (textcomp) names its per-ten-thousand sign "permyriad" and an
// LH font its Cyrillic ghe with descender "CYRGDSC", names the Adobe Glyph
// List lacks: source2e.pdf's "‰ and ‱" was saved as "‰ and �", a
// character no one can search for or read.
func TestPDFTeXGlyphNames(t *testing.T) {
	content := `BT /F1 12 Tf 100 700 Td (Both \200 and \201 are signs; \202 is a letter.) Tj ET`
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [128 /perthousand /permyriad /CYRGDSC] >> >>"
	d := mustExtract(t, onePagePDFFont(content, font), "signs.pdf")
	got := texts(d)
	if want := []string{"Both ‰ and ‱ are signs; Ӷ is a letter."}; !cmp.Equal(want, got) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// \LaTeXe sets a kern of 0.15 em between "LaTeX" and "2ε", the least gap
// that is a space, and the arithmetic that places the glyphs left it a
// hair over or under: the one logo was saved "LATEX 2ε" on most pages
// and "LATEX2ε" on others. A gap of 0.15 em to a thousandth is a space.
func TestPDFSpaceGapTie(t *testing.T) {
	// Helvetica at 10 pt: "LaTeX" is 29.46 wide; "2e" starts 1.4999 (0.14999
	// em) after it
	content := `BT /F1 10 Tf 100 700 Td (LaTeX) Tj ET
BT /F1 10 Tf 130.9599 700 Td (2e is the format.) Tj ET`
	d := mustExtract(t, onePagePDF(content), "logo.pdf")
	got := texts(d)
	if want := []string{"LaTeX 2e is the format."}; !cmp.Equal(want, got) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// In a title's large type \LaTeXe's kern of 0.15 em of the font's quad
// is under 0.15 em of its size (cmr17's quad is 0.92 of it): cfgguide.pdf's
// "Configuration options for LATEX 2ε" was saved as "LATEX2ε", its
// "LaTeX" lost to a search. A digit 0.1 em or more after a letter, in its
// size on its baseline, starts a word; one set close ("int1") does not.
// Fails without letterThenNumber.
func TestPDFLetterThenNumber(t *testing.T) {
	// Helvetica at 17 pt: "LaTeX" is 50.082 wide and "2e" starts 0.13 em
	// after it; "int" is 17.952 wide and "1" starts 0.02 em after it
	content := `BT /F1 17 Tf 100 700 Td (Options for LaTeX) Tj ET
BT /F1 17 Tf 240.165 700 Td (2e) Tj ET
BT /F1 17 Tf 100 600 Td (int) Tj ET
BT /F1 17 Tf 118.292 600 Td (1 is a name.) Tj ET`
	d := mustExtract(t, onePagePDF(content), "logo.pdf")
	got := strings.Join(append([]string{d.Title}, texts(d)...), " | ")
	if !strings.Contains(got, "LaTeX 2e") || !strings.Contains(got, "int1 is a name.") {
		t.Errorf("text %q, want \"LaTeX 2e\" and \"int1 is a name.\"", got)
	}
}

// In a document whose code listings, in a smaller typewriter font,
// outnumber its text, a short sentence of the text is no heading:
// l3backend-code.pdf's "No support at present." in 10 points beside code
// in 8.5 was larger than the body's size by more than headingScale, taken
// for a heading and saved once for the pages it recurs on. Fails without
// proseSize.
func TestPDFProseAmongCode(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		y := 100.0
		for _, name := range []string{"init", "select"} {
			f.SetFont("Helvetica", "", 10)
			f.Text(72, y, "No support at present.")
			f.SetFont("Courier", "", 8.5)
			for i := range 8 {
				f.Text(80, y+14+float64(i)*11, fmt.Sprintf(`%d \cs_new_protected:Npn \__color_backend_%s_%d:nnn #1#2#3 { }`, i+1, name, i))
			}
			y += 120
		}
		f.SetFont("Helvetica", "", 10)
		f.Text(72, y, "The backend ends here, and nothing more is defined.")
	})
	d := mustExtract(t, data, "backend.pdf")
	n := 0
	for _, p := range d.Paragraphs {
		if p.Text == "No support at present." && p.Heading == "" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("paragraphs %q, want \"No support at present.\" twice, under no heading", provenance(d))
	}
}

// A code listing whose line numbers are set in a smaller proportional
// font is one block of code, its short lines ("424 }", "423 \\fi") too,
// and a sentence after it that opens in the text's font is text, however
// many names in the code's font it holds: epstopdf.pdf's listings were
// cut at each closing brace, and fancyhdr.pdf's "Now we reset
// \\ps@f@nch@fancyproto …" read into the code above it. Fails without
// lineNumber (the code cut in pieces) and without monoStart (the
// sentence in the code).
func TestPDFCodeLineNumbers(t *testing.T) {
	code := []string{`\def\x#1{%`, `\ifx#1\relax`, `\fi`, `}`, `\def\y{\x}`}
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		for i, c := range code {
			y := 100 + float64(i)*11
			f.SetFont("Helvetica", "", 7)
			f.Text(72, y, fmt.Sprint(421+i))
			f.SetFont("Courier", "", 9)
			f.Text(88, y, c)
		}
		f.SetFont("Helvetica", "", 10)
		f.Text(72, 155, "Now we reset")
		f.SetFont("Courier", "", 10)
		f.Text(136, 155, `\ps@fancyproto to \ps@fancycore`)
	})
	d := mustExtract(t, data, "listing.pdf")
	want := []string{
		"421 \\def\\x#1{%\n422 \\ifx#1\\relax\n423 \\fi\n424 }\n425 \\def\\y{\\x}",
		`Now we reset \ps@fancyproto to \ps@fancycore`,
	}
	if diff := cmp.Diff(want, texts(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// justify draws text in 10-point Helvetica from x0 so that it ends at x1,
// the space between its words widened (Tw) as TeX sets a justified line.
func justify(f *fpdf.Fpdf, x0, x1, y float64, text string) {
	f.SetFont("Helvetica", "", 10)
	if n := strings.Count(text, " "); n > 0 {
		f.SetWordSpacing((x1 - x0 - f.GetStringWidth(text)) / float64(n))
	}
	f.Text(x0, y, text)
	f.SetWordSpacing(0)
}

// A name set in a typewriter font and wrapped onto a line of its own
// goes on with the sentence when the line before it runs to its column's
// right edge, on a page of two columns too: the edge is the column's, not
// the page's rightmost line (the right column's), which made every line
// of the left column a short one and "\RequirePackage{teapot}" a block of
// code cutting its sentence in two (clsguide.pdf's page 7, where a note in
// the margin was the rightmost line). Two lines of code in a row after a
// full line are code all the same. Fails without columnRights (the name
// and the sentence's end as paragraphs of their own) and without codeRun
// ("\documentclass{book}" taken into the sentence).
func TestPDFWrappedCodeNameColumns(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		justify(f, 72, 280, 100, "When a class needs a package it loads it with the")
		justify(f, 72, 280, 112, "command that the format provides for it, by means of")
		f.SetFont("Courier", "", 10)
		f.Text(72, 124, `\RequirePackage{teapot}`)
		justify(f, 72, 280, 136, "so that it is loaded once only, however often it is")
		f.Text(72, 148, "asked for.")
		justify(f, 72, 280, 172, "A document that wants the book class starts with the")
		justify(f, 72, 280, 184, "lines that load it, and the packages after it, thus")
		f.SetFont("Courier", "", 10)
		f.Text(72, 196, `\documentclass{book}`)
		f.Text(72, 208, `\usepackage{teapot}`)
		justify(f, 310, 518, 100, "The right column holds text of its own, set as wide as the left one")
		justify(f, 310, 518, 112, "is, its lines ending further right on the page than any line of the")
		justify(f, 310, 518, 124, "left column does, so that the rightmost line of the page is one of")
		justify(f, 310, 518, 136, "its lines and not the edge of the column on the left of the page.")
	})
	d := mustExtract(t, data, "columns.pdf")
	want := []string{
		": When a class needs a package it loads it with the command that the format provides for it, by means of \\RequirePackage{teapot} so that it is loaded once only, however often it is asked for.",
		": A document that wants the book class starts with the lines that load it, and the packages after it, thus",
		": \\documentclass{book}\n\\usepackage{teapot}",
		": The right column holds text of its own, set as wide as the left one is, its lines ending further right on the page than any line of the left column does, so that the rightmost line of the page is one of its lines and not the edge of the column on the left of the page.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A code listing's short lines in the text's font that end together (its
// guards, "<*teapot>" three times) are not the text's right edge while
// longer lines end past it: the edge is the listing's rightmost end, and
// the guard before a line of code is no sentence going on into it
// (hyperref.pdf's "6769 ⟨∗pdfmarkbase⟩" before "6770 \def\Hy@PutCatalog",
// read as one line of text). Fails without the count of the lines past the
// edge in columnRights ("<*teapot> \def\teapot{…}").
func TestPDFCodeGuardsNoEdge(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		y := 100.0
		for _, def := range []string{`\def\teapot{A pot for tea, with a lid and a spout}`, `\def\kettle{A kettle}`, `\def\cup{A cup}`} {
			f.SetFont("Helvetica", "", 10)
			f.Text(72, y, "<*teapot>")
			f.SetFont("Courier", "", 10)
			f.Text(72, y+12, def)
			f.SetFont("Helvetica", "", 10)
			f.Text(72, y+24, "</teapot>")
			y += 48
		}
	})
	d := mustExtract(t, data, "guards.pdf")
	for _, p := range texts(d) {
		if strings.Contains(p, "<*teapot> \\def") {
			t.Errorf("a guard read into its line of code: %q", p)
		}
	}
	if got := texts(d); len(got) != 9 {
		t.Errorf("paragraphs %q, want the guards and the code apart", got)
	}
}

// A line of code at the foot of two pages of a five-page document, the
// same but for its line number, is code, not a running foot: english.pdf's
// "94 \ifx\CurrentOption\bbl@tempa\def\bbl@tempb{US}\fi" and "96 \ifx…" were
// lost. Lines repeated at a page's edge on a third of the pages are running
// heads; in a typewriter font, on half of them and three at least. Fails
// without that (both lines lost).
func TestPDFCodeLineAtFootNotRunning(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetAutoPageBreak(false, 0)
	for page := 1; page <= 5; page++ {
		f.AddPage()
		f.SetFont("Helvetica", "", 10)
		f.Text(72, 60, "The English language")
		for i, w := range []string{"first", "second", "third", "fourth"} {
			f.Text(72, 100+12*float64(i), fmt.Sprintf("The %s line of page %s says what an option of the package does.", w, []string{"one", "two", "three", "four", "five"}[page-1]))
		}
		if page == 3 || page == 4 {
			f.SetFont("Courier", "", 10)
			f.Text(72, 700, fmt.Sprintf(`%d \def\bbl@tempa{american}`, 89+2*page))
			f.Text(72, 712, fmt.Sprintf(`%d \ifx\CurrentOption\bbl@tempa\def\bbl@tempb{US}\fi`, 90+2*page))
		}
	}
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(texts(mustExtract(t, b.Bytes(), "english.pdf")), "\n")
	for _, want := range []string{`96 \ifx\CurrentOption`, `98 \ifx\CurrentOption`, "The fourth line of page five"} {
		if !strings.Contains(all, want) {
			t.Errorf("%q lost:\n%s", want, all)
		}
	}
	if strings.Contains(all, "The English language") {
		t.Errorf("the running head kept:\n%s", all)
	}
}

// A table's row of headings set again at its foot, on four of six pages
// (encguide.pdf's "˝8 ˝9 … ˝F" under each glyph table), is the table's,
// not a running foot; the running head on every page still goes.
func TestPDFTableFootRowNotRunning(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetAutoPageBreak(false, 0)
	row := func(y float64, cells ...string) {
		for i, c := range cells {
			f.Text(150+40*float64(i), y, c)
		}
	}
	for page := 1; page <= 6; page++ {
		f.AddPage()
		f.SetFont("Helvetica", "", 10)
		f.Text(72, 60, "A guide to font encodings")
		f.Text(72, 100, fmt.Sprintf("Page %s shows the glyphs of one font, in a table of its codes.", []string{"one", "two", "three", "four", "five", "six"}[page-1]))
		if page >= 2 && page <= 5 {
			row(130, "0", "1", "2", "3")
			row(145, "00x", "a", "b", "c")
			row(160, "01x", "d", "e", "f")
			row(175, "8", "9", "A", "B")
		}
		f.Text(290, 800, fmt.Sprint(page))
	}
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(texts(mustExtract(t, b.Bytes(), "encguide.pdf")), "\n")
	if n := strings.Count(all, "8 9 A B"); n != 4 {
		t.Errorf("the table's foot row kept %d times, want 4:\n%s", n, all)
	}
	if strings.Contains(all, "A guide to font encodings") {
		t.Errorf("the running head kept:\n%s", all)
	}
}

// On a page of two columns, a line of the left column that ends a
// sentence at its column's right edge does not end its paragraph: the
// edge is the column's, not the right column's end (ltnews.pdf's "…
// slower than LATEX 2.09 did." then "If you want to run your document
// …"); a short line ending a sentence still does.
func TestPDFColumnSentenceAtEdge(t *testing.T) {
	data := drawPDF(t, func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		left := []string{
			"Compatibility mode comes with a price: it can run",
			"much slower than the old format did in the past.",
			"If you want your document to run in the faster mode",
			"you should try replacing its first line by another.",
			"Then run it again.",
		}
		right := []string{
			"The new release also brings a set of fonts for the text",
			"and the mathematics, which the installation will write",
			"its font definition files for, as the old release did.",
			"Running the test document shows whether it worked.",
		}
		for i, l := range left {
			f.Text(72, 100+12*float64(i), l)
		}
		f.Text(82, 100+12*float64(len(left)), "The second paragraph starts with an indent.")
		for i, l := range right {
			f.Text(320, 100+12*float64(i), l)
		}
	})
	got := texts(mustExtract(t, data, "ltnews.pdf"))
	want := []string{
		"Compatibility mode comes with a price: it can run much slower than the old format did in the past. If you want your document to run in the faster mode you should try replacing its first line by another.",
		"Then run it again.",
		"The second paragraph starts with an indent.",
		"The new release also brings a set of fonts for the text and the mathematics, which the installation will write its font definition files for, as the old release did.",
		"Running the test document shows whether it worked.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}
