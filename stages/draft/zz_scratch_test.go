package draft

import (
	"fmt"
	"testing"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/jsonl"
)

func TestZZScratchShow(t *testing.T) {
	_, docs, err := bench.SciFactCorpus()
	if err != nil {
		t.Skip(err)
	}
	var ps []*jsonl.Passage
	total := 0
	for _, d := range docs {
		n := len([]rune(d.Text))
		if n < 1200 || n > 2500 {
			continue
		}
		ps = append(ps, &jsonl.Passage{Number: len(ps) + 1, Title: d.Title, Text: d.Text})
		total += n
		if total >= 12000 {
			break
		}
	}
	for _, q := range []string{"What do these studies find about how the brain and the body change with age and disease?", "Which treatments do these studies test, and what effects on patients do they report?"} {
		fmt.Println("Q:", q)
		for _, p := range cutPassages(q, ps, 400, func(s string) int { return (len(s) + 3) / 4 }) {
			fmt.Printf("%s%s\n", passageHeader(p.Passage), p.Text)
		}
		fmt.Println("-----")
	}
}
