package extract

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sponge-library/sponge/internal/base/item"
)

// DOCX (Office Open XML) and ODT (OpenDocument) are zips of XML. Both are
// read with encoding/xml as a stream of tokens: headings (by style or
// outline level) make the heading path, each paragraph and list item is a
// paragraph, and each table row is one, its cells joined with " | " as in
// Markdown and HTML. Text that is not in the flow (footnotes, comments,
// deleted revisions, text boxes) is left out.

// officeWriter gathers an office document's paragraphs.
type officeWriter struct {
	b     builder
	h     headings
	buf   strings.Builder
	cells [][]string // the cells of the table row being read, each its paragraphs
	table int        // how deep in tables the reader is
}

// para ends a paragraph: in a table it joins the current cell; a heading
// (level > 0) goes on the heading path.
func (w *officeWriter) para(level int) {
	text := cleanText(w.buf.String())
	w.buf.Reset()
	switch {
	case text == "":
	case w.table > 0:
		// A cell's paragraphs are joined when its row ends: joining them
		// as they come copied the cell for each (a cell of 40,000
		// paragraphs, 10 KB zipped, took 12.5 s).
		if n := len(w.cells); n > 0 {
			w.cells[n-1] = append(w.cells[n-1], text)
		}
	case level > 0:
		w.h.push(level, text)
	default:
		w.b.add(item.Paragraph{Text: text, Heading: w.h.path()})
	}
}

func (w *officeWriter) rowStart() {
	if w.table == 1 {
		w.cells = w.cells[:0]
	}
}

func (w *officeWriter) cellStart() {
	if w.table == 1 {
		w.cells = append(w.cells, nil)
	}
}

func (w *officeWriter) rowEnd() {
	if w.table != 1 {
		return
	}
	var cells []string
	for _, c := range w.cells {
		if len(c) > 0 {
			cells = append(cells, strings.Join(c, " "))
		}
	}
	w.b.addText(strings.Join(cells, " | "), w.h.path())
}

// attrVal is the value of the attribute with that local name.
func attrVal(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// xmlTokens reads an XML part token by token, leniently (office files
// written by small tools are not always well-formed), in the encoding it
// declares (UTF-16, ISO-8859-1: refused as corrupt before, issue 42) or
// UTF-8.
func xmlTokens(data []byte) (*xml.Decoder, error) {
	text, err := decodeMarkup(data, "")
	if err != nil {
		return nil, err
	}
	// Now UTF-8: the declaration would have encoding/xml decode it again.
	text = xmlEncodingRE.ReplaceAllString(text, `<?xml version="1.0"`)
	d := xml.NewDecoder(strings.NewReader(text))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	return d, nil
}

type coreProps struct {
	Title   string `xml:"title"`
	Creator string `xml:"creator"`
}

var headingStyleRE = lazyRE(`(?i)^heading ?([1-9])$`)

// docxStyles maps a DOCX paragraph style id to its heading level, by its
// outline level or by its name ("heading 2"), which stays English when
// the id is translated ("berschrift2"); titleStyles are the Title styles;
// lists, the list and level that number a style's paragraphs ("List
// Number", a numbered heading).
func docxStyles(data []byte) (levels map[string]int, titleStyles map[string]bool, lists map[string]docxListRef) {
	levels, titleStyles, lists = map[string]int{}, map[string]bool{"Title": true}, map[string]docxListRef{}
	d, err := xmlTokens(data)
	if err != nil {
		return
	}
	id := ""
	for {
		tok, err := d.Token()
		if err != nil {
			return
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch e.Name.Local {
		case "numId", "ilvl":
			if id != "" {
				lists[id] = lists[id].with(e)
			}
		case "style":
			id = attrVal(e, "styleId")
		case "name":
			v := attrVal(e, "val")
			if m := headingStyleRE.FindStringSubmatch(v); m != nil && id != "" {
				levels[id] = int(m[1][0] - '0')
			} else if strings.EqualFold(v, "title") && id != "" {
				titleStyles[id] = true
			}
		case "outlineLvl":
			if n, err := strconv.Atoi(attrVal(e, "val")); err == nil && n < 9 && id != "" {
				levels[id] = n + 1
			}
		}
	}
}

func extractDOCX(data []byte) (*Document, error) {
	c, err := openContainer(data, "DOCX")
	if err != nil {
		return nil, err
	}
	body, err := c.read("word/document.xml")
	if err != nil {
		return nil, err
	}
	levels, titleStyles, styleLists := map[string]int{}, map[string]bool{"Title": true}, map[string]docxListRef{}
	if c.has("word/styles.xml") {
		if raw, err := c.read("word/styles.xml"); err == nil {
			levels, titleStyles, styleLists = docxStyles(raw)
		}
	}
	var numbering *docxNumbering
	if c.has("word/numbering.xml") {
		if raw, err := c.read("word/numbering.xml"); err == nil {
			numbering = readDOCXNumbering(raw)
		}
	}
	for i := 1; i <= 9; i++ {
		if _, ok := levels["Heading"+strconv.Itoa(i)]; !ok {
			levels["Heading"+strconv.Itoa(i)] = i
		}
	}
	var meta coreProps
	if c.has("docProps/core.xml") {
		if raw, err := c.read("docProps/core.xml"); err == nil {
			_ = xmlUnmarshal(raw, &meta)
		}
	}
	w := &officeWriter{}
	title := usableTitle(meta.Title)
	w.h.title = title
	d, err := xmlTokens(body)
	if err != nil {
		return nil, fmt.Errorf("corrupt DOCX: word/document.xml: %v", err)
	}
	level, isTitle := 0, false
	style, list := "", docxListRef{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("corrupt DOCX: word/document.xml: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "p":
				w.buf.Reset()
				level, isTitle = 0, false
				style, list = "", docxListRef{}
			case "pStyle":
				style = attrVal(e, "val")
				level = levels[style]
				isTitle = titleStyles[style]
			case "numId", "ilvl":
				list = list.with(e)
			case "outlineLvl":
				if n, err := strconv.Atoi(attrVal(e, "val")); err == nil && n < 9 {
					level = n + 1
				}
			case "tab":
				w.buf.WriteByte('\t')
			case "br", "cr":
				w.buf.WriteByte('\n')
			case "tbl":
				w.table++
			case "tr":
				w.rowStart()
			case "tc":
				w.cellStart()
			case "t":
				var s string
				if err := d.DecodeElement(&s, &e); err != nil {
					return nil, fmt.Errorf("corrupt DOCX: word/document.xml: %v", err)
				}
				w.buf.WriteString(s)
			case "footnoteReference", "endnoteReference", "commentReference", "delText", "instrText", "txbxContent", "pPrChange":
				if err := d.Skip(); err != nil {
					return nil, fmt.Errorf("corrupt DOCX: word/document.xml: %v", err)
				}
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "p":
				if isTitle && w.table == 0 {
					if t := cleanText(w.buf.String()); t != "" && title == "" {
						title, w.h.title = t, t
					}
					w.buf.Reset()
					continue
				}
				if label := numbering.paragraph(list, styleLists[style], style); label != "" && strings.TrimSpace(w.buf.String()) != "" {
					text := w.buf.String()
					w.buf.Reset()
					w.buf.WriteString(label + " " + text)
				}
				w.para(level)
			case "tr":
				w.rowEnd()
			case "tbl":
				w.table--
			}
		}
	}
	return &Document{Title: title, Paragraphs: w.b.paras}, nil
}

type odtMeta struct {
	Title string `xml:"meta>title"`
}

func extractODT(data []byte) (*Document, error) {
	c, err := openContainer(data, "ODT")
	if err != nil {
		return nil, err
	}
	body, err := c.read("content.xml")
	if err != nil {
		return nil, err
	}
	var meta odtMeta
	if c.has("meta.xml") {
		if raw, err := c.read("meta.xml"); err == nil {
			_ = xmlUnmarshal(raw, &meta)
		}
	}
	lists := &odtLists{styles: odtListStyles{}}
	if c.has("styles.xml") {
		if raw, err := c.read("styles.xml"); err == nil {
			lists.styles.readAll(raw)
		}
	}
	w := &officeWriter{}
	title := usableTitle(meta.Title)
	w.h.title = title
	d, err := xmlTokens(body)
	if err != nil {
		return nil, fmt.Errorf("corrupt ODT: content.xml: %v", err)
	}
	level := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("corrupt ODT: content.xml: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "p", "h":
				w.buf.Reset()
				level = 0
				if e.Name.Local == "h" {
					level = 1
					if n, err := strconv.Atoi(attrVal(e, "outline-level")); err == nil && n > 0 {
						level = n
					}
				}
				if e.Name.Local == "p" && attrVal(e, "style-name") == "Title" && w.table == 0 {
					var s strings.Builder
					if err := odtText(d, &s); err != nil {
						return nil, fmt.Errorf("corrupt ODT: content.xml: %v", err)
					}
					if t := cleanText(s.String()); t != "" && title == "" {
						title, w.h.title = t, t
					}
					continue
				}
				label := lists.label()
				if err := odtText(d, &w.buf); err != nil {
					return nil, fmt.Errorf("corrupt ODT: content.xml: %v", err)
				}
				if label != "" && strings.TrimSpace(w.buf.String()) != "" {
					text := w.buf.String()
					w.buf.Reset()
					w.buf.WriteString(label + " " + text)
				}
				w.para(level)
			case "list-style":
				if err := lists.styles.read(d, e); err != nil {
					return nil, fmt.Errorf("corrupt ODT: content.xml: %v", err)
				}
			case "list":
				lists.startList(e)
			case "list-item", "list-header":
				lists.startItem(e, e.Name.Local == "list-header")
			case "table":
				w.table++
			case "table-row":
				w.rowStart()
			case "table-cell":
				w.cellStart()
			case "tracked-changes", "annotation", "note", "frame":
				if err := d.Skip(); err != nil {
					return nil, fmt.Errorf("corrupt ODT: content.xml: %v", err)
				}
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "table-row":
				w.rowEnd()
			case "table":
				w.table--
			case "list":
				lists.endList()
			}
		}
	}
	return &Document{Title: title, Paragraphs: w.b.paras}, nil
}

// odtText reads the text of a text:p or text:h up to its end: spans and
// links give their text, text:s spaces (text:c of them), text:tab and
// text:line-break white space; notes, annotations and frames nothing.
func odtText(d *xml.Decoder, b *strings.Builder) error {
	depth := 1
	for depth > 0 {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch e := tok.(type) {
		case xml.CharData:
			b.Write(e)
		case xml.StartElement:
			switch e.Name.Local {
			case "s":
				// text:c spaces, which cleanText makes one: one is written
				// (a 153 KB file of text:c="100" took 587 MB).
				b.WriteByte(' ')
			case "tab", "line-break":
				b.WriteByte(' ')
			case "note", "annotation", "frame", "tracked-changes":
				if err := d.Skip(); err != nil {
					return err
				}
				continue
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return nil
}
