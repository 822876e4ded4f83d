package extract

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/sponge-library/sponge/internal/library/extract/pdf"
)

// This file reads a content stream's operators and operands from its
// inflated bytes. It replaces pdf.Interpret, which lexed a byte at a time
// through a reader and boxed every operand in a pdf.Value: that was most of
// the time spent on a PDF. The token rules are pdf.Interpret's, quirks
// included (what counts as a number, which errors skip one operand and
// which end the page), so a page reads to the same glyphs; a test compares
// the two on generated and fuzzed streams. What differs: an inline image's
// data (BI … ID … EI) is skipped instead of read as operators, which could
// lose the rest of the page; and, on streams no writer makes, a hex string
// left open at the end is an error instead of a loop that never ends,
// PostScript's dict, begin, end, def and pop are operators like any other
// unknown one, and a stream past maxContentBytes ends there.

// csKind is the kind of a content-stream token or operand.
type csKind uint8

const (
	csEOF     csKind = iota
	csNull           // null, or a stray ] or >> read as an object
	csBool           //
	csNumber         // integer or real, in num
	csString         // literal or hex string: its bytes are text[lo:hi]
	csName           // name without the slash: text[lo:hi]
	csArray          // array: its elements are elems[lo:hi] (only for operands)
	csDict           // dictionary (its entries are not kept)
	csKeyword        // operator or delimiter: data[lo:hi]
)

// csToken is a token or an operand.
type csToken struct {
	kind   csKind
	num    float64
	lo, hi int
}

// maxObjectDepth is how deep arrays and dictionaries nest before the
// object is refused (pdf.Interpret's limit).
const maxObjectDepth = 1000

// contentLexer reads one content stream.
type contentLexer struct {
	data []byte
	pos  int
	eof  bool  // read past the end: every further byte reads as '\n'
	err  error // the stream's read error, raised where bytes past data are needed

	openHex bool // a hex string ran to the end (where pdf.Interpret looped for ever)

	pending *csToken // a token read and given back
	back    csToken

	text  []byte    // bytes of the strings and names of the current operands
	args  []csToken // the current operator's operands
	elems []csToken // elements of the operands that are arrays
}

// readByte returns the next byte; past the end it returns '\n', as
// pdf.Interpret did, and the stream's read error, if any, ends the page.
func (l *contentLexer) readByte() byte {
	if l.pos >= len(l.data) {
		if l.err != nil {
			panic(l.err)
		}
		l.eof = true
		return '\n'
	}
	c := l.data[l.pos]
	l.pos++
	return c
}

// unreadByte gives back the byte just read (nothing past the end).
func (l *contentLexer) unreadByte() {
	if !l.eof && l.pos > 0 {
		l.pos--
	}
}

func (l *contentLexer) keyword(lo int) csToken { return csToken{kind: csKeyword, lo: lo, hi: l.pos} }

func (l *contentLexer) isKeyword(t csToken, s string) bool {
	return t.kind == csKeyword && string(l.data[t.lo:t.hi]) == s
}

// token reads the next token.
func (l *contentLexer) token() (csToken, error) {
	if l.pending != nil {
		l.pending = nil
		return l.back, nil
	}
	c := l.readByte()
	for {
		if pdf.IsSpace(c) {
			if l.eof {
				return csToken{kind: csEOF}, nil
			}
			c = l.readByte()
		} else if c == '%' {
			for c != '\r' && c != '\n' {
				c = l.readByte()
			}
		} else {
			break
		}
	}
	switch c {
	case '<':
		if l.readByte() == '<' {
			return l.keyword(l.pos - 2), nil
		}
		l.unreadByte()
		return l.readHex()
	case '(':
		return l.readLiteral()
	case '[', ']', '{', '}':
		return l.keyword(l.pos - 1), nil
	case '/':
		return l.readName()
	case '>':
		if l.readByte() == '>' {
			return l.keyword(l.pos - 2), nil
		}
		l.unreadByte()
	}
	if pdf.IsDelim(c) {
		return csToken{}, fmt.Errorf("unexpected delimiter %#q", rune(c))
	}
	l.unreadByte()
	return l.readWord()
}

func (l *contentLexer) unread(t csToken) {
	l.back = t
	l.pending = &l.back
}

func (l *contentLexer) readHex() (csToken, error) {
	lo := len(l.text)
	for {
		c := l.readByte()
		for pdf.IsSpace(c) && !l.eof {
			c = l.readByte()
		}
		if c == '>' {
			break
		}
		c2 := l.readByte()
		for pdf.IsSpace(c2) && !l.eof {
			c2 = l.readByte()
		}
		if l.eof {
			l.openHex = true
			return csToken{}, fmt.Errorf("malformed hex string: no closing >")
		}
		x := pdf.Unhex(c)<<4 | pdf.Unhex(c2)
		if x < 0 {
			return csToken{}, fmt.Errorf("malformed hex string %c %c", c, c2)
		}
		l.text = append(l.text, byte(x))
	}
	return csToken{kind: csString, lo: lo, hi: len(l.text)}, nil
}

func (l *contentLexer) readLiteral() (csToken, error) {
	lo := len(l.text)
	// Most strings have no escape: copy them in one go.
	if i := bytes.IndexAny(l.data[l.pos:], `()\`); i >= 0 && l.data[l.pos+i] == ')' {
		l.text = append(l.text, l.data[l.pos:l.pos+i]...)
		l.pos += i + 1
		return csToken{kind: csString, lo: lo, hi: len(l.text)}, nil
	}
	depth := 1
Loop:
	for !l.eof {
		c := l.readByte()
		switch c {
		default:
			l.text = append(l.text, c)
		case '(':
			depth++
			l.text = append(l.text, c)
		case ')':
			if depth--; depth == 0 {
				break Loop
			}
			l.text = append(l.text, c)
		case '\\':
			switch c = l.readByte(); c {
			default:
				return csToken{}, fmt.Errorf("invalid escape sequence \\%c", c)
			case 'n':
				l.text = append(l.text, '\n')
			case 'r':
				l.text = append(l.text, '\r')
			case 'b':
				l.text = append(l.text, '\b')
			case 't':
				l.text = append(l.text, '\t')
			case 'f':
				l.text = append(l.text, '\f')
			case '(', ')', '\\':
				l.text = append(l.text, c)
			case '\r':
				if l.readByte() != '\n' {
					l.unreadByte()
				}
			case '\n':
			case '0', '1', '2', '3', '4', '5', '6', '7':
				x := int(c - '0')
				for i := 0; i < 2; i++ {
					c = l.readByte()
					if c < '0' || c > '7' {
						l.unreadByte()
						break
					}
					x = x*8 + int(c-'0')
				}
				if x > 255 {
					return csToken{}, fmt.Errorf("invalid octal escape \\%03o", x)
				}
				l.text = append(l.text, byte(x))
			}
		}
	}
	return csToken{kind: csString, lo: lo, hi: len(l.text)}, nil
}

func (l *contentLexer) readName() (csToken, error) {
	lo := len(l.text)
	for {
		c := l.readByte()
		if pdf.IsDelim(c) || pdf.IsSpace(c) {
			l.unreadByte()
			break
		}
		if c == '#' {
			x := pdf.Unhex(l.readByte())<<4 | pdf.Unhex(l.readByte())
			if x < 0 {
				return csToken{}, fmt.Errorf("malformed name")
			}
			l.text = append(l.text, byte(x))
			continue
		}
		l.text = append(l.text, c)
	}
	return csToken{kind: csName, lo: lo, hi: len(l.text)}, nil
}

// readWord reads a keyword, a boolean or a number.
func (l *contentLexer) readWord() (csToken, error) {
	lo := l.pos
	for l.pos < len(l.data) && !pdf.IsDelim(l.data[l.pos]) && !pdf.IsSpace(l.data[l.pos]) {
		l.pos++
	}
	if l.pos == len(l.data) && l.err != nil {
		panic(l.err) // the word may go on in the bytes that could not be read
	}
	w := l.data[lo:l.pos]
	switch {
	case string(w) == "true":
		return csToken{kind: csBool, num: 1}, nil
	case string(w) == "false":
		return csToken{kind: csBool}, nil
	}
	if x, ok, isNum := pdf.ParseNumber(w); isNum {
		if !ok {
			if pdf.IsInteger(w) {
				return csToken{}, fmt.Errorf("invalid integer %s", w)
			}
			return csToken{}, fmt.Errorf("invalid real %s", w)
		}
		return csToken{kind: csNumber, num: x}, nil
	}
	return csToken{kind: csKeyword, lo: lo, hi: l.pos}, nil
}

// object reads the object that starts with tok at nesting depth depth.
// Only the elements of an operand that is an array (depth 1) are kept.
func (l *contentLexer) object(tok csToken, depth int) (csToken, error) {
	if depth > maxObjectDepth {
		l.unread(tok)
		return csToken{}, fmt.Errorf("object nesting exceeds maximum depth %d", maxObjectDepth)
	}
	if tok.kind != csKeyword {
		return tok, nil
	}
	switch string(l.data[tok.lo:tok.hi]) {
	case "null", ">>", "]":
		return csToken{kind: csNull}, nil
	case "<<":
		for {
			key, err := l.token()
			if err != nil {
				return csToken{}, err
			}
			if key.kind == csEOF || l.isKeyword(key, ">>") {
				break
			}
			if key.kind != csName {
				return csToken{}, fmt.Errorf("unexpected non-name key parsing dictionary")
			}
			if depth+1 > maxObjectDepth {
				return csToken{}, fmt.Errorf("object nesting exceeds maximum depth %d", maxObjectDepth)
			}
			v, err := l.token()
			if err != nil {
				return csToken{}, err
			}
			if _, err := l.object(v, depth+1); err != nil {
				return csToken{}, err
			}
		}
		return csToken{kind: csDict}, nil
	case "[":
		lo := len(l.elems)
		for {
			t, err := l.token()
			if err != nil {
				return csToken{}, err
			}
			if t.kind == csEOF || l.isKeyword(t, "]") {
				break
			}
			e, err := l.object(t, depth+1)
			if err != nil {
				return csToken{}, err
			}
			if depth == 1 {
				l.elems = append(l.elems, e)
			}
		}
		return csToken{kind: csArray, lo: lo, hi: len(l.elems)}, nil
	}
	return csToken{}, fmt.Errorf("unexpected keyword %q parsing object", l.data[tok.lo:tok.hi])
}

// next reads operands up to the next operator and returns the operator;
// its operands are in l.args. ok is false at the end of the stream. An
// operand that does not parse is dropped; a token that does not ends the
// stream with a panic, as in pdf.Interpret.
func (l *contentLexer) next() (op []byte, ok bool) {
	l.args, l.elems, l.text = l.args[:0], l.elems[:0], l.text[:0]
	for {
		tok, err := l.token()
		if err != nil {
			panic(err)
		}
		switch tok.kind {
		case csEOF:
			return nil, false
		case csKeyword:
			switch w := l.data[tok.lo:tok.hi]; string(w) {
			case "null", "[", "]", "<<", ">>":
			default:
				return w, true
			}
		}
		if v, err := l.object(tok, 1); err == nil {
			l.args = append(l.args, v)
		}
	}
}

// skipInlineImage moves past an inline image's data, which follows the ID
// operator, to the end of its EI operator.
func (l *contentLexer) skipInlineImage() {
	i := l.pos + 1 // ID is followed by one white-space byte
	for i < len(l.data) {
		j := bytes.Index(l.data[i:], []byte("EI"))
		if j < 0 {
			break
		}
		j += i
		if pdf.IsSpace(l.data[j-1]) && (j+2 == len(l.data) || pdf.IsSpace(l.data[j+2])) {
			l.pos = j + 2
			return
		}
		i = j + 2
	}
	l.pos = len(l.data)
}

// Operand accessors, with pdf.Value's rules: a number of another kind is
// 0, a string or name of another kind is empty.

func argNum(args []csToken, i int) float64 {
	if i < len(args) {
		return args[i].float()
	}
	return 0
}

func (t csToken) float() float64 {
	if t.kind == csNumber {
		return t.num
	}
	return 0
}

func (l *contentLexer) argString(t csToken) []byte {
	if t.kind != csString {
		return nil
	}
	return l.text[t.lo:t.hi]
}

func (l *contentLexer) argName(t csToken) string {
	if t.kind != csName {
		return ""
	}
	return string(l.text[t.lo:t.hi])
}

// maxContentBytes bounds one inflated content stream: a page that long is
// a zip bomb, not text.
const maxContentBytes = 64 << 20

var errContentTooLong = fmt.Errorf("content stream longer than %d MiB", maxContentBytes>>20)

// contentBytes reads a content stream whole into buf: a stream, or an
// array of streams read as one. A read error comes back with the bytes
// read before it.
func contentBytes(strm pdf.Value, buf []byte) ([]byte, error) {
	parts := []pdf.Value{strm}
	if strm.Kind() == pdf.KindArray {
		parts = parts[:0]
		for i := 0; i < strm.Len(); i++ {
			parts = append(parts, strm.Index(i))
		}
	}
	buf = buf[:0]
	for i, p := range parts {
		if p.Kind() != pdf.KindStream {
			continue
		}
		data, err := p.Data(maxContentBytes - len(buf))
		buf = append(buf, data...)
		if errors.Is(err, pdf.ErrTooLong) {
			return buf, errContentTooLong
		}
		if err != nil {
			return buf, fmt.Errorf("malformed PDF: content stream %d of %d: %v", i+1, len(parts), err)
		}
		// Streams of a page's array are read as one, and a token may not
		// run from one into the next.
		if i+1 < len(parts) {
			buf = append(buf, '\n')
		}
	}
	return buf, nil
}
