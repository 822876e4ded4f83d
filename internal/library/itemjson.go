package library

import (
	"strconv"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/item"
)

// appendItemJSON appends what json.Marshal makes of an item, byte for byte,
// without its reflection: the item's paragraphs are most of what an add
// encodes. TestItemJSON checks it against json.Marshal, and that the item's
// fields are the ones it knows.
func appendItemJSON(dst []byte, it *item.Item) ([]byte, error) {
	dst = append(dst, `{"id":`...)
	dst = appendJSONString(dst, it.ID)
	dst = append(dst, `,"title":`...)
	dst = appendJSONString(dst, it.Title)
	if it.TitleGiven {
		dst = append(dst, `,"titleGiven":true`...)
	}
	if it.Linked {
		dst = append(dst, `,"linked":true`...)
	}
	if it.AllText {
		dst = append(dst, `,"allText":true`...)
	}
	dst = append(dst, `,"source":`...)
	dst = appendJSONString(dst, it.Source)
	if len(it.Also) > 0 {
		dst = append(dst, `,"also":[`...)
		for i, s := range it.Also {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, s)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"kind":`...)
	dst = appendJSONString(dst, it.Kind)
	added, err := it.Added.MarshalJSON()
	if err != nil {
		return nil, err
	}
	dst = append(append(dst, `,"added":`...), added...)
	if it.Author != "" {
		dst = appendJSONString(append(dst, `,"author":`...), it.Author)
	}
	if it.Published != "" {
		dst = appendJSONString(append(dst, `,"published":`...), it.Published)
	}
	dst = append(dst, `,"paragraphs":`...)
	if it.Paragraphs == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range it.Paragraphs {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendParagraphJSON(dst, &it.Paragraphs[i])
		}
		dst = append(dst, ']')
	}
	return append(dst, '}'), nil
}

func appendParagraphJSON(dst []byte, p *item.Paragraph) []byte {
	dst = append(dst, `{"text":`...)
	dst = appendJSONString(dst, p.Text)
	if p.Heading != "" {
		dst = append(dst, `,"heading":`...)
		dst = appendJSONString(dst, p.Heading)
	}
	if p.Page != 0 {
		dst = strconv.AppendInt(append(dst, `,"page":`...), int64(p.Page), 10)
	}
	if p.HeadingPage != 0 {
		dst = strconv.AppendInt(append(dst, `,"headingPage":`...), int64(p.HeadingPage), 10)
	}
	if p.StartMs != nil {
		dst = strconv.AppendInt(append(dst, `,"startMs":`...), *p.StartMs, 10)
	}
	if len(p.Cues) > 0 {
		dst = append(dst, `,"cues":[`...)
		for i, c := range p.Cues {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(append(dst, `{"offset":`...), int64(c.Offset), 10)
			dst = strconv.AppendInt(append(dst, `,"startMs":`...), c.StartMs, 10)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if len(p.Pages) > 0 {
		dst = append(dst, `,"pages":[`...)
		for i, s := range p.Pages {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(append(dst, `{"offset":`...), int64(s.Offset), 10)
			dst = strconv.AppendInt(append(dst, `,"page":`...), int64(s.Page), 10)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendJSONString appends s as json.Marshal writes a string: quoted, with
// '"' and '\' escaped, control characters as \b \f \n \r \t or \u00XX,
// '<' '>' '&' as \u003c \u003e \u0026 (HTML-safe), bytes that are not
// UTF-8 as \ufffd, and U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, `\b`...)
			case '\f':
				dst = append(dst, `\f`...)
			case '\n':
				dst = append(dst, `\n`...)
			case '\r':
				dst = append(dst, `\r`...)
			case '\t':
				dst = append(dst, `\t`...)
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}
