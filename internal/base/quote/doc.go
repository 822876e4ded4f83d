package quote

// Doc is the paragraphs of one saved item, prepared on first use. A quote is
// found inside one paragraph, never across two. A Doc is not safe for
// concurrent use.
type Doc struct {
	paragraphs []string
	texts      []*Text
}

// NewDoc makes a Doc of an item's paragraphs, in order.
func NewDoc(paragraphs []string) *Doc {
	return &Doc{paragraphs: paragraphs, texts: make([]*Text, len(paragraphs))}
}

// Len is the number of paragraphs.
func (d *Doc) Len() int { return len(d.paragraphs) }

// Paragraph returns paragraph i prepared for searching.
func (d *Doc) Paragraph(i int) *Text {
	if d.texts[i] == nil {
		d.texts[i] = NewText(d.paragraphs[i])
	}
	return d.texts[i]
}

// Find looks for q in paragraph prefer first (the paragraph the quote is
// said to come from; -1 for none), then in every paragraph in order, and
// returns the paragraph index and the first match in it.
func (d *Doc) Find(q *Quote, prefer int) (paragraph int, m Match, ok bool) {
	if q.Empty() {
		return 0, Match{}, false
	}
	if prefer >= 0 && prefer < len(d.paragraphs) {
		if m, ok := d.Paragraph(prefer).Find(q); ok {
			return prefer, m, true
		}
	}
	for i := range d.paragraphs {
		if i == prefer {
			continue
		}
		if m, ok := d.Paragraph(i).Find(q); ok {
			return i, m, true
		}
	}
	return 0, Match{}, false
}
