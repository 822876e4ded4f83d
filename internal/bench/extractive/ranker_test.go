package main

import (
	"math"
	"testing"
)

// fitLogistic finds the weights that made the labels: y = 1 when
// 2·x0 − x1 + noise-free offset > 0, on a grid of points.
func TestFitLogistic(t *testing.T) {
	var X [][]float64
	var y []float64
	for i := 0; i < 40; i++ {
		for j := 0; j < 40; j++ {
			x0, x1 := float64(i)/10, float64(j)/10
			X = append(X, []float64{x0, x1, 5})
			// Labels drawn from the chance itself, in a fixed pattern.
			p := 1 / (1 + math.Exp(-(2*x0 - x1 - 1)))
			label := 0.0
			if float64((i*7+j*13)%100)/100 < p {
				label = 1
			}
			y = append(y, label)
		}
	}
	w, b, loss := fitLogistic(X, y, 0.01)
	if w[0] < 1.5 || w[0] > 2.5 || w[1] > -0.5 || w[1] < -1.5 || math.Abs(w[2]) > 1e-6 {
		t.Errorf("weights %.3f, bias %.3f: want about 2, -1, 0", w, b)
	}
	if loss <= 0 || loss >= math.Log(2) {
		t.Errorf("mean log loss %.3f", loss)
	}
}
