package extract

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/item"
)

// The sample documents the project ships (testdata/docs, the README's demo
// library) must read as a person reads them.
func TestSampleDocs(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "testdata", "docs")
	for _, tc := range []struct {
		file, kind, title string
		where             string // Heading, page or time of the paragraph holding quote
		quote             string
	}{
		{"tea-brewing.md", item.KindMarkdown, "Brewing tea at home", "Green tea",
			"Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter."},
		{"sourdough.md", item.KindMarkdown, "Sourdough notes", "Bulk fermentation", "At 24 degrees this takes four to five hours"},
		{"bicycle-chain-care.html", item.KindHTML, "Looking after your bicycle chain", "Lubricating › Wet or dry lube?",
			"Wax is the cleanest of all and lasts about 300 kilometres per application."},
		{"sleep-talk.vtt", item.KindVTT, "Why we sleep: a conversation about the body clock", "Dr. Maria Okafor 0:24",
			"so it hides the pressure without removing it."},
		{"volcano-lecture.srt", item.KindSRT, "volcano-lecture", "PROFESSOR 0:29",
			"the pressure dropped at once, and the gas-rich magma exploded sideways."},
		{"composting-guide.pdf", item.KindPDF, "Composting at Home: A Short Guide", "3. Hot composting p. 2",
			"At that temperature weed seeds and most plant diseases are killed."},
	} {
		data, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		d, err := Bytes(data, tc.file, "")
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		checkDoc(t, d)
		if d.Kind != tc.kind || d.Title != tc.title {
			t.Errorf("%s: kind %q title %q", tc.file, d.Kind, d.Title)
		}
		found := false
		for _, p := range d.Paragraphs {
			i := strings.Index(p.Text, tc.quote)
			if i < 0 {
				continue
			}
			found = true
			page, ms := p.At(len([]rune(p.Text[:i])))
			where := strings.TrimSpace(p.Heading + " " + item.Where(page, ms))
			if where != tc.where {
				t.Errorf("%s: quote at %q, want %q", tc.file, where, tc.where)
			}
		}
		if !found {
			var b strings.Builder
			for _, p := range d.Paragraphs {
				fmt.Fprintf(&b, "  [%s] %s\n", p.Heading, p.Text)
			}
			t.Errorf("%s: quote %q not found in:\n%s", tc.file, tc.quote, b.String())
		}
		// No clutter from the HTML page.
		if tc.kind == item.KindHTML {
			all := strings.Join(texts(d), " ")
			for _, c := range []string{"cookies", "Skip to content", "Popular posts", "newsletter", "CHAIN20", "Privacy", "gtag", "Share on", "comments", "Filed under"} {
				if strings.Contains(all, c) {
					t.Errorf("%s: clutter %q kept", tc.file, c)
				}
			}
		}
	}
}
