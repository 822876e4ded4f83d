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
