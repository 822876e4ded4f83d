package index

import (
	"context"
	"fmt"
	"math"

	"github.com/sponge-library/sponge/internal/library/index/keywords"
)

// DocFreqs returns, for each term (as Terms makes them), how many index
// documents hold it, and how many documents there are: what the extractive
// drafter needs to weigh the words of a question by how rare they are in the
// whole library, not only in the passages it reads.
func (x *Index) DocFreqs(terms []string) (map[string]int, int, error) {
	r, err := x.si.Reader()
	if err != nil {
		return nil, 0, fmt.Errorf("cannot read the index: %w", err)
	}
	defer r.Close()
	n, err := r.DocCount()
	if err != nil {
		return nil, 0, err
	}
	df := make(map[string]int, len(terms))
	for _, t := range terms {
		if _, ok := df[t]; ok {
			continue
		}
		tfr, err := r.TermFieldReader(context.Background(), []byte(t), "text", false, false, false)
		if err != nil {
			return nil, 0, fmt.Errorf("cannot read the index: %w", err)
		}
		df[t] = int(tfr.Count())
		tfr.Close()
	}
	return df, int(n), nil
}

// Weights returns how much each of the question's terms (QuestionTerms)
// weighs in the whole library, as keyword search weighs it (IDF over the
// index's chunks): sponge-rank weighs the words of its paragraphs by it,
// since the few items it reads are no measure of how rare a word is. A term
// no chunk holds is left out.
func (x *Index) Weights(question string) (map[string]float64, error) {
	terms := keywords.QuestionTerms(question)
	if len(terms) == 0 {
		return nil, nil
	}
	df, n, err := x.DocFreqs(terms)
	if err != nil {
		return nil, err
	}
	w := make(map[string]float64, len(df))
	for t, d := range df {
		if d > 0 {
			w[t] = math.Round(IDF(float64(n), float64(d))*1e4) / 1e4
		}
	}
	return w, nil
}
