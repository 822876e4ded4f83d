package library

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

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
	defer frames.release()
	raw, err := frames.itemJSON(id)
	if err != nil {
		return nil, err
	}
	ps := &Paragraphs{raw: raw}
	head, spans, ok := splitParagraphs(raw)
	if ok && json.Unmarshal(head, &ps.Item) == nil {
		decodeItemSources(&ps.Item)
		ps.spans = spans
		return ps, nil
	}
	// Not laid out as Put writes items: decode it whole.
	var it item.Item
	if err := json.Unmarshal(raw, &it); err != nil {
		return nil, fault.New(fault.Damaged, "item %s is damaged: %v", item.Short(id), err)
	}
	decodeItemSources(&it)
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

// At decodes paragraph i. A paragraph of text, heading, page and start
// time only (most are) is read without encoding/json, its text not copied
// when it has no escapes (see Text).
func (ps *Paragraphs) At(i int) (*item.Paragraph, error) {
	if ps.all != nil {
		return &ps.all[i], nil
	}
	s := ps.spans[i]
	if p, ok := readParagraph(ps.raw[s[0]:s[1]], true); ok {
		return &p, nil
	}
	var p item.Paragraph
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
		// The next quote not escaped: one after an even run of
		// backslashes. IndexByte finds quotes many bytes at a time.
		for j := i + 1; ; {
			k := bytes.IndexByte(raw[j:], '"')
			if k < 0 {
				return -1
			}
			q := j + k
			n := 0
			for p := q - 1; p > i && raw[p] == '\\'; p-- {
				n++
			}
			if n%2 == 0 {
				return q + 1
			}
			j = q + 1
		}
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

// Text returns the heading and the text of paragraph i, read straight from
// the item's JSON without decoding the rest of the paragraph: ranking
// counts the words of every paragraph of a small item, and decoding each
// whole with encoding/json was a fifth of what ranking cost. A text without
// escapes is not copied: the strings share the item's memory, which is
// never written after it is read. A paragraph laid out otherwise is decoded
// whole, as At does.
func (ps *Paragraphs) Text(i int) (heading, text string, err error) {
	if ps.all == nil {
		s := ps.spans[i]
		if p, ok := readParagraph(ps.raw[s[0]:s[1]], false); ok {
			return p.Heading, p.Text, nil
		}
	}
	p, err := ps.At(i)
	if err != nil {
		return "", "", err
	}
	return p.Heading, p.Text, nil
}

// readParagraph reads a paragraph's JSON object as encoding/json decodes it
// into an item.Paragraph: its text and heading, and when full its page,
// its heading's page and its start time too. ok is false for what it leaves to encoding/json: with
// full, a paragraph with any other key (cues, pages); without, only its
// text and heading are read and other keys skipped; and JSON it does not
// follow (a key with escapes or in another case, a value of another type, a
// number that is not a plain integer).
func readParagraph(raw []byte, full bool) (p item.Paragraph, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return p, false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return p, true
	}
	for i < len(raw) {
		ks := i
		ke := skipValue(raw, i)
		if ke < 0 || raw[ks] != '"' {
			return p, false
		}
		key := raw[ks+1 : ke-1]
		i = skipSpace(raw, ke)
		if i >= len(raw) || raw[i] != ':' {
			return p, false
		}
		i = skipSpace(raw, i+1)
		ve := skipValue(raw, i)
		if ve < 0 {
			return p, false
		}
		value := raw[i:ve]
		switch string(key) {
		case "text":
			if p.Text, ok = unquote(value); !ok {
				return p, false
			}
		case "heading":
			if p.Heading, ok = unquote(value); !ok {
				return p, false
			}
		case "page", "headingPage", "startMs":
			if !full {
				break
			}
			n, ok := integer(value)
			if !ok {
				return p, false
			}
			switch {
			case key[0] == 's':
				p.StartMs = &n
			case int64(int(n)) != n:
				return p, false
			case key[0] == 'p':
				p.Page = int(n)
			default:
				p.HeadingPage = int(n)
			}
		default:
			if full {
				return p, false // cues, pages: encoding/json reads them
			}
			// encoding/json matches keys regardless of case.
			for _, k := range []string{"text", "heading"} {
				if bytes.EqualFold(key, []byte(k)) {
					return p, false
				}
			}
			if bytes.IndexByte(key, '\\') >= 0 {
				return p, false // an escaped key may be either
			}
		}
		i = skipSpace(raw, ve)
		if i < len(raw) && raw[i] == '}' {
			return p, skipSpace(raw, i+1) == len(raw)
		}
		if i >= len(raw) || raw[i] != ',' {
			return p, false
		}
		i = skipSpace(raw, i+1)
	}
	return p, false
}

// integer reads a JSON number that is a plain integer of at most 18 digits.
func integer(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// unquote returns the string a JSON string literal stands for, as
// encoding/json decodes it. A literal without escapes is not copied. ok is
// false for what it leaves to encoding/json: a literal that is not a string,
// bytes that are not UTF-8, a control character, a lone surrogate.
func unquote(lit []byte) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	if plainString(body) {
		if !utf8.Valid(body) {
			return "", false
		}
		return unsafe.String(unsafe.SliceData(body), len(body)), true
	}
	out := make([]byte, 0, len(body))
	for j := 0; j < len(body); j++ {
		c := body[j]
		if c < 0x20 {
			return "", false
		}
		if c != '\\' {
			out = append(out, c)
			continue
		}
		j++
		if j >= len(body) {
			return "", false
		}
		switch body[j] {
		case '"', '\\', '/':
			out = append(out, body[j])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(body[j+1:])
			if !ok {
				return "", false
			}
			j += 4
			if utf16.IsSurrogate(r) {
				// A pair makes one character; encoding/json says what a
				// lone one becomes.
				if j+6 >= len(body) || body[j+1] != '\\' || body[j+2] != 'u' {
					return "", false
				}
				r2, ok := hex4(body[j+3:])
				if !ok {
					return "", false
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return "", false
				}
				j += 6
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", false
		}
	}
	if !utf8.Valid(out) {
		return "", false
	}
	return string(out), true
}

// plainString reports whether a JSON string's body has no escape and no
// control character, looking at eight bytes at a time: a byte below 0x20
// or a backslash sets the high bit of its lane (the bit tricks of "Bit
// Twiddling Hacks": a zero byte, a byte less than n). Texts are long, and
// this was most of what reading them cost.
func plainString(b []byte) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		control := (x - 0x20*ones) &^ x & highs
		y := x ^ ('\\' * ones)
		slash := (y - ones) &^ y & highs
		if control|slash != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 || b[i] == '\\' {
			return false
		}
	}
	return true
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
