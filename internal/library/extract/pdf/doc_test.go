package pdf

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

// pdfFile writes a PDF for the tests: objects, object streams, and
// cross-reference tables or streams, with the offsets it wrote them at.
type pdfFile struct {
	buf bytes.Buffer
	off map[int]int    // file offset of each top-level object, the newest
	stm map[int][2]int // object stream and index of each compressed object
}

func newPDFFile() *pdfFile {
	f := &pdfFile{off: map[int]int{}, stm: map[int][2]int{}}
	f.buf.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	return f
}

func (f *pdfFile) bytes() []byte { return bytes.Clone(f.buf.Bytes()) }

func (f *pdfFile) obj(num int, body string) {
	f.off[num] = f.buf.Len()
	delete(f.stm, num)
	fmt.Fprintf(&f.buf, "%d 0 obj\n%s\nendobj\n", num, body)
}

// stream writes a stream object whose dictionary has the entries given
// and the right /Length.
func (f *pdfFile) stream(num int, entries string, data []byte) {
	f.rawStream(num, fmt.Sprintf("<<%s /Length %d>>", entries, len(data)), data)
}

// rawStream writes a stream object with the dictionary as given.
func (f *pdfFile) rawStream(num int, dict string, data []byte) {
	f.off[num] = f.buf.Len()
	delete(f.stm, num)
	fmt.Fprintf(&f.buf, "%d 0 obj\n%s\nstream\n", num, dict)
	f.buf.Write(data)
	f.buf.WriteString("\nendstream\nendobj\n")
}

// objStm writes an object stream holding the objects given, in order.
func (f *pdfFile) objStm(num int, nums []int, bodies []string, flate bool) {
	var head, body bytes.Buffer
	for i, n := range nums {
		fmt.Fprintf(&head, "%d %d ", n, body.Len())
		body.WriteString(bodies[i])
		body.WriteString("\n")
	}
	data := append(head.Bytes(), body.Bytes()...)
	entries := fmt.Sprintf(" /Type /ObjStm /N %d /First %d", len(nums), head.Len())
	if flate {
		data = zlibBytes(data)
		entries += " /Filter /FlateDecode"
	}
	f.stream(num, entries, data)
	for i, n := range nums {
		f.stm[n] = [2]int{num, i}
		delete(f.off, n)
	}
}

// size is one more than the highest object number written.
func (f *pdfFile) size() int {
	n := 0
	for num := range f.off {
		n = max(n, num+1)
	}
	for num := range f.stm {
		n = max(n, num+1)
	}
	return n
}

// xrefTable writes a classic cross-reference section and its trailer
// (entries without << >>, to which /Size is added), then startxref. With
// nums nil it lists every object, compressed ones as free; otherwise it
// lists those objects only, one subsection per run of numbers, as an
// incremental update does. It returns the section's offset.
func (f *pdfFile) xrefTable(nums []int, trailer string) int {
	start := f.buf.Len()
	f.buf.WriteString("xref\n")
	if nums == nil {
		fmt.Fprintf(&f.buf, "0 %d\n", f.size())
		for num := 0; num < f.size(); num++ {
			if off, ok := f.off[num]; ok && num > 0 {
				fmt.Fprintf(&f.buf, "%010d 00000 n\r\n", off)
			} else {
				f.buf.WriteString("0000000000 65535 f\r\n")
			}
		}
	} else {
		nums = slices.Sorted(slices.Values(nums))
		for i := 0; i < len(nums); {
			j := i + 1
			for j < len(nums) && nums[j] == nums[j-1]+1 {
				j++
			}
			fmt.Fprintf(&f.buf, "%d %d\n", nums[i], j-i)
			for _, num := range nums[i:j] {
				fmt.Fprintf(&f.buf, "%010d 00000 n \n", f.off[num])
			}
			i = j
		}
	}
	fmt.Fprintf(&f.buf, "trailer\n<<%s /Size %d>>\n", trailer, f.size())
	f.startxref(start)
	return start
}

func (f *pdfFile) startxref(off int) {
	fmt.Fprintf(&f.buf, "startxref\n%d\n%%%%EOF\n", off)
}

type xrefOpts struct {
	w         [3]int
	flate     bool
	predictor bool  // PNG Up predictor (12) with /Columns the row width
	nums      []int // the objects to list, with an /Index; nil for all
	noStart   bool  // write no startxref after it
}

// xrefStream writes a cross-reference stream, object num, listing itself
// too, with the trailer entries given. It returns its offset.
func (f *pdfFile) xrefStream(num int, o xrefOpts, trailer string) int {
	start := f.buf.Len()
	f.off[num] = start
	size := f.size()
	nums := o.nums
	index := ""
	if nums == nil {
		for n := 0; n < size; n++ {
			nums = append(nums, n)
		}
	} else {
		nums = slices.Sorted(slices.Values(append(slices.Clone(nums), num)))
		index = " /Index ["
		for i := 0; i < len(nums); {
			j := i + 1
			for j < len(nums) && nums[j] == nums[j-1]+1 {
				j++
			}
			index += fmt.Sprintf("%d %d ", nums[i], j-i)
			i = j
		}
		index += "]"
	}
	var data []byte
	field := func(x, width int) {
		for i := width - 1; i >= 0; i-- {
			data = append(data, byte(x>>(8*i)))
		}
	}
	for _, n := range nums {
		if off, ok := f.off[n]; ok && n > 0 {
			field(1, o.w[0])
			field(off, o.w[1])
			field(0, o.w[2])
		} else if s, ok := f.stm[n]; ok {
			field(2, o.w[0])
			field(s[0], o.w[1])
			field(s[1], o.w[2])
		} else {
			field(0, o.w[0])
			field(0, o.w[1])
			field(0, o.w[2])
		}
	}
	entries := fmt.Sprintf(" /Type /XRef /Size %d /W [%d %d %d]%s%s", size, o.w[0], o.w[1], o.w[2], index, trailer)
	if o.predictor {
		row := o.w[0] + o.w[1] + o.w[2]
		data = pngPredict(data, row, 1, []byte{2})
		entries += fmt.Sprintf(" /DecodeParms << /Predictor 12 /Columns %d >>", row)
	}
	if o.flate {
		data = zlibBytes(data)
		entries += " /Filter /FlateDecode"
	}
	f.stream(num, entries, data)
	if !o.noStart {
		f.startxref(start)
	}
	return start
}

// lastXref is the offset of the last classic cross-reference section.
func lastXref(data []byte) int {
	return bytes.LastIndex(data, []byte("\nxref\n")) + 1
}

func zlibBytes(data []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// pngPredict applies PNG predictors to rows of row bytes with bpp bytes
// a pixel, the row types taken in turn from types.
func pngPredict(data []byte, row, bpp int, types []byte) []byte {
	var out []byte
	prev := make([]byte, row)
	for r := 0; r*row < len(data); r++ {
		cur := data[r*row : (r+1)*row]
		typ := types[r%len(types)]
		out = append(out, typ)
		for i := range row {
			var a, b, c byte
			if i >= bpp {
				a, c = cur[i-bpp], prev[i-bpp]
			}
			b = prev[i]
			var p byte
			switch typ {
			case 1:
				p = a
			case 2:
				p = b
			case 3:
				p = byte((int(a) + int(b)) / 2)
			case 4:
				p = testPaeth(a, b, c)
			}
			out = append(out, cur[i]-p)
		}
		prev = cur
	}
	return out
}

// testPaeth is the PNG Paeth predictor as the PNG specification writes it.
func testPaeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := p-int(a), p-int(b), p-int(c)
	if pa < 0 {
		pa = -pa
	}
	if pb < 0 {
		pb = -pb
	}
	if pc < 0 {
		pc = -pc
	}
	if pa <= pb && pa <= pc {
		return a
	}
	if pb <= pc {
		return b
	}
	return c
}

const helloContents = "BT /F1 12 Tf 72 720 Td (Hello) Tj ET"

// basic object bodies: a catalog, a page tree of one page with inherited
// resources, its contents (object 4, a stream) and a font.
var basicBodies = map[int]string{
	1: "<< /Type /Catalog /Pages 2 0 R >>",
	2: "<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /Font << /F1 5 0 R >> >> >>",
	3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
	5: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
}

// basicClassic is the basic document with a classic cross-reference table.
func basicClassic() *pdfFile {
	f := newPDFFile()
	f.obj(1, basicBodies[1])
	f.obj(2, basicBodies[2])
	f.obj(3, basicBodies[3])
	f.stream(4, "", []byte(helloContents))
	f.obj(5, basicBodies[5])
	f.xrefTable(nil, " /Root 1 0 R")
	return f
}

// basicCompressed is the basic document with objects 2, 3 and 5 in an
// object stream (6) and a cross-reference stream (7).
// basicObjects writes the basic file's catalog (1) and content stream (4,
// with the given filter), and its other objects (2, 3, 5) in object stream 6.
func (f *pdfFile) basicObjects(filter string, contents []byte) {
	f.obj(1, basicBodies[1])
	f.stream(4, filter, contents)
	f.objStm(6, []int{2, 3, 5}, []string{basicBodies[2], basicBodies[3], basicBodies[5]}, true)
}

func basicCompressed(o xrefOpts) *pdfFile {
	f := newPDFFile()
	f.basicObjects(" /Filter /FlateDecode", zlibBytes([]byte(helloContents)))
	f.xrefStream(7, o, " /Root 1 0 R")
	return f
}

func open(t *testing.T, data []byte) *Doc {
	t.Helper()
	d, err := Open(data)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return d
}

func noCheck() error { return nil }

// checkBasic checks that d reads as the basic document.
func checkBasic(t *testing.T, d *Doc, font string) {
	t.Helper()
	if typ := d.Root().Key("Type").Name(); typ != "Catalog" {
		t.Fatalf("root type %q", typ)
	}
	pages, err := d.Pages(100, noCheck)
	if err != nil || len(pages) != 1 {
		t.Fatalf("Pages: %d pages, %v", len(pages), err)
	}
	p := pages[0]
	if mb := p.V.Key("MediaBox"); mb.Len() != 4 || mb.Index(2).Int64() != 612 {
		t.Errorf("MediaBox %v", mb)
	}
	data, err := p.V.Key("Contents").Data(1 << 20)
	if err != nil || string(data) != helloContents {
		t.Errorf("contents %q, %v", data, err)
	}
	if f := p.Resources().Key("Font").Key("F1").Key("BaseFont").Name(); f != font {
		t.Errorf("font %q, want %q", f, font)
	}
}

func TestOpenClassic(t *testing.T) {
	d := open(t, basicClassic().bytes())
	checkBasic(t, d, "Helvetica")
	if d.Repaired() {
		t.Errorf("a correct file was repaired")
	}
	if n := d.Trailer().Key("Size").Int64(); n != 6 {
		t.Errorf("trailer Size %d", n)
	}
}

func TestOpenXrefStream(t *testing.T) {
	for _, o := range []xrefOpts{
		{w: [3]int{1, 2, 1}},
		{w: [3]int{1, 4, 2}},
		{w: [3]int{1, 2, 1}, flate: true},
		{w: [3]int{1, 2, 1}, flate: true, predictor: true},
		{w: [3]int{1, 4, 2}, flate: true, predictor: true},
		{w: [3]int{1, 3, 2}, flate: true, predictor: true, nums: []int{1, 2, 3, 4, 5, 6}},
	} {
		t.Run(fmt.Sprintf("%v", o), func(t *testing.T) {
			d := open(t, basicCompressed(o).bytes())
			checkBasic(t, d, "Helvetica")
			if d.Repaired() {
				t.Errorf("a correct file was repaired")
			}
			if d.Trailer().Key("Type").Name() != "XRef" {
				t.Errorf("trailer is not the stream's dictionary: %v", d.Trailer())
			}
		})
	}
}

// TestObjStmMany resolves every object of large object streams in a
// random order: each must be the object its number names.
func TestObjStmMany(t *testing.T) {
	f := newPDFFile()
	const n = 600
	var refs strings.Builder
	body := func(num int) string {
		switch num % 4 {
		case 0:
			return fmt.Sprintf("<< /N %d /S (obj %d) >>", num, num)
		case 1:
			return fmt.Sprintf("[%d (obj %d)]", num, num)
		case 2:
			return fmt.Sprintf("%d", num) // bare integers, next to each other
		}
		return fmt.Sprintf("(obj %d)", num)
	}
	// Objects 10.. in two object streams, 1000 and 1001.
	for s := 0; s < 2; s++ {
		var nums []int
		var bodies []string
		for i := s * n / 2; i < (s+1)*n/2; i++ {
			nums = append(nums, 10+i)
			bodies = append(bodies, body(10+i))
		}
		f.objStm(1000+s, nums, bodies, s == 0)
	}
	for i := range n {
		fmt.Fprintf(&refs, "%d 0 R ", 10+i)
	}
	f.obj(1, "<< /Type /Catalog /Pages 2 0 R /All 3 0 R >>")
	f.obj(2, "<< /Type /Pages /Kids [] /Count 0 >>")
	f.obj(3, "["+refs.String()+"]")
	f.xrefStream(1002, xrefOpts{w: [3]int{1, 2, 2}, flate: true}, " /Root 1 0 R")
	d := open(t, f.bytes())
	all := d.Root().Key("All")
	if all.Len() != n {
		t.Fatalf("All has %d elements", all.Len())
	}
	check := func(i int) {
		num := 10 + i
		v := all.Index(i)
		var got, want string
		switch num % 4 {
		case 0:
			got = fmt.Sprintf("%d %s", v.Key("N").Int64(), v.Key("S").RawString())
			want = fmt.Sprintf("%d obj %d", num, num)
		case 1:
			got = fmt.Sprintf("%d %s", v.Index(0).Int64(), v.Index(1).RawString())
			want = fmt.Sprintf("%d obj %d", num, num)
		case 2:
			got = fmt.Sprintf("%v %d", v.Kind(), v.Int64())
			want = fmt.Sprintf("%v %d", KindInteger, num)
		case 3:
			got, want = v.RawString(), fmt.Sprintf("obj %d", num)
		}
		if got != want {
			t.Errorf("object %d: got %q, want %q", num, got, want)
		}
	}
	rng := rand.New(rand.NewSource(1))
	for _, i := range rng.Perm(n) {
		check(i)
	}
	for i := n - 1; i >= 0; i-- { // again, from what is kept
		check(i)
	}
}

// TestIncrementalUpdate appends an update that replaces the font and the
// contents: the newer section wins.
func TestIncrementalUpdate(t *testing.T) {
	f := basicClassic()
	base := f.buf.Len()
	prev := lastXref(f.buf.Bytes())
	f.obj(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>")
	f.stream(4, "", []byte("BT (Updated) Tj ET"))
	f.obj(8, "<< /Producer (update) >>")
	f.xrefTable([]int{4, 5, 8}, fmt.Sprintf(" /Root 1 0 R /Info 8 0 R /Prev %d", prev))
	d := open(t, f.bytes())
	if d.Repaired() {
		t.Errorf("repaired")
	}
	pages, _ := d.Pages(10, noCheck)
	if len(pages) != 1 {
		t.Fatalf("%d pages", len(pages))
	}
	if f := pages[0].Resources().Key("Font").Key("F1").Key("BaseFont").Name(); f != "Times-Roman" {
		t.Errorf("font %q: the update was not read", f)
	}
	if data, _ := pages[0].V.Key("Contents").Data(100); string(data) != "BT (Updated) Tj ET" {
		t.Errorf("contents %q", data)
	}
	if p := d.Trailer().Key("Info").Key("Producer").RawString(); p != "update" {
		t.Errorf("Info Producer %q", p)
	}
	// The original, cut at its end, still reads as it was.
	checkBasic(t, open(t, f.bytes()[:base]), "Helvetica")
}

// TestIncrementalUpdateXrefStreams: an object that was compressed is
// replaced by a top-level one in an update with its own xref stream.
func TestIncrementalUpdateXrefStreams(t *testing.T) {
	f := basicCompressed(xrefOpts{w: [3]int{1, 2, 1}, flate: true, predictor: true})
	prev := f.off[7]
	f.obj(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>")
	f.xrefStream(8, xrefOpts{w: [3]int{1, 4, 1}, flate: true, nums: []int{5}}, fmt.Sprintf(" /Root 1 0 R /Prev %d", prev))
	d := open(t, f.bytes())
	if d.Repaired() {
		t.Errorf("repaired")
	}
	checkBasic(t, d, "Courier")
}

// TestHybrid reads a file with a classic table for old readers and, by
// /XRefStm, a cross-reference stream for the compressed objects.
func TestHybrid(t *testing.T) {
	f := newPDFFile()
	f.basicObjects("", []byte(helloContents))
	xs := f.xrefStream(7, xrefOpts{w: [3]int{1, 2, 1}, nums: []int{2, 3, 5}, noStart: true}, "")
	f.xrefTable(nil, fmt.Sprintf(" /Root 1 0 R /XRefStm %d", xs))
	d := open(t, f.bytes())
	if d.Repaired() {
		t.Errorf("repaired")
	}
	checkBasic(t, d, "Helvetica")
}

func TestBytesBeforeHeader(t *testing.T) {
	junk := []byte("From: someone\r\nContent-Type: application/pdf\r\n\r\n\x00\x01garbage\n")
	for name, data := range map[string][]byte{
		"classic": basicClassic().bytes(),
		"stream":  basicCompressed(xrefOpts{w: [3]int{1, 2, 1}, flate: true}).bytes(),
	} {
		t.Run(name, func(t *testing.T) {
			d := open(t, append(slices.Clone(junk), data...))
			checkBasic(t, d, "Helvetica")
			if d.Repaired() {
				t.Errorf("offsets that count from the header were not trusted")
			}
		})
	}
}

// TestRepair opens files whose cross-reference does not match.
func TestRepair(t *testing.T) {
	classic := basicClassic().bytes()
	compressed := basicCompressed(xrefOpts{w: [3]int{1, 2, 1}, flate: true, predictor: true}).bytes()
	setStartxref := func(data []byte, off string) []byte {
		i := bytes.LastIndex(data, []byte("startxref\n"))
		return append(data[:i:i], []byte("startxref\n"+off+"\n%%EOF\n")...)
	}
	shift := func(data []byte, n int) []byte {
		// Bytes added to (or taken from) the comment after the header
		// move every object.
		hdr := len("%PDF-1.7\n%")
		if n < 0 {
			return slices.Concat(data[:hdr], data[hdr-n:])
		}
		return slices.Concat(data[:hdr], bytes.Repeat([]byte("x"), n), data[hdr:])
	}
	noXref := func(data []byte) []byte {
		i := bytes.Index(data, []byte("xref\n"))
		j := bytes.Index(data, []byte("trailer"))
		return slices.Concat(data[:i], data[j:])
	}
	cases := map[string][]byte{
		"startxref too far":             setStartxref(classic, "999999"),
		"startxref off by 3":            setStartxref(classic, fmt.Sprint(lastXref(classic)+3)),
		"startxref negative":            setStartxref(classic, "-5"),
		"no startxref":                  classic[:bytes.LastIndex(classic, []byte("startxref"))],
		"offsets shifted 2":             shift(classic, 2),
		"offsets shifted -1":            shift(classic, -1),
		"xref stream startxref wrong":   setStartxref(compressed, "17"),
		"xref stream objects shifted 5": shift(compressed, 5),
		"no xref, trailer kept":         noXref(classic),
		"junk before header, offsets from file start": func() []byte {
			// A tool that put bytes in front and counted them in the offsets.
			f := newPDFFile()
			f.buf.Reset()
			f.buf.WriteString("JUNKJUNK\n%PDF-1.4\n")
			f.obj(1, basicBodies[1])
			f.obj(2, basicBodies[2])
			f.obj(3, basicBodies[3])
			f.stream(4, "", []byte(helloContents))
			f.obj(5, basicBodies[5])
			f.xrefTable(nil, " /Root 1 0 R")
			return f.bytes()
		}(),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			d := open(t, data)
			if !d.Repaired() {
				t.Errorf("Repaired() is false")
			}
			checkBasic(t, d, "Helvetica")
		})
	}
}

func TestNoTrailer(t *testing.T) {
	f := newPDFFile()
	f.stream(4, "", []byte(helloContents))
	f.obj(5, basicBodies[5])
	f.obj(3, basicBodies[3])
	f.obj(1, basicBodies[1])
	f.obj(2, basicBodies[2])
	f.obj(9, "<< /Type /Pages /Kids [] /Note (a dictionary that is no catalog) >>")
	d := open(t, f.bytes())
	if !d.Repaired() {
		t.Errorf("Repaired() is false")
	}
	checkBasic(t, d, "Helvetica")
}

// TestTruncatedCompressed opens a file cut short before its cross-reference
// stream, as a download cut short is: its trailer is gone, and so is the
// only record of which objects the object stream holds. Writers that use
// object streams usually put the catalog in one.
func TestTruncatedCompressed(t *testing.T) {
	f := newPDFFile()
	f.stream(4, " /Filter /FlateDecode", zlibBytes([]byte(helloContents)))
	f.objStm(6, []int{1, 2, 3, 5}, []string{basicBodies[1], basicBodies[2], basicBodies[3], basicBodies[5]}, true)
	cut := f.buf.Len()
	f.xrefStream(7, xrefOpts{w: [3]int{1, 2, 1}, flate: true}, " /Root 1 0 R")
	d := open(t, f.bytes()) // whole, for comparison
	checkBasic(t, d, "Helvetica")
	d, err := Open(f.bytes()[:cut])
	if err != nil {
		t.Fatalf("Open of the file cut before its xref stream: %v", err)
	}
	if !d.Repaired() {
		t.Errorf("Repaired() is false")
	}
	checkBasic(t, d, "Helvetica")
}

// TestNoTrailerWithObjStm: the catalog is at top level, the other objects
// are in an object stream, and there is no trailer.
func TestNoTrailerWithObjStm(t *testing.T) {
	f := newPDFFile()
	f.basicObjects("", []byte(helloContents))
	data := f.bytes()
	for range 10 { // map order is random: the choice of catalog must not be
		d := open(t, data)
		checkBasic(t, d, "Helvetica")
	}
}

func TestNotPDF(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty":           nil,
		"text":            []byte("hello, world\n"),
		"short":           []byte("%PD"),
		"PS":              []byte("%!PS-Adobe-3.0\n"),
		"header too late": append(bytes.Repeat([]byte("x"), 2000), basicClassic().bytes()...),
		"html":            []byte("<html><body>%PDF</body></html>"),
	} {
		if _, err := Open(data); !errors.Is(err, ErrNotPDF) {
			t.Errorf("%s: error %v, want ErrNotPDF", name, err)
		}
	}
	// A header and nothing that makes a document is an error too, not a panic.
	for _, data := range []string{"%PDF-1.4\n", "%PDF-1.4\n%%EOF\n", "%PDF-1.4\nstartxref\n0\n%%EOF"} {
		if _, err := Open([]byte(data)); err == nil {
			t.Errorf("%q opened", data)
		}
	}
}

// TestPrevLoop: sections whose /Prev point back at themselves or at each
// other are read once each.
func TestPrevLoop(t *testing.T) {
	t.Run("self", func(t *testing.T) {
		f := newPDFFile()
		f.obj(1, basicBodies[1])
		f.obj(2, basicBodies[2])
		f.obj(3, basicBodies[3])
		f.stream(4, "", []byte(helloContents))
		f.obj(5, basicBodies[5])
		at := f.buf.Len()
		f.xrefTable(nil, fmt.Sprintf(" /Root 1 0 R /Prev %d", at))
		checkBasic(t, openQuick(t, f.bytes()), "Helvetica")
	})
	t.Run("two", func(t *testing.T) {
		f := basicClassic()
		first := lastXref(f.buf.Bytes())
		f.obj(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>")
		// The second section's Prev is the first, and the first is edited
		// to point at the second: a cycle.
		second := f.xrefTable([]int{5}, fmt.Sprintf(" /Root 1 0 R /Prev %d", first))
		data := f.bytes()
		tr := bytes.Index(data[first:], []byte("/Root 1 0 R")) + first
		data = slices.Concat(data[:tr], []byte(fmt.Sprintf("/Prev %-5d", second)), data[tr+len("/Root 1 0 R"):])
		// The first trailer now has no Root, the second has one.
		checkBasic(t, openQuick(t, data), "Symbol")
	})
	t.Run("xref streams", func(t *testing.T) {
		f := basicCompressed(xrefOpts{w: [3]int{1, 2, 1}})
		// The new section's Prev is itself; its XRefStm is the old one,
		// whose Prev is the new one.
		at := f.buf.Len()
		f.xrefStream(8, xrefOpts{w: [3]int{1, 2, 1}, nums: []int{}}, fmt.Sprintf(" /Root 1 0 R /Prev %d /XRefStm %d", at, f.off[7]))
		data := f.bytes()
		i := bytes.Index(data, []byte("/Root 1 0 R /Length"))
		data = slices.Concat(data[:i], []byte(fmt.Sprintf("/Prev %-5d", at)), data[i+len("/Root 1 0 R"):])
		checkBasic(t, openQuick(t, data), "Helvetica")
	})
}

// openQuick opens data and fails if that takes more than a few seconds.
func openQuick(t *testing.T, data []byte) *Doc {
	t.Helper()
	var d *Doc
	var err error
	done(t, func() { d, err = Open(data) })
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return d
}

// done runs fn and fails if it takes more than a few seconds.
func done(t *testing.T, fn func()) {
	t.Helper()
	if !within(5*time.Second, fn) {
		t.Fatal("did not finish in 5 s")
	}
}

// within runs fn and reports whether it finished in time; if it did not,
// it is left running.
func within(limit time.Duration, fn func()) bool {
	c := make(chan struct{})
	go func() {
		defer close(c)
		fn()
	}()
	select {
	case <-c:
		return true
	case <-time.After(limit):
		return false
	}
}

// damagedPDF is a PDF of size bytes with no cross-reference to read:
// object headers (objects) or "trailer" keywords, each followed by a string
// that never ends.
func damagedPDF(size int, objects bool) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	for i := 1; b.Len() < size; i++ {
		if objects {
			fmt.Fprintf(&b, "%d 0 obj (\n", i)
		} else {
			b.WriteString("trailer (\n")
		}
	}
	return b.Bytes()
}

// TestRebuildLinear: scanning a damaged file for its objects and trailer
// reads each object or trailer only up to where the next begins. Each one
// here is followed by a string that never ends; reading each from its
// offset to the end of the file made the scan quadratic (a 400 KB file
// took 20-30 s). What the reads could reach (Doc.reach) is counted, not
// timed: a busy machine stretches a clock. BenchmarkRebuild times it.
func TestRebuildLinear(t *testing.T) {
	for _, objects := range []bool{true, false} {
		for _, size := range []int{50 << 10, 200 << 10} {
			d := &Doc{data: damagedPDF(size, objects)}
			d.reset()
			d.rebuild()
			if d.reach > 4*int64(len(d.data)) {
				t.Errorf("objects=%v, %d KB: the reads could reach %d KB, %.0f times the file", objects, size>>10, d.reach>>10, float64(d.reach)/float64(len(d.data)))
			}
		}
	}
}

// BenchmarkRebuild: a scan of a damaged file of 50 KB and of 200 KB (see
// TestRebuildLinear): linear takes four times as long for the second.
func BenchmarkRebuild(b *testing.B) {
	for _, objects := range []bool{true, false} {
		for _, size := range []int{50 << 10, 200 << 10} {
			data := damagedPDF(size, objects)
			b.Run(fmt.Sprintf("objects=%v/%dKB", objects, size>>10), func(b *testing.B) {
				for b.Loop() {
					Open(data)
				}
			})
		}
	}
}

// pageTree writes a document from its page tree's bodies, objects 2 on
// (2 the root Pages), with object 1 the catalog.
func pageTree(t *testing.T, bodies map[int]string) *Doc {
	t.Helper()
	f := newPDFFile()
	f.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	for _, num := range slices.Sorted(maps.Keys(bodies)) {
		f.obj(num, bodies[num])
	}
	f.xrefTable(nil, " /Root 1 0 R")
	return open(t, f.bytes())
}

// pageNames are the /N of the pages.
func pageNames(pages []Page) string {
	var s []string
	for _, p := range pages {
		s = append(s, p.V.Key("N").RawString())
	}
	return strings.Join(s, " ")
}

func TestPagesNested(t *testing.T) {
	d := pageTree(t, map[int]string{
		2:  "<< /Type /Pages /Kids [3 0 R 6 0 R 7 0 R] /Count 4 /Resources << /Font << /R 20 0 R >> >> >>",
		3:  "<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 5 0 R] /Count 2 /Resources 21 0 R >>",
		4:  "<< /Type /Page /Parent 3 0 R /N (p1) >>",
		5:  "<< /Type /Page /Parent 3 0 R /N (p2) /Resources << /Font << /Own 20 0 R >> >> >>",
		6:  "<< /Type /Page /Parent 2 0 R /N (p3) >>",
		7:  "<< /Type /Pages /Parent 2 0 R /Kids [8 0 R] /Count 1 >>",
		8:  "<< /Type /Pages /Parent 7 0 R /Kids [9 0 R] /Count 1 >>",
		9:  "<< /Type /Page /Parent 8 0 R /N (p4) >>",
		20: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		21: "<< /Font << /Inherited 20 0 R >> >>",
	})
	pages, err := d.Pages(100, noCheck)
	if err != nil {
		t.Fatal(err)
	}
	if got := pageNames(pages); got != "p1 p2 p3 p4" {
		t.Fatalf("pages %q", got)
	}
	fonts := func(p Page) string {
		ks := p.Resources().Key("Font").Keys()
		slices.Sort(ks)
		return strings.Join(ks, ",")
	}
	for i, want := range []string{"Inherited", "Own", "R", "R"} {
		if got := fonts(pages[i]); got != want {
			t.Errorf("page %d: fonts %q, want %q", i+1, got, want)
		}
	}
	if f := pages[0].Resources().Key("Font").Key("Inherited").Key("BaseFont").Name(); f != "Helvetica" {
		t.Errorf("inherited font %q", f)
	}
}

func TestPagesLoop(t *testing.T) {
	d := pageTree(t, map[int]string{
		// Kids that name the root, a node twice, and a node that is its own kid.
		2: "<< /Type /Pages /Kids [3 0 R 4 0 R 3 0 R 2 0 R 5 0 R] /Count 3 >>",
		3: "<< /Type /Page /N (p1) >>",
		4: "<< /Type /Pages /Kids [4 0 R 2 0 R 6 0 R] >>",
		5: "<< /Type /Page /N (p3) >>",
		6: "<< /Type /Page /N (p2) >>",
	})
	var pages []Page
	done(t, func() {
		var err error
		pages, err = d.Pages(100, noCheck)
		if err != nil {
			t.Error(err)
		}
	})
	if got := pageNames(pages); got != "p1 p2 p3" {
		t.Errorf("pages %q, want each page once", got)
	}
}

func TestPagesLimit(t *testing.T) {
	var kids, wrapped strings.Builder
	bodies := map[int]string{}
	for i := range 10 {
		fmt.Fprintf(&kids, "%d 0 R ", 10+i)
		bodies[10+i] = fmt.Sprintf("<< /Type /Page /N (p%d) >>", i+1)
	}
	bodies[2] = "<< /Type /Pages /Kids [" + kids.String() + "] /Count 10 >>"
	d := pageTree(t, bodies)
	for _, limit := range []int{1, 3, 10, 11, 1000} {
		pages, err := d.Pages(limit, noCheck)
		if err != nil || len(pages) != min(limit, 10) {
			t.Errorf("flat tree, limit %d: %d pages, %v", limit, len(pages), err)
		}
	}
	// Each page under a Pages node of its own, as files merged from
	// one-page documents have.
	for i := range 10 {
		fmt.Fprintf(&wrapped, "%d 0 R ", 30+i)
		bodies[30+i] = fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", 10+i)
	}
	bodies[2] = "<< /Type /Pages /Kids [" + wrapped.String() + "] /Count 10 >>"
	d = pageTree(t, bodies)
	for _, limit := range []int{1, 3, 5, 9, 10, 11, 1000} {
		pages, err := d.Pages(limit, noCheck)
		if err != nil || len(pages) != min(limit, 10) {
			t.Errorf("wrapped pages, limit %d: %d pages (%s), %v; want %d", limit, len(pages), pageNames(pages), err, min(limit, 10))
		}
	}
}

func TestPagesUntyped(t *testing.T) {
	d := pageTree(t, map[int]string{
		2: "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R 6 0 R] >>",
		3: "<< /Contents 7 0 R /N (untyped) >>",
		4: "<< /Note (neither a page nor a node) >>",
		5: "<< /Type /Page /N (typed) >>",
		6: "<< /Kids [8 0 R] >>",
		7: "<< /Length 0 >>\nstream\n\nendstream",
		8: "<< /Type /Page /N (under untyped node) >>",
	})
	pages, err := d.Pages(100, noCheck)
	if err != nil {
		t.Fatal(err)
	}
	if got := pageNames(pages); got != "untyped typed under untyped node" {
		t.Errorf("pages %q", got)
	}
}

func TestPagesCheck(t *testing.T) {
	bodies := map[int]string{}
	var kids strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&kids, "%d 0 R ", 10+i)
		bodies[10+i] = "<< /Type /Page >>"
	}
	bodies[2] = "<< /Type /Pages /Kids [" + kids.String() + "] >>"
	d := pageTree(t, bodies)
	stop := errors.New("stop")
	calls := 0
	pages, err := d.Pages(5000, func() error { calls++; return stop })
	if err != stop || calls == 0 || len(pages) >= 3000 {
		t.Errorf("check returning an error: %d calls, %d pages, error %v", calls, len(pages), err)
	}
	pages, err = d.Pages(5000, noCheck)
	if err != nil || len(pages) != 3000 {
		t.Errorf("%d pages, %v", len(pages), err)
	}
}

func TestValueKinds(t *testing.T) {
	f := newPDFFile()
	f.obj(1, `<< /Type /Catalog /Pages 2 0 R /Int 7 /Real -2.5 /Str (abc) /Hex <FEFF00e9> /Name /N#20x
		/Arr [1 2 3] /Bool true /Ref 3 0 R /Missing 99 0 R /S 4 0 R >>`)
	f.obj(2, "<< /Type /Pages /Kids [] >>")
	f.obj(3, "42")
	f.stream(4, " /Type /X", []byte("data"))
	f.xrefTable(nil, " /Root 1 0 R")
	d := open(t, f.bytes())
	r := d.Root()
	type summary struct {
		kind    Kind
		null    bool
		i       int64
		f       float64
		name    string
		str     string
		n       int
		b       bool
		keys    int
		isDict  bool
		dataErr bool
	}
	sum := func(v Value) summary {
		_, err := v.Data(100)
		return summary{v.Kind(), v.IsNull(), v.Int64(), v.Float64(), v.Name(), v.RawString(), v.Len(), v.Bool(),
			len(v.Keys()), !v.Key("Type").IsNull(), err != nil}
	}
	for key, want := range map[string]summary{
		"Int":     {kind: KindInteger, i: 7, f: 7, dataErr: true},
		"Real":    {kind: KindReal, i: -2, f: -2.5, dataErr: true},
		"Str":     {kind: KindString, str: "abc", dataErr: true},
		"Hex":     {kind: KindString, str: "\xfe\xff\x00\xe9", dataErr: true},
		"Name":    {kind: KindName, name: "N x", dataErr: true},
		"Arr":     {kind: KindArray, n: 3, dataErr: true},
		"Bool":    {kind: KindBool, b: true, dataErr: true},
		"Ref":     {kind: KindInteger, i: 42, f: 42, dataErr: true},
		"Missing": {kind: KindNull, null: true, dataErr: true},
		"Absent":  {kind: KindNull, null: true, dataErr: true},
		"Pages":   {kind: KindDict, keys: 2, isDict: true, dataErr: true},
		"S":       {kind: KindStream, keys: 2, isDict: true}, // Type and Length
	} {
		if got := sum(r.Key(key)); got != want {
			t.Errorf("%s: got %+v, want %+v", key, got, want)
		}
	}
	if s := r.Key("Hex").Text(); s != "é" {
		t.Errorf("Text %q", s)
	}
	// Accessors of another kind, and walks past the end, give zero values.
	if v := r.Key("Int").Key("X").Index(3).Key("Y"); !v.IsNull() || v.Kind() != KindNull {
		t.Errorf("walk through an integer: %v", v)
	}
	if v := r.Key("Arr").Index(3); !v.IsNull() {
		t.Errorf("Index past the end: %v", v)
	}
	if v := r.Key("Arr").Index(-1); !v.IsNull() {
		t.Errorf("Index(-1): %v", v)
	}
	if v := r.Key("Arr").Key("Type"); !v.IsNull() {
		t.Errorf("Key of an array: %v", v)
	}
	var zero Value
	if zero.Kind() != KindNull || !zero.IsNull() || zero.Key("A").Index(0).Len() != 0 || zero.Name() != "" ||
		zero.Int64() != 0 || zero.Keys() != nil || zero.ID() != nil {
		t.Errorf("zero Value: %v", zero)
	}
	if _, err := zero.Data(10); err == nil {
		t.Errorf("Data of the zero Value: no error")
	}
}

func TestValueID(t *testing.T) {
	d := open(t, basicClassic().bytes())
	r := d.Root()
	a, b := r.Key("Pages"), d.Root().Key("Pages")
	if a.ID() == nil || a.ID() != b.ID() {
		t.Errorf("two lookups of the Pages object: IDs %v and %v", a.ID(), b.ID())
	}
	page := a.Key("Kids").Index(0)
	pages, _ := d.Pages(1, noCheck)
	if len(pages) != 1 || pages[0].V.ID() != page.ID() {
		t.Errorf("the page from Pages and from Kids have different IDs")
	}
	ids := []any{r.ID(), a.ID(), page.ID(), page.Key("Contents").ID(), pages[0].Resources().Key("Font").Key("F1").ID()}
	for i := range ids {
		for j := range i {
			if ids[i] == ids[j] {
				t.Errorf("objects %d and %d have the same ID %v", i, j, ids[i])
			}
		}
	}
	// A direct dictionary keeps its ID across lookups too.
	res1, res2 := a.Key("Resources"), r.Key("Pages").Key("Resources")
	if res1.ID() == nil || res1.ID() != res2.ID() {
		t.Errorf("direct Resources: IDs %v and %v", res1.ID(), res2.ID())
	}
	if res1.ID() == a.ID() || res1.Key("Font").ID() == res1.ID() {
		t.Errorf("a direct dictionary has its parent's ID")
	}
	if id := a.Key("Count").ID(); id != nil {
		t.Errorf("a direct integer has ID %v", id)
	}
	// Objects of an object stream too.
	d = open(t, basicCompressed(xrefOpts{w: [3]int{1, 2, 1}}).bytes())
	x, y := d.Root().Key("Pages").Key("Kids").Index(0), d.Root().Key("Pages").Key("Kids").Index(0)
	if x.ID() != y.ID() || x.ID() == d.Root().Key("Pages").ID() {
		t.Errorf("compressed objects: IDs %v, %v, %v", x.ID(), y.ID(), d.Root().Key("Pages").ID())
	}
}

// fuzzSeeds are the documents the tests build.
func fuzzSeeds() [][]byte {
	seeds := [][]byte{basicClassic().bytes()}
	for _, o := range []xrefOpts{
		{w: [3]int{1, 2, 1}},
		{w: [3]int{1, 4, 2}, flate: true, predictor: true},
		{w: [3]int{1, 3, 2}, flate: true, predictor: true, nums: []int{1, 2, 3, 4, 5, 6}},
	} {
		seeds = append(seeds, basicCompressed(o).bytes())
	}
	f := basicClassic()
	prev := lastXref(f.buf.Bytes())
	f.obj(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>")
	f.xrefTable([]int{5}, fmt.Sprintf(" /Root 1 0 R /Prev %d", prev))
	seeds = append(seeds, f.bytes())

	f = newPDFFile()
	f.basicObjects(" /Filter [/ASCII85Decode /FlateDecode]", append(a85(zlibBytes([]byte(helloContents))), "~>"...))
	xs := f.xrefStream(7, xrefOpts{w: [3]int{1, 2, 1}, nums: []int{2, 3, 5}, noStart: true}, "")
	f.xrefTable(nil, fmt.Sprintf(" /Root 1 0 R /XRefStm %d", xs))
	seeds = append(seeds, f.bytes())

	f = newPDFFile()
	f.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	f.obj(2, "<< /Type /Pages /Kids [3 0 R 2 0 R 6 0 R] /Resources 7 0 R >>")
	f.obj(3, "<< /Contents [4 0 R 5 0 R] >>")
	f.stream(4, " /Filter /LZWDecode", lzwEncode([]byte(helloContents), true))
	f.stream(5, " /Filter /RunLengthDecode", []byte("\x04Hello\xfd!\x80"))
	f.obj(6, "<< /Type /Pages /Kids [3 0 R] >>")
	f.obj(7, "<< /Font << /F1 8 0 R >> >>")
	f.obj(8, "<< /Type /Font /Subtype /Type0 /DescendantFonts [9 0 R] >>")
	f.stream(9, " /Filter /ASCIIHexDecode /DecodeParms << /Predictor 2 /Colors 3 >>", []byte("48 65 6c 6c 6f>"))
	seeds = append(seeds, f.bytes())
	return seeds
}

// walk opens data and reads what the extractor reads: every page's
// contents and the keys of its fonts.
func walk(data []byte) {
	d, err := Open(data)
	if err != nil {
		return
	}
	pages, _ := d.Pages(1000, noCheck)
	for _, p := range pages {
		c := p.V.Key("Contents")
		if c.Kind() == KindArray {
			for i := 0; i < c.Len(); i++ {
				c.Index(i).Data(1 << 20)
			}
		} else {
			c.Data(1 << 20)
		}
		fonts := p.Resources().Key("Font")
		for _, k := range fonts.Keys() {
			font := fonts.Key(k)
			for _, k := range font.Keys() {
				font.Key(k).Keys()
			}
		}
	}
}

func FuzzOpen(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := make(chan string, 1)
		go func() {
			defer func() {
				if r := recover(); r != nil {
					c <- fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
				}
			}()
			walk(data)
			c <- ""
		}()
		select {
		case msg := <-c:
			if msg != "" {
				t.Fatal(msg)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Open and the page walk of %d bytes did not finish in 10 s", len(data))
		}
	})
}

func TestSeedsOpen(t *testing.T) {
	for i, s := range fuzzSeeds() {
		d, err := Open(s)
		if err != nil {
			t.Errorf("seed %d: %v", i, err)
			continue
		}
		if pages, err := d.Pages(10, noCheck); err != nil || len(pages) == 0 {
			t.Errorf("seed %d: %d pages, %v", i, len(pages), err)
		}
	}
}
