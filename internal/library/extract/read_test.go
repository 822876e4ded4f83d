package extract

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// endless is a reader without end, like /dev/zero or `yes`, that counts
// what it gives.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'y'
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestReadAllLimit: an input without end is refused after limit+1 bytes,
// an input of a known size over the limit without reading it, and one of
// exactly the limit is read whole, in any size of reads.
func TestReadAllLimit(t *testing.T) {
	const limit = 5<<20 + 3
	r := &endless{}
	_, err := ReadAll(r, limit, 0)
	var tl *TooLargeError
	if !errors.As(err, &tl) || err.Error() != "too large (more than the limit of 5.0 MiB)" {
		t.Fatalf("endless input: %v", err)
	}
	if r.n != limit+1 {
		t.Errorf("endless input: read %d bytes, want %d (the limit and one)", r.n, limit+1)
	}

	r = &endless{}
	_, err = ReadAll(r, limit, limit+1)
	if !errors.As(err, &tl) || err.Error() != "too large (5.0 MiB; the limit is 5.0 MiB)" || r.n != 0 {
		t.Fatalf("known size over the limit: %v, after reading %d bytes", err, r.n)
	}

	want := bytes.Repeat([]byte("0123456789abcdef"), limit/16+1)[:limit]
	for name, known := range map[string]int64{"size unknown": 0, "size known": limit, "size known, grew": limit - 100} {
		for rname, src := range map[string]io.Reader{
			"whole":    bytes.NewReader(want),
			"one byte": iotest.OneByteReader(bytes.NewReader(want[:200<<10])),
			"halves":   iotest.HalfReader(bytes.NewReader(want)),
		} {
			exp := want
			if rname == "one byte" {
				exp = want[:200<<10]
			}
			got, err := ReadAll(src, limit, known)
			if err != nil || !bytes.Equal(got, exp) {
				t.Errorf("%s, %s reads: %d bytes, %v; want %d bytes", name, rname, len(got), err, len(exp))
			}
		}
	}
}

// TestReadInto: an input that fits the buffer is read into it, and nothing
// of what the buffer held before shows; one that grew past its known size,
// or a buffer too small, still gives the whole input.
func TestReadInto(t *testing.T) {
	want := bytes.Repeat([]byte("0123456789abcdef"), 1000)
	for _, tc := range []struct {
		name         string
		known, buf   int
		inBufferWant bool
	}{
		{"fits", len(want), len(want) + 1, true},
		{"fits, larger buffer", len(want), 3 * len(want), true},
		{"grew", len(want) - 100, len(want) - 99, false},
		{"buffer too small", len(want), len(want), false},
		{"size unknown", 0, 2 * len(want), false},
	} {
		buf := bytes.Repeat([]byte{'x'}, tc.buf)
		got, err := ReadInto(buf, iotest.HalfReader(bytes.NewReader(want)), 1<<20, int64(tc.known))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, %v; want %d bytes", tc.name, len(got), err, len(want))
			continue
		}
		if inBuffer := &got[0] == &buf[0]; inBuffer != tc.inBufferWant {
			t.Errorf("%s: read into the buffer %v, want %v", tc.name, inBuffer, tc.inBufferWant)
		}
	}
}
