// Package zlibfast makes zlib streams of big test data that repeats itself
// (a bomb: 100 MiB of zeros, 60 MiB of one letter) in milliseconds, where
// compress/zlib takes a minute under the race detector. The data is cut in
// chunks, each deflated alone, so that it refers to nothing before it; a
// chunk the same as the one before is not deflated again, its blocks are
// written again. The stream is valid zlib, checksum included.
package zlibfast

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
)

// chunk is how much data is deflated at once.
const chunk = 256 << 10

// Compress is data as a zlib stream.
func Compress(data []byte) []byte { return compress(data, chunk) }

func compress(data []byte, size int) []byte {
	out := []byte{0x78, 0xda} // deflate, 32 KiB window, best compression
	sum := adler32.Checksum(nil)
	var last, blocks []byte // the chunk deflated last, and its blocks
	var lastSum uint32
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	for len(data) > 0 {
		c := data[:min(size, len(data))]
		data = data[len(c):]
		if last == nil || !bytes.Equal(c, last) {
			b.Reset()
			w.Reset(&b) // from nothing: the chunk refers to nothing before it
			w.Write(c)
			w.Flush() // ends the blocks on a byte, without a final block
			last, blocks, lastSum = c, bytes.Clone(b.Bytes()), adler32.Checksum(c)
		}
		out = append(out, blocks...)
		sum = combine(sum, lastSum, len(c))
	}
	b.Reset()
	w.Reset(&b)
	w.Close() // the final block, empty
	out = append(out, b.Bytes()...)
	return binary.BigEndian.AppendUint32(out, sum)
}

// combine is the Adler-32 of two pieces of data, from their own and the
// second's length (zlib's adler32_combine).
func combine(sum1, sum2 uint32, len2 int) uint32 {
	const mod = 65521
	n := uint64(len2 % mod)
	a1, b1 := uint64(sum1&0xffff), uint64(sum1>>16)
	a2, b2 := uint64(sum2&0xffff), uint64(sum2>>16)
	a := (a1 + a2 + mod - 1) % mod
	b := (b1 + b2 + n*a1 + mod - n) % mod
	return uint32(b<<16 | a)
}
