// Package pdf reads the object structure of a PDF file: its cross-reference
// sections, indirect objects, object streams, stream filters and the page
// tree. It is what the PDF extractor stands on. It parses each object once
// and keeps it (objects in object streams too: a reader that inflates the
// object stream again for every object it resolves spends most of its time
// there), and it reads damaged files the way viewers do: a cross-reference
// that does not match the file is rebuilt by scanning for objects.
package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// The objects a file holds are these Go values: nil (null), bool, int64,
// float64, string (a PDF string's bytes), Name, Array, Dict, *Stream and
// Ref (an indirect reference, resolved by Value's accessors).
type (
	// Name is a PDF name, without its slash and with #xx escapes decoded.
	Name string
	// Array is a PDF array.
	Array []any
	// Dict is a PDF dictionary, by key without the slash.
	Dict map[Name]any
	// Ref is an indirect reference: object number and generation.
	Ref struct {
		Num int
		Gen int
	}
)

// Stream is a stream object: its dictionary and where its bytes lie in
// the file. The bytes are read and decoded on demand.
type Stream struct {
	Dict Dict
	ref  Ref   // the object the stream is, for decryption
	off  int64 // offset of the first byte of data
}

// maxDepth bounds how deep arrays and dictionaries nest.
const maxDepth = 256

// lexer reads PDF tokens from a byte slice.
type lexer struct {
	data []byte
	pos  int
}

// A token is a keyword or delimiter (kind 'k', word in data[lo:hi]), a
// number ('n'), a name ('/'), a string ('s') or the end ('e').
type token struct {
	kind   byte
	lo, hi int
	num    float64
	isInt  bool
	text   string // of names and strings
}

var errEnd = errors.New("unexpected end of data")

// IsSpace reports whether b is PDF white space.
func IsSpace(b byte) bool {
	switch b {
	case 0, '\t', '\n', '\f', '\r', ' ':
		return true
	}
	return false
}

// IsDelim reports whether b is a PDF delimiter.
func IsDelim(b byte) bool {
	switch b {
	case '<', '>', '(', ')', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// Unhex is the value of a hex digit, or -1.
func Unhex(b byte) int {
	switch {
	case '0' <= b && b <= '9':
		return int(b) - '0'
	case 'a' <= b && b <= 'f':
		return int(b) - 'a' + 10
	case 'A' <= b && b <= 'F':
		return int(b) - 'A' + 10
	}
	return -1
}

func (l *lexer) skipSpace() {
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		if IsSpace(c) {
			l.pos++
			continue
		}
		if c == '%' {
			for l.pos < len(l.data) && l.data[l.pos] != '\r' && l.data[l.pos] != '\n' {
				l.pos++
			}
			continue
		}
		return
	}
}

func (l *lexer) token() (token, error) {
	l.skipSpace()
	if l.pos >= len(l.data) {
		return token{kind: 'e'}, nil
	}
	lo := l.pos
	c := l.data[l.pos]
	l.pos++
	switch c {
	case '<':
		if l.pos < len(l.data) && l.data[l.pos] == '<' {
			l.pos++
			return token{kind: 'k', lo: lo, hi: l.pos}, nil
		}
		return l.hexString()
	case '>':
		if l.pos < len(l.data) && l.data[l.pos] == '>' {
			l.pos++
			return token{kind: 'k', lo: lo, hi: l.pos}, nil
		}
		return token{}, fmt.Errorf("unexpected '>' at offset %d", lo)
	case '[', ']', '{', '}':
		return token{kind: 'k', lo: lo, hi: l.pos}, nil
	case '(':
		return l.literalString()
	case '/':
		return l.name()
	case ')':
		return token{}, fmt.Errorf("unexpected ')' at offset %d", lo)
	}
	for l.pos < len(l.data) && !IsSpace(l.data[l.pos]) && !IsDelim(l.data[l.pos]) {
		l.pos++
	}
	w := l.data[lo:l.pos]
	if n, isInt, ok := number(w); ok {
		return token{kind: 'n', lo: lo, hi: l.pos, num: n, isInt: isInt}, nil
	}
	return token{kind: 'k', lo: lo, hi: l.pos}, nil
}

// number parses a PDF integer or real ([+-]digits, at most one dot); an
// integer too large for int64 reads as a real.
func number(w []byte) (x float64, isInt, ok bool) {
	x, ok, isNum := ParseNumber(w)
	switch {
	case !isNum:
		return 0, false, false
	case !ok:
		v, err := strconv.ParseFloat(string(w), 64)
		return v, false, err == nil
	}
	return x, IsInteger(w), true
}

func (l *lexer) hexString() (token, error) {
	end := bytes.IndexByte(l.data[l.pos:], '>')
	if end < 0 {
		return token{}, errEnd
	}
	b, err := asciiHexDecode(l.data[l.pos : l.pos+end])
	if err != nil {
		return token{}, fmt.Errorf("malformed hex string at offset %d: %v", l.pos, err)
	}
	l.pos += end + 1
	return token{kind: 's', text: string(b)}, nil
}

func (l *lexer) literalString() (token, error) {
	// Most strings have no escape, parenthesis or CR inside.
	if i := bytes.IndexAny(l.data[l.pos:], "()\\\r"); i >= 0 && l.data[l.pos+i] == ')' {
		s := string(l.data[l.pos : l.pos+i])
		l.pos += i + 1
		return token{kind: 's', text: s}, nil
	}
	var b []byte
	depth := 1
	for {
		if l.pos >= len(l.data) {
			return token{}, errEnd
		}
		c := l.data[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return token{kind: 's', text: string(b)}, nil
			}
		case '\r':
			// An end of line in a string reads as \n, whatever its bytes.
			if l.pos < len(l.data) && l.data[l.pos] == '\n' {
				l.pos++
			}
			c = '\n'
		case '\\':
			if l.pos >= len(l.data) {
				return token{}, errEnd
			}
			c = l.data[l.pos]
			l.pos++
			switch c {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if l.pos < len(l.data) && l.data[l.pos] == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			case '0', '1', '2', '3', '4', '5', '6', '7':
				x := int(c - '0')
				for i := 0; i < 2 && l.pos < len(l.data) && l.data[l.pos] >= '0' && l.data[l.pos] <= '7'; i++ {
					x = x*8 + int(l.data[l.pos]-'0')
					l.pos++
				}
				c = byte(x)
			}
			// Any other escaped byte stands for itself.
		}
		b = append(b, c)
	}
}

func (l *lexer) name() (token, error) {
	lo := l.pos
	plain := true
	for l.pos < len(l.data) && !IsSpace(l.data[l.pos]) && !IsDelim(l.data[l.pos]) {
		if l.data[l.pos] == '#' {
			plain = false
		}
		l.pos++
	}
	w := l.data[lo:l.pos]
	if plain {
		return token{kind: '/', text: string(w)}, nil
	}
	b := make([]byte, 0, len(w))
	for i := 0; i < len(w); i++ {
		if w[i] == '#' && i+2 < len(w)+0 && Unhex(w[i+1]) >= 0 && Unhex(w[i+2]) >= 0 {
			b = append(b, byte(Unhex(w[i+1])<<4|Unhex(w[i+2])))
			i += 2
			continue
		}
		b = append(b, w[i])
	}
	return token{kind: '/', text: string(b)}, nil
}

func (l *lexer) isKeyword(t token, s string) bool {
	return t.kind == 'k' && string(l.data[t.lo:t.hi]) == s
}

// object reads one object. Two integers followed by R are a reference.
func (l *lexer) object(depth int) (any, error) {
	t, err := l.token()
	if err != nil {
		return nil, err
	}
	return l.objectFrom(t, depth)
}

func (l *lexer) objectFrom(t token, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("objects nested more than %d deep", maxDepth)
	}
	switch t.kind {
	case 'e':
		return nil, errEnd
	case 's':
		return t.text, nil
	case '/':
		return Name(t.text), nil
	case 'n':
		if t.isInt {
			// n g R is a reference: look ahead without losing the tokens.
			save := l.pos
			if t2, err := l.token(); err == nil && t2.kind == 'n' && t2.isInt {
				if t3, err := l.token(); err == nil && l.isKeyword(t3, "R") {
					return Ref{int(t.num), int(t2.num)}, nil
				}
			}
			l.pos = save
			return int64(t.num), nil
		}
		return t.num, nil
	}
	switch w := string(l.data[t.lo:t.hi]); w {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	case "[":
		a := Array{}
		for {
			t, err := l.token()
			if err != nil {
				return nil, err
			}
			if l.isKeyword(t, "]") {
				return a, nil
			}
			if t.kind == 'e' {
				return nil, errEnd
			}
			x, err := l.objectFrom(t, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, x)
		}
	case "<<":
		d := Dict{}
		for {
			t, err := l.token()
			if err != nil {
				return nil, err
			}
			if l.isKeyword(t, ">>") {
				return d, nil
			}
			if t.kind == 'e' {
				return nil, errEnd
			}
			if t.kind != '/' {
				return nil, fmt.Errorf("dictionary key is not a name at offset %d", l.pos)
			}
			v, err := l.object(depth + 1)
			if err != nil {
				return nil, err
			}
			if v != nil { // a null value is the same as no entry
				d[Name(t.text)] = v
			}
		}
	default:
		return nil, fmt.Errorf("unexpected %q at offset %d", truncate(w), t.lo)
	}
}

func truncate(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}
