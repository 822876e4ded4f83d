package termtext

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// WriteJSON writes v as one indented JSON document for a person or a
// script: <, > and & kept as they are, and every character a terminal acts
// on written as a \u escape. encoding/json escapes the C0 controls but
// writes DEL, the C1 controls (U+009B is CSI on many terminals) and the bidi
// overrides raw, so `sponge list --json` on a terminal could still be
// steered by a title. The escaped document decodes to the same values.
func WriteJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSON(b.Bytes()))
	return err
}

// JSONLines writes to w what is written to it, whole lines of JSON (a
// stream's records, each in one Write), with EscapeJSON's escapes: a
// stage's stream on a person's terminal shows a model's or a title's text
// inert, and its records read back the same. A Write must not split a
// character.
func JSONLines(w io.Writer) io.Writer { return jsonLines{w} }

type jsonLines struct{ w io.Writer }

func (j jsonLines) Write(p []byte) (int, error) {
	if _, err := j.w.Write(EscapeJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// EscapeJSON rewrites, in valid JSON, the characters a terminal acts on
// (newline and tab never stand raw inside encoded JSON strings) as \uXXXX:
// the document decodes to the same values. Outside strings JSON has only
// ASCII punctuation, digits, letters and whitespace, none unsafe. A document
// with nothing to escape is returned as it is, without copying.
func EscapeJSON(doc []byte) []byte {
	i := firstUnsafeJSON(doc)
	if i < 0 {
		return doc
	}
	out := make([]byte, 0, len(doc)+16)
	out = append(out, doc[:i]...)
	for i < len(doc) {
		r, n := utf8.DecodeRune(doc[i:])
		if r != '\n' && r != '\t' && unsafe(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, doc[i:i+n]...)
		}
		i += n
	}
	return out
}

// leads are the bytes an unsafe character of encoded JSON can start with:
// the C0 controls but newline and tab, DEL, 0xC2 (U+0080 to U+00BF, the C1
// controls among them) and 0xE2 (U+2000 to U+2FFF, the bidi controls among
// them). Every stream record goes through EscapeJSON, so it looks at bytes,
// not runes, until one of these.
var leads = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = c != '\n' && c != '\t'
	}
	t[0x7f], t[0xc2], t[0xe2] = true, true, true
	return t
}()

// firstUnsafeJSON is the index of the first character of doc EscapeJSON
// rewrites, or -1. Eight bytes at a time it skips words of printable
// ASCII, which is nearly all of a stream.
func firstUnsafeJSON(doc []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(doc); i += 8 {
		x := binary.LittleEndian.Uint64(doc[i:])
		// A byte below 0x20 or from 0x7f up sets a high bit here; a borrow
		// or carry can set another byte's too, which only costs a look.
		if ((x-0x2020202020202020)|(x+ones))&highs == 0 {
			continue
		}
		if j := firstLead(doc, i, i+8); j >= 0 {
			return j
		}
	}
	return firstLead(doc, i, len(doc))
}

// firstLead is the index of the first unsafe character of doc that starts
// from byte from to byte to, or -1.
func firstLead(doc []byte, from, to int) int {
	for i := from; i < to; i++ {
		if !leads[doc[i]] {
			continue
		}
		if r, _ := utf8.DecodeRune(doc[i:]); r != '\n' && r != '\t' && unsafe(r) {
			return i
		}
	}
	return -1
}
