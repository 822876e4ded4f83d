package ui

import (
	"testing"

	"github.com/sponge-library/sponge/internal/base/item"
)

// A PDF heading's page marker comes before the heading: a heading at a
// page's foot (item.Paragraph.HeadingPage) under its own page's marker,
// its paragraph under the next page's; a heading that opens a page under
// that page's marker, not the page before's, as sponge show prints them.
// Fails without the heading's page (no marker before either heading).
func TestBlocksHeadingPage(t *testing.T) {
	it := &item.Item{ID: "ab", Kind: item.KindPDF, Paragraphs: []item.Paragraph{
		{Text: "Option handling ends.", Heading: "2.1.1 Option handling", Page: 7},
		{Text: "The base package starts.", Heading: "2.2 Base package", Page: 9, HeadingPage: 8},
		{Text: "Preparations.", Heading: "2.3 Preparations", Page: 10},
	}}
	bs, _, _, _ := blocks(it, -1, "")
	type marks struct{ headingPage, page int }
	want := []marks{{7, 0}, {8, 9}, {10, 0}}
	for i, w := range want {
		if got := (marks{bs[i].HeadingPage, bs[i].Page}); got != w {
			t.Errorf("paragraph %d: heading's page, page %v, want %v", i, got, w)
		}
	}
	if bs[1].HeadingPageLink != PageLink(it.ID, 8, "") {
		t.Errorf("heading's page link %q", bs[1].HeadingPageLink)
	}
}
