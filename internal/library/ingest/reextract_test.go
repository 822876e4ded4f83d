package ingest

import (
	"testing"

	"github.com/sponge-library/sponge/internal/base/item"
)

// A paragraph read again with its heading's page (a PDF heading at a page's
// foot, item.Paragraph.HeadingPage) is not the one saved without it, so that
// sponge reindex --extract saves it. Fails without HeadingPage in
// sameParagraph.
func TestSameParagraphHeadingPage(t *testing.T) {
	saved := item.Paragraph{Text: "The base package.", Heading: "2.2 Base package", Page: 9}
	read := saved
	read.HeadingPage = 8
	if sameParagraph(read, saved) {
		t.Error("a paragraph with its heading's page is the same as one without")
	}
	if !sameParagraph(saved, saved) {
		t.Error("a paragraph is not the same as itself")
	}
}
