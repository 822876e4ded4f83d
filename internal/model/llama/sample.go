package llama

import (
	"math"
	"math/rand/v2"
	"slices"
)

// topK is how many of the likeliest tokens sampling considers: enough for any
// top-p a person would set, and it spares sorting a 150,000-token vocabulary
// at every step.
const topK = 64

// Sampler chooses a token from the model's logits: the likeliest one
// (greedy, Temperature 0), or at random by probability.
type Sampler struct {
	Temperature float64
	TopP        float64
	rng         *rand.Rand
}

// NewSampler returns a Sampler; seed makes its random choices repeatable.
func NewSampler(temperature, topP float64, seed uint64) *Sampler {
	return &Sampler{Temperature: temperature, TopP: topP, rng: rand.New(rand.NewPCG(seed, 0x73706f6e6765))}
}

// Greedy is a Sampler that always takes the likeliest token.
func Greedy() *Sampler { return NewSampler(0, 0, 0) }

// choose picks among allow (nil: every token skip does not refuse).
func (sp *Sampler) choose(logits []float32, allow []int, skip func(int) bool) int {
	ok := func(t int) bool {
		if t < 0 || t >= len(logits) {
			return false
		}
		return skip == nil || !skip(t)
	}
	if sp == nil || sp.Temperature <= 0 {
		best, bestScore := -1, float32(math.Inf(-1))
		visit := func(t int) {
			if ok(t) && (best < 0 || logits[t] > bestScore) {
				best, bestScore = t, logits[t]
			}
		}
		if allow != nil {
			for _, t := range allow {
				visit(t)
			}
		} else {
			for t := range logits {
				visit(t)
			}
		}
		if best < 0 && allow != nil {
			return allow[0]
		}
		return best
	}
	// The topK likeliest candidates, kept sorted best first.
	type cand struct {
		tok   int
		logit float32
	}
	top := make([]cand, 0, topK+1)
	add := func(t int) {
		if !ok(t) {
			return
		}
		l := logits[t]
		if len(top) == topK && l <= top[len(top)-1].logit {
			return
		}
		i, _ := slices.BinarySearchFunc(top, l, func(c cand, l float32) int {
			if c.logit > l {
				return -1
			}
			return 1
		})
		top = slices.Insert(top, i, cand{t, l})
		if len(top) > topK {
			top = top[:topK]
		}
	}
	if allow != nil {
		for _, t := range allow {
			add(t)
		}
	} else {
		for t := range logits {
			add(t)
		}
	}
	if len(top) == 0 {
		if allow != nil {
			return allow[0]
		}
		return 0
	}
	probs := make([]float64, len(top))
	sum := 0.0
	for i, c := range top {
		probs[i] = math.Exp(float64(c.logit-top[0].logit) / sp.Temperature)
		sum += probs[i]
	}
	n := len(top)
	if sp.TopP > 0 && sp.TopP < 1 {
		acc := 0.0
		for i, p := range probs {
			acc += p / sum
			if acc >= sp.TopP {
				n = i + 1
				break
			}
		}
		sum = 0
		for _, p := range probs[:n] {
			sum += p
		}
	}
	r := sp.rng.Float64() * sum
	for i, p := range probs[:n] {
		r -= p
		if r < 0 {
			return top[i].tok
		}
	}
	return top[n-1].tok
}
