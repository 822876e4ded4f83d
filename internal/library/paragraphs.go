package library

import (
	"encoding/json"

	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
)

// Paragraphs is an item read for a few of its paragraphs: its fields but
// the paragraphs are decoded, and each paragraph only when asked for. An
// item of 16,000 paragraphs took sponge-rank tens of milliseconds to decode
// whole for the four paragraphs it shows.
type Paragraphs struct {
	Item  item.Item // without its paragraphs
	raw   []byte
	spans [][2]int // of each paragraph in raw
	all   []item.Paragraph
}

// Paragraphs loads an item for reading some of its paragraphs.
func (l *Library) Paragraphs(id string) (*Paragraphs, error) {
	frames, err := l.open(id, readItem)
	if err != nil {
		return nil, err
	}
	_, d := codecs()
	raw, err := d.DecodeAll(frames.item, nil)
	if err != nil {
		return nil, fault.New(fault.Damaged, "item %s is damaged: %v", item.Short(id), err)
	}
	ps := &Paragraphs{raw: raw}
	head, spans, ok := splitParagraphs(raw)
	if ok && json.Unmarshal(head, &ps.Item) == nil {
		ps.spans = spans
		return ps, nil
	}
	// Not laid out as Put writes items: decode it whole.
	var it item.Item
	if err := json.Unmarshal(raw, &it); err != nil {
		return nil, fault.New(fault.Damaged, "item %s is damaged: %v", item.Short(id), err)
	}
	ps.all, it.Paragraphs = it.Paragraphs, nil
	ps.Item = it
	return ps, nil
}

// Len is how many paragraphs the item has.
func (ps *Paragraphs) Len() int {
	if ps.all != nil {
		return len(ps.all)
	}
	return len(ps.spans)
}

// At decodes paragraph i.
func (ps *Paragraphs) At(i int) (*item.Paragraph, error) {
	if ps.all != nil {
		return &ps.all[i], nil
	}
	var p item.Paragraph
	s := ps.spans[i]
	if err := json.Unmarshal(ps.raw[s[0]:s[1]], &p); err != nil {
		return nil, fault.New(fault.Damaged, "item %s is damaged: %v", item.Short(ps.Item.ID), err)
	}
	return &p, nil
}

// splitParagraphs finds the paragraphs of an item's JSON without decoding
// them: it returns the item with "paragraphs" set to null, and where each
// paragraph's object is. ok is false for JSON it does not follow.
func splitParagraphs(raw []byte) (head []byte, spans [][2]int, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, nil, false
	}
	i++
	for {
		i = skipSpace(raw, i)
		if i < len(raw) && raw[i] == '}' {
			return nil, nil, false // no paragraphs key
		}
		ks := i
		ke := skipValue(raw, i)
		if ke < 0 || raw[ks] != '"' {
			return nil, nil, false
		}
		i = skipSpace(raw, ke)
		if i >= len(raw) || raw[i] != ':' {
			return nil, nil, false
		}
		i = skipSpace(raw, i+1)
		vs := i
		if string(raw[ks:ke]) == `"paragraphs"` {
			if i >= len(raw) || raw[i] != '[' {
				return nil, nil, false
			}
			i++
			for {
				i = skipSpace(raw, i)
				if i < len(raw) && raw[i] == ']' {
					i++
					break
				}
				s := i
				e := skipValue(raw, i)
				if e < 0 {
					return nil, nil, false
				}
				spans = append(spans, [2]int{s, e})
				i = skipSpace(raw, e)
				if i < len(raw) && raw[i] == ',' {
					i++
				} else if i >= len(raw) || raw[i] != ']' {
					return nil, nil, false
				}
			}
			head = make([]byte, 0, vs+4+len(raw)-i)
			head = append(head, raw[:vs]...)
			head = append(head, "null"...)
			head = append(head, raw[i:]...)
			return head, spans, true
		}
		i = skipValue(raw, i)
		if i < 0 {
			return nil, nil, false
		}
		i = skipSpace(raw, i)
		if i < len(raw) && raw[i] == ',' {
			i++
		}
	}
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\n' || raw[i] == '\t' || raw[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value that starts at i, or -1.
func skipValue(raw []byte, i int) int {
	if i >= len(raw) {
		return -1
	}
	switch raw[i] {
	case '"':
		for i++; i < len(raw); i++ {
			switch raw[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for ; i < len(raw); i++ {
			switch raw[i] {
			case '"':
				e := skipValue(raw, i)
				if e < 0 {
					return -1
				}
				i = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	// A number, true, false or null.
	for ; i < len(raw); i++ {
		switch raw[i] {
		case ',', '}', ']', ' ', '\n', '\t', '\r':
			return i
		}
	}
	return i
}
