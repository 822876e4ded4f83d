package cmdline

import (
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/jsonl"
)

// A paragraph of code (an HTML <pre>, item.CodeOf) is shown with its lines,
// indented 4 spaces under the sentence that announces it, so that a line
// opening with "## " is never taken for a heading; a summary's quote of it
// shows the lines under the quote. Fails without codeLines (one line).
func TestShowCodeLines(t *testing.T) {
	announced := "You get it while learning Python:\n\n>>> while True print('Hello world')\n  File \"<stdin>\", line 1"
	it := &item.Item{Title: "Errors", Kind: item.KindHTML, Paragraphs: []item.Paragraph{
		{Text: announced}, {Text: "# a comment\n## not a heading"},
	}}
	sum := &item.Summary{Model: jsonl.ModelExtractive, Statements: []item.SummaryStatement{{Text: announced, Quote: announced}}}
	got := FormatItem(it, sum, 0, 2, false)
	for _, want := range []string{
		"\n  “You get it while learning Python:\n        >>> while True print('Hello world')\n          File \"<stdin>\", line 1”\n",
		"\nYou get it while learning Python:\n    >>> while True print('Hello world')\n      File \"<stdin>\", line 1\n",
		"\n    # a comment\n    ## not a heading\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("show:\n%s\nwant it to hold:\n%s", got, want)
		}
	}
}

// A PDF's heading at the foot of a page (item.Paragraph.HeadingPage) is
// shown on its page, before the next page's marker and the paragraph under
// it there; a heading on its paragraph's page follows that page's marker as
// before. Fails without the heading's page ("--- p. 8 ---" missing, "2.2
// Base package" under page 9).
func TestShowHeadingPage(t *testing.T) {
	it := &item.Item{Title: "epstopdf", Kind: item.KindPDF, Paragraphs: []item.Paragraph{
		{Text: "Option handling ends.", Heading: "2.1.1 Option handling", Page: 7},
		{Text: "The base package starts.", Heading: "2.2 Base package", Page: 9, HeadingPage: 8},
		{Text: "Preparations.", Heading: "2.3 Preparations", Page: 10},
	}}
	got := FormatItem(it, nil, 0, 3, false)
	want := "\n--- p. 7 ---\n\n## 2.1.1 Option handling\n\nOption handling ends.\n" +
		"\n--- p. 8 ---\n\n## 2.2 Base package\n\n--- p. 9 ---\n\nThe base package starts.\n" +
		"\n--- p. 10 ---\n\n## 2.3 Preparations\n\nPreparations.\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("show:\n%s\nwant it to end:\n%s", got, want)
	}
}
