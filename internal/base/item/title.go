package item

import (
	"path"
	"strings"
	"sync"
	"unicode"
)

// genericTitles are titles that name no document in particular: many
// files are called so, and a list of them says nothing of which is which.
// Made on first use: only adding items asks.
var genericTitles = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, t := range strings.Split("api|features|introduction|intro|overview|readme|read me|index|home|home page|"+
		"contents|table of contents|toc|untitled|untitled document|document|document1|new document|notes|note|"+
		"getting started|docs|documentation|about|summary|abstract|slides|presentation|draft|title|welcome|main|"+
		"test|usage|faq|changelog|changes|news|license|installation|install|reference|guide|manual|tutorial|"+
		"examples|example|preface|foreword|appendix|chapter 1|part 1|report|paper|article|book|help|todo|"+
		"release notes|quick start|quickstart|setup|configuration|options|commands|api reference|user guide", "|") {
		m[t] = true
	}
	return m
})

// GenericTitle says whether a title names no document in particular:
// "API", "Introduction", "Untitled", an office program's file title
// ("Microsoft Word - notes.doc"), a bare file name, or no words at all.
func GenericTitle(title string) bool {
	t := strings.ToLower(strings.TrimFunc(title, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }))
	if genericTitles()[t] || !strings.ContainsFunc(t, unicode.IsLetter) {
		return true
	}
	if strings.HasPrefix(t, "microsoft ") && strings.Contains(t, " - ") {
		return true
	}
	for _, e := range []string{".doc", ".docx", ".dvi", ".tex", ".pdf", ".odt", ".ps", ".rtf", ".indd", ".qxd", ".ppt", ".pptx"} {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	return false
}

// Label is an item's title as lists and answers show it: the title, and
// when the title is generic, the file it came from beside it, "API
// (api.md)", or with its folder when the name is the title again,
// "README (tea/README.md)". This is the one place that decides it.
func Label(title, source string) string {
	if !GenericTitle(title) || source == "" || source == "-" {
		return title
	}
	dir, name := path.Split(sourcePath(source))
	if name == "" {
		return title
	}
	if stem := strings.TrimSuffix(name, path.Ext(name)); strings.EqualFold(stem, strings.TrimSpace(title)) || strings.EqualFold(name, strings.TrimSpace(title)) {
		if parent := path.Base(strings.TrimRight(dir, "/")); parent != "." && parent != "/" && parent != "" {
			name = parent + "/" + name
		}
	}
	if strings.EqualFold(name, strings.TrimSpace(title)) {
		return title
	}
	return title + " (" + name + ")"
}

// sourcePath is a source as a slash-separated path: a file's path, or a
// URL's host and path without its query.
func sourcePath(source string) string {
	s := source
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
		if j := strings.IndexAny(s, "?#"); j >= 0 {
			s = s[:j]
		}
	}
	return strings.TrimRight(strings.ReplaceAll(s, `\`, "/"), "/")
}

// Labels are the labels of items shown together (a list, search's hits,
// an answer's sources, the passages): each item's Label, and where two or
// more labels are the same, each of those with what tells it apart, the
// end of its source: its file name ("LaTeX News (ltnews31.pdf)", the issue
// or date the name holds), with as many of its folders as it takes
// ("README (tea/docs/README.md)"). An item with no source (stdin) keeps its
// label: its id tells it apart. titles and sources are by item.
func Labels(titles, sources []string) []string {
	labels := make([]string, len(titles))
	groups := map[string][]int{}
	var keys []string
	for i, t := range titles {
		labels[i] = Label(t, sources[i])
		key := strings.ToLower(strings.Join(strings.Fields(labels[i]), " "))
		if groups[key] == nil {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], i)
	}
	for _, key := range keys {
		var apart []int // the items of the group that have a source
		for _, i := range groups[key] {
			if s := sources[i]; s != "" && s != "-" && sourcePath(s) != "" {
				apart = append(apart, i)
			}
		}
		if len(groups[key]) < 2 || len(apart) == 0 {
			continue
		}
		ends := tellApart(titles, sources, apart)
		for n, i := range apart {
			labels[i] = strings.TrimSpace(titles[i]) + " (" + ends[n] + ")"
		}
	}
	return labels
}

// tellApart returns for each item of idx the shortest end of its source's
// path (the file name, then its folder and file name, …) that no other
// item's path ends with as well, and that is more than its title again.
func tellApart(titles, sources []string, idx []int) []string {
	parts := make([][]string, len(idx))
	for n, i := range idx {
		parts[n] = strings.Split(strings.TrimLeft(sourcePath(sources[i]), "/"), "/")
	}
	end := func(n, k int) string {
		p := parts[n]
		return strings.Join(p[max(0, len(p)-k):], "/")
	}
	ends := make([]string, len(idx))
	for n, i := range idx {
		title := strings.TrimSpace(titles[i])
		for k := 1; k <= len(parts[n]); k++ {
			ends[n] = end(n, k)
			stem := strings.TrimSuffix(ends[n], path.Ext(ends[n]))
			if strings.EqualFold(ends[n], title) || strings.EqualFold(stem, title) {
				continue
			}
			shared := false
			for m := range idx {
				if m != n && end(m, k) == ends[n] {
					shared = true
				}
			}
			if !shared {
				break
			}
		}
	}
	return ends
}
