package extract

import (
	"encoding/json"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// pageMeta reads who wrote a page and when it was published from what the
// page says of itself: its JSON-LD (schema.org's "author" and
// "datePublished", which most news sites write) first, then its <meta>
// tags (author, article:published_time, Dublin Core's, Highwire's
// citation_*). The reader leaves a page's byline and dateline out of its
// text as furniture (the article benchmark's people marked them so); these
// keep who and when with the item, shown by sponge show. Names and dates
// are read as written, in any language; an ISO date-time keeps its date.
func pageMeta(root *html.Node) (author, published string) {
	var authors []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.DataAtom == atom.Script && strings.EqualFold(strings.TrimSpace(attr(n, "type")), "application/ld+json"):
			var v any
			if json.Unmarshal([]byte(textOf(n)), &v) == nil {
				ldMeta(v, &authors, &published, 0)
			}
		case n.DataAtom == atom.Meta:
			key := strings.ToLower(attr(n, "name") + attr(n, "property") + attr(n, "itemprop"))
			content := cleanText(attr(n, "content"))
			switch {
			case content == "":
			case authorMetaKeys[key]:
				addAuthor(&authors, strings.TrimPrefix(strings.TrimPrefix(content, "By "), "by "))
			case dateMetaKeys[key] && published == "":
				published = content
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	if isoDate(published) {
		published = published[:10]
	}
	if len([]rune(published)) > maxMetaChars {
		published = ""
	}
	return strings.Join(authors, ", "), published
}

// ldMeta walks a JSON-LD value for the first "datePublished" and the
// "author" names (a name, an object with a "name", or a list of them).
func ldMeta(v any, authors *[]string, published *string, depth int) {
	if depth > 8 {
		return
	}
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			ldMeta(e, authors, published, depth+1)
		}
	case map[string]any:
		if d, ok := v["datePublished"].(string); ok && *published == "" {
			*published = strings.TrimSpace(d)
		}
		if a, ok := v["author"]; ok && len(*authors) == 0 {
			ldAuthors(a, authors)
		}
		for k, e := range v {
			if k != "author" {
				ldMeta(e, authors, published, depth+1)
			}
		}
	}
}

func ldAuthors(a any, authors *[]string) {
	switch a := a.(type) {
	case string:
		addAuthor(authors, a)
	case map[string]any:
		if name, ok := a["name"].(string); ok {
			addAuthor(authors, name)
		}
	case []any:
		for _, e := range a {
			ldAuthors(e, authors)
		}
	}
}

// addAuthor adds a name once, and no web address ("article:author" is
// often the writer's page) or run of text too long to be names.
func addAuthor(authors *[]string, name string) {
	name = cleanText(name)
	if name == "" || len(*authors) >= maxAuthors || len([]rune(name)) > maxMetaChars ||
		strings.Contains(name, "://") || strings.HasPrefix(name, "www.") || slices.Contains(*authors, name) {
		return
	}
	*authors = append(*authors, name)
}

var (
	authorMetaKeys = map[string]bool{"author": true, "article:author": true, "byl": true, "dc.creator": true,
		"dcterms.creator": true, "citation_author": true, "parsely-author": true, "sailthru.author": true}
	dateMetaKeys = map[string]bool{"article:published_time": true, "datepublished": true, "date": true, "pubdate": true,
		"publishdate": true, "dc.date": true, "dcterms.date": true, "dc.date.issued": true, "citation_publication_date": true,
		"citation_date": true, "parsely-pub-date": true, "sailthru.date": true}
)

// isoDate reports whether s begins with an ISO 8601 date, "2019-11-18"
// (of "2019-11-18T11:08:00Z", whose date is what a person asks for).
func isoDate(s string) bool {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range []byte(s[:10]) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// maxAuthors and maxMetaChars bound what pageMeta keeps: a few names, each
// a name's length, and a date.
const (
	maxAuthors   = 6
	maxMetaChars = 80
)
