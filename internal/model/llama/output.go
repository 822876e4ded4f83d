package llama

import (
	"encoding/binary"
	"math"
	"os"
	"syscall"

	"github.com/sponge-library/sponge/internal/model/gguf"
)

// outputLayer scores single tokens from the model's last hidden state, the
// way llama.cpp's CPU backend scores every token: for a Q8_0 output matrix
// the hidden state is quantized to Q8_0 and each row's dot product is summed
// in the same lanes and order as llamafile's tinyBLAS, so that the scores
// are equal to the bit (Model checks this on the first full decode and stops
// using the layer if not). Qwen 2.5 0.5B's output matrix is Q8_0 in its
// K-quant files too: llama.cpp's quantizer stores rows of 896, no multiple
// of 256, as Q8_0 where it would use Q6_K.
//
// It lets the model skip the output layer, a fifth of the time of reading
// one token with that model, when the next choice is among a few tokens: a
// quote's next piece, a passage number.
type outputLayer struct {
	mapped []byte // pages of the model file
	data   []byte // the matrix, in mapped
	width  int    // values in a row
	rows   int
	blocks int // Q8_0 blocks in a row
	// The hidden state last given to quantize.
	q []int8
	d []float32
}

const q8Block = 34 // bytes of a Q8_0 block: a float16 scale, 32 int8 values

// openOutput maps the model's output matrix (output.weight, or
// token_embd.weight when the embeddings are tied) from the file at path; nil
// when it is not Q8_0 or cannot be mapped.
func openOutput(path string, info *gguf.Info) *outputLayer {
	var t *gguf.Tensor
	for i := range info.Tensors {
		switch info.Tensors[i].Name {
		case "output.weight":
			t = &info.Tensors[i]
		case "token_embd.weight":
			if t == nil {
				t = &info.Tensors[i]
			}
		}
	}
	if t == nil || t.Type != gguf.Q8_0 || len(t.Dims) != 2 || t.Dims[0]%32 != 0 || t.Dims[1] != uint64(info.VocabSize) {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	// Map whole pages around the tensor.
	page := int64(os.Getpagesize())
	start := t.Offset / page * page
	data, err := syscall.Mmap(int(f.Fd()), start, int(t.Offset+t.Size-start), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	width := int(t.Dims[0])
	return &outputLayer{
		mapped: data,
		data:   data[t.Offset-start:],
		width:  width,
		rows:   int(t.Dims[1]),
		blocks: width / 32,
		q:      make([]int8, width),
		d:      make([]float32, width/32),
	}
}

func (o *outputLayer) close() {
	if o != nil && o.mapped != nil {
		syscall.Munmap(o.mapped)
		o.mapped, o.data = nil, nil
	}
}

// quantize takes the hidden state the next scores are for, as ggml's
// quantize_row_q8_0 does: per block of 32, the scale is the largest
// magnitude over 127, kept as float16, and each value is rounded to the
// nearest integer (ties to even) after multiplying by 127 over that
// magnitude.
func (o *outputLayer) quantize(hidden []float32) {
	for b := range o.blocks {
		x := hidden[b*32 : b*32+32]
		var amax float32
		for _, v := range x {
			amax = max(amax, float32(math.Abs(float64(v))))
		}
		o.d[b] = fromHalf(toHalf(amax / 127))
		var id float32
		if amax != 0 {
			id = 127 / amax
		}
		for i, v := range x {
			o.q[b*32+i] = int8(math.RoundToEven(float64(v * id)))
		}
	}
}

// score is the model's score for tok, from the last quantized hidden state.
// tinyBLAS (gemm4xN) keeps 8 float lanes, each adding the products of 4
// neighbouring values per block with one fused multiply-add, and then sums
// the lanes pairwise.
func (o *outputLayer) score(tok int) float32 {
	row := o.data[tok*o.blocks*q8Block : (tok+1)*o.blocks*q8Block]
	var acc [8]float32
	for b := range o.blocks {
		blk := row[b*q8Block : (b+1)*q8Block]
		scale := fromHalf(binary.LittleEndian.Uint16(blk)) * o.d[b]
		w := blk[2:q8Block]
		x := o.q[b*32 : b*32+32]
		for l := range 8 {
			s := int32(int8(w[4*l]))*int32(x[4*l]) + int32(int8(w[4*l+1]))*int32(x[4*l+1]) +
				int32(int8(w[4*l+2]))*int32(x[4*l+2]) + int32(int8(w[4*l+3]))*int32(x[4*l+3])
			acc[l] = fma32(scale, float32(s), acc[l])
		}
	}
	r0, r1, r2, r3 := acc[0]+acc[4], acc[1]+acc[5], acc[2]+acc[6], acc[3]+acc[7]
	return (r0 + r2) + (r1 + r3)
}

// fma32 is a*b+c rounded once to float32, as the CPU's fused multiply-add.
// The product is exact in float64; the sum is rounded to odd in float64, so
// that rounding it again to float32 is correct.
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	// TwoSum: e is what s lost.
	bb := s - p
	e := (p - (s - bb)) + (float64(c) - bb)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		if e > 0 {
			s = math.Nextafter(s, math.Inf(1))
		} else {
			s = math.Nextafter(s, math.Inf(-1))
		}
	}
	return float32(s)
}

// toHalf rounds f to the nearest float16 (ties to even), as F16C does.
func toHalf(f float32) uint16 {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	exp := int32(bits>>23&0xff) - 127 + 15
	mant := bits & 0x7fffff
	switch {
	case bits&0x7fffffff == 0:
		return sign
	case bits>>23&0xff == 0xff: // Inf or NaN
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp >= 31:
		return sign | 0x7c00
	case exp <= 0:
		// Subnormal in float16 (or zero): shift the full mantissa.
		if exp < -10 {
			return sign
		}
		m := mant | 0x800000
		shift := uint32(14 - exp)
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
		h++ // may carry into the exponent, up to Inf: still right
	}
	return sign | uint16(h)
}

// fromHalf is the float32 value of a float16.
func fromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch exp {
	case 0:
		// Zero or subnormal: exact as a float32.
		v := float32(mant) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	case 31:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}
