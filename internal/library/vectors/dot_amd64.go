package vectors

import "golang.org/x/sys/cpu"

//go:noescape
func dotInt8AVX2(a, b *int8, n int) int32

var hasAVX2 = cpu.X86.HasAVX2

// dotInt8 is the dot product of two int8 vectors of the same length.
func dotInt8(a, b []int8) int32 {
	n := len(a)
	if !hasAVX2 || n < 32 {
		return dotInt8Generic(a, b)
	}
	b = b[:n]
	k := n &^ 31
	s := dotInt8AVX2(&a[0], &b[0], k)
	if k < n {
		s += dotInt8Generic(a[k:], b[k:])
	}
	return s
}
