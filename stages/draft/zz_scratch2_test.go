//go:build cgo

package draft

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
	"github.com/sponge-library/sponge/jsonl"
)

func TestZZScratchFamilies(t *testing.T) {
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
	for _, f := range ggufgen.Families {
		tok := f.Need(t)
		model := filepath.Join(t.TempDir(), f.Package+".gguf")
		if err := ggufgen.WriteRandom(model, f.Small(tok)); err != nil {
			t.Fatal(err)
		}
		e, err := OpenEmbedded(model, ModelOptions{MaxStatements: 6, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		e.Fixed = &Fixed{Statements: 6, TextTokens: 16, QuoteTokens: 16}
		n := 0
		err = e.Draft(context.Background(), "What do these studies find about how the brain and the body change with age and disease?", ps, func(s *jsonl.Statement) error {
			n++
			fmt.Printf("%s %d %q\n", f.Package, s.Passage, s.Quote)
			return nil
		})
		fmt.Println(f.Package, n, err, e.Stats().PassagesShown, e.Stats().PassagesCut)
		e.Close()
	}
}
