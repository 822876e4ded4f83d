package extract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTMLFurniture reads small article pages of testdata/html, each made
// to hold one kind of site furniture beside its text (issue 39): the
// text is kept whole and the furniture left out.
func TestHTMLFurniture(t *testing.T) {
	cases := []struct {
		file       string
		keep, drop []string
	}{
		// The page's one paragraph and 84 archive links share a <div>
		// that is mostly links: the page was saved as nothing.
		{"links-around-text.html",
			[]string{"From next month the town library opens on Sundays", "not in the box outside."},
			[]string{"March 2016"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "html", c.file))
			if err != nil {
				t.Fatal(err)
			}
			d := mustBytes(t, string(data), c.file, "")
			all := strings.Join(texts(d), "\n")
			for _, s := range c.keep {
				if !strings.Contains(all, s) {
					t.Errorf("lost %q; kept:\n%s", s, all)
				}
			}
			for _, s := range c.drop {
				if strings.Contains(all, s) {
					t.Errorf("kept %q; kept:\n%s", s, all)
				}
			}
		})
	}
}
