package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
)

// Record is any of the protocol's records; a pointer to one of the structs
// in records.go.
type Record interface {
	header() *Header
}

func (h *Header) header() *Header { return h }

// TypeOf returns the "type" a record is written with.
func TypeOf(r Record) string {
	switch r.(type) {
	case *Question:
		return TypeQuestion
	case *Warning:
		return TypeWarning
	case *Hit:
		return TypeHit
	case *Passage:
		return TypePassage
	case *Model:
		return TypeModel
	case *Statement:
		return TypeStatement
	case *Verified:
		return TypeVerified
	case *LeftOut:
		return TypeLeftOut
	case *Done:
		return TypeDone
	}
	panic(fmt.Sprintf("jsonl: %T is not a record", r))
}

// newRecord returns an empty record of the given type, or nil if the type is unknown.
func newRecord(typ string) Record {
	switch typ {
	case TypeQuestion:
		return &Question{}
	case TypeWarning:
		return &Warning{}
	case TypeHit:
		return &Hit{}
	case TypePassage:
		return &Passage{}
	case TypeModel:
		return &Model{}
	case TypeStatement:
		return &Statement{}
	case TypeVerified:
		return &Verified{}
	case TypeLeftOut:
		return &LeftOut{}
	case TypeDone:
		return &Done{}
	}
	return nil
}

// Line is one decoded line of a stream.
type Line struct {
	// Number is the 1-based line number in the input.
	Number int
	// Raw is the line as read, without its newline; stages pass records they
	// do not consume on as Raw, unchanged.
	Raw []byte
	// Record is the decoded record.
	Record Record
}

// DecodeError is a line that is not a valid record. Its message names the
// input and the line, e.g. "<stdin>:3: unknown record type \"clam\"".
type DecodeError struct {
	Input string
	Line  int
	Err   error
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s:%d: %v", e.Input, e.Line, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// MaxLine is the longest line a Reader reads, in bytes: far above any
// record sponge writes (a passage is one paragraph), and far below what
// would take the machine's memory. A longer line is a *DecodeError at once,
// before it is held whole.
const MaxLine = 64 << 20

// Reader reads records, one per line, of up to MaxLine bytes.
type Reader struct {
	name string
	r    *bufio.Reader
	line int
}

// NewReader reads records from r; name is how errors call the input, such as "<stdin>".
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{name: name, r: bufio.NewReaderSize(r, 64*1024)}
}

// Name is how errors call the input, such as "<stdin>".
func (r *Reader) Name() string { return r.name }

// Next returns the next record, or io.EOF at the end of the input. Blank
// lines are skipped. A line that is not a valid record is a *DecodeError.
func (r *Reader) Next() (*Line, error) {
	for {
		raw, err := r.readLine()
		if errors.Is(err, errLineTooLong) {
			r.line++
			return nil, &DecodeError{Input: r.name, Line: r.line, Err: err}
		}
		if len(raw) == 0 && err != nil {
			if err == io.EOF {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
		r.line++
		raw = bytes.TrimRight(raw, "\r\n")
		if len(bytes.TrimSpace(raw)) == 0 {
			if err != nil {
				return nil, io.EOF
			}
			continue
		}
		rec, derr := Decode(raw)
		if derr != nil {
			return nil, &DecodeError{Input: r.name, Line: r.line, Err: derr}
		}
		// In a valid record a carriage return can only stand between
		// tokens (inside a string it must be escaped): the line is passed
		// on without it, so that it stays one valid line wherever it goes.
		if bytes.IndexByte(raw, '\r') >= 0 {
			raw = bytes.ReplaceAll(raw, []byte{'\r'}, nil)
		}
		return &Line{Number: r.line, Raw: raw, Record: rec}, nil
	}
}

var errLineTooLong = fmt.Errorf("line too long: a record is at most %d MiB", MaxLine>>20)

// readLine reads up to and with the next newline, or errLineTooLong as
// soon as the line passes MaxLine (the rest of the input is not read).
func (r *Reader) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.r.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine+2 { // +2: the line's own "\r\n"
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// Decode decodes one line strictly: a known "v" and "type", and no field
// that the type does not define.
func Decode(raw []byte) (Record, error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	// encoding/json matches field names without regard to case; the
	// protocol does not, so every key must be one of the type's own.
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", jsonErr(err))
	}
	// The common line, "v":1 and a plain type name, is read from the keys;
	// anything else from a header, which says what is wrong with it.
	var rec Record
	typ, plainType := plainString(keys["type"])
	if string(keys["v"]) == "1" && plainType {
		rec = newRecord(typ)
	}
	if rec == nil {
		var h struct {
			V    *int    `json:"v"`
			Type *string `json:"type"`
		}
		if err := json.Unmarshal(raw, &h); err != nil {
			return nil, fmt.Errorf("not a JSON object: %v", jsonErr(err))
		}
		if h.V == nil {
			return nil, errors.New(`record has no "v" (protocol version)`)
		}
		if *h.V != Version {
			return nil, fmt.Errorf("protocol version %d is not supported (this is version %d)", *h.V, Version)
		}
		if h.Type == nil {
			return nil, errors.New(`record has no "type"`)
		}
		if rec = newRecord(*h.Type); rec == nil {
			return nil, fmt.Errorf("unknown record type %q", *h.Type)
		}
		typ = *h.Type
	}
	if n := topLevelKeys(raw); n != len(keys) {
		return nil, fmt.Errorf("bad %s record: a key is given twice (which one a reader takes would depend on the reader)", typ)
	}
	allowed := fieldsOf(rec)
	for k := range keys {
		if !allowed[k] {
			return nil, fmt.Errorf("bad %s record: unknown field %q", typ, k)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(rec); err != nil {
		return nil, fmt.Errorf("bad %s record: %v", typ, jsonErr(err))
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value on the line")
	}
	if c, ok := rec.(checker); ok {
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("bad %s record: %v", typ, err)
		}
	}
	return rec, nil
}

// plainString returns the string a JSON value is when it is one without
// escapes.
func plainString(v json.RawMessage) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' || bytes.ContainsAny(v[1:len(v)-1], "\\\"") {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}

var fieldCache sync.Map // reflect.Type → map[string]bool

// fieldsOf returns the JSON names of a record type's fields.
func fieldsOf(rec Record) map[string]bool {
	t := reflect.TypeOf(rec).Elem()
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]bool)
	}
	names := map[string]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous {
				walk(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			if name != "-" {
				names[name] = true
			}
		}
	}
	walk(t)
	fieldCache.Store(t, names)
	return names
}

// jsonErr drops the "json: " prefix of encoding/json's messages.
func jsonErr(err error) string {
	s := err.Error()
	if len(s) > 6 && s[:6] == "json: " {
		return s[6:]
	}
	return s
}

// Writer writes records, each with one Write call so that a reader on the
// other end of a pipe sees each record as soon as it is made, and so that
// a writer beneath it may treat each Write as whole lines (a stage
// program's stdout escapes what a terminal would act on: pipeline.Main).
type Writer struct {
	w   io.Writer
	buf bytes.Buffer
}

// NewWriter writes records to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write fills in the record's "v" and "type" and writes it as one line.
func (w *Writer) Write(r Record) error {
	h := r.header()
	h.V = Version
	h.Type = TypeOf(r)
	w.buf.Reset()
	enc := json.NewEncoder(&w.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := w.w.Write(w.buf.Bytes())
	return err
}

// WriteRaw passes a line on unchanged, in one Write as Write does.
func (w *Writer) WriteRaw(raw []byte) error {
	w.buf.Reset()
	w.buf.Write(raw)
	w.buf.WriteByte('\n')
	_, err := w.w.Write(w.buf.Bytes())
	return err
}

// topLevelKeys counts the keys of the JSON object raw (valid JSON, as
// decoded), counting a key given twice twice: fewer keys in the decoded
// map than here is a key given twice.
func topLevelKeys(raw []byte) int {
	n, depth := 0, 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			// A string: skip to its end; at depth 1 it is a key when a
			// colon follows it.
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
			if depth == 1 {
				j := i + 1
				for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\r' || raw[j] == '\n') {
					j++
				}
				if j < len(raw) && raw[j] == ':' {
					n++
				}
			}
		}
	}
	return n
}
