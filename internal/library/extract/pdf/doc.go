package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
)

// Doc is an open PDF file, held in memory.
type Doc struct {
	data        []byte
	xref        xrefTable
	trailer     Dict
	trailerOff  int64
	ends        []int64 // sorted offsets where objects start (see setEnds)
	cache       map[Ref]any
	objStms     map[int]*objStm // decoded object streams, by object number
	objStmBytes int             // their decoded size
	decoded     int64           // bytes the stream filters made, in all (see Decoded)
	crypt       *crypt
	resolving   map[Ref]bool
	repaired    bool
	// reach counts the bytes that reading objects and trailers could
	// reach, each from its offset to the end of its window (end): a scan
	// of a damaged file for its objects must stay in proportion to the
	// file (TestRebuildLinear), not read each object to the end of the file.
	reach int64
}

// ErrNotPDF is a file without a %PDF header.
var ErrNotPDF = errors.New("not a PDF file (no %PDF header)")

// Open reads a PDF's cross-reference and trailer. Objects are read when
// asked for. A file whose cross-reference is missing or does not match its
// objects is read by scanning for its objects instead.
func Open(data []byte) (*Doc, error) {
	head := data[:min(len(data), 1024)]
	i := bytes.Index(head, []byte("%PDF-"))
	if i < 0 {
		return nil, ErrNotPDF
	}
	// Offsets count from the header: bytes before it are not part of the file.
	d := &Doc{data: data[i:]}
	d.reset()
	err := d.readXref()
	if err == nil && !d.xrefMatches() {
		err = errors.New("the cross-reference does not match the objects")
	}
	if err == nil {
		var offs []int64
		d.xref.each(func(_ int, e entry) bool {
			if !e.inStream {
				offs = append(offs, e.off)
			}
			return true
		})
		d.setEnds(offs)
		// What reading the cross-reference resolved was resolved against
		// a table still being read.
		d.forget()
	}
	if err != nil {
		d.reset()
		if d.rebuild() != nil {
			return nil, fmt.Errorf("%v, and scanning the file found no document in it", err)
		}
		d.repaired = true
	}
	if enc, ok := d.trailer["Encrypt"]; ok {
		encDict, _ := d.resolve(enc).(Dict)
		if encDict == nil {
			return nil, ErrUnsupportedEncryption
		}
		var id0 string
		if ids, ok := d.resolve(d.trailer["ID"]).(Array); ok && len(ids) > 0 {
			id0, _ = d.resolve(ids[0]).(string)
		}
		// The Encrypt dictionary's own strings are not encrypted: keep it
		// as read, then decrypt what is read after.
		c, err := newCrypt(encDict, id0, d.resolve)
		if err != nil {
			return nil, err
		}
		d.crypt = c
		d.forget()
	}
	if d.Root().Kind() != KindDict {
		return nil, errors.New("the document has no catalog")
	}
	return d, nil
}

func (d *Doc) reset() {
	d.xref = newXrefTable(len(d.data))
	d.trailer = nil
	d.ends = nil
	d.forget()
	d.resolving = map[Ref]bool{}
}

// forget drops the objects read so far.
func (d *Doc) forget() {
	d.cache = map[Ref]any{}
	d.objStms = map[int]*objStm{}
	d.objStmBytes = 0
}

// Decoded is how many bytes the stream filters have made so far, a stream
// counted each time it is read: what reading the document has cost, which
// a caller bounds (a form drawn a million times inflates a million times).
func (d *Doc) Decoded() int64 { return d.decoded }

// xrefMatches checks a few objects the table places at file offsets: a
// table that is off (a file edited by hand, bytes added in front) is
// rebuilt rather than trusted.
func (d *Doc) xrefMatches() bool {
	checked := 0
	if r, ok := d.trailer["Root"].(Ref); ok {
		if e, ok := d.xref.get(r.Num); ok && !e.inStream {
			if !d.headerAt(e.off, r.Num) {
				return false
			}
			checked++
		}
	}
	ok := true
	d.xref.each(func(num int, e entry) bool {
		if !e.inStream {
			ok = d.headerAt(e.off, num)
			checked++
		}
		return ok && checked < 8
	})
	return ok
}

func (d *Doc) headerAt(off int64, num int) bool {
	if off < 0 || off >= int64(len(d.data)) {
		return false
	}
	l := &lexer{data: d.data, pos: int(off)}
	t1, err1 := l.token()
	t2, err2 := l.token()
	t3, err3 := l.token()
	return err1 == nil && err2 == nil && err3 == nil && t1.kind == 'n' && int(t1.num) == num &&
		t2.kind == 'n' && l.isKeyword(t3, "obj")
}

// setEnds notes where objects start, so that reading one stops where the
// next begins: in a damaged file, a string that never ends would otherwise
// be read to the end of the file, once for every such object.
func (d *Doc) setEnds(offs []int64) {
	offs = append(offs, int64(len(d.data)))
	slices.Sort(offs)
	d.ends = slices.Compact(offs)
}

// end is where the object at off ends at the latest: where the next known
// object starts.
func (d *Doc) end(off int64) int {
	i, found := slices.BinarySearch(d.ends, off)
	if found {
		i++
	}
	if i >= len(d.ends) {
		return len(d.data)
	}
	return int(d.ends[i])
}

// readIndirect reads "n g obj … endobj" at off.
func (d *Doc) readIndirect(off int64) (any, Ref, error) {
	if off < 0 || off >= int64(len(d.data)) {
		return nil, Ref{}, fmt.Errorf("object offset %d is outside the file", off)
	}
	end := d.end(off)
	d.reach += int64(end) - off
	l := &lexer{data: d.data[:end], pos: int(off)}
	t1, _ := l.token()
	t2, _ := l.token()
	t3, err := l.token()
	if err != nil || t1.kind != 'n' || t2.kind != 'n' || !l.isKeyword(t3, "obj") {
		return nil, Ref{}, fmt.Errorf("no object at offset %d", off)
	}
	ref := Ref{int(t1.num), int(t2.num)}
	obj, err := l.object(0)
	if err != nil {
		return nil, ref, fmt.Errorf("object %d: %v", ref.Num, err)
	}
	dict, ok := obj.(Dict)
	if !ok {
		return obj, ref, nil
	}
	save := l.pos
	t, err := l.token()
	if err != nil || !l.isKeyword(t, "stream") {
		l.pos = save
		return obj, ref, nil
	}
	// The data starts after the end of line that follows "stream".
	p := l.pos
	if p < len(d.data) && d.data[p] == '\r' {
		p++
	}
	if p < len(d.data) && d.data[p] == '\n' {
		p++
	}
	return &Stream{Dict: dict, ref: ref, off: int64(p)}, ref, nil
}

// resolve returns the object a reference points to (x itself when it is
// not a reference). An object that cannot be read is null, as a missing
// object is by the specification.
func (d *Doc) resolve(x any) any {
	r, ok := x.(Ref)
	if !ok {
		return x
	}
	if obj, ok := d.cache[r]; ok {
		return obj
	}
	if d.resolving[r] {
		return nil // a reference loop: Length naming its own stream
	}
	d.resolving[r] = true
	obj := d.load(r)
	delete(d.resolving, r)
	d.cache[r] = obj
	return obj
}

func (d *Doc) load(r Ref) any {
	e, ok := d.xref.get(r.Num)
	if !ok {
		return nil
	}
	if e.inStream {
		return d.objStm(int(e.stream)).object(int(e.index))
	}
	obj, got, err := d.readIndirect(e.off)
	if err != nil || got.Num != r.Num {
		return nil
	}
	if d.crypt != nil {
		obj = d.decryptStrings(r, obj, 0)
	}
	return obj
}

// decryptStrings decrypts the strings of object r.
func (d *Doc) decryptStrings(r Ref, x any, depth int) any {
	if depth > maxDepth {
		return x
	}
	switch v := x.(type) {
	case string:
		return d.crypt.decryptString(r, v)
	case Array:
		for i := range v {
			v[i] = d.decryptStrings(r, v[i], depth+1)
		}
	case Dict:
		for k := range v {
			v[k] = d.decryptStrings(r, v[k], depth+1)
		}
	case *Stream:
		d.decryptStrings(r, v.Dict, depth+1)
	}
	return x
}

// Bounds of the object streams kept decoded: each, and in all.
const (
	maxObjStmBytes = 32 << 20
	maxObjStmTotal = 256 << 20
)

// objStm is an object stream, decoded once. Its objects are parsed one at
// a time as they are asked for: a TeX document's object streams hold tens
// of thousands of link annotations and destinations that text extraction
// never reads, and parsing them all would cost hundreds of MB.
type objStm struct {
	data []byte
	nums []int // object numbers, in order
	offs []int // of each object in data; -1 when the header gives none
}

func (d *Doc) objStm(num int) *objStm {
	if st, ok := d.objStms[num]; ok {
		return st
	}
	st := &objStm{}
	d.objStms[num] = st // a stream that names itself reads as empty
	s, ok := d.resolve(Ref{num, 0}).(*Stream)
	if !ok {
		if e, ok := d.xref.get(num); ok {
			s, _ = d.resolve(Ref{num, int(e.gen)}).(*Stream)
		}
	}
	if s == nil {
		return st
	}
	// Object streams are kept decoded: a few that inflate to hundreds of
	// MB (a bomb) must not take all memory.
	data, err := d.streamData(s, min(maxObjStmBytes, maxObjStmTotal-d.objStmBytes))
	if err != nil && len(data) == 0 {
		return st
	}
	d.objStmBytes += len(data)
	n, _ := d.resolve(s.Dict["N"]).(int64)
	first, _ := d.resolve(s.Dict["First"]).(int64)
	if n <= 0 || n > maxObjects || first < 0 || first > int64(len(data)) {
		return st
	}
	head := &lexer{data: data[:first]}
	st.data = data
	for i := int64(0); i < n; i++ {
		t1, err1 := head.token()
		t2, err2 := head.token()
		if err1 != nil || err2 != nil || t1.kind != 'n' || t2.kind != 'n' {
			break
		}
		off := first + int64(t2.num)
		if off < first || off >= int64(len(data)) {
			off = -1
		}
		st.nums = append(st.nums, int(t1.num))
		st.offs = append(st.offs, int(off))
	}
	return st
}

// object parses the index-th object of the stream.
func (st *objStm) object(index int) any {
	if index < 0 || index >= len(st.offs) || st.offs[index] < 0 {
		return nil
	}
	l := &lexer{data: st.data, pos: st.offs[index]}
	obj, err := l.object(0)
	if err != nil {
		return nil
	}
	return obj
}

// Trailer is the trailer dictionary.
func (d *Doc) Trailer() Value { return Value{d: d, x: d.trailer} }

// Root is the document catalog.
func (d *Doc) Root() Value { return d.Trailer().Key("Root") }

// Kind is the kind of a Value.
type Kind uint8

const (
	KindNull Kind = iota
	KindBool
	KindInteger
	KindReal
	KindString
	KindName
	KindArray
	KindDict
	KindStream
)

// Value is an object of a document, with references resolved as it is
// walked. Accessors return the zero value for an object of another kind,
// so a walk through a damaged file needs no error checks.
type Value struct {
	d   *Doc
	x   any
	ref Ref // the indirect object it was read from, if any
}

func (d *Doc) value(x any) Value {
	if r, ok := x.(Ref); ok {
		return Value{d: d, x: d.resolve(r), ref: r}
	}
	return Value{d: d, x: x}
}

// Kind is the value's kind.
func (v Value) Kind() Kind {
	switch v.x.(type) {
	case bool:
		return KindBool
	case int64:
		return KindInteger
	case float64:
		return KindReal
	case string:
		return KindString
	case Name:
		return KindName
	case Array:
		return KindArray
	case Dict:
		return KindDict
	case *Stream:
		return KindStream
	}
	return KindNull
}

// IsNull reports whether the value is null (or missing).
func (v Value) IsNull() bool { return v.x == nil }

func (v Value) dict() Dict {
	switch x := v.x.(type) {
	case Dict:
		return x
	case *Stream:
		return x.Dict
	}
	return nil
}

// Key is a dictionary's (or a stream dictionary's) entry.
func (v Value) Key(k string) Value {
	d := v.dict()
	if d == nil {
		return Value{d: v.d}
	}
	return v.d.value(d[Name(k)])
}

// Index is an array's i-th element.
func (v Value) Index(i int) Value {
	a, _ := v.x.(Array)
	if i < 0 || i >= len(a) {
		return Value{d: v.d}
	}
	return v.d.value(a[i])
}

// Len is an array's length.
func (v Value) Len() int {
	a, _ := v.x.(Array)
	return len(a)
}

// Name is a name's text.
func (v Value) Name() string {
	n, _ := v.x.(Name)
	return string(n)
}

// RawString is a string's bytes.
func (v Value) RawString() string {
	s, _ := v.x.(string)
	return s
}

// Text is a text string decoded (UTF-16 or PDFDocEncoding).
func (v Value) Text() string { return TextString(v.RawString()) }

// Int64 is an integer's value; a real is truncated.
func (v Value) Int64() int64 {
	switch x := v.x.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

// Float64 is a number's value.
func (v Value) Float64() float64 {
	switch x := v.x.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// ID identifies the object: the same for every Value read from the same
// indirect object (or the same direct dictionary, array or stream), so
// callers can keep what they derive from it. Nil for other direct values.
func (v Value) ID() any {
	if v.ref != (Ref{}) {
		return v.ref
	}
	switch x := v.x.(type) {
	case Dict, Array:
		return reflect.ValueOf(x).Pointer()
	case *Stream:
		return x
	}
	return nil
}

// Data is a stream's decoded data, up to max bytes. A stream that is
// damaged part way returns the bytes decoded before the damage, with the
// error.
func (v Value) Data(max int) ([]byte, error) {
	s, ok := v.x.(*Stream)
	if !ok {
		return nil, errors.New("not a stream")
	}
	return v.d.streamData(s, max)
}

// String formats the value for messages and tests.
func (v Value) String() string { return fmt.Sprint(v.x) }
