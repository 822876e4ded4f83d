package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/klauspost/compress/flate"
)

// maxIntermediate bounds what a filter makes for the next one to read: the
// largest stream callers ask for (a page's content), as a filter chain's
// intermediate data is no larger than its output.
const maxIntermediate = 64 << 20

// ErrTooLong is a stream that decodes to more than the caller's limit.
var ErrTooLong = errors.New("stream longer than the limit")

// raw returns a stream's bytes as stored (still encrypted and filtered).
// Its Length is trusted when "endstream" follows where it says; otherwise
// the data runs to the next "endstream", as viewers read it.
func (d *Doc) raw(s *Stream) []byte {
	if s.off < 0 || s.off >= int64(len(d.data)) {
		return nil
	}
	rest := d.data[s.off:d.end(s.off)]
	n, ok := d.resolve(s.Dict["Length"]).(int64)
	if ok && n >= 0 && n <= int64(len(rest)) {
		after := rest[n:]
		i := 0
		for i < len(after) && i < 4 && IsSpace(after[i]) {
			i++
		}
		if bytes.HasPrefix(after[i:], []byte("endstream")) {
			return rest[:n]
		}
	}
	if i := bytes.Index(rest, []byte("endstream")); i >= 0 {
		end := i
		// The end of line before endstream is not data.
		if end > 0 && rest[end-1] == '\n' {
			end--
		}
		if end > 0 && rest[end-1] == '\r' {
			end--
		}
		return rest[:end]
	}
	return rest
}

// streamData decrypts and decodes a stream, up to max bytes.
func (d *Doc) streamData(s *Stream, max int) ([]byte, error) {
	data := d.raw(s)
	if d.crypt != nil && s.Dict["Type"] != Name("XRef") {
		var err error
		if data, err = d.crypt.decryptStream(s.ref, s.Dict, data); err != nil {
			return nil, err
		}
	}
	filters := d.resolve(s.Dict["Filter"])
	parms := d.resolve(s.Dict["DecodeParms"])
	if filters == nil {
		filters, parms = d.resolve(s.Dict["F"]), d.resolve(s.Dict["DP"])
		if _, file := s.Dict["F"].(string); file {
			return nil, errors.New("stream data in an external file")
		}
	}
	var names []Name
	var ps []Dict
	switch f := filters.(type) {
	case Name:
		names = []Name{f}
		p, _ := parms.(Dict)
		ps = []Dict{p}
	case Array:
		pa, _ := parms.(Array)
		for i, x := range f {
			n, _ := d.resolve(x).(Name)
			names = append(names, n)
			var p Dict
			if i < len(pa) {
				p, _ = d.resolve(pa[i]).(Dict)
			}
			ps = append(ps, p)
		}
	}
	if len(names) == 0 && len(data) > max {
		return data[:max], ErrTooLong
	}
	for i, name := range names {
		// Only the last filter's output is cut at the caller's limit; what
		// the filters before it make is bounded against bombs only.
		limit := maxIntermediate
		if i == len(names)-1 {
			limit = max
		}
		var err error
		data, err = d.decode(name, ps[i], data, limit)
		d.decoded += int64(len(data))
		if err != nil {
			return data, err
		}
	}
	return data, nil
}

// decode applies one filter.
func (d *Doc) decode(name Name, parms Dict, data []byte, max int) ([]byte, error) {
	var out []byte
	var err error
	switch name {
	case "FlateDecode", "Fl":
		out, err = inflate(data, max)
	case "LZWDecode", "LZW":
		early := true
		if e, ok := d.resolve(parms["EarlyChange"]).(int64); ok && e == 0 {
			early = false
		}
		out, err = lzwDecode(data, early, max)
	case "ASCII85Decode", "A85":
		out, err = ascii85Decode(data)
	case "ASCIIHexDecode", "AHx":
		out, err = asciiHexDecode(data)
	case "RunLengthDecode", "RL":
		out, err = runLengthDecode(data, max)
	case "Crypt":
		return data, nil // decrypted already
	default:
		return nil, fmt.Errorf("unsupported filter %s", name)
	}
	if len(out) > max {
		out, err = out[:max], ErrTooLong
	}
	if parms != nil && (name == "FlateDecode" || name == "Fl" || name == "LZWDecode" || name == "LZW") {
		pred, _ := d.resolve(parms["Predictor"]).(int64)
		if pred > 1 {
			cols, colors, bits := int64(1), int64(1), int64(8)
			if x, ok := d.resolve(parms["Columns"]).(int64); ok {
				cols = x
			}
			if x, ok := d.resolve(parms["Colors"]).(int64); ok {
				colors = x
			}
			if x, ok := d.resolve(parms["BitsPerComponent"]).(int64); ok {
				bits = x
			}
			var perr error
			out, perr = unpredict(out, int(pred), cols, colors, bits)
			if err == nil {
				err = perr
			}
		}
	}
	return out, err
}

var flatePool sync.Pool

// inflate decodes zlib (or, as some writers emit, raw deflate) data,
// keeping what it decoded before any damage.
func inflate(data []byte, max int) ([]byte, error) {
	if len(data) >= 2 && data[0]&0x0f == 8 && (uint16(data[0])<<8|uint16(data[1]))%31 == 0 {
		data = data[2:] // the zlib header; its checksum at the end is not checked
	}
	br := bytes.NewReader(data)
	var fr io.ReadCloser
	if x := flatePool.Get(); x != nil {
		fr = x.(io.ReadCloser)
		fr.(flate.Resetter).Reset(br, nil)
	} else {
		fr = flate.NewReader(br)
	}
	defer flatePool.Put(fr)
	out := make([]byte, 0, min(max+1, 4*len(data)+512))
	for {
		if len(out) == cap(out) {
			// Grow as append would, but to no more than max+1 bytes: a
			// bomb then costs its limit, not twice it.
			out = slices.Grow(out, min(len(out), max+1-len(out)))
		}
		n, err := fr.Read(out[len(out):cap(out)])
		out = out[:len(out)+n]
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			if len(out) > 0 && errors.Is(err, io.ErrUnexpectedEOF) {
				return out, nil // a stream cut short (a wrong Length): keep what it had
			}
			return out, fmt.Errorf("flate: %v", err)
		}
		if len(out) > max {
			return out[:max], ErrTooLong
		}
	}
}

// unpredict undoes a PNG (10-15) or TIFF (2) predictor.
func unpredict(data []byte, pred int, cols, colors, bits int64) ([]byte, error) {
	if cols <= 0 || colors <= 0 || bits <= 0 || cols > 1<<20 || colors > 64 || bits > 16 {
		return data, errors.New("bad predictor parameters")
	}
	bpp := int((colors*bits + 7) / 8)
	row := int((cols*colors*bits + 7) / 8)
	if pred == 2 {
		if bits != 8 {
			return data, errors.New("TIFF predictor with other than 8 bits")
		}
		for r := 0; r+row <= len(data); r += row {
			for i := bpp; i < row; i++ {
				data[r+i] += data[r+i-bpp]
			}
		}
		return data, nil
	}
	if pred < 10 {
		return data, fmt.Errorf("unsupported predictor %d", pred)
	}
	out := make([]byte, 0, len(data))
	// A row longer than the data is cut to it: its bytes past the data
	// are never output.
	row = min(row, len(data))
	prev := make([]byte, row)
	cur := make([]byte, row)
	for len(data) > 0 {
		typ := data[0]
		data = data[1:]
		n := min(row, len(data))
		clear(cur)
		copy(cur, data[:n])
		data = data[n:]
		for i := 0; i < n; i++ {
			var a, b, c byte
			if i >= bpp {
				a, c = cur[i-bpp], prev[i-bpp]
			}
			b = prev[i]
			switch typ {
			case 0:
			case 1:
				cur[i] += a
			case 2:
				cur[i] += b
			case 3:
				cur[i] += byte((int(a) + int(b)) / 2)
			case 4:
				cur[i] += paeth(a, b, c)
			default:
				return out, fmt.Errorf("bad PNG predictor row type %d", typ)
			}
		}
		out = append(out, cur[:n]...)
		prev, cur = cur, prev
	}
	return out, nil
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// asciiHexDecode reads hex digits up to a '>' (white space skipped, an odd
// last digit followed by 0): the ASCIIHexDecode filter and hex strings.
func asciiHexDecode(data []byte) ([]byte, error) {
	out := make([]byte, 0, len(data)/2)
	hi := -1
	for _, c := range data {
		if c == '>' {
			break
		}
		if IsSpace(c) {
			continue
		}
		x := Unhex(c)
		if x < 0 {
			return out, fmt.Errorf("bad hex digit %q", c)
		}
		if hi < 0 {
			hi = x
		} else {
			out = append(out, byte(hi<<4|x))
			hi = -1
		}
	}
	if hi >= 0 {
		out = append(out, byte(hi<<4))
	}
	return out, nil
}

func ascii85Decode(data []byte) ([]byte, error) {
	if i := bytes.Index(data, []byte("~>")); i >= 0 {
		data = data[:i]
	}
	if bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n\f\x00"), []byte("<~")) {
		data = bytes.TrimLeft(data, " \t\r\n\f\x00")[2:]
	}
	out := make([]byte, 0, len(data)*4/5+4)
	var group [5]byte
	n := 0
	for _, c := range data {
		switch {
		case IsSpace(c):
			continue
		case c == 'z' && n == 0:
			out = append(out, 0, 0, 0, 0)
			continue
		case c < '!' || c > 'u':
			return out, fmt.Errorf("ASCII85: bad byte %q", c)
		}
		group[n] = c - '!'
		n++
		if n == 5 {
			out = appendBase85(out, group, 4)
			n = 0
		}
	}
	if n == 1 {
		return out, errors.New("ASCII85: a final group of one byte")
	}
	if n > 1 {
		for i := n; i < 5; i++ {
			group[i] = 'u' - '!'
		}
		out = appendBase85(out, group, n-1)
	}
	return out, nil
}

func appendBase85(out []byte, g [5]byte, keep int) []byte {
	var v uint64
	for _, c := range g {
		v = v*85 + uint64(c)
	}
	if v > 0xffffffff {
		v = 0xffffffff
	}
	b := [4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
	return append(out, b[:keep]...)
}

func runLengthDecode(data []byte, max int) ([]byte, error) {
	var out []byte
	for len(data) > 0 && len(out) <= max {
		n := int(data[0])
		data = data[1:]
		switch {
		case n == 128:
			return out, nil
		case n < 128:
			k := min(n+1, len(data))
			out = append(out, data[:k]...)
			data = data[k:]
		default:
			if len(data) == 0 {
				return out, errors.New("RunLength: cut short")
			}
			for i := 0; i < 257-n; i++ {
				out = append(out, data[0])
			}
			data = data[1:]
		}
	}
	return out, nil
}

// lzwDecode decodes PDF's LZW (MSB first, codes of 9 to 12 bits; with
// early change the width grows one code sooner, as most writers do).
func lzwDecode(data []byte, early bool, max int) ([]byte, error) {
	const clear, eod = 256, 257
	var (
		out    []byte
		prefix = make([]int, 4096)
		suffix = make([]byte, 4096)
		length = make([]int, 4096)
		next   = 258
		width  = 9
		prev   = -1
		bitBuf uint32
		nbits  int
	)
	for i := 0; i < 256; i++ {
		suffix[i], length[i], prefix[i] = byte(i), 1, -1
	}
	entry := func(code int) []byte {
		n := length[code]
		b := make([]byte, n)
		for i := n - 1; i >= 0; i-- {
			b[i] = suffix[code]
			code = prefix[code]
		}
		return b
	}
	for _, c := range data {
		bitBuf = bitBuf<<8 | uint32(c)
		nbits += 8
		for nbits >= width {
			code := int(bitBuf>>(nbits-width)) & (1<<width - 1)
			nbits -= width
			switch {
			case code == clear:
				next, width, prev = 258, 9, -1
				continue
			case code == eod:
				return out, nil
			}
			var s []byte
			switch {
			case code < next && (code < 256 || length[code] > 0):
				s = entry(code)
				if prev >= 0 && next < 4096 {
					prefix[next], suffix[next], length[next] = prev, s[0], length[prev]+1
					next++
				}
			case code == next && prev >= 0:
				p := entry(prev)
				s = append(p, p[0])
				if next < 4096 {
					prefix[next], suffix[next], length[next] = prev, p[0], length[prev]+1
					next++
				}
			default:
				return out, fmt.Errorf("LZW: bad code %d", code)
			}
			out = append(out, s...)
			if len(out) > max {
				return out[:max], ErrTooLong
			}
			prev = code
			grow := next
			if early {
				grow++
			}
			switch {
			case grow > 2047 && width < 12:
				width = 12
			case grow > 1023 && width < 11:
				width = 11
			case grow > 511 && width < 10:
				width = 10
			}
		}
	}
	return out, nil
}
