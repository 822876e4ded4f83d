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

// bestHolds counts a question whose best-scored row holds a gold answer,
// only questions that have such a row, and only the rows kept.
func TestBestHolds(t *testing.T) {
	// Question 0: its best row (0.9) holds the answer; question 1: its best
	// (0.8) does not, another does; question 2: no row holds it.
	score := []float64{0.9, 0.1, 0.8, 0.3, 0.7}
	y := []float64{1, 0, 0, 1, 0}
	from := []int{0, 0, 1, 1, 2}
	if hit, asked := bestHolds(score, y, from, nil); hit != 1 || asked != 2 {
		t.Errorf("all rows: %d of %d, want 1 of 2", hit, asked)
	}
	// Without question 1's 0.8 row its gold row is best.
	if hit, asked := bestHolds(score, y, from, func(i int) bool { return i != 2 }); hit != 2 || asked != 2 {
		t.Errorf("row 2 left out: %d of %d, want 2 of 2", hit, asked)
	}
}
