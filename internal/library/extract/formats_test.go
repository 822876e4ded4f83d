package extract

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// zipOf writes a zip of the files given as name, content pairs, in order.
func zipOf(t testing.TB, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		method := zip.Deflate
		// An empty file is stored: deflating it says nothing, and the
		// 10,001 flate writers of TestZipBudgets took 10 s under -race.
		if files[i] == "mimetype" || files[i+1] == "" {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: files[i], Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(files[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// provenance is each paragraph as "heading: text".
func provenance(d *Document) []string {
	var out []string
	for _, p := range d.Paragraphs {
		out = append(out, p.Heading+": "+p.Text)
	}
	return out
}

func mustExtract(t *testing.T, data []byte, name string) *Document {
	t.Helper()
	d, err := Bytes(data, name, "")
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkDoc(t, d)
	return d
}

func testEPUB(t testing.TB) []byte {
	return zipOf(t,
		"mimetype", "application/epub+zip",
		"META-INF/container.xml", `<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`,
		"OEBPS/content.opf", `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:title>The Tea Garden</dc:title><dc:creator>Ann Leaf</dc:creator>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/>
    <item id="c2" href="text/ch2.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine><itemref idref="c1"/><itemref idref="c2"/></spine>
</package>`,
		"OEBPS/nav.xhtml", `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
<nav epub:type="toc"><ol><li><a href="text/ch1.xhtml">1. Planting</a></li><li><a href="text/ch2.xhtml#start">2. Picking</a></li></ol></nav></body></html>`,
		"OEBPS/text/ch1.xhtml", `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>ch1</title><style>p{}</style></head><body>
<h1>1. Planting</h1><p>Tea bushes like acid soil &amp; rain.</p>
<h2>Spacing</h2><p>Plant them a metre apart.</p></body></html>`,
		"OEBPS/text/ch2.xhtml", `<?xml version="1.0" encoding="ISO-8859-1"?>
<html xmlns="http://www.w3.org/1999/xhtml"><body><p id="start">Pick two leaves and a bud, `+"\xe0"+` la main.</p></body></html>`,
	)
}

func TestEPUB(t *testing.T) {
	d := mustExtract(t, testEPUB(t), "garden.epub")
	if d.Kind != "epub" || d.Title != "The Tea Garden — Ann Leaf" {
		t.Errorf("kind %q, title %q", d.Kind, d.Title)
	}
	want := []string{
		"1. Planting: Tea bushes like acid soil & rain.",
		"1. Planting › Spacing: Plant them a metre apart.",
		"2. Picking: Pick two leaves and a bud, à la main.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// An EPUB 2 book names its chapters in toc.ncx.
func TestEPUB2(t *testing.T) {
	data := zipOf(t, "META-INF/container.xml", `<container><rootfiles><rootfile full-path="book.opf"/></rootfiles></container>`,
		"book.opf", `<package><metadata><title>Old Book</title></metadata><manifest><item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/><item id="a" href="a.html"/></manifest><spine toc="ncx"><itemref idref="a"/></spine></package>`,
		"toc.ncx", `<ncx><navMap><navPoint><navLabel><text>Chapter One</text></navLabel><content src="a.html#top"/></navPoint></navMap></ncx>`,
		"a.html", `<html><body><p>It was a dark and stormy night.</p></body></html>`)
	d := mustExtract(t, data, "old.epub")
	if diff := cmp.Diff([]string{"Chapter One: It was a dark and stormy night."}, provenance(d)); diff != "" || d.Title != "Old Book" {
		t.Errorf("title %q, paragraphs (-want +got):\n%s", d.Title, diff)
	}
}

func TestEPUBWithoutExtension(t *testing.T) {
	d := mustExtract(t, testEPUB(t), "download")
	if d.Kind != "epub" {
		t.Errorf("kind %q, want epub", d.Kind)
	}
}

const testDOCXStyles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>
<w:style w:type="paragraph" w:styleId="Titel"><w:name w:val="Title"/></w:style>
</w:styles>`

func testDOCX(t testing.TB) []byte {
	p := func(style, text string) string {
		s := `<w:p>`
		if style != "" {
			s += `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
		}
		return s + `<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
	}
	cell := func(text string) string { return `<w:tc>` + p("", text) + `</w:tc>` }
	body := p("Titel", "Brewing Notes") +
		p("berschrift1", "Green tea") +
		p("", "Use water at 80 degrees.") +
		`<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>Warm the pot</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>Steep </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>two</w:t></w:r><w:r><w:t xml:space="preserve"> minutes</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>` +
		p("Heading2", "Times") +
		`<w:tbl><w:tr>` + cell("Tea") + cell("Minutes") + `</w:tr><w:tr>` + cell("Sencha") + cell("2") + `</w:tr></w:tbl>` +
		`<w:p><w:r><w:t>Kept</w:t></w:r><w:del><w:r><w:delText>deleted</w:delText></w:r></w:del><w:r><w:tab/><w:t>text.</w:t></w:r></w:p>`
	return zipOf(t,
		"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+body+`</w:body></w:document>`,
		"word/styles.xml", testDOCXStyles,
		"docProps/core.xml", `<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Microsoft Word - notes.doc</dc:title><dc:creator>Ann</dc:creator></cp:coreProperties>`,
	)
}

func TestDOCX(t *testing.T) {
	d := mustExtract(t, testDOCX(t), "notes.docx")
	// The metadata title is the name of a file it was made from, so the
	// Title paragraph is the title.
	if d.Kind != "docx" || d.Title != "Brewing Notes" {
		t.Errorf("kind %q, title %q", d.Kind, d.Title)
	}
	want := []string{
		"Green tea: Use water at 80 degrees.",
		"Green tea: Warm the pot",
		"Green tea: Steep two minutes",
		"Green tea › Times: Tea | Minutes",
		"Green tea › Times: Sencha | 2",
		"Green tea › Times: Kept text.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

func testODT(t testing.TB) []byte {
	return zipOf(t,
		"mimetype", "application/vnd.oasis.opendocument.text",
		"meta.xml", `<?xml version="1.0" encoding="UTF-8"?><office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta><dc:title>Garden Diary</dc:title></office:meta></office:document-meta>`,
		"content.xml", `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0">
<office:body><office:text>
<text:h text:outline-level="1">Spring</text:h>
<text:p>The<text:s/> <text:span>roses</text:span> bloomed<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>a footnote</text:p></text:note-body></text:note> early.</text:p>
<text:h text:outline-level="2">Chores</text:h>
<text:list><text:list-item><text:p>Prune the hedge</text:p></text:list-item><text:list-item><text:p>Weed<text:tab/>the beds</text:p></text:list-item></text:list>
<table:table><table:table-row><table:table-cell><text:p>Day</text:p></table:table-cell><table:table-cell><text:p>Rain</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell><text:p>Monday</text:p></table:table-cell><table:table-cell><text:p>4 mm</text:p></table:table-cell></table:table-row></table:table>
</office:text></office:body></office:document-content>`,
	)
}

func TestODT(t *testing.T) {
	d := mustExtract(t, testODT(t), "diary.odt")
	if d.Kind != "odt" || d.Title != "Garden Diary" {
		t.Errorf("kind %q, title %q", d.Kind, d.Title)
	}
	want := []string{
		"Spring: The roses bloomed early.",
		"Spring › Chores: Prune the hedge",
		"Spring › Chores: Weed the beds",
		"Spring › Chores: Day | Rain",
		"Spring › Chores: Monday | 4 mm",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

const testRST = `==========
Tea Guide
==========

:Author: Ann Leaf

Introduction
============

Tea is **brewed** from *leaves*, see ` + "`the guide <http://x>`_" + ` and ` + "``kettle``" + `.

.. image:: pot.png
   :alt: a pot

.. note:: Use fresh water.

Green tea
---------

- Steep two minutes.
- Use water at 80 degrees::

    kettle --temp 80

.. This is a comment
   spanning two lines.

Black tea
=========

Boil the water.

.. code-block:: sh
   :linenos:

   kettle --boil
     --whistle

   steep 4m

Then pour.
`

func TestRST(t *testing.T) {
	d := mustExtract(t, []byte(testRST), "guide.rst")
	if d.Kind != "rst" || d.Title != "Tea Guide" {
		t.Errorf("kind %q, title %q", d.Kind, d.Title)
	}
	want := []string{
		"Tea Guide: Author: Ann Leaf",
		"Introduction: Tea is brewed from leaves, see the guide and kettle.",
		"Introduction: Use fresh water.",
		"Introduction › Green tea: Steep two minutes.",
		"Introduction › Green tea: Use water at 80 degrees:\n\nkettle --temp 80",
		"Black tea: Boil the water.",
		"Black tea: kettle --boil\n  --whistle\nsteep 4m",
		"Black tea: Then pour.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

const testOrg = `#+TITLE: Garden Plans
#+AUTHOR: Ann
#+STARTUP: overview

* TODO [#A] Vegetables                                          :food:
  SCHEDULED: <2026-03-01 Sun>
  :PROPERTIES:
  :ID: 1234
  :END:
Plant *tomatoes* in /May/, see [[https://example.org][the almanac]].
# a comment
** Beans
- [ ] sow the beans
- water them
| Row | Crop  |
|-----+-------|
| 1   | beans |
#+BEGIN_COMMENT
hidden
#+END_COMMENT
Look in the shed:
#+BEGIN_SRC sh
ls /usr/bin/
  ls /sbin/
#+END_SRC
#+begin_example
rake
hoe
#+end_example
`

func TestOrg(t *testing.T) {
	d := mustExtract(t, []byte(testOrg), "plans.org")
	if d.Kind != "org" || d.Title != "Garden Plans" {
		t.Errorf("kind %q, title %q", d.Kind, d.Title)
	}
	want := []string{
		"Vegetables: Plant tomatoes in May, see the almanac.",
		"Vegetables › Beans: sow the beans",
		"Vegetables › Beans: water them",
		"Vegetables › Beans: Row | Crop",
		"Vegetables › Beans: 1 | beans",
		"Vegetables › Beans: Look in the shed:\n\nls /usr/bin/\n  ls /sbin/",
		"Vegetables › Beans: rake\nhoe",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

const testMan = `.\" a comment
.TH STEEP 1 "2026-01-01" "tea 1.0" "User Commands"
.SH NAME
steep \- brew a cup of tea
.SH SYNOPSIS
.B steep
[\fB\-t\fR \fIminutes\fR]
.SH DESCRIPTION
.B steep
brews tea\(emgreen or black.
.PP
It waits, then rings.
.SS Options
.TP
.BR \-t ", " \-\-time
Steep for that many minutes.
.IP \(bu 2
Works with \*(lqloose\*(rq leaves.
.TS
tab(	);
l l.
Tea	Minutes
Sencha	2
.TE
`

func TestMan(t *testing.T) {
	want := []string{
		"NAME: steep - brew a cup of tea",
		"SYNOPSIS: steep [-t minutes]",
		"DESCRIPTION: steep brews tea—green or black.",
		"DESCRIPTION: It waits, then rings.",
		"DESCRIPTION › Options: -t, --time Steep for that many minutes.",
		"DESCRIPTION › Options: • Works with “loose” leaves.",
		"DESCRIPTION › Options: Tea | Minutes",
		"DESCRIPTION › Options: Sencha | 2",
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(testMan))
	zw.Close()
	// Pod::Man writes a long preamble of definitions before .TH.
	podMan := strings.Repeat(".\\\" Standard preamble, set up some character translations.\n", 60) + ".de Sp\n.if t .sp .5v\n..\n.if n \\{\\\n\\{\\\n.\\}\n" + testMan
	for name, data := range map[string][]byte{"steep.1": []byte(testMan), "steep.1.gz": gz.Bytes(), "steep.man": []byte(testMan), "steep.1ssl": []byte(podMan)} {
		d := mustExtract(t, data, name)
		if d.Kind != "man" || d.Title != "STEEP(1)" {
			t.Errorf("%s: kind %q, title %q", name, d.Kind, d.Title)
		}
		if diff := cmp.Diff(want, provenance(d)); diff != "" {
			t.Errorf("%s: paragraphs (-want +got):\n%s", name, diff)
		}
	}
	// A gzipped page read again from its saved bytes (sponge re-extract).
	d, err := Read(gz.Bytes(), "steep.1.gz", "man", "")
	if err != nil || len(d.Paragraphs) != len(want) {
		t.Fatalf("read again: %v", err)
	}
}

func TestMdoc(t *testing.T) {
	src := ".Dd January 1, 2026\n.Dt STEEP 1\n.Os\n.Sh NAME\n.Nm steep\n.Nd brew tea\n.Sh DESCRIPTION\n.Nm\nbrews tea.\n.Bl -tag\n.It Fl t Ar minutes\nSteep longer.\n.El\nSee\n.Xr kettle 1 .\n"
	d := mustExtract(t, []byte(src), "steep.1")
	want := []string{"NAME: steep — brew tea", "DESCRIPTION: steep brews tea.", "DESCRIPTION: -t minutes Steep longer.", "DESCRIPTION: See kettle(1)."}
	if d.Title != "steep(1)" {
		t.Errorf("title %q", d.Title)
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// Tags that stand one after the other share the description after the
// last: one paragraph with every tag, the .Xo … .Xc tag read whole, and
// its words written without spaces after .Sm off (ssh(1)'s -L).
func TestMdocSharedTags(t *testing.T) {
	src := ".Dd January 1, 2026\n.Dt SSH 1\n.Os\n.Sh DESCRIPTION\n.Bl -tag -width Ds\n" +
		".It Fl L Xo\n.Sm off\n.Oo Ar bind_address : Oc\n.Ar port : host : hostport\n.Sm on\n.Xc\n" +
		".It Fl L Xo\n.Sm off\n.Ar local_socket : remote_socket\n.Sm on\n.Xc\n" +
		"Specifies that connections to the given TCP port are to be forwarded.\n" +
		".It Fl l Ar login_name\nSpecifies the user to log in as.\n.El\n"
	d := mustExtract(t, []byte(src), "ssh.1")
	want := []string{
		"DESCRIPTION: -L [bind_address:]port:host:hostport -L local_socket:remote_socket Specifies that connections to the given TCP port are to be forwarded.",
		"DESCRIPTION: -l login_name Specifies the user to log in as.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// help2man's option entries: the tag a .HP paragraph, the description the
// .IP after it; one paragraph each.
func TestHelp2manEntries(t *testing.T) {
	src := ".TH SED \"1\"\n.SH DESCRIPTION\n.HP\n\\fB\\-n\\fR, \\fB\\-\\-quiet\\fR\n.IP\nsuppress automatic printing of pattern space\n" +
		".HP\n\\fB\\-\\-debug\\fR\n.IP\nannotate program execution\n.PP\nA plain paragraph.\n.IP\nAn indented one.\n"
	d := mustExtract(t, []byte(src), "sed.1")
	want := []string{"DESCRIPTION: -n, --quiet suppress automatic printing of pattern space", "DESCRIPTION: --debug annotate program execution",
		"DESCRIPTION: A plain paragraph.", "DESCRIPTION: An indented one."}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A text file is read whatever its extension; a binary one is refused
// with a reason, and so is a section-numbered file that is not text.
func TestTextByContent(t *testing.T) {
	d := mustExtract(t, []byte("server started\nlistening on :8080\n"), "app.log")
	if d.Kind != "text" {
		t.Errorf(".log kind %q", d.Kind)
	}
	d = mustExtract(t, []byte("key = value\n\nother = thing\n"), "settings.conf")
	if d.Kind != "text" || len(d.Paragraphs) != 2 {
		t.Errorf(".conf: kind %q, %d paragraphs", d.Kind, len(d.Paragraphs))
	}
	bin := append([]byte("\x7fELF\x02\x01\x01"), bytes.Repeat([]byte{0, 1, 2, 3, 0xff}, 200)...)
	if _, err := Bytes(bin, "program.bin", ""); err == nil || !strings.Contains(err.Error(), "unsupported format .bin: the content is not text") {
		t.Errorf("binary: %v", err)
	}
	if _, err := Bytes(bin, "x.3", ""); err == nil {
		t.Error("a binary .3 was read")
	}
}

// A container is read within its budget, whatever its entries declare:
// what it unpacks to in all, and how many entries it holds.
func TestZipBudgets(t *testing.T) {
	defer func(n int64) { maxUnzipped = n }(maxUnzipped)
	maxUnzipped = 4 << 10
	big := "<html><body><p>" + strings.Repeat("tea ", 4<<10) + "</p></body></html>"
	epub := zipOf(t, "META-INF/container.xml", `<container><rootfiles><rootfile full-path="c.opf"/></rootfiles></container>`,
		"c.opf", `<package><manifest><item id="a" href="a.xhtml"/></manifest><spine><itemref idref="a"/></spine></package>`,
		"a.xhtml", big)
	if _, err := Bytes(epub, "bomb.epub", ""); err == nil || err.Error() != "cannot read this EPUB: it unpacks to more than the limit of 4 KiB" {
		t.Errorf("epub: %v", err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat("tea\n", 4<<10)))
	zw.Close()
	if _, err := Bytes(gz.Bytes(), "notes.txt.gz", ""); err == nil || !strings.Contains(err.Error(), "unpacks to more than the limit") {
		t.Errorf("gzip: %v", err)
	}
	maxUnzipped = MaxBytes
	files := make([]string, 0, 2*(maxZipEntries+1))
	for i := 0; i <= maxZipEntries; i++ {
		files = append(files, "f"+strconv.Itoa(i), "")
	}
	if _, err := Bytes(zipOf(t, files...), "many.odt", ""); err == nil || !strings.Contains(err.Error(), "more than the limit of 10000") {
		t.Errorf("entries: %v", err)
	}
}
