package item

import (
	"slices"
	"testing"
)

func TestLabel(t *testing.T) {
	for _, tc := range []struct{ title, source, want string }{
		{"Brewing green tea", "/home/ann/tea.md", "Brewing green tea"},
		{"API", "/home/ann/proj/docs/api.md", "API (docs/api.md)"},
		{"Features", "https://example.org/product/features.html?x=1", "Features (product/features.html)"},
		{"Introduction", "/papers/intro-to-zfs.pdf", "Introduction (intro-to-zfs.pdf)"},
		{"Microsoft Word - notes.doc", "/x/budget.pdf", "Microsoft Word - notes.doc (budget.pdf)"},
		{"Untitled", "-", "Untitled"},
		{"README", "/src/tea/README.md", "README (tea/README.md)"},
		{"Overview.", "/d/over.txt", "Overview. (over.txt)"},
		{"readme.txt", "/readme.txt", "readme.txt"},
	} {
		if got := Label(tc.title, tc.source); got != tc.want {
			t.Errorf("Label(%q, %q) = %q, want %q", tc.title, tc.source, got, tc.want)
		}
	}
}

// TestLabels: items of the same title shown together are told apart by
// their file names, or by as much of their paths as it takes (issue 43:
// nine PDFs titled "LATEX News" were nine "[n] LATEX News").
func TestLabels(t *testing.T) {
	for _, tc := range []struct {
		titles, sources, want []string
	}{
		{[]string{"LATEX News", "Brewing tea", "LATEX News", "LaTeX  news"},
			[]string{"/tl/doc/ltnews31.pdf", "/n/tea.md", "/tl/doc/ltnews32.pdf", "https://example.org/ltnews/2024-05.pdf?dl=1"},
			[]string{"LATEX News (ltnews31.pdf)", "Brewing tea", "LATEX News (ltnews32.pdf)", "LaTeX  news (2024-05.pdf)"}},
		// The same file name: its folders, as many as it takes.
		{[]string{"Setup notes", "Setup notes", "Setup notes"},
			[]string{"/a/tea/docs/notes.md", "/b/tea/docs/notes.md", "/c/coffee/notes.md"},
			[]string{"Setup notes (a/tea/docs/notes.md)", "Setup notes (b/tea/docs/notes.md)", "Setup notes (coffee/notes.md)"}},
		// Generic titles already name their file; the same one twice, its folder too.
		{[]string{"README", "README", "API"},
			[]string{"/x/tea/README.md", "/y/tea/README.md", "/x/api.md"},
			[]string{"README (x/tea/README.md)", "README (y/tea/README.md)", "API (x/api.md)"}},
		// A file name that is the title again says nothing: its folder does.
		{[]string{"ltnews", "ltnews"}, []string{"/tl/2023/ltnews.pdf", "/tl/2024/ltnews.pdf"},
			[]string{"ltnews (2023/ltnews.pdf)", "ltnews (2024/ltnews.pdf)"}},
		// No source (stdin): the id tells it apart; different titles stay.
		{[]string{"Memo", "Memo", "Tea"}, []string{"-", "/m/memo-2.txt", "/t.md"},
			[]string{"Memo", "Memo (memo-2.txt)", "Tea"}},
	} {
		if got := Labels(tc.titles, tc.sources); !slices.Equal(got, tc.want) {
			t.Errorf("Labels(%q, %q)\n = %q\nwant %q", tc.titles, tc.sources, got, tc.want)
		}
	}
}
