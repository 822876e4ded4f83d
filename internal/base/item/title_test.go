package item

import "testing"

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
