package zlibfast

import (
	"bytes"
	"compress/zlib"
	"hash/adler32"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// Every stream inflates to its data, checksum checked, whether the data
// repeats in whole chunks or not.
func TestCompress(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 1))
	noise := make([]byte, 500)
	for i := range noise {
		noise[i] = byte(rnd.IntN(256))
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"nothing", nil},
		{"zeros", make([]byte, 10_000)},
		{"a head, a letter, a tail", []byte("BI /W 1 /H 1 ID " + strings.Repeat("x", 9_000) + " EI")},
		{"operators", []byte(strings.Repeat("q Q ", 300))},
		{"noise", noise},
		{"noise repeated", bytes.Repeat(noise[:100], 20)},
		{"less than a chunk", []byte("Some text on the page.")},
	} {
		for _, size := range []int{7, 1000, chunk} {
			z := compress(c.data, size)
			r, err := zlib.NewReader(bytes.NewReader(z))
			if err != nil {
				t.Fatalf("%s in chunks of %d: %v", c.name, size, err)
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, c.data) {
				t.Errorf("%s in chunks of %d: inflates to %d bytes (%v), want %d", c.name, size, len(got), err, len(c.data))
			}
		}
	}
}

// combine is the checksum of the pieces together.
func TestCombine(t *testing.T) {
	a, b := bytes.Repeat([]byte("tea "), 40_000), bytes.Repeat([]byte{0xff}, 70_000)
	for _, c := range [][2][]byte{{a, b}, {b, a}, {nil, a}, {a, nil}, {a[:5], b[:3]}} {
		if got, want := combine(adler32.Checksum(c[0]), adler32.Checksum(c[1]), len(c[1])), adler32.Checksum(append(c[0], c[1]...)); got != want {
			t.Errorf("%d and %d bytes: %#x, want %#x", len(c[0]), len(c[1]), got, want)
		}
	}
}
