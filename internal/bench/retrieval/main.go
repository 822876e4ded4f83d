// Command retrieval measures keyword search on BEIR SciFact: nDCG@10 and
// Recall@100 of sponge-search's ranking of the 5,183 abstracts for the 300
// test claims (and the training claims), beside the published BM25 figures.
// With -tune it searches BM25's k1 and b on the training claims only. With
// -passages it also ranks what `sponge ask --passages` shows (sponge-search's
// 8 items, then sponge-rank's passages) and scores the items in the order of
// their first passage.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/stages/rank"
	"github.com/sponge-library/sponge/stages/search"
)

func main() {
	libDir := flag.String("library", ".bench/scifact", "where to build the SciFact library")
	tune := flag.Bool("tune", false, "grid-search k1 and b on the training claims")
	passages := flag.Bool("passages", false, "also score the items of sponge ask --passages, in passage order")
	flag.Parse()
	if err := run(*libDir, *tune, *passages); err != nil {
		fmt.Fprintln(os.Stderr, "retrieval:", err)
		os.Exit(1)
	}
}

func run(libDir string, tune, passages bool) error {
	dir, docs, err := bench.SciFactCorpus()
	if err != nil {
		return err
	}
	queries, err := bench.Queries(dir)
	if err != nil {
		return err
	}
	ids, err := bench.BuildLibrary(libDir, docs)
	if err != nil {
		return err
	}
	lib, err := library.Open(libDir)
	if err != nil {
		return err
	}
	x, err := index.Open(filepath.Join(lib.Dir, "index"))
	if err != nil {
		return err
	}
	defer x.Close()
	eval := func(split string, k1, b float64) (ndcg, recall float64, n int, err error) {
		qrels, err := bench.Qrels(dir, split)
		if err != nil {
			return 0, 0, 0, err
		}
		for qid, rel := range qrels {
			hits, err := x.SearchBM25(queries[qid], 100, k1, b)
			if err != nil {
				return 0, 0, 0, err
			}
			ranked := make([]string, len(hits))
			for i, h := range hits {
				ranked[i] = ids[h.ItemID]
			}
			ndcg += bench.NDCG(ranked, rel, 10)
			recall += bench.Recall(ranked, rel, 100)
			n++
		}
		return ndcg / float64(n), recall / float64(n), n, nil
	}
	if tune {
		var rows [][]string
		for _, k1 := range []float64{1.2, 3, 5, 8} {
			for _, b := range []float64{0.5, 0.65, 0.75, 0.9} {
				nd, rc, _, err := eval("train", k1, b)
				if err != nil {
					return err
				}
				rows = append(rows, []string{fmt.Sprint(k1), fmt.Sprint(b), fmt.Sprintf("%.4f", nd), fmt.Sprintf("%.4f", rc)})
			}
		}
		fmt.Print(bench.Table([]string{"k1", "b", "nDCG@10 (train)", "Recall@100 (train)"}, rows))
	}
	ndTest, rcTest, nTest, err := eval("test", index.K1, index.B)
	if err != nil {
		return err
	}
	ndTrain, rcTrain, nTrain, err := eval("train", index.K1, index.B)
	if err != nil {
		return err
	}
	if passages {
		var rows [][]string
		for _, split := range []string{"test", "train"} {
			qrels, err := bench.Qrels(dir, split)
			if err != nil {
				return err
			}
			nd := 0.0
			for qid, rel := range qrels {
				res, err := search.FindIn(settings.FromOS().ModelsDir(), lib, x, queries[qid], search.DefaultLimit)
				if err != nil {
					return err
				}
				ps, err := rank.RankWith(lib, queries[qid], res.IDF, res.Hits)
				if err != nil {
					return err
				}
				var ranked []string
				seen := map[string]bool{}
				for _, p := range ps {
					if !seen[p.ItemID] {
						seen[p.ItemID] = true
						ranked = append(ranked, ids[p.ItemID])
					}
				}
				nd += bench.NDCG(ranked, rel, 10)
			}
			rows = append(rows, []string{"sponge ask --passages (" + split + ")", fmt.Sprint(len(qrels)), fmt.Sprintf("%.4f", nd/float64(len(qrels)))})
		}
		fmt.Printf("\nSciFact passages: items in the order of their first passage (%d items searched)\n\n", search.DefaultLimit)
		fmt.Print(bench.Table([]string{"system", "queries", "nDCG@10"}, rows))
	}
	fmt.Printf("\nSciFact keyword search (BM25 k1=%.2g b=%.2g, %d abstracts, chunks of up to %d characters)\n\n", index.K1, index.B, len(docs), index.ChunkChars)
	fmt.Print(bench.Table([]string{"system", "queries", "nDCG@10", "Recall@100"}, [][]string{
		{"sponge-search (test)", fmt.Sprint(nTest), fmt.Sprintf("%.4f", ndTest), fmt.Sprintf("%.4f", rcTest)},
		{"sponge-search (train)", fmt.Sprint(nTrain), fmt.Sprintf("%.4f", ndTrain), fmt.Sprintf("%.4f", rcTrain)},
		{"BM25, BEIR paper (test)", "300", "0.665", "-"},
		{"BM25, Anserini flat (test)", "300", "0.6789", "0.9253"},
	}))
	return nil
}
