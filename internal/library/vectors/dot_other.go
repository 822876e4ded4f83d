//go:build !amd64

package vectors

// dotInt8 is the dot product of two int8 vectors of the same length.
func dotInt8(a, b []int8) int32 { return dotInt8Generic(a, b) }
