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
	s := source
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
		if j := strings.IndexAny(s, "?#"); j >= 0 {
			s = s[:j]
		}
	}
	s = strings.TrimRight(strings.ReplaceAll(s, `\`, "/"), "/")
	dir, name := path.Split(s)
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
