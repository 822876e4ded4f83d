package extract

import (
	"encoding/xml"
	"strconv"
	"strings"
)

// The numbers of automatic lists, as a person sees them in the word
// processor: Word draws "1.", "a)", "iv." or "2.3" before a numbered
// paragraph from word/numbering.xml, and LibreOffice from a list style;
// neither is in the paragraph's text. Each list item's paragraph is saved
// with its number ("1. Warm the pot"); a bullet is "•".

// listNumber is n written in a list's number format: "1" decimal, "01"
// decimal zero-padded, "a"/"A" letters (z, then aa, bb: Word's and
// LibreOffice's way), "i"/"I" roman numerals, "" none. Other formats are
// decimal.
func listNumber(n int, format string) string {
	switch format {
	case "none", "":
		return ""
	case "decimalZero":
		if n >= 0 && n < 10 {
			return "0" + strconv.Itoa(n)
		}
	case "lowerLetter", "upperLetter":
		if n > 0 {
			s := strings.Repeat(string(rune('a'+(n-1)%26)), (n-1)/26+1)
			if format == "upperLetter" {
				s = strings.ToUpper(s)
			}
			return s
		}
	case "lowerRoman", "upperRoman":
		if n > 0 && n < 4000 {
			s := roman(n)
			if format == "lowerRoman" {
				s = strings.ToLower(s)
			}
			return s
		}
	}
	return strconv.Itoa(n)
}

// roman is n (1 to 3999) in roman numerals.
func roman(n int) string {
	var b strings.Builder
	for _, r := range []struct {
		v int
		s string
	}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
		for n >= r.v {
			b.WriteString(r.s)
			n -= r.v
		}
	}
	return b.String()
}

// bullet is how a list's bullet is written, whatever its font draws it
// with (Symbol's U+F0B7, Courier's "o", Wingdings' "§"): what a person
// sees is a mark, not a letter.
const bullet = "•"

// docxLevel is one level of a Word list.
type docxLevel struct {
	start  int
	format string // numFmt: decimal, lowerLetter, bullet, …
	text   string // lvlText: "%1.", "%1.%2)", "•"
	legal  bool   // isLgl: the numbers of the levels above are decimal
	style  string // pStyle: the paragraph style this level numbers
}

// docxList is a numbering instance (w:num): an abstract list, and the
// levels it restarts or redefines.
type docxList struct {
	abstract string
	restarts map[int]int // level → startOverride
	levels   map[int]*docxLevel
	used     bool
}

// docxNumbering is a DOCX's lists (word/numbering.xml) and the numbers
// given so far. Instances of one abstract list share its counters, as in
// Word, unless an instance restarts a level.
type docxNumbering struct {
	abstract map[string]*[9]docxLevel
	lists    map[string]*docxList
	counters map[string]*docxCounters // by abstract list
}

type docxCounters struct {
	n   [9]int
	set [9]bool
}

// readDOCXNumbering reads word/numbering.xml; a part that does not read
// numbers nothing.
func readDOCXNumbering(data []byte) *docxNumbering {
	nb := &docxNumbering{abstract: map[string]*[9]docxLevel{}, lists: map[string]*docxList{}, counters: map[string]*docxCounters{}}
	d, err := xmlTokens(data)
	if err != nil {
		return nb
	}
	var levels *[9]docxLevel // of the abstract list being read
	var list *docxList       // the instance being read
	var lvl *docxLevel       // the level being read
	override := -1           // the level of the lvlOverride being read
	for {
		tok, err := d.Token()
		if err != nil {
			return nb
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			if end, ok := tok.(xml.EndElement); ok && end.Name.Local == "lvl" {
				lvl = nil
			}
			continue
		}
		val := attrVal(e, "val")
		switch e.Name.Local {
		case "abstractNum":
			levels, list = &[9]docxLevel{}, nil
			for i := range levels {
				levels[i] = docxLevel{start: 1, format: "decimal"}
			}
			nb.abstract[attrVal(e, "abstractNumId")] = levels
		case "num":
			levels, list = nil, &docxList{restarts: map[int]int{}, levels: map[int]*docxLevel{}}
			nb.lists[attrVal(e, "numId")] = list
		case "abstractNumId":
			if list != nil {
				list.abstract = val
			}
		case "lvlOverride":
			override = -1
			if n, err := strconv.Atoi(attrVal(e, "ilvl")); err == nil && n >= 0 && n < 9 {
				override = n
			}
		case "startOverride":
			if n, err := strconv.Atoi(val); err == nil && list != nil && override >= 0 {
				list.restarts[override] = n
			}
		case "lvl":
			lvl = nil
			n, err := strconv.Atoi(attrVal(e, "ilvl"))
			if err != nil || n < 0 || n >= 9 {
				continue
			}
			switch {
			case levels != nil:
				lvl = &levels[n]
			case list != nil && override == n:
				lvl = &docxLevel{start: 1, format: "decimal"}
				list.levels[n] = lvl
			}
		case "start":
			if n, err := strconv.Atoi(val); err == nil && lvl != nil {
				lvl.start = n
			}
		case "numFmt":
			if lvl != nil {
				lvl.format = val
			}
		case "lvlText":
			if lvl != nil {
				lvl.text = val
			}
		case "isLgl":
			if lvl != nil {
				lvl.legal = val == "" || val == "1" || val == "true" || val == "on"
			}
		case "pStyle":
			if lvl != nil {
				lvl.style = val
			}
		}
	}
}

// docxListRef is a paragraph's or a style's numPr: the list (numId) and
// level (ilvl) that number it, each "" or -1 where it says nothing.
type docxListRef struct {
	numID string
	ilvl  int
	has   bool // numId or ilvl was given
}

// with is r with the numId or ilvl element e.
func (r docxListRef) with(e xml.StartElement) docxListRef {
	if !r.has {
		r = docxListRef{ilvl: -1, has: true}
	}
	if e.Name.Local == "numId" {
		r.numID = attrVal(e, "val")
	} else if n, err := strconv.Atoi(attrVal(e, "val")); err == nil {
		r.ilvl = n
	}
	return r
}

// paragraph gives the number of a paragraph whose numPr is own and whose
// style, numbered by byStyle, is style; "" for a paragraph not in a list
// (numId 0 takes a style's numbering away).
func (nb *docxNumbering) paragraph(own, byStyle docxListRef, style string) string {
	if nb == nil {
		return ""
	}
	id, ilvl := byStyle.numID, byStyle.ilvl
	if own.numID != "" {
		id = own.numID
	}
	if own.ilvl >= 0 && own.has {
		ilvl = own.ilvl
	}
	if id == "" || id == "0" {
		return ""
	}
	if ilvl < 0 {
		ilvl = nb.levelOf(id, style)
	}
	return nb.label(id, ilvl)
}

// levelOf is the level of the list numID whose pStyle is style (a heading
// style numbered by its list names its level there), else 0.
func (nb *docxNumbering) levelOf(numID, style string) int {
	if l := nb.lists[numID]; l != nil {
		if levels := nb.abstract[l.abstract]; levels != nil {
			for i, lvl := range levels {
				if lvl.style == style && style != "" {
					return i
				}
			}
		}
	}
	return 0
}

// label gives the next number of list numID at level ilvl, as Word draws
// it ("1.", "b)", "2.1", "•"), and counts it; "" when the list is not
// known or draws nothing.
func (nb *docxNumbering) label(numID string, ilvl int) string {
	if nb == nil || ilvl < 0 || ilvl >= 9 {
		return ""
	}
	l := nb.lists[numID]
	if l == nil {
		return ""
	}
	base := nb.abstract[l.abstract]
	if base == nil {
		return ""
	}
	levels := *base
	for i, lvl := range l.levels {
		levels[i] = *lvl
	}
	c := nb.counters[l.abstract]
	if c == nil {
		c = &docxCounters{}
		nb.counters[l.abstract] = c
	}
	if !l.used {
		l.used = true
		for i, start := range l.restarts {
			c.n[i], c.set[i] = start-1, true
			for j := i + 1; j < 9; j++ {
				c.set[j] = false
			}
		}
	}
	if c.set[ilvl] {
		c.n[ilvl]++
	} else {
		c.n[ilvl], c.set[ilvl] = levels[ilvl].start, true
	}
	for j := ilvl + 1; j < 9; j++ {
		c.set[j] = false
	}
	lvl := levels[ilvl]
	switch lvl.format {
	case "bullet":
		return bullet
	case "none":
		return ""
	}
	var b strings.Builder
	text := lvl.text
	for i := 0; i < len(text); i++ {
		if text[i] == '%' && i+1 < len(text) && text[i+1] >= '1' && text[i+1] <= '9' {
			k := int(text[i+1] - '1')
			n := levels[k].start
			if c.set[k] {
				n = c.n[k]
			}
			format := levels[k].format
			if lvl.legal || format == "bullet" {
				format = "decimal"
			}
			b.WriteString(listNumber(n, format))
			i++
			continue
		}
		b.WriteByte(text[i])
	}
	return strings.TrimSpace(b.String())
}

// odtLevel is one level of an OpenDocument list style.
type odtLevel struct {
	bullet         bool
	format         string // style:num-format: 1, a, A, i, I, or "" (none)
	prefix, suffix string
	start          int
	display        int // text:display-levels: how many levels' numbers are shown
}

// odtListStyles are a document's list styles by name, each its levels.
type odtListStyles map[string]map[int]odtLevel

// readAll reads the list styles of a part (styles.xml); a part that does
// not read gives none.
func (s odtListStyles) readAll(data []byte) {
	d, err := xmlTokens(data)
	if err != nil {
		return
	}
	for {
		tok, err := d.Token()
		if err != nil {
			return
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "list-style" {
			if s.read(d, e) != nil {
				return
			}
		}
	}
}

// read reads the text:list-style that e starts, up to its end.
func (s odtListStyles) read(d *xml.Decoder, e xml.StartElement) error {
	levels := map[int]odtLevel{}
	s[attrVal(e, "name")] = levels
	depth := 1
	for depth > 0 {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			depth++
			n, err := strconv.Atoi(attrVal(e, "level"))
			if err != nil {
				continue
			}
			switch e.Name.Local {
			case "list-level-style-number":
				l := odtLevel{format: attrVal(e, "num-format"), prefix: attrVal(e, "num-prefix"), suffix: attrVal(e, "num-suffix"), start: 1, display: 1}
				if v, err := strconv.Atoi(attrVal(e, "start-value")); err == nil {
					l.start = v
				}
				if v, err := strconv.Atoi(attrVal(e, "display-levels")); err == nil && v > 0 {
					l.display = v
				}
				levels[n] = l
			case "list-level-style-bullet", "list-level-style-image":
				levels[n] = odtLevel{bullet: true}
			}
		case xml.EndElement:
			depth--
		}
	}
	return nil
}

// odtFormats are OpenDocument's number formats in listNumber's words.
var odtFormats = map[string]string{"1": "decimal", "a": "lowerLetter", "A": "upperLetter", "i": "lowerRoman", "I": "upperRoman", "": "none"}

// odtLists numbers an OpenDocument's lists as they are read: each
// text:list restarts its numbers unless it continues the one before.
type odtLists struct {
	styles odtListStyles
	open   []*odtList // the lists the reader is in, outermost first
	last   map[string]int
}

type odtList struct {
	style   string
	n       int
	counted bool // an item of this list has been counted
	pending bool // the item's number is not yet written
}

func (l *odtLists) startList(e xml.StartElement) {
	style := attrVal(e, "style-name")
	if style == "" && len(l.open) > 0 {
		style = l.open[len(l.open)-1].style
	}
	list := &odtList{style: style}
	if len(l.open) == 0 && attrVal(e, "continue-numbering") == "true" {
		list.n, list.counted = l.last[style], l.last[style] > 0
	}
	if len(l.open) > 0 {
		l.open[len(l.open)-1].pending = false // a list before any text: the item shows no number
	}
	l.open = append(l.open, list)
}

func (l *odtLists) endList() {
	if n := len(l.open); n > 0 {
		if n == 1 {
			if l.last == nil {
				l.last = map[string]int{}
			}
			l.last[l.open[0].style] = l.open[0].n
		}
		l.open = l.open[:n-1]
	}
}

func (l *odtLists) startItem(e xml.StartElement, header bool) {
	n := len(l.open)
	if n == 0 {
		return
	}
	list := l.open[n-1]
	if header {
		list.pending = false
		return
	}
	lvl := l.level(list.style, n)
	switch v, err := strconv.Atoi(attrVal(e, "start-value")); {
	case err == nil:
		list.n = v
	case !list.counted:
		list.n = lvl.start
	default:
		list.n++
	}
	list.counted, list.pending = true, true
}

// level is the style's level n, or its nearest level above.
func (l *odtLists) level(style string, n int) odtLevel {
	levels := l.styles[style]
	for ; n > 0; n-- {
		if lvl, ok := levels[n]; ok {
			return lvl
		}
	}
	return odtLevel{format: "", start: 1, display: 1}
}

// label is the number of the list item whose first paragraph starts, or
// "" when the paragraph is not the first of an item.
func (l *odtLists) label() string {
	n := len(l.open)
	if n == 0 || !l.open[n-1].pending {
		return ""
	}
	list := l.open[n-1]
	list.pending = false
	lvl := l.level(list.style, n)
	if lvl.bullet {
		return bullet
	}
	format := odtFormats[lvl.format]
	if format == "" {
		format = "decimal"
	}
	if format == "none" {
		return ""
	}
	var nums []string
	for i := max(0, n-lvl.display); i < n; i++ {
		f := format
		if i < n-1 {
			if g := odtFormats[l.level(list.style, i+1).format]; g != "" && g != "none" {
				f = g
			}
		}
		nums = append(nums, listNumber(l.open[i].n, f))
	}
	return strings.TrimSpace(lvl.prefix + strings.Join(nums, ".") + lvl.suffix)
}
