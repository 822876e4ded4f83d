// Package bench holds what the benchmarks share: the BEIR SciFact data in
// ../shared/bench/scifact (read from there, never copied), a library built
// from its abstracts, and the retrieval metrics.
package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

// SciFactDir finds the SciFact data beside the repository: ../shared/bench/scifact
// from the repo's top folder, or $SPONGE_SCIFACT.
func SciFactDir() (string, error) {
	if d := os.Getenv("SPONGE_SCIFACT"); d != "" {
		return d, nil
	}
	dir, _ := os.Getwd()
	for {
		p := filepath.Join(dir, "..", "shared", "bench", "scifact")
		if _, err := os.Stat(filepath.Join(p, "corpus.jsonl")); err == nil {
			return filepath.Clean(p), nil
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return "", fmt.Errorf("no SciFact data at %s", p)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no SciFact data found (set SPONGE_SCIFACT)")
		}
		dir = parent
	}
}

// Doc is one SciFact abstract.
type Doc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Query is one SciFact claim.
type Query struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

func readJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// Corpus reads the abstracts.
func Corpus(dir string) ([]Doc, error) { return readJSONL[Doc](filepath.Join(dir, "corpus.jsonl")) }

// SciFactCorpus finds the SciFact folder (SciFactDir) and reads its abstracts.
func SciFactCorpus() (dir string, docs []Doc, err error) {
	if dir, err = SciFactDir(); err != nil {
		return "", nil, err
	}
	docs, err = Corpus(dir)
	return dir, docs, err
}

// Queries reads the claims by id.
func Queries(dir string) (map[string]string, error) {
	qs, err := readJSONL[Query](filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, q := range qs {
		m[q.ID] = q.Text
	}
	return m, nil
}

// Qrels reads relevance judgements: query id → doc id → relevance.
func Qrels(dir, split string) (map[string]map[string]int, error) {
	f, err := os.Open(filepath.Join(dir, "qrels-"+split+".tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]map[string]int{}
	sc := bufio.NewScanner(f)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		var q, d string
		var rel int
		if _, err := fmt.Sscan(sc.Text(), &q, &d, &rel); err != nil {
			continue
		}
		if out[q] == nil {
			out[q] = map[string]int{}
		}
		out[q][d] = rel
	}
	return out, sc.Err()
}

// ItemOf is the item an abstract is saved as: its title, and its text as a
// Markdown note would give it (one paragraph under the title).
func ItemOf(d Doc) (*item.Item, []byte) {
	source := []byte("# " + d.Title + "\n\n" + d.Text + "\n")
	return &item.Item{
		ID: library.ItemID(source), Title: d.Title, Source: "scifact:" + d.ID, Kind: item.KindMarkdown,
		Added:      time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Paragraphs: []item.Paragraph{{Text: d.Text, Heading: d.Title}},
	}, source
}

// BuildLibrary saves every abstract in a library at dir (made if missing;
// kept if already complete) and returns the map item id → SciFact doc id.
func BuildLibrary(dir string, docs []Doc) (map[string]string, error) {
	ids := map[string]string{}
	for _, d := range docs {
		it, _ := ItemOf(d)
		ids[it.ID] = d.ID
	}
	if lib, err := library.Open(dir); err == nil {
		// A library whose index older word rules made is opened for
		// writing below, which remakes the index.
		if have, err := lib.IDs(); err == nil && len(have) == len(ids) && !index.Outdated(lib.IndexDir()) {
			return ids, nil
		}
	}
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		it, src := ItemOf(d)
		if w.Has(it.ID) {
			continue
		}
		if err := w.Add(it, src); err != nil {
			w.Close()
			return nil, err
		}
	}
	return ids, w.Close()
}

// NDCG returns nDCG@k of a ranking against judgements.
func NDCG(ranked []string, rel map[string]int, k int) float64 {
	dcg := 0.0
	for i, d := range ranked {
		if i >= k {
			break
		}
		if r := rel[d]; r > 0 {
			dcg += (math.Pow(2, float64(r)) - 1) / math.Log2(float64(i+2))
		}
	}
	var ideal []int
	for _, r := range rel {
		ideal = append(ideal, r)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ideal)))
	idcg := 0.0
	for i, r := range ideal {
		if i >= k {
			break
		}
		idcg += (math.Pow(2, float64(r)) - 1) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// Recall returns recall@k.
func Recall(ranked []string, rel map[string]int, k int) float64 {
	n, found := 0, 0
	for _, r := range rel {
		if r > 0 {
			n++
		}
	}
	for i, d := range ranked {
		if i < k && rel[d] > 0 {
			found++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(found) / float64(n)
}

// Percentile returns the p-th percentile (0..100) of durations.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// Table prints rows as an aligned Markdown table.
func Table(header []string, rows [][]string) string {
	w := make([]int, len(header))
	for i, h := range header {
		w[i] = len([]rune(h))
	}
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for i, c := range cells {
			fmt.Fprintf(&b, " %-*s |", w[i], c)
		}
		b.WriteString("\n")
	}
	line(header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = strings.Repeat("-", w[i])
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
	return b.String()
}
