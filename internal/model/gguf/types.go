package gguf

// TensorType is a ggml tensor type, as stored in a GGUF tensor description.
type TensorType uint32

// The tensor types the writer makes.
const (
	F32  TensorType = 0
	F16  TensorType = 1
	Q4_0 TensorType = 2
	Q8_0 TensorType = 8
)

// Bytes is how many bytes n values of the type take (n a whole number of
// blocks).
func (t TensorType) Bytes(n uint64) uint64 {
	tt, _ := typeOf(t)
	return n / uint64(tt.block) * uint64(tt.size)
}

// String is the name llama.cpp uses for the type.
func (t TensorType) String() string {
	if tt, ok := typeOf(t); ok {
		return tt.name
	}
	return "unknown"
}

// tensorType is how a ggml type packs values: block values in size bytes.
type tensorType struct {
	name  string
	block int
	size  int
}

// typeOf is how the type t packs values, if ggml has such a type.
func typeOf(t TensorType) (tensorType, bool) {
	if int(t) < len(tensorTypes) && tensorTypes[t].name != "" {
		return tensorTypes[t], true
	}
	return tensorType{}, false
}

// tensorTypes lists every type of ggml in ollama v0.17.4 (ggml.h, and the
// block structs of ggml-common.h), by number. An array, not a map: it is
// laid out by the compiler, where a map is built by the package's
// initialisation in every program that links it (sponge, for a question).
var tensorTypes = [...]tensorType{
	0:  {"F32", 1, 4},
	1:  {"F16", 1, 2},
	2:  {"Q4_0", 32, 18},
	3:  {"Q4_1", 32, 20},
	6:  {"Q5_0", 32, 22},
	7:  {"Q5_1", 32, 24},
	8:  {"Q8_0", 32, 34},
	9:  {"Q8_1", 32, 36},
	10: {"Q2_K", 256, 84},
	11: {"Q3_K", 256, 110},
	12: {"Q4_K", 256, 144},
	13: {"Q5_K", 256, 176},
	14: {"Q6_K", 256, 210},
	15: {"Q8_K", 256, 292},
	16: {"IQ2_XXS", 256, 66},
	17: {"IQ2_XS", 256, 74},
	18: {"IQ3_XXS", 256, 98},
	19: {"IQ1_S", 256, 50},
	20: {"IQ4_NL", 32, 18},
	21: {"IQ3_S", 256, 110},
	22: {"IQ2_S", 256, 82},
	23: {"IQ4_XS", 256, 136},
	24: {"I8", 1, 1},
	25: {"I16", 1, 2},
	26: {"I32", 1, 4},
	27: {"I64", 1, 8},
	28: {"F64", 1, 8},
	29: {"IQ1_M", 256, 56},
	30: {"BF16", 1, 2},
	34: {"TQ1_0", 256, 54},
	35: {"TQ2_0", 256, 66},
	39: {"MXFP4", 32, 17},
}
