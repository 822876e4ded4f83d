package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
)

// entry is where an object is: at an offset in the file, or the index-th
// object of an object stream.
type entry struct {
	off      int64 // in the file
	stream   int32 // object number of the object stream
	index    int32 // in the object stream
	gen      uint16
	set      bool
	inStream bool
}

// xrefTable holds the entries by object number. A slice, not a map: a
// large document has hundreds of thousands of objects.
type xrefTable struct {
	entries []entry
	limit   int // object numbers at or above it are refused
}

func newXrefTable(fileSize int) xrefTable {
	// Every object takes at least a byte of the file, so a number past
	// its size is damage, and would make the table huge.
	return xrefTable{limit: min(maxObjects, max(fileSize, 1<<16))}
}

func (t *xrefTable) get(num int) (entry, bool) {
	if num <= 0 || num >= len(t.entries) || !t.entries[num].set {
		return entry{}, false
	}
	return t.entries[num], true
}

// put sets an entry; with keep, an entry already there stays.
func (t *xrefTable) put(num int, e entry, keep bool) {
	if num <= 0 || num >= t.limit {
		return
	}
	if num >= len(t.entries) {
		t.entries = append(t.entries, make([]entry, num+1-len(t.entries))...)
	}
	if keep && t.entries[num].set {
		return
	}
	e.set = true
	t.entries[num] = e
}

// each calls f for the entries in object-number order, until it returns false.
func (t *xrefTable) each(f func(num int, e entry) bool) {
	for num, e := range t.entries {
		if e.set && !f(num, e) {
			return
		}
	}
}

// maxObjects bounds the object numbers a cross-reference may declare.
const maxObjects = 1 << 24

// readXref reads the cross-reference sections from the last one back
// along their Prev links, and returns the table and the newest trailer.
func (d *Doc) readXref() error {
	tail := d.data[max(0, len(d.data)-2048):]
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return errors.New("no cross-reference table (startxref)")
	}
	l := &lexer{data: tail, pos: i + len("startxref")}
	t, err := l.token()
	if err != nil || t.kind != 'n' || !t.isInt {
		return errors.New("startxref has no offset")
	}
	off := int64(t.num)
	seen := map[int64]bool{}
	for off != 0 || len(seen) == 0 {
		if seen[off] {
			break // a Prev loop
		}
		seen[off] = true
		if off < 0 || off >= int64(len(d.data)) {
			return fmt.Errorf("cross-reference offset %d is outside the file", off)
		}
		trailer, err := d.readSection(off)
		if err != nil {
			return err
		}
		if d.trailer == nil {
			d.trailer = trailer
		}
		if x, ok := trailer["XRefStm"].(int64); ok && x > 0 && x < int64(len(d.data)) && !seen[x] {
			seen[x] = true
			if _, err := d.readSection(x); err != nil {
				return err
			}
		}
		prev, ok := trailer["Prev"].(int64)
		if !ok {
			break
		}
		off = prev
	}
	return nil
}

// readSection reads one cross-reference table or stream at off, adding the
// entries not set by a newer section, and returns its trailer dictionary.
func (d *Doc) readSection(off int64) (Dict, error) {
	l := &lexer{data: d.data, pos: int(off)}
	t, err := l.token()
	if err != nil {
		return nil, err
	}
	if l.isKeyword(t, "xref") {
		return d.readTable(l)
	}
	obj, _, err := d.readIndirect(off)
	if err != nil {
		return nil, fmt.Errorf("cross-reference at offset %d: %v", off, err)
	}
	s, ok := obj.(*Stream)
	if !ok || s.Dict["Type"] != Name("XRef") {
		return nil, fmt.Errorf("no cross-reference at offset %d", off)
	}
	return s.Dict, d.readXrefStream(s)
}

func (d *Doc) readTable(l *lexer) (Dict, error) {
	for {
		t, err := l.token()
		if err != nil {
			return nil, err
		}
		if l.isKeyword(t, "trailer") {
			obj, err := l.object(0)
			if err != nil {
				return nil, fmt.Errorf("trailer: %v", err)
			}
			trailer, ok := obj.(Dict)
			if !ok {
				return nil, errors.New("trailer is not a dictionary")
			}
			return trailer, nil
		}
		t2, err := l.token()
		if err != nil {
			return nil, err
		}
		if t.kind != 'n' || !t.isInt || t2.kind != 'n' || !t2.isInt || t.num < 0 || t2.num < 0 || t.num+t2.num > maxObjects {
			return nil, errors.New("malformed cross-reference table")
		}
		first, n := int(t.num), int(t2.num)
		for i := 0; i < n; i++ {
			o, err1 := l.token()
			g, err2 := l.token()
			k, err3 := l.token()
			if err1 != nil || err2 != nil || err3 != nil || o.kind != 'n' || g.kind != 'n' || k.kind != 'k' {
				return nil, errors.New("malformed cross-reference entry")
			}
			if string(l.data[k.lo:k.hi]) == "n" {
				d.setEntry(first+i, entry{off: int64(o.num), gen: uint16(g.num)})
			}
		}
	}
}

func (d *Doc) setEntry(num int, e entry) { d.xref.put(num, e, true) }

// readXrefStream adds the entries of a cross-reference stream.
func (d *Doc) readXrefStream(s *Stream) error {
	data, err := d.streamData(s, 64<<20)
	if err != nil {
		return fmt.Errorf("cross-reference stream: %v", err)
	}
	w, ok := s.Dict["W"].(Array)
	if !ok || len(w) != 3 {
		return errors.New("cross-reference stream has no W")
	}
	var width [3]int
	for i, x := range w {
		n, _ := x.(int64)
		if n < 0 || n > 8 {
			return errors.New("cross-reference stream has a bad W")
		}
		width[i] = int(n)
	}
	size, _ := s.Dict["Size"].(int64)
	index, _ := s.Dict["Index"].(Array)
	if index == nil {
		index = Array{int64(0), size}
	}
	row := width[0] + width[1] + width[2]
	if row == 0 {
		return errors.New("cross-reference stream has an empty W")
	}
	field := func(b []byte) int64 {
		var x int64
		for _, c := range b {
			x = x<<8 | int64(c)
		}
		return x
	}
	for i := 0; i+1 < len(index); i += 2 {
		first, _ := index[i].(int64)
		n, _ := index[i+1].(int64)
		if first < 0 || n < 0 || first+n > maxObjects {
			return errors.New("cross-reference stream has a bad Index")
		}
		for j := int64(0); j < n; j++ {
			if len(data) < row {
				return nil // a short stream: keep what it has
			}
			typ := int64(1)
			if width[0] > 0 {
				typ = field(data[:width[0]])
			}
			f2 := field(data[width[0] : width[0]+width[1]])
			f3 := field(data[width[0]+width[1] : row])
			data = data[row:]
			switch typ {
			case 1:
				d.setEntry(int(first+j), entry{off: f2, gen: uint16(f3)})
			case 2:
				d.setEntry(int(first+j), entry{inStream: true, stream: int32(f2), index: int32(f3)})
			}
		}
	}
	return nil
}

var objHeader = regexp.MustCompile(`(?m)(?:^|[^0-9])(\d{1,10})[ \t\r\n\f\x00]+(\d{1,5})[ \t\r\n\f\x00]+obj\b`)

// rebuild scans the whole file for "n g obj" headers, the way viewers
// repair a file whose cross-reference is missing or wrong. Later
// definitions win, as they would in an incremental update.
func (d *Doc) rebuild() error {
	d.reset()
	var trailer Dict
	var offs []int64
	for _, m := range objHeader.FindAllSubmatchIndex(d.data, -1) {
		num, err1 := strconv.Atoi(string(d.data[m[2]:m[3]]))
		gen, err2 := strconv.Atoi(string(d.data[m[4]:m[5]]))
		if err1 != nil || err2 != nil || num <= 0 || num >= maxObjects {
			continue
		}
		d.xref.put(num, entry{off: int64(m[2]), gen: uint16(gen)}, false)
		offs = append(offs, int64(m[2]))
	}
	d.setEnds(offs)
	// Objects in object streams, and the newest trailer: a trailer
	// dictionary, or a cross-reference stream's dictionary.
	var objStms []int
	d.xref.each(func(num int, e entry) bool {
		if obj, _, err := d.readIndirect(e.off); err == nil {
			if s, ok := obj.(*Stream); ok {
				switch s.Dict["Type"] {
				case Name("ObjStm"):
					objStms = append(objStms, num)
				case Name("XRef"):
					if trailer == nil || e.off > d.trailerOff {
						trailer, d.trailerOff = s.Dict, e.off
					}
				}
			}
		}
		return true
	})
	for _, num := range objStms {
		d.indexObjStm(num)
	}
	for i := 0; ; {
		j := bytes.Index(d.data[i:], []byte("trailer"))
		if j < 0 {
			break
		}
		i += j + len("trailer")
		// A trailer is a small dictionary before the next trailer or object:
		// one that does not end there is damage.
		end := min(d.end(int64(i)), i+64<<10)
		if k := bytes.Index(d.data[i:end], []byte("trailer")); k >= 0 {
			end = i + k
		}
		d.reach += int64(end - i)
		l := &lexer{data: d.data[:end], pos: i}
		if obj, err := l.object(0); err == nil {
			if t, ok := obj.(Dict); ok && t["Root"] != nil && int64(i) > d.trailerOff {
				trailer, d.trailerOff = t, int64(i)
			}
		}
	}
	if trailer == nil || trailer["Root"] == nil {
		// No trailer: find the catalog itself.
		d.xref.each(func(num int, e entry) bool {
			r := Ref{num, int(e.gen)}
			if c, ok := d.load(r).(Dict); ok && c["Type"] == Name("Catalog") {
				trailer = Dict{"Root": r}
				return false
			}
			return true
		})
	}
	if trailer == nil {
		return errors.New("no trailer and no catalog")
	}
	d.trailer = trailer
	return nil
}

// indexObjStm adds to the table the objects of an object stream that no
// object at top level defines.
func (d *Doc) indexObjStm(num int) {
	for i, n := range d.objStm(num).nums {
		d.xref.put(n, entry{inStream: true, stream: int32(num), index: int32(i)}, true)
	}
}
