package extract

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const testNumbering = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:abstractNum w:abstractNumId="0">
 <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
 <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl>
 <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="%3."/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="1">
 <w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="` + "\uf0b7" + `"/></w:lvl>
 <w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="2">
 <w:lvl w:ilvl="0"><w:start w:val="3"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/></w:lvl>
 <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/><w:isLgl/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="3">
 <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperLetter"/><w:lvlText w:val="%1."/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>
<w:num w:numId="4"><w:abstractNumId w:val="2"/></w:num>
<w:num w:numId="5"><w:abstractNumId w:val="3"/></w:num>
</w:numbering>`

// Word's automatic list numbers are not in a paragraph's text but in
// word/numbering.xml; a person sees "1.", "a)", "iv." and bullets, and
// pandoc writes them. They were left out: a DOCX kept 0.971 of pandoc's
// words.
func TestDOCXListNumbers(t *testing.T) {
	item := func(numID, ilvl, text string) string {
		return `<w:p><w:pPr><w:numPr><w:ilvl w:val="` + ilvl + `"/><w:numId w:val="` + numID + `"/></w:numPr></w:pPr><w:r><w:t>` + text + `</w:t></w:r></w:p>`
	}
	styled := func(style, text string) string {
		return `<w:p><w:pPr><w:pStyle w:val="` + style + `"/></w:pPr><w:r><w:t>` + text + `</w:t></w:r></w:p>`
	}
	body := item("1", "0", "Warm the pot") +
		item("1", "1", "Rinse it") +
		item("1", "1", "Dry it") +
		item("1", "2", "Really dry it") +
		item("1", "0", "Add the leaves") +
		`<w:p><w:r><w:t>Then wait.</w:t></w:r></w:p>` +
		item("1", "0", "Pour") +
		item("2", "0", "Green tea") +
		item("2", "1", "Sencha") +
		item("3", "0", "Boil again") +
		item("4", "0", "Storage") +
		item("4", "1", "Tins") +
		styled("ListNumber", "Alpha") +
		styled("ListNumber", "Beta") +
		`<w:p><w:pPr><w:pStyle w:val="ListNumber"/><w:numPr><w:numId w:val="0"/></w:numPr></w:pPr><w:r><w:t>Not in the list</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:pPrChange w:id="1"><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr></w:pPrChange></w:pPr><w:r><w:t>Once a list item</w:t></w:r></w:p>`
	styles := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:styleId="ListNumber"><w:name w:val="List Number"/><w:pPr><w:numPr><w:numId w:val="5"/></w:numPr></w:pPr></w:style>
</w:styles>`
	data := zipOf(t,
		"word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+body+`</w:body></w:document>`,
		"word/styles.xml", styles,
		"word/numbering.xml", testNumbering)
	want := []string{
		"1. Warm the pot",
		"a) Rinse it",
		"b) Dry it",
		"i. Really dry it",
		"2. Add the leaves",
		"Then wait.",
		"3. Pour", // Word goes on counting after a paragraph outside the list
		"• Green tea",
		"• Sencha",
		"1. Boil again", // numId 3 restarts the list of numId 1
		"III. Storage",
		"3.1 Tins", // isLgl: the level above in decimal
		"A. Alpha", // numbered by its style
		"B. Beta",
		"Not in the list",
		"Once a list item",
	}
	if diff := cmp.Diff(want, texts(mustExtract(t, data, "lists.docx"))); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// LibreOffice numbers a list by its list style, in content.xml or
// styles.xml; each text:list starts again unless it continues the one
// before. The numbers were left out.
func TestODTListNumbers(t *testing.T) {
	item := func(text string) string { return `<text:list-item><text:p>` + text + `</text:p></text:list-item>` }
	content := `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0">
<office:automatic-styles>
<text:list-style style:name="L1">
 <text:list-level-style-number text:level="1" style:num-suffix="." style:num-format="1"/>
 <text:list-level-style-number text:level="2" style:num-suffix=")" style:num-format="a"/>
</text:list-style>
<text:list-style style:name="L2"><text:list-level-style-bullet text:level="1" text:bullet-char="●"/></text:list-style>
<text:list-style style:name="L3">
 <text:list-level-style-number text:level="1" style:num-suffix="." style:num-format="I"/>
 <text:list-level-style-number text:level="2" style:num-format="1" text:display-levels="2"/>
</text:list-style>
</office:automatic-styles>
<office:body><office:text>
<text:list text:style-name="L1">` + item("Prune the hedge") + `<text:list-item><text:p>Weed the beds</text:p><text:p>all of them</text:p><text:list>` + item("Roses") + item("Tulips") + `</text:list></text:list-item></text:list>
<text:p>Then rest.</text:p>
<text:list text:style-name="L1">` + item("Water") + `</text:list>
<text:list text:style-name="L1" text:continue-numbering="true">` + item("Mow") + `</text:list>
<text:list text:style-name="L2">` + item("Gloves") + `</text:list>
<text:list text:style-name="L3"><text:list-header><text:p>Seasons</text:p></text:list-header><text:list-item><text:p>Spring</text:p><text:list>` + item("Sow") + `</text:list></text:list-item></text:list>
<text:list text:style-name="L4">` + item("Spade") + `</text:list>
</office:text></office:body></office:document-content>`
	styles := `<?xml version="1.0" encoding="UTF-8"?>
<office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"><office:styles>
<text:list-style style:name="L4"><text:list-level-style-number text:level="1" style:num-suffix=")" style:num-format="A" text:start-value="3"/></text:list-style>
</office:styles></office:document-styles>`
	data := zipOf(t, "mimetype", "application/vnd.oasis.opendocument.text", "content.xml", content, "styles.xml", styles)
	want := []string{
		"1. Prune the hedge",
		"2. Weed the beds",
		"all of them",
		"a) Roses",
		"b) Tulips",
		"Then rest.",
		"1. Water",
		"2. Mow",
		"• Gloves",
		"Seasons",
		"I. Spring",
		"I.1 Sow",
		"C) Spade",
	}
	if diff := cmp.Diff(want, texts(mustExtract(t, data, "garden.odt"))); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

func TestListNumber(t *testing.T) {
	for _, c := range []struct {
		n            int
		format, want string
	}{
		{4, "decimal", "4"}, {4, "decimalZero", "04"}, {12, "decimalZero", "12"},
		{1, "lowerLetter", "a"}, {26, "lowerLetter", "z"}, {28, "lowerLetter", "bb"}, {3, "upperLetter", "C"},
		{4, "lowerRoman", "iv"}, {1994, "upperRoman", "MCMXCIV"}, {0, "upperRoman", "0"},
		{5, "none", ""}, {7, "ordinalText", "7"},
	} {
		if got := listNumber(c.n, c.format); got != c.want {
			t.Errorf("listNumber(%d, %q) = %q, want %q", c.n, c.format, got, c.want)
		}
	}
}
