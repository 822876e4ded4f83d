package extract

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// An EPUB is a zip of XHTML chapters: META-INF/container.xml names the
// package document (OPF), whose metadata has the book's title and
// author, whose spine lists the chapters in reading order, and whose table
// of contents (EPUB 3 nav, or EPUB 2 NCX) names them. Each chapter is read
// as HTML, and its paragraphs' heading path starts with the chapter's name.

type epubContainer struct {
	Rootfiles []struct {
		FullPath string `xml:"full-path,attr"`
	} `xml:"rootfiles>rootfile"`
}

type epubPackage struct {
	Titles   []string `xml:"metadata>title"`
	Creators []string `xml:"metadata>creator"`
	Items    []struct {
		ID         string `xml:"id,attr"`
		Href       string `xml:"href,attr"`
		MediaType  string `xml:"media-type,attr"`
		Properties string `xml:"properties,attr"`
	} `xml:"manifest>item"`
	Spine struct {
		Toc      string `xml:"toc,attr"`
		Itemrefs []struct {
			IDRef string `xml:"idref,attr"`
		} `xml:"itemref"`
	} `xml:"spine"`
}

type ncxPoint struct {
	Label   string `xml:"navLabel>text"`
	Content struct {
		Src string `xml:"src,attr"`
	} `xml:"content"`
	Points []ncxPoint `xml:"navPoint"`
}

type ncxDoc struct {
	Points []ncxPoint `xml:"navMap>navPoint"`
}

// xmlUnmarshal reads an XML part of a container, whatever its encoding.
func xmlUnmarshal(data []byte, v any) error {
	d, err := xmlTokens(data)
	if err != nil {
		return err
	}
	return d.Decode(v)
}

func extractEPUB(data []byte) (*Document, error) {
	c, err := openContainer(data, "EPUB")
	if err != nil {
		return nil, err
	}
	raw, err := c.read("META-INF/container.xml")
	if err != nil {
		return nil, err
	}
	var ct epubContainer
	if err := xmlUnmarshal(raw, &ct); err != nil || len(ct.Rootfiles) == 0 || ct.Rootfiles[0].FullPath == "" {
		return nil, errors.New("corrupt EPUB: META-INF/container.xml names no package document")
	}
	opfPath := ct.Rootfiles[0].FullPath
	raw, err = c.read(opfPath)
	if err != nil {
		return nil, err
	}
	var pkg epubPackage
	if err := xmlUnmarshal(raw, &pkg); err != nil {
		return nil, fmt.Errorf("corrupt EPUB: %s: %v", opfPath, err)
	}
	dir := path.Dir(opfPath)
	resolve := func(base, href string) string {
		if i := strings.IndexByte(href, '#'); i >= 0 {
			href = href[:i]
		}
		return path.Join(base, unescapePath(href))
	}
	hrefByID := map[string]string{}
	var navPath, ncxPath string
	for _, it := range pkg.Items {
		p := resolve(dir, it.Href)
		hrefByID[it.ID] = p
		if strings.Contains(" "+it.Properties+" ", " nav ") {
			navPath = p
		}
		if it.MediaType == "application/x-dtbncx+xml" || it.ID == pkg.Spine.Toc && pkg.Spine.Toc != "" {
			ncxPath = p
		}
	}
	chapters := map[string]string{} // chapter file → its name in the table of contents
	if navPath != "" {
		epubNav(c, navPath, chapters)
	}
	if len(chapters) == 0 && ncxPath != "" && c.has(ncxPath) {
		if raw, err := c.read(ncxPath); err == nil {
			var ncx ncxDoc
			if xmlUnmarshal(raw, &ncx) == nil {
				var walk func([]ncxPoint)
				walk = func(ps []ncxPoint) {
					for _, p := range ps {
						f := resolve(path.Dir(ncxPath), p.Content.Src)
						if _, ok := chapters[f]; !ok && cleanText(p.Label) != "" {
							chapters[f] = cleanText(p.Label)
						}
						walk(p.Points)
					}
				}
				walk(ncx.Points)
			}
		}
	}
	var b builder
	done := map[string]bool{}
	for _, ref := range pkg.Spine.Itemrefs {
		p, ok := hrefByID[ref.IDRef]
		if !ok || done[p] || !c.has(p) {
			continue
		}
		done[p] = true
		raw, err := c.read(p)
		if err != nil {
			return nil, err
		}
		text, err := decodeMarkup(raw, "")
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		root, err := html.Parse(strings.NewReader(text))
		if err != nil {
			return nil, fmt.Errorf("corrupt EPUB: %s: %v", p, err)
		}
		body := find(root, func(n *html.Node) bool { return n.DataAtom == atom.Body })
		if body == nil {
			continue
		}
		pruneTags(body)
		chapter := chapters[p]
		if chapter == "" {
			if h := find(body, func(n *html.Node) bool { return headingLevel[n.DataAtom] > 0 }); h != nil {
				chapter = cleanText(textOf(h))
			}
		}
		w := &htmlWalker{b: &b, h: &headings{chapter: chapter}}
		w.walk(body)
		w.flush()
	}
	title := ""
	if len(pkg.Titles) > 0 {
		title = cleanText(pkg.Titles[0])
	}
	var authors []string
	for _, a := range pkg.Creators {
		if a = cleanText(a); a != "" {
			authors = append(authors, a)
		}
	}
	if title != "" && len(authors) > 0 {
		title += " — " + strings.Join(authors, ", ")
	}
	return &Document{Title: title, Paragraphs: b.paras}, nil
}

// epubNav reads an EPUB 3 navigation document's table of contents into
// chapters: file → name, the first name for each file.
func epubNav(c *container, navPath string, chapters map[string]string) {
	raw, err := c.read(navPath)
	if err != nil {
		return
	}
	text, err := decodeMarkup(raw, "")
	if err != nil {
		return
	}
	root, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return
	}
	toc := find(root, func(n *html.Node) bool {
		return n.DataAtom == atom.Nav && strings.Contains(attr(n, "epub:type"), "toc")
	})
	if toc == nil {
		toc = find(root, func(n *html.Node) bool { return n.DataAtom == atom.Nav })
	}
	if toc == nil {
		return
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.DataAtom == atom.A {
			href := attr(n, "href")
			if i := strings.IndexByte(href, '#'); i >= 0 {
				href = href[:i]
			}
			f := path.Join(path.Dir(navPath), unescapePath(href))
			if _, ok := chapters[f]; !ok && href != "" {
				if t := cleanText(textOf(n)); t != "" {
					chapters[f] = t
				}
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(toc)
}

// pruneTags removes what is never text (scripts, styles, comments) from a
// document that is all content, such as a book's chapter.
func pruneTags(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.CommentNode || c.Type == html.ElementNode && dropTags[c.DataAtom] {
			n.RemoveChild(c)
		} else {
			pruneTags(c)
		}
		c = next
	}
}
