package pdf

import (
	"bytes"
	"compress/flate"
	"compress/lzw"
	"encoding/ascii85"
	"errors"
	"fmt"
	"math/bits"
	"math/rand"
	"runtime"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/testsupport/zlibfast"
)

// streamDoc writes a document whose catalog's /S is object 3, which write
// writes (with any other objects it needs, from 4 on), and returns /S.
func streamDoc(t *testing.T, write func(f *pdfFile)) Value {
	t.Helper()
	f := newPDFFile()
	f.obj(1, "<< /Type /Catalog /Pages 2 0 R /S 3 0 R >>")
	f.obj(2, "<< /Type /Pages /Kids [] /Count 0 >>")
	write(f)
	f.xrefTable(nil, " /Root 1 0 R")
	d := open(t, f.bytes())
	if d.Repaired() {
		t.Errorf("repaired")
	}
	s := d.Root().Key("S")
	if s.Kind() != KindStream {
		t.Fatalf("/S is %v", s)
	}
	return s
}

// filtered is a stream with the dictionary entries given and the right Length.
func filtered(t *testing.T, entries string, data []byte) Value {
	t.Helper()
	return streamDoc(t, func(f *pdfFile) { f.stream(3, entries, data) })
}

func checkData(t *testing.T, what string, s Value, want []byte) {
	t.Helper()
	got, err := s.Data(1 << 24)
	if err != nil {
		t.Errorf("%s: %v", what, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: got %d bytes %.60q…, want %d bytes %.60q…", what, len(got), got, len(want), want)
	}
}

// text is n bytes of English-like text, the same for a seed.
func text(n int, seed int64) []byte {
	words := strings.Fields("the quick brown fox jumps over a lazy dog while seven wizards " +
		"box and quack at the pale moon of June BT ET Tj TJ 12.5 Tf")
	rng := rand.New(rand.NewSource(seed))
	var b []byte
	for len(b) < n {
		b = append(b, words[rng.Intn(len(words))]...)
		b = append(b, " \n"[rng.Intn(2)])
	}
	return b[:n]
}

func noise(n int, seed int64) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(b)
	return b
}

func TestStreamLength(t *testing.T) {
	data := []byte("BT /F1 12 Tf (endstrea) Tj ET\n% the last line")
	n := len(data)
	for _, c := range []struct {
		name  string
		write func(f *pdfFile)
	}{
		{"direct", func(f *pdfFile) { f.stream(3, "", data) }},
		{"indirect, after", func(f *pdfFile) {
			f.rawStream(3, "<< /Length 4 0 R >>", data)
			f.obj(4, fmt.Sprint(n))
		}},
		{"indirect, before", func(f *pdfFile) {
			f.obj(4, fmt.Sprint(n))
			f.rawStream(3, "<< /Length 4 0 R >>", data)
		}},
		{"indirect, missing object", func(f *pdfFile) { f.rawStream(3, "<< /Length 9 0 R >>", data) }},
		{"indirect, not a number", func(f *pdfFile) {
			f.rawStream(3, "<< /Length 4 0 R >>", data)
			f.obj(4, "(sixty)")
		}},
		{"too long", func(f *pdfFile) { f.rawStream(3, fmt.Sprintf("<< /Length %d >>", n+7), data) }},
		{"far too long", func(f *pdfFile) { f.rawStream(3, "<< /Length 100000 >>", data) }},
		{"too short", func(f *pdfFile) { f.rawStream(3, fmt.Sprintf("<< /Length %d >>", n-5), data) }},
		{"zero", func(f *pdfFile) { f.rawStream(3, "<< /Length 0 >>", data) }},
		{"negative", func(f *pdfFile) { f.rawStream(3, "<< /Length -3 >>", data) }},
		{"missing", func(f *pdfFile) { f.rawStream(3, "<< >>", data) }},
		{"real", func(f *pdfFile) { f.rawStream(3, fmt.Sprintf("<< /Length %d.0 >>", n), data) }},
		{"CRLF after stream and before endstream", func(f *pdfFile) {
			f.off[3] = f.buf.Len()
			fmt.Fprintf(&f.buf, "3 0 obj\n<< /Length %d >>\nstream\r\n%s\r\nendstream\r\nendobj\n", n+3, data)
		}},
		{"CRLF, no Length", func(f *pdfFile) {
			f.off[3] = f.buf.Len()
			fmt.Fprintf(&f.buf, "3 0 obj\n<< >>\nstream\r\n%s\r\nendstream\r\nendobj\n", data)
		}},
	} {
		checkData(t, c.name, streamDoc(t, c.write), data)
	}
	// Data that ends in an end of line keeps it when Length counts it.
	s := streamDoc(t, func(f *pdfFile) { f.stream(3, "", []byte("q Q\n")) })
	checkData(t, "Length counting a final newline", s, []byte("q Q\n"))
}

func TestFlate(t *testing.T) {
	plain := text(50000, 1)
	var raw bytes.Buffer
	w, _ := flate.NewWriter(&raw, flate.BestCompression)
	w.Write(plain)
	w.Close()
	checkData(t, "zlib", filtered(t, " /Filter /FlateDecode", zlibBytes(plain)), plain)
	checkData(t, "raw deflate", filtered(t, " /Filter /FlateDecode", raw.Bytes()), plain)
	checkData(t, "abbreviation Fl", filtered(t, " /Filter /Fl", zlibBytes(plain)), plain)
	checkData(t, "filter in an array", filtered(t, " /Filter [/FlateDecode]", zlibBytes(plain)), plain)
	checkData(t, "empty", filtered(t, " /Filter /FlateDecode", zlibBytes(nil)), nil)
	// The checksum is not needed to read the data.
	z := zlibBytes(plain)
	checkData(t, "zlib without checksum", filtered(t, " /Filter /FlateDecode", z[:len(z)-4]), plain)

	// A stream cut short keeps what was inflated before the cut.
	for _, cut := range []int{len(z) / 2, len(z) - 10} {
		got, err := filtered(t, " /Filter /FlateDecode", z[:cut]).Data(1 << 20)
		if len(got) < len(plain)/4 || !bytes.HasPrefix(plain, got) {
			t.Errorf("cut at %d of %d: %d bytes (error %v), want a prefix of at least %d bytes",
				cut, len(z), len(got), err, len(plain)/4)
		}
	}
	// Damaged data is an error.
	if got, err := filtered(t, " /Filter /FlateDecode", []byte("\x78\x9c\xff\xff\xff\xff garbage")).Data(100); err == nil {
		t.Errorf("garbage inflated to %q without error", got)
	}
}

func TestASCIIHex(t *testing.T) {
	for src, want := range map[string]string{
		"48656C6C6F>":        "Hello",
		"48 65 6c\n6C\t6F >": "Hello",
		"48656C6C6F":         "Hello", // no EOD marker
		"48656C6C6>":         "Hell`", // an odd final digit is followed by 0
		">":                  "",
		"4142>4344":          "AB", // nothing after the EOD marker
	} {
		checkData(t, src, filtered(t, " /Filter /ASCIIHexDecode", []byte(src)), []byte(want))
	}
	checkData(t, "AHx", filtered(t, " /Filter /AHx", []byte("4142>")), []byte("AB"))
	if _, err := filtered(t, " /Filter /ASCIIHexDecode", []byte("41x2>")).Data(100); err == nil {
		t.Errorf("a bad hex digit gave no error")
	}
}

func a85(data []byte) []byte {
	out := make([]byte, ascii85.MaxEncodedLen(len(data)))
	return out[:ascii85.Encode(out, data)]
}

func TestASCII85(t *testing.T) {
	plain := append(text(1000, 2), make([]byte, 12)...) // zeros: 'z' groups
	plain = append(plain, "end"...)
	enc := a85(plain)
	if !bytes.ContainsRune(enc, 'z') {
		t.Fatal("the test data has no z group")
	}
	// With line breaks every 64 bytes, as writers emit.
	var lines []byte
	for i := 0; i < len(enc); i += 64 {
		lines = append(lines, enc[i:min(i+64, len(enc))]...)
		lines = append(lines, '\n')
	}
	for name, src := range map[string][]byte{
		"with ~>":       append(bytes.Clone(enc), "~>"...),
		"with <~ ~>":    append(append([]byte("<~"), enc...), "~>"...),
		"without EOD":   enc,
		"lines":         append(bytes.Clone(lines), "~>"...),
		"after the EOD": append(bytes.Clone(enc), "~>garbage!"...),
	} {
		checkData(t, name, filtered(t, " /Filter /ASCII85Decode", src), plain)
	}
	checkData(t, "A85", filtered(t, " /Filter /A85", append(a85([]byte("abc")), "~>"...)), []byte("abc"))
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8} { // every final group length
		p := noise(n, int64(n))
		checkData(t, fmt.Sprintf("%d bytes", n), filtered(t, " /Filter /ASCII85Decode", append(a85(p), "~>"...)), p)
	}
	if _, err := filtered(t, " /Filter /ASCII85Decode", []byte("ab{cd~>")).Data(100); err == nil {
		t.Errorf("a byte outside ! to u gave no error")
	}
}

func TestRunLength(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"\x04Hello\xfd!\x80", "Hello!!!!"},
		{"\x00a\xffb\x01cd\x80ignored", "abbcd"},
		{"\x02abc", "abc"}, // no EOD
		{"\x80", ""},
		{"\x81z\x80", strings.Repeat("z", 128)},
	} {
		checkData(t, fmt.Sprintf("%q", c.src), filtered(t, " /Filter /RunLengthDecode", []byte(c.src)), []byte(c.want))
	}
	checkData(t, "RL", filtered(t, " /Filter /RL", []byte("\xfex\x80")), []byte("xxx"))
}

// lzwEncode is an LZW encoder as PDF's LZWDecode reads it: MSB-first
// codes of 9 to 12 bits, a clear code first and whenever the table is
// full, and with early change the code width grows one code sooner.
func lzwEncode(data []byte, early bool) []byte {
	e := 0
	if early {
		e = 1
	}
	var out []byte
	var acc uint64
	nacc := 0
	next := 258
	put := func(code int) {
		w := max(9, bits.Len(uint(next-1+e)))
		acc = acc<<w | uint64(code)
		nacc += w
		for nacc >= 8 {
			out = append(out, byte(acc>>(nacc-8)))
			nacc -= 8
		}
	}
	table := map[string]int{}
	code := func(s string) int {
		if len(s) == 1 {
			return int(s[0])
		}
		return table[s]
	}
	put(256)
	w := ""
	for _, c := range data {
		wc := w + string([]byte{c})
		if _, ok := table[wc]; ok || len(wc) == 1 {
			w = wc
			continue
		}
		put(code(w))
		table[wc] = next
		next++
		if next-1+e >= 4095 {
			put(256)
			table = map[string]int{}
			next = 258
		}
		w = string([]byte{c})
	}
	if w != "" {
		put(code(w))
		next++ // the decoder adds an entry here, and may widen its codes
	}
	put(257)
	if nacc > 0 {
		out = append(out, byte(acc<<(8-nacc)))
	}
	return out
}

// lzwData has long runs (codes defined by the code itself, KwKwK) and
// enough variety to fill the table and clear it a few times.
func lzwData() []byte {
	var b []byte
	b = append(b, bytes.Repeat([]byte("a"), 3000)...)
	b = append(b, text(40000, 3)...)
	b = append(b, noise(9000, 4)...)
	b = append(b, "-----"...)
	return b
}

func TestLZW(t *testing.T) {
	plain := lzwData()
	// Go's compress/lzw is PDF's LZW without early change: MSB first,
	// 8-bit literals, a clear code first.
	var goLZW bytes.Buffer
	w := lzw.NewWriter(&goLZW, lzw.MSB, 8)
	w.Write(plain)
	w.Close()
	if goLZW.Bytes()[0] != 0x80 || goLZW.Bytes()[1]&0x80 != 0 {
		t.Fatalf("compress/lzw does not start with a clear code: % x", goLZW.Bytes()[:2])
	}
	if !bytes.Equal(goLZW.Bytes(), lzwEncode(plain, false)) {
		t.Errorf("the test's encoder does not match compress/lzw")
	}
	ec0 := " /Filter /LZWDecode /DecodeParms << /EarlyChange 0 >>"
	checkData(t, "compress/lzw, EarlyChange 0", filtered(t, ec0, goLZW.Bytes()), plain)
	checkData(t, "early change by default", filtered(t, " /Filter /LZWDecode", lzwEncode(plain, true)), plain)
	checkData(t, "EarlyChange 1", filtered(t, " /Filter /LZW /DecodeParms << /EarlyChange 1 >>", lzwEncode(plain, true)), plain)
	checkData(t, "short, early", filtered(t, " /Filter /LZWDecode", lzwEncode([]byte("-----A---B"), true)), []byte("-----A---B"))
	// The example of the PDF specification (7.4.4.2): 45 45 45 45 45 65
	// 45 45 45 66 encodes as 80 0B 60 50 22 0C 0C 85 01.
	spec := []byte{0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01}
	checkData(t, "the specification's example", filtered(t, " /Filter /LZWDecode", spec), []byte("-----A---B"))
	if !bytes.Equal(lzwEncode([]byte("-----A---B"), true), spec) {
		t.Errorf("the test's encoder does not give the specification's example: % x", lzwEncode([]byte("-----A---B"), true))
	}
	// Decoded with the wrong early change, the data does not come back.
	got, _ := filtered(t, " /Filter /LZWDecode", goLZW.Bytes()).Data(1 << 24)
	if bytes.Equal(got, plain) {
		t.Errorf("early change made no difference")
	}
}

func TestFilterArray(t *testing.T) {
	plain := text(3000, 5)
	z := zlibBytes(plain)
	hexz := []byte(fmt.Sprintf("%X>", z))
	checkData(t, "ASCII85 then Flate", filtered(t, " /Filter [/ASCII85Decode /FlateDecode]", append(a85(z), "~>"...)), plain)
	checkData(t, "ASCIIHex then Flate", filtered(t, " /Filter [/AHx /Fl]", hexz), plain)
	checkData(t, "filters by reference", streamDoc(t, func(f *pdfFile) {
		f.rawStream(3, fmt.Sprintf("<< /Filter 4 0 R /Length %d >>", len(hexz)), hexz)
		f.obj(4, "[/ASCIIHexDecode 5 0 R]")
		f.obj(5, "/FlateDecode")
	}), plain)
	// Parameters go with their filter.
	rows := noise(5*40, 6)
	pz := zlibBytes(pngPredict(rows, 5, 1, []byte{0, 1, 2, 3, 4}))
	checkData(t, "parameters in an array", filtered(t,
		" /Filter [/ASCIIHexDecode /FlateDecode] /DecodeParms [null << /Predictor 15 /Columns 5 >>]",
		[]byte(fmt.Sprintf("%x>", pz))), rows)
	checkData(t, "Crypt filter with no encryption", filtered(t, " /Filter [/Crypt /FlateDecode]", z), plain)
}

func TestPredictors(t *testing.T) {
	const rows = 30
	for _, c := range []struct {
		colors, cols int
		types        []byte
	}{
		{1, 4, []byte{0}},
		{1, 4, []byte{1}},
		{1, 4, []byte{2}},
		{1, 4, []byte{3}},
		{1, 4, []byte{4}},
		{3, 5, []byte{0}},
		{3, 5, []byte{1}},
		{3, 5, []byte{2}},
		{3, 5, []byte{3}},
		{3, 5, []byte{4}},
		{3, 5, []byte{4, 3, 2, 1, 0, 2, 4}},
		{4, 7, []byte{1, 4, 3}},
	} {
		row := c.colors * c.cols
		// Smooth data, as images and cross-references are, and noise.
		plain := make([]byte, row*rows)
		for i := range plain {
			plain[i] = byte(i/row*3 + i%row*7)
		}
		plain = append(plain, noise(row*rows, int64(row))...)
		enc := zlibBytes(pngPredict(plain, row, c.colors, c.types))
		parms := fmt.Sprintf(" /Filter /FlateDecode /DecodeParms << /Predictor 10 /Colors %d /Columns %d /BitsPerComponent 8 >>", c.colors, c.cols)
		checkData(t, fmt.Sprintf("PNG %v, %d colors, %d columns", c.types, c.colors, c.cols), filtered(t, parms, enc), plain)
	}
	// PNG predictor with LZW.
	plain := noise(6*20, 7)
	enc := lzwEncode(pngPredict(plain, 6, 1, []byte{2, 4}), true)
	checkData(t, "PNG with LZW", filtered(t, " /Filter /LZWDecode /DecodeParms << /Predictor 12 /Columns 6 >>", enc), plain)

	// TIFF predictor 2: each byte is the difference from the pixel to its left.
	for _, colors := range []int{1, 3} {
		const cols = 6
		row := colors * cols
		plain := noise(row*10, int64(colors))
		enc := bytes.Clone(plain)
		for r := 0; r < len(enc); r += row {
			for i := row - 1; i >= colors; i-- {
				enc[r+i] -= plain[r+i-colors]
			}
		}
		parms := fmt.Sprintf(" /Filter /FlateDecode /DecodeParms << /Predictor 2 /Colors %d /Columns %d >>", colors, cols)
		checkData(t, fmt.Sprintf("TIFF, %d colors", colors), filtered(t, parms, zlibBytes(enc)), plain)
	}
	// A bad row type is an error.
	if _, err := filtered(t, " /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 2 >>",
		zlibBytes([]byte{2, 1, 1, 9, 1, 1})).Data(100); err == nil {
		t.Errorf("PNG row type 9 gave no error")
	}
}

// TestPredictorHugeRow: predictor parameters that make a row huge cost no
// more than the data is long, counted in bytes allocated. A few bytes with /Columns 1048576 /Colors
// 64 /BitsPerComponent 16 (a 128 MB row) took 0.2 s and 256 MB each, so a
// page whose Contents list such a stream a thousand times took minutes.
func TestPredictorHugeRow(t *testing.T) {
	s := filtered(t, " /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 1048576 /Colors 64 /BitsPerComponent 16 >>",
		zlibBytes([]byte{2, 1, 2, 3}))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 20 {
		if got, _ := s.Data(1 << 20); len(got) > 3 {
			t.Errorf("%d bytes from 3", len(got))
		}
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
		t.Errorf("20 reads of a 4-byte stream with a 128 MB predictor row allocated %d MB", n>>20)
	}
}

func TestDataLimit(t *testing.T) {
	plain := noise(5000, 8)
	hex := []byte(fmt.Sprintf("%x>", plain))
	for _, c := range []struct {
		name    string
		entries string
		data    []byte
	}{
		{"unfiltered", "", plain},
		{"Flate", " /Filter /FlateDecode", zlibBytes(plain)},
		{"ASCIIHex", " /Filter /ASCIIHexDecode", hex},
		{"ASCII85", " /Filter /ASCII85Decode", a85(plain)},
		{"LZW", " /Filter /LZWDecode", lzwEncode(plain, true)},
		{"RunLength", " /Filter /RunLengthDecode", append([]byte{0x81, 'x', 0x7f}, plain[:128]...)},
		{"ASCIIHex then Flate", " /Filter [/ASCIIHexDecode /FlateDecode]", []byte(fmt.Sprintf("%x>", zlibBytes(plain)))},
		{"ASCII85 then Flate", " /Filter [/ASCII85Decode /FlateDecode]", a85(zlibBytes(plain))},
	} {
		s := filtered(t, c.entries, c.data)
		all, err := s.Data(1 << 20)
		if err != nil || len(all) < 256 {
			t.Errorf("%s: %d bytes, %v", c.name, len(all), err)
			continue
		}
		for _, max := range []int{0, 1, 100, len(all) - 1} {
			got, err := s.Data(max)
			if !errors.Is(err, ErrTooLong) || !bytes.Equal(got, all[:max]) {
				t.Errorf("%s: Data(%d) of %d bytes: %d bytes (%.8q…), %v; want the first %d and ErrTooLong",
					c.name, max, len(all), len(got), got, err, max)
			}
		}
		if got, err := s.Data(len(all)); err != nil || !bytes.Equal(got, all) {
			t.Errorf("%s: Data(len) gave %d bytes, %v", c.name, len(got), err)
		}
	}
	// A bomb stops at the limit. (zlibfast: compress/zlib took 35 s to make
	// it under -race.)
	bomb := zlibfast.Compress(make([]byte, 50<<20))
	got, err := filtered(t, " /Filter /FlateDecode", bomb).Data(1 << 20)
	if !errors.Is(err, ErrTooLong) || len(got) != 1<<20 {
		t.Errorf("a 50 MB bomb read with a 1 MB limit: %d bytes, %v", len(got), err)
	}
}

func TestUnsupportedFilter(t *testing.T) {
	for _, name := range []string{"JBIG2Decode", "NoSuchFilter"} {
		_, err := filtered(t, " /Filter /"+name, []byte("data")).Data(100)
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("/%s: error %v, want one naming the filter", name, err)
		}
		_, err = filtered(t, " /Filter [/ASCIIHexDecode /"+name+"]", []byte("6461>")).Data(100)
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("[/ASCIIHexDecode /%s]: error %v, want one naming the filter", name, err)
		}
	}
}

// Decoded counts what the filters make, a stream each time it is read and
// a chain's intermediate data too: a caller bounds it against forms drawn
// a million times.
func TestDecoded(t *testing.T) {
	plain := noise(5000, 8)
	s := filtered(t, " /Filter /FlateDecode", zlibBytes(plain))
	for i := 1; i <= 3; i++ {
		if _, err := s.Data(1 << 20); err != nil {
			t.Fatal(err)
		}
		if got := s.d.Decoded(); got != int64(i*len(plain)) {
			t.Errorf("after %d reads of %d bytes: Decoded() = %d", i, len(plain), got)
		}
	}
	hex := []byte(fmt.Sprintf("%x>", zlibBytes(plain)))
	s = filtered(t, " /Filter [/ASCIIHexDecode /FlateDecode]", hex)
	if _, err := s.Data(1 << 20); err != nil {
		t.Fatal(err)
	}
	if got, want := s.d.Decoded(), int64(len(zlibBytes(plain))+len(plain)); got != want {
		t.Errorf("a two-filter chain: Decoded() = %d, want %d", got, want)
	}
	// A bomb counts what was made of it, up to the limit.
	s = filtered(t, " /Filter /FlateDecode", zlibfast.Compress(make([]byte, 8<<20)))
	s.Data(1 << 20)
	if got := s.d.Decoded(); got != 1<<20 {
		t.Errorf("a bomb read with a 1 MB limit: Decoded() = %d", got)
	}
}
