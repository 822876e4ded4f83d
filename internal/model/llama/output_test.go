package llama

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkScore is the cost of scoring one token of a Qwen 2.5 0.5B-wide
// Q8_0 output layer (896 values a row).
func BenchmarkScore(b *testing.B) {
	const width, rows = 896, 1024
	r := rand.New(rand.NewPCG(1, 2))
	o := &outputLayer{width: width, rows: rows, blocks: width / 32, q: make([]int8, width), d: make([]float32, width/32)}
	o.data = make([]byte, rows*o.blocks*q8Block)
	for i := range o.data {
		o.data[i] = byte(r.IntN(256))
	}
	for i := 0; i < len(o.data); i += q8Block {
		o.data[i], o.data[i+1] = 0x00, 0x1c // scale 2^-8
	}
	hidden := make([]float32, width)
	for i := range hidden {
		hidden[i] = float32(r.NormFloat64())
	}
	o.quantize(hidden)
	b.ResetTimer()
	var sink float32
	for i := range b.N {
		sink += o.score(i % rows)
	}
	_ = sink
}
