package extract

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledongthuc/pdf"
)

// The content-stream lexer must read what pdf.Interpret read: these tests
// run both on the same bytes and compare every operator with its operands.

// interpretOps is what pdf.Interpret hands its callback for a content
// stream, one line per operator; panicked says it stopped on an error.
func interpretOps(t testing.TB, content []byte) (ops []string, panicked bool) {
	var f bytes.Buffer
	f.WriteString("%PDF-1.4\n")
	obj := f.Len()
	fmt.Fprintf(&f, "1 0 obj\n<< /Length %d >>\nstream\n", len(content))
	f.Write(content)
	f.WriteString("\nendstream\nendobj\n")
	xref := f.Len()
	fmt.Fprintf(&f, "xref\n0 2\n0000000000 65535 f \n%010d 00000 n \ntrailer\n<< /Size 2 /S 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", obj, xref)
	r, err := pdf.NewReader(bytes.NewReader(f.Bytes()), int64(f.Len()))
	if err != nil {
		t.Fatal(err)
	}
	strm := r.Trailer().Key("S")
	if strm.Kind() != pdf.Stream {
		t.Fatalf("test PDF has no stream: %v", strm)
	}
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	pdf.Interpret(strm, func(stk *pdf.Stack, op string) {
		args := make([]string, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = valueString(stk.Pop(), true)
		}
		ops = append(ops, op+" "+strings.Join(args, " "))
	})
	return ops, false
}

func valueString(v pdf.Value, top bool) string {
	switch v.Kind() {
	case pdf.Bool:
		return fmt.Sprint(v.Bool())
	case pdf.Integer, pdf.Real:
		return numString(v.Float64())
	case pdf.String:
		return fmt.Sprintf("%q", v.RawString())
	case pdf.Name:
		return fmt.Sprintf("/%q", v.Name())
	case pdf.Dict:
		return "<<>>"
	case pdf.Array:
		if !top {
			return "[…]"
		}
		var el []string
		for i := 0; i < v.Len(); i++ {
			el = append(el, valueString(v.Index(i), false))
		}
		return "[" + strings.Join(el, " ") + "]"
	}
	return "null"
}

// numString shows a number to the bit, the sign of zero included.
func numString(x float64) string { return fmt.Sprintf("%v(%x)", x, math.Float64bits(x)) }

// lexOps is the same list from contentLexer, cut where the two are meant
// to differ: after an inline image's ID, before a PostScript operator.
// A hex string that runs to the end hangs pdf.Interpret: hang says so.
func lexOps(content []byte) (ops []string, panicked, cut, hang bool) {
	l := &contentLexer{data: content}
	defer func() {
		if recover() != nil {
			panicked = true
		}
		hang = l.openHex
	}()
	for {
		op, ok := l.next()
		if !ok {
			return ops, false, false, false
		}
		switch string(op) {
		case "dict", "currentdict", "begin", "end", "def", "pop":
			cut = true
		}
		if !cut {
			args := make([]string, len(l.args))
			for i, a := range l.args {
				args[i] = l.tokenString(a, true)
			}
			ops = append(ops, string(op)+" "+strings.Join(args, " "))
			cut = string(op) == "ID"
		}
		if cut {
			// read on, as pdf.Interpret does, to see whether it hangs
			for {
				if _, ok := l.next(); !ok {
					return ops, false, true, false
				}
			}
		}
	}
}

func (l *contentLexer) tokenString(t csToken, top bool) string {
	switch t.kind {
	case csBool:
		return fmt.Sprint(t.num == 1)
	case csNumber:
		return numString(t.num)
	case csString:
		return fmt.Sprintf("%q", l.text[t.lo:t.hi])
	case csName:
		return fmt.Sprintf("/%q", l.text[t.lo:t.hi])
	case csDict:
		return "<<>>"
	case csArray:
		if !top {
			return "[…]"
		}
		var el []string
		for _, e := range l.elems[t.lo:t.hi] {
			el = append(el, l.tokenString(e, false))
		}
		return "[" + strings.Join(el, " ") + "]"
	}
	return "null"
}

func compareWithInterpret(t *testing.T, content []byte) {
	t.Helper()
	got, gotPanic, cut, hang := lexOps(content)
	if hang {
		return
	}
	want, wantPanic := interpretOps(t, content)
	if cut {
		if len(want) < len(got) || !slices.Equal(got, want[:len(got)]) {
			t.Fatalf("%q: operators differ from pdf.Interpret's (-lexer +Interpret):\n%s", content, cmp.Diff(got, want))
		}
		return
	}
	if d := cmp.Diff(got, want); d != "" || gotPanic != wantPanic {
		t.Fatalf("%q: operators differ from pdf.Interpret's (-lexer +Interpret, stopped on an error %v/%v):\n%s",
			content, gotPanic, wantPanic, d)
	}
}

// contentSeeds cover every kind of token and the errors pdf.Interpret
// recovers from (one operand dropped) or stops on.
var contentSeeds = []string{
	"BT /F1 12 Tf 72 700 Td [(Hel)-20(lo)] TJ ET",
	"q 1 0 0 1 10.5 -3 cm BT /F2 9.96 Tf 0 -11.955 TD (a\\(b\\)c\\\\) Tj T* <48656C6C6F> Tj ET Q",
	"(esc \\n\\r\\t\\b\\f \\053 \\5 \\0053 line\\\ncont \\\r\nx (nested (deep)) end) Tj",
	"<4 8 6\n5> Tj <> Tj < > Tj 0 0 (x) \" 1 2 (y) '",
	"/Name#20with#2Fescapes /A#zz 1 Tf /F1 -.5 Tf +3 .25 5. -0 -0.0 0.000 Td",
	"12345678901234567890 1 Td 1234567890123456789 2 Td 1.234567890123456789 3 Td . 4 Td - + -- 1.2.3 Td",
	"[1 [2 [3]] << /K [4] /D << /E 5 >> >> null true false] TJ",
	"[(a) 1 Tj (b)] TJ << 1 2 >> Tj << /A >> (x) Tj ] >> null Tj",
	"{ } 1 2 { Tj } TJ",
	"% a comment\n(x) Tj %another\r(y) Tj % end",
	"(unterminated",
	"(bad escape \\q) Tj (z) Tj",
	"[(bad escape \\q)] TJ (z) Tj",
	"(octal \\777) Tj",
	"[(octal \\777)] TJ (after) Tj",
	"<4G> Tj (after) Tj",
	"[<4G>] TJ (after) Tj",
	"<abc> Tj",
	") Tj",
	"[ ) ] TJ (after) Tj",
	"> Tj",
	"x\x00y\fz\tw",
	"1 0 0 1 0 0 Tm",
	strings.Repeat("[", 1005) + "(deep)" + strings.Repeat("]", 1005) + " TJ (after) Tj",
	"<<" + strings.Repeat("/A <<", 1002) + " >> Tj (after) Tj",
	"BI /W 4 /H 1 /BPC 8 /CS /G ID \x01(\x02)\x03 EI Q (after) Tj",
	"1 2 pop Tj",
	"/d 1 dict begin (x) Tj end",
}

func TestContentLexerMatchesInterpret(t *testing.T) {
	for _, s := range contentSeeds {
		compareWithInterpret(t, []byte(s))
	}
	// the content of generated pages
	r, err := openPDF(teaPDF(t))
	if err != nil {
		t.Fatal(err)
	}
	doc := newDocCache(r)
	pages, err := pageList(r, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		data, err := contentBytes(p.V.Key("Contents"), doc.lexers[0].data)
		if err != nil || len(data) == 0 {
			t.Fatalf("content of a page: %d bytes, %v", len(data), err)
		}
		compareWithInterpret(t, data)
	}
}

func FuzzContentLexer(f *testing.F) {
	for _, s := range contentSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		// The lexer alone must end: every token moves forward.
		done := make(chan struct{})
		go func() {
			defer close(done)
			lexOps(content)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("lexer stuck on %q", content)
		}
		done2 := make(chan struct{})
		go func() {
			defer close(done2)
			compareWithInterpret(t, content)
		}()
		select {
		case <-done2:
		case <-time.After(10 * time.Second):
			t.Fatalf("pdf.Interpret stuck on %q: a hang the lexer did not flag", content)
		}
	})
}

func TestContentNumbers(t *testing.T) {
	for _, w := range []string{"0", "-0", "+7", "007", "-12", "9223372036854775807", "-9223372036854775808",
		"1.5", "-1.5", ".5", "-.5", "5.", "0.1", "0.3", "3.14159", "-0.0", "123456789012345.6",
		"1234567890123456.7", "0.00000000000000000000001", "0.0000000000000000000000123", "179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000.0"} {
		compareWithInterpret(t, []byte(w+" Tw"))
	}
}

// An inline image's data is skipped: the text drawn after it is read
// (pdf.Interpret read the data as operators and lost the page).
func TestPDFInlineImageSkipped(t *testing.T) {
	content := "BT /F1 12 Tf 72 700 Td (Before the image.) Tj ET\n" +
		"q 4 0 0 1 72 650 cm BI /W 4 /H 1 /BPC 8 /CS /G ID \x28\xff)) EI Q\n" +
		"BT /F1 12 Tf 72 600 Td (After the image.) Tj ET"
	d, err := readPDF(onePagePDF(content), time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, p := range d.Paragraphs {
		texts = append(texts, p.Text)
	}
	if want := []string{"Before the image.", "After the image."}; !cmp.Equal(texts, want) {
		t.Fatalf("paragraphs %q, want %q", texts, want)
	}
}

// A hex string left open at the end of a page ends the page's text; it
// does not hang the reader.
func TestPDFOpenHexStringEnds(t *testing.T) {
	d, err := readPDF(onePagePDF("BT /F1 12 Tf 72 700 Td (Some text.) Tj ET <4142"), time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Paragraphs) != 1 || d.Paragraphs[0].Text != "Some text." {
		t.Fatalf("paragraphs %+v", d.Paragraphs)
	}
}

// onePagePDF is a one-page PDF with the given content stream and
// Helvetica as /F1.
func onePagePDF(content string) []byte {
	return onePagePDFFont(content, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
}

// onePagePDFFont is a one-page PDF with the given content stream and the
// font dictionary font as /F1 (object 5), the objects more after it (6, 7,
// …: its descriptor, its program); a font dictionary among them is /F2,
// /F3, … by its place in more.
func onePagePDFFont(content, font string, more ...string) []byte {
	fonts := "/F1 5 0 R"
	for i, o := range more {
		if strings.HasPrefix(o, "<< /Type /Font ") {
			fonts += fmt.Sprintf(" /F%d %d 0 R", i+2, i+6)
		}
	}
	var b bytes.Buffer
	var offs []int
	obj := func(s string) {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offs), s)
	}
	b.WriteString("%PDF-1.4\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << " + fonts + " >> >> >>")
	obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
	obj(font)
	for _, o := range more {
		obj(o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, xref)
	return b.Bytes()
}

// glyphMatrix and advance must give mat.mul's results to the bit, the sign
// of zero, infinities and NaN included.
func TestGlyphMatrixMatchesMul(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 12, -3.25, 1e300, math.Inf(1), math.Inf(-1), math.NaN(), 1e-310}
	rng := rand.New(rand.NewSource(1))
	pick := func() float64 {
		if rng.Intn(3) == 0 {
			return rng.NormFloat64() * 100
		}
		return vals[rng.Intn(len(vals))]
	}
	same := func(a, b mat) bool {
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
				return false
			}
		}
		return true
	}
	var g glyphMatrix
	st := textState{ctm: identity, th: 1}
	tm := identity
	for i := 0; i < 200000; i++ {
		switch rng.Intn(4) { // change some of the inputs, or none
		case 0:
			st.tfs, st.th, st.ts = pick(), pick(), pick()
		case 1:
			for j := range tm {
				tm[j] = pick()
			}
		case 2:
			st.ctm[rng.Intn(6)] = pick()
		}
		want := mat{st.tfs * st.th, 0, 0, st.tfs, 0, st.ts}.mul(tm).mul(st.ctm)
		if got := g.of(&st, &tm); !same(got, want) {
			t.Fatalf("glyph matrix of %+v, tm %v: %v, want %v", st, tm, got, want)
		}
		tx := pick()
		if got, want := tm.advance(tx), translate(tx, 0).mul(tm); !same(got, want) {
			t.Fatalf("advance %v of %v: %v, want %v", tx, tm, got, want)
		}
		tm = tm.advance(tx)
	}
}
