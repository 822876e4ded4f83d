package termtext

import (
	"bytes"
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

// EscapeJSON rewrites, in valid JSON, the characters a terminal acts on
// (newline and tab never stand raw inside encoded JSON strings) as \uXXXX:
// the document decodes to the same values. Outside strings JSON has only
// ASCII punctuation, digits, letters and whitespace, none unsafe. A document
// with nothing to escape is returned as it is, without copying.
func EscapeJSON(doc []byte) []byte {
	i := bytes.IndexFunc(doc, func(r rune) bool { return r != '\n' && r != '\t' && unsafe(r) })
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
