//go:build cgo

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft"
)

// modelRows summarizes the n PDFs closest to 20 pages with a random-weight
// model of Qwen2.5-0.5B's shape, in its summary mode (Embedded.Summarize),
// each summary made five statements of 16 tokens of words and 16 of quote.
func modelRows(lib *library.Library, pdfs []*result, models string, n int) ([][]string, error) {
	_, docs, err := bench.SciFactCorpus()
	if err != nil {
		return nil, err
	}
	var all strings.Builder
	for _, d := range docs {
		all.WriteString(d.Title + " " + d.Text + "\n")
	}
	spec := ggufgen.Qwen25_05B(ggufgen.Words(all.String()))
	path := filepath.Join(models, spec.Name+".gguf")
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(os.Stderr, "writing %s …\n", path)
		if err := os.MkdirAll(models, 0o755); err != nil {
			return nil, err
		}
		if err := ggufgen.WriteRandom(path, spec); err != nil {
			return nil, err
		}
	}
	e, err := draft.OpenEmbedded(path, draft.ModelOptions{MaxStatements: 5})
	if err != nil {
		return nil, err
	}
	defer e.Close()
	e.Fixed = &draft.Fixed{Statements: 5, TextTokens: 16, QuoteTokens: 16}
	stage := pipeline.Func(func(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
		var passages []*jsonl.Passage
		err := pipeline.Pass(r, w, func(line *jsonl.Line) error {
			if p, ok := line.Record.(*jsonl.Passage); ok {
				passages = append(passages, p)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := w.Write(&jsonl.Model{Name: e.Name()}); err != nil {
			return err
		}
		k := 0
		err = e.Summarize(ctx, passages, func(s *jsonl.Statement) error { k++; return w.Write(s) })
		if err != nil {
			return err
		}
		return w.Write(&jsonl.Done{Stage: "sponge-draft", Statements: k})
	})
	// The PDFs closest to 20 pages.
	picked := append([]*result{}, pdfs...)
	for i := range picked {
		for j := i + 1; j < len(picked); j++ {
			if abs(picked[j].pages-20) < abs(picked[i].pages-20) {
				picked[i], picked[j] = picked[j], picked[i]
			}
		}
	}
	var rs []*result
	for _, p := range picked[:min(n, len(picked))] {
		r, err := summarize(lib, p.it.ID, stage)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return [][]string{row(fmt.Sprintf("texlive PDFs near 20 pages, %s (random weights)", spec.Name), rs)}, nil
}
