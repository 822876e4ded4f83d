package index

import (
	"context"
	"fmt"
)

// DocFreqs returns, for each term (as Terms makes them), how many index
// documents hold it, and how many documents there are: what the extractive
// drafter needs to weigh the words of a question by how rare they are in the
// whole library, not only in the passages it reads.
func (x *Index) DocFreqs(terms []string) (map[string]int, int, error) {
	n, err := x.bi.DocCount()
	if err != nil {
		return nil, 0, err
	}
	adv, err := x.bi.Advanced()
	if err != nil {
		return nil, 0, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, 0, fmt.Errorf("cannot read the index: %w", err)
	}
	defer r.Close()
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
