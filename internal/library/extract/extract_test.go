package extract

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/charmap"

	"github.com/sponge-library/sponge/internal/base/item"
)

// texts returns the paragraph texts of a document.
func texts(d *Document) []string {
	var out []string
	for _, p := range d.Paragraphs {
		out = append(out, p.Text)
	}
	return out
}

// checkDoc asserts what every extractor promises about paragraphs.
func checkDoc(t testing.TB, d *Document) {
	t.Helper()
	for i, p := range d.Paragraphs {
		if p.Text == "" {
			t.Fatalf("paragraph %d is empty", i)
		}
		if !utf8.ValidString(p.Text) || !utf8.ValidString(p.Heading) {
			t.Fatalf("paragraph %d is not valid UTF-8: %q", i, p.Text)
		}
		// A block of code keeps its lines (codeText): each line is clean
		// but for its indentation.
		prose, code := item.CodeOf(p.Text)
		if strings.Contains(prose, "\n") || code != "" && strings.Contains(code, "\n\n") {
			t.Fatalf("paragraph %d has white space left in: %q", i, p.Text)
		}
		for _, line := range strings.Split(strings.Replace(p.Text, "\n\n", "\n", 1), "\n") {
			if body := strings.TrimLeft(line, " "); strings.Contains(body, "  ") || strings.ContainsAny(line, "\r\t") ||
				body == "" || strings.TrimRight(line, " ") != line {
				t.Fatalf("paragraph %d has white space left in: %q", i, p.Text)
			}
		}
		if strings.Contains(p.Text, "\n") && strings.TrimRight(p.Text, " \n") != p.Text ||
			!strings.Contains(p.Text, "\n") && strings.TrimSpace(p.Text) != p.Text {
			t.Fatalf("paragraph %d has white space left in: %q", i, p.Text)
		}
		n := utf8.RuneCountInString(p.Text)
		if n > maxParagraph*5/4+200 {
			t.Fatalf("paragraph %d is %d characters long", i, n)
		}
		for _, c := range p.Cues {
			if c.Offset < 0 || c.Offset >= n {
				t.Fatalf("paragraph %d: cue offset %d outside its %d characters", i, c.Offset, n)
			}
		}
		for _, ps := range p.Pages {
			if ps.Offset <= 0 || ps.Offset >= n {
				t.Fatalf("paragraph %d: page start %d outside its %d characters", i, ps.Offset, n)
			}
		}
	}
}

func mustBytes(t *testing.T, data, name, ct string) *Document {
	t.Helper()
	d, err := Bytes([]byte(data), name, ct)
	if err != nil {
		t.Fatalf("Bytes(%s): %v", name, err)
	}
	checkDoc(t, d)
	return d
}

const teaMarkdown = `---
layout: note
tags: [tea]
---
# Brewing tea

Good tea needs *soft* water and a **warm** pot.
The water should be fresh, not boiled twice.

## Green tea

Green tea is steeped at a lower temperature than black tea, usually around eighty degrees,
so the leaves do not turn bitter. See [the tea guide](https://example.org/tea "guide") for more.

- Sencha: one minute
- Gyokuro: two minutes, at _sixty_ degrees
* [x] buy a kettle with a thermometer

Black tea
---------

Black tea wants boiling water and four minutes. ![a teapot](pot.png)

> A watched pot never boils,
> but a forgotten one boils over.

| Tea | Degrees |
|-----|--------:|
| Green | 80 |

` + "```" + `
kettle --temp=80
steep 60s
` + "```" + `

Use ` + "`snake_case`" + ` names, 2 * 3 = 6, and keep snake_case_words as they are. Tom &amp; Jerry \*like\* tea.
`

func TestMarkdown(t *testing.T) {
	d := mustBytes(t, teaMarkdown, "notes/tea.md", "")
	if d.Kind != item.KindMarkdown || d.Title != "Brewing tea" {
		t.Errorf("kind %q title %q", d.Kind, d.Title)
	}
	type para struct{ Heading, Text string }
	var got []para
	for _, p := range d.Paragraphs {
		got = append(got, para{p.Heading, p.Text})
	}
	want := []para{
		{"Brewing tea", "Good tea needs soft water and a warm pot. The water should be fresh, not boiled twice."},
		{"Green tea", "Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter. See the tea guide for more."},
		{"Green tea", "Sencha: one minute"},
		{"Green tea", "Gyokuro: two minutes, at sixty degrees"},
		{"Green tea", "buy a kettle with a thermometer"},
		{"Black tea", "Black tea wants boiling water and four minutes."},
		{"Black tea", "A watched pot never boils, but a forgotten one boils over."},
		{"Black tea", "Tea | Degrees"},
		{"Black tea", "Green | 80"},
		{"Black tea", "kettle --temp=80\nsteep 60s"},
		{"Black tea", "Use snake_case names, 2 * 3 = 6, and keep snake_case_words as they are. Tom & Jerry *like* tea."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

func TestMarkdownHeadingPath(t *testing.T) {
	src := "# Tea\n\nIntro.\n\n## Brewing\n\n### Green tea\n\nEighty degrees.\n\n## Storage\n\nKeep it dry.\n"
	d := mustBytes(t, src, "tea.md", "")
	var got []string
	for _, p := range d.Paragraphs {
		got = append(got, p.Heading+" / "+p.Text)
	}
	want := []string{"Tea / Intro.", "Brewing › Green tea / Eighty degrees.", "Storage / Keep it dry."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Front matter gives the title; without headings the file name does.
	d = mustBytes(t, "---\ntitle: \"Kettle notes\"\n---\nJust text.\n", "k.md", "")
	if d.Title != "Kettle notes" {
		t.Errorf("front matter title: %q", d.Title)
	}
	d = mustBytes(t, "Just text.\n", "dir/My notes.markdown", "")
	if d.Title != "My notes" || d.Paragraphs[0].Heading != "" {
		t.Errorf("title %q heading %q", d.Title, d.Paragraphs[0].Heading)
	}
}

func TestPlainText(t *testing.T) {
	d := mustBytes(t, "Line one\nstill one.\r\n\r\n\r\n  Two\tparagraphs.  \n", "memo.txt", "")
	if diff := cmp.Diff([]string{"Line one still one.", "Two paragraphs."}, texts(d)); diff != "" {
		t.Error(diff)
	}
	if d.Title != "memo" || d.Kind != item.KindText {
		t.Errorf("title %q kind %q", d.Title, d.Kind)
	}
	// Latin-1 text is read as such, not as broken UTF-8.
	latin, _ := charmap.Windows1252.NewEncoder().String("Caf\u00e9 cr\u00e8me, na\u00efve.")
	d = mustBytes(t, latin, "cafe.txt", "")
	if d.Paragraphs[0].Text != "Café crème, naïve." {
		t.Errorf("windows-1252: %q", d.Paragraphs[0].Text)
	}
}

func TestLongParagraphSplit(t *testing.T) {
	sentence := "Tea leaves unfurl slowly in water that is hot but not boiling. "
	blob := strings.Repeat(sentence, 330) // ~20,000 characters, no line break
	d := mustBytes(t, "<html><body><p>"+blob+"</p></body></html>", "blob.html", "")
	if len(d.Paragraphs) < 8 {
		t.Fatalf("a 20k blob gave %d paragraphs", len(d.Paragraphs))
	}
	var joined []string
	for _, p := range d.Paragraphs {
		n := utf8.RuneCountInString(p.Text)
		if n < maxParagraph/2 && p.Text != d.Paragraphs[len(d.Paragraphs)-1].Text {
			t.Errorf("piece too short: %d", n)
		}
		if !strings.HasSuffix(p.Text, "boiling.") || !strings.HasPrefix(p.Text, "Tea leaves") {
			t.Errorf("piece not cut at a sentence end: …%q", p.Text[len(p.Text)-20:])
		}
		joined = append(joined, p.Text)
	}
	if strings.Join(joined, " ") != strings.TrimSpace(blob) {
		t.Error("cutting lost or changed text")
	}
	// No sentence ends: cut at spaces, never inside a word.
	words := strings.Repeat("steeping ", 3000)
	d = mustBytes(t, words, "words.txt", "")
	for _, p := range d.Paragraphs {
		for _, w := range strings.Fields(p.Text) {
			if w != "steeping" {
				t.Fatalf("word cut: %q", w)
			}
		}
	}
	// One unbroken token longer than the limit is cut anyway.
	d = mustBytes(t, strings.Repeat("x", 5000), "x.txt", "")
	if len(d.Paragraphs) < 2 {
		t.Errorf("5000-character token: %d paragraphs", len(d.Paragraphs))
	}
}

// A long PDF paragraph cut in pieces keeps its heading's page on its
// first piece, the first paragraph under the heading, where the heading
// is shown: the heading at a page's foot (HeadingPage 1); the pieces after
// it, on page 2 or 3, have none. Fails without the copy in add
// (HeadingPage 0 on every piece).
func TestLongParagraphHeadingPage(t *testing.T) {
	sentence := "Tea leaves unfurl slowly in water that is hot but not boiling. "
	text := strings.TrimSpace(strings.Repeat(sentence, 100))
	half := utf8.RuneCountInString(text) / 2
	for _, c := range []struct{ headingPage, want1, want2 int }{{1, 1, 0}, {0, 0, 0}} {
		var b builder
		b.add(item.Paragraph{Text: text, Heading: "Storage", Page: 2, HeadingPage: c.headingPage, Pages: []item.PageStart{{Offset: half, Page: 3}}})
		if len(b.paras) < 2 {
			t.Fatalf("%d pieces", len(b.paras))
		}
		first, last := b.paras[0], b.paras[len(b.paras)-1]
		if first.Page != 2 || last.Page != 3 || first.HeadingPage != c.want1 || last.HeadingPage != c.want2 {
			t.Errorf("heading page %d: pieces on pages %d and %d, heading pages %d and %d; want %d and %d",
				c.headingPage, first.Page, last.Page, first.HeadingPage, last.HeadingPage, c.want1, c.want2)
		}
	}
}

// junk is n bytes that look random, as a compressed file does.
func junk(n int) string {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x >> 24)
	}
	return string(b)
}

func TestBytesDispatch(t *testing.T) {
	for _, tc := range []struct {
		data, name, ct, wantKind, wantErr string
	}{
		{"# Hi\n\ntext", "a.md", "", item.KindMarkdown, ""},
		{"# Hi\n\ntext", "https://example.org/notes/a.md?x=1", "text/plain; charset=utf-8", item.KindMarkdown, ""},
		{"<p>hello</p>", "https://example.org/page", "text/html; charset=utf-8", item.KindHTML, ""},
		{"<p>hello</p>", "https://example.org/page.txt", "text/html", item.KindHTML, ""},
		{"plain words", "https://example.org/x", "text/plain", item.KindText, ""},
		{"WEBVTT\n\n00:01.000 --> 00:02.000\nhi there\n", "https://example.org/talk", "text/plain", item.KindVTT, ""},
		{"WEBVTT\n\n00:01.000 --> 00:02.000\nhi there\n", "noext", "", item.KindVTT, ""},
		{"1\n00:00:01,000 --> 00:00:02,000\nhi there\n", "subs", "", item.KindSRT, ""},
		{"just words in a file", "README", "", item.KindText, ""},
		{".TH X 1\n.SH NAME\nx \\- y\n", "https://example.org/man?page=x", "text/troff", item.KindMan, ""},
		{"Title\n=====\n\nText.\n", "https://example.org/doc", "text/x-rst", item.KindRST, ""},
		{"x", "report.docx", "", "", "corrupt DOCX: not a zip file (zip: not a valid zip file)"},
		{"\x00\x01\x02\x00\x00\x00binary", "a.dat", "", "", "unsupported format .dat: the content is not text"},
		{"x", "https://example.org/a.png", "image/png", "", "unsupported content type image/png"},
		{"", "empty.md", "", "", "no readable text (the file is empty)"},
		{"   \n\n\t\n", "blank.txt", "", "", "no readable text (the file holds only spaces and blank lines)"},
		{"<html><head><title>T</title><script>x()</script></head><body><nav>menu</nav></body></html>", "a.html", "", "", "no readable text (the page has only navigation, scripts or other page furniture)"},
		{"<html><head><title>T</title></head><body>\n</body></html>", "blank.html", "", "", "no readable text (the page shows no text)"},
		{"WEBVTT\n\nNOTE nothing here\n", "a.vtt", "", "", "no readable text (a header and notes, but no cues)"},
		{"not a transcript at all", "a.srt", "", "", "no cues found: not a SubRip transcript"},
		{"\x00\x01\x02\x00\x00\x00binary", "a.txt", "", "", "not text: it looks like binary data"},
		{junk(4096), "junk.md", "", "", "not text: it looks like binary data"},
		{junk(4096), "junk.txt", "", "", "not text: it looks like binary data"},
		{junk(4096), "junk.html", "", "", "not text: it looks like binary data"},
		{junk(4096), "junk.srt", "", "", "not text: it looks like binary data"},
		{"Caf\xe9 cr\xe8me, na\xefve \x93quotes\x94\r\n\x1a", "cp1252.txt", "", item.KindText, ""},
		{"\x1b[1mbold\x1b[0m log line\n\x1b[31merror\x1b[0m: kettle\x08\x08 dry\f\n", "term.txt", "", item.KindText, ""},
		{"hello", "a.pdf", "", "", "corrupt PDF: not a PDF file (no %PDF header)"},
	} {
		d, err := Bytes([]byte(tc.data), tc.name, tc.ct)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.wantErr)
			}
			// Only a source with no text is skipped by sponge add; the others fail.
			if noText := strings.HasPrefix(tc.wantErr, "no readable text"); errors.Is(err, ErrNoText) != noText {
				t.Errorf("%s: errors.Is(%v, ErrNoText) is %v", tc.name, err, !noText)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		checkDoc(t, d)
		if d.Kind != tc.wantKind {
			t.Errorf("%s (%s): kind %q, want %q", tc.name, tc.ct, d.Kind, tc.wantKind)
		}
		if d.Title == "" {
			t.Errorf("%s: no title", tc.name)
		}
	}
}

func TestSupported(t *testing.T) {
	for name, want := range map[string]bool{
		"a.md": true, "a.MARKDOWN": true, "a.txt": true, "a.text": true, "a.html": true, "a.HTM": true,
		"a.pdf": true, "a.vtt": true, "a.srt": true, "dir.d/a.Pdf": true,
		"a": false, "a.md.bak": false, ".md": true, "a.gz": false, "a.png": false,
		"a.docx": true, "a.epub": true, "a.odt": true, "a.rst": true, "a.org": true, "a.log": true,
		"ls.1": true, "ls.1.gz": true, "perl.3pm": true, "notes.txt.gz": true,
	} {
		if got := Supported(name); got != want {
			t.Errorf("Supported(%q) = %v", name, got)
		}
	}
}

func TestTitleFromName(t *testing.T) {
	for in, want := range map[string]string{
		"notes/tea.md": "tea",
		"https://example.org/blog/green%20tea.html?utm=1": "green tea",
		"https://example.org/":                            "example.org",
		"-":                                               "",
		`C:\docs\report.pdf`:                              "report",
	} {
		if got := titleFromName(in); got != want {
			t.Errorf("titleFromName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanText(t *testing.T) {
	in := "  \ufb01nd\u00a0the\u200b \ufb02ow\u00ad\t\r\nnow\x07 "
	if got := cleanText(in); got != "find the flow now" {
		t.Errorf("cleanText = %q", got)
	}
	if got := cleanText("bad \xff byte"); !utf8.ValidString(got) {
		t.Errorf("invalid UTF-8 left: %q", got)
	}
}

// cleanText copies runs of printable ASCII at once and reads only the
// other characters as runes: the text it makes is the one the rune by rune
// rule makes (cleanRunes, the rule as it was written first), on random
// text of ASCII spaces and controls, Unicode spaces, invisible marks,
// private-use glyphs, ligatures and bytes that are not UTF-8.
func TestCleanTextAsRunes(t *testing.T) {
	cleanRunes := func(s string) string {
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		s = ligatures.Replace(s)
		var b strings.Builder
		space := false
		for _, r := range s {
			switch {
			case unicode.IsSpace(r) || r == '\u2028' || r == '\u2029':
				space = true
				continue
			case r == '\u00ad' || r == '\ufeff' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' ||
				r == '\u200e' || r == '\u200f':
				continue
			case unicode.IsControl(r) || r >= '\ue000' && r <= '\uf8ff':
				space = true
				continue
			}
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		}
		return b.String()
	}
	pieces := []string{"tea", "a", "Z", "~", "!", " ", "  ", "\t", "\n", "\r", "\v", "\f", "\x00", "\x07", "\x1f", "\x7f",
		"\u0085", "\u00a0", "\u2028", "\u3000", "\u00ad", "\u200b", "\ufeff", "\ue001", "\ufb01", "é", "東京", "\xff", "\xc3"}
	rnd := rand.New(rand.NewPCG(4, 20))
	for range 50000 {
		var b strings.Builder
		for range rnd.IntN(12) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := cleanText(s), cleanRunes(s); got != want {
			t.Fatalf("cleanText(%q) = %q, rune by rune %q", s, got, want)
		}
	}
}

func TestDecodeUTF16(t *testing.T) {
	var b bytes.Buffer
	b.Write([]byte{0xff, 0xfe})
	for _, r := range "Hello tea" {
		b.WriteByte(byte(r))
		b.WriteByte(0)
	}
	d := mustBytes(t, b.String(), "u16.txt", "")
	if d.Paragraphs[0].Text != "Hello tea" {
		t.Errorf("UTF-16: %q", d.Paragraphs[0].Text)
	}
}

// headings.path keeps the path it made while nothing changed: after any
// push, a new title or chapter, it is the one joined afresh.
func TestHeadingsPathKept(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 1))
	names := []string{"", "Tea", "Green", "Storage", "Brewing"}
	h := &headings{}
	for i := range 5000 {
		switch rnd.IntN(5) {
		case 0:
			h.push(1+rnd.IntN(4), names[rnd.IntN(len(names))])
		case 1:
			h.title = names[rnd.IntN(len(names))]
		case 2:
			h.chapter = names[rnd.IntN(len(names))]
		}
		if got, want := h.path(), h.joined(); got != want {
			t.Fatalf("step %d: path %q, joined afresh %q", i, got, want)
		}
	}
}

// A fenced block keeps its lines, and a short one goes with the sentence
// that announces it with a colon (builder.announce), as HTML's <pre>
// does; a long one, or one after a sentence that does not announce it,
// is a paragraph of its own.
func TestMarkdownFenceAnnounced(t *testing.T) {
	page := "# Kettle\n\nSet the kettle to eighty degrees:\n\n```sh\nkettle --temp=80\n  --hold\n```\n\n" +
		"The kettle holds the water there.\n\n~~~\nkettle --off\n~~~\n"
	var got []string
	for _, p := range mustBytes(t, page, "kettle.md", "").Paragraphs {
		got = append(got, p.Text)
	}
	want := []string{
		"Set the kettle to eighty degrees:\n\nkettle --temp=80\n  --hold",
		"The kettle holds the water there.",
		"kettle --off",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}
