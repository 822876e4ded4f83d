package search

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/vectors"
	"github.com/sponge-library/sponge/internal/model/embed"
	"github.com/sponge-library/sponge/jsonl"
)

// Fusion: each item's place in the keyword list and in the meaning list
// counts k/(k+place) (reciprocal rank fusion, scaled by k so that an item
// first in both lists scores about 2). k = 60 is the value of Cormack et al.
// (SIGIR 2009), which works across collections without tuning; it could not
// be tuned here (see the report of issue 7: the test model has random
// weights), and a larger k weighs the two lists more evenly over their top
// places.
const (
	rrfK = 60
	// depth is how many items each list contributes to the fusion.
	depth = 50
	// meaningParagraphs is how many paragraphs the vector search returns;
	// items are ranked by their best one.
	meaningParagraphs = 500
	// closeDelay is how long after a search its model and vectors are
	// closed (see closeLater).
	closeDelay = 200 * time.Millisecond
)

// QueryOptions tune how the question is embedded: one short text is one
// step, so one thread (one context) is all it can use.
var QueryOptions = embed.Options{Threads: 1, BatchTokens: 128}

// startEmbedder starts loading the embedding model and returns a function
// that waits for it; a variable so tests can stand in hand-made vectors.
var startEmbedder = func(path string) func() (embed.Embedder, error) {
	return embed.Begin(path, QueryOptions)
}

// meaningHit is an item found by meaning: its best paragraph and score.
type meaningHit struct {
	itemID    string
	paragraph int
	score     float32
}

// meaningResult is what meaning search found, or why it could not run.
type meaningResult struct {
	hits    []meaningHit
	warning *jsonl.Warning
}

// meaningSearch is meaning search under way, or why it cannot run.
type meaningSearch struct {
	warning *jsonl.Warning       // why it cannot run; nil when it runs
	result  <-chan meaningResult // when it runs
}

// startMeaning checks that meaning search can run and starts it: the model
// starts loading before startMeaning returns, and then embeds the question
// and the vectors are searched while the caller searches the keyword index.
// A caller that ends without the result may leave it: meaning search closes
// what it opened.
func startMeaning(models string, lib *library.Library, question string) meaningSearch {
	store, path, model, warning := prepareMeaning(models, lib)
	embed.Mark("vectors opened")
	if store == nil {
		return meaningSearch{warning: warning}
	}
	wait := startEmbedder(path)
	result := make(chan meaningResult, 1)
	go func() {
		defer closeLater(store)
		result <- searchMeaning(store, wait, model, question)
	}()
	return meaningSearch{result: result}
}

// prepareMeaning checks that meaning search can run: an embedding model
// installed, and the paragraphs embedded with it. It returns the open store
// and the model's path, or why not as a warning: keyword search goes on.
func prepareMeaning(models string, lib *library.Library) (*vectors.Store, string, vectors.Model, *jsonl.Warning) {
	path, model, err := vectors.Installed(models, lib)
	if err != nil {
		return nil, "", model, unavailable("items are found by keyword only: cannot read the embedding model: "+err.Error(), "run sponge setup to see the installed models")
	}
	if path == "" {
		w := unavailable("items are found by keyword only: no embedding model is set up", "run sponge setup --embedding to also find items by meaning")
		w.Setup = true // a choice, not a fault
		return nil, "", model, w
	}
	store, err := vectors.Open(vectors.Dir(lib.Dir))
	if errors.Is(err, vectors.ErrNotBuilt) {
		return nil, "", model, unavailable("items are found by keyword only: the paragraphs are not embedded yet", "run sponge setup --embedding to embed them")
	}
	if err != nil {
		return nil, "", model, unavailable("items are found by keyword only: "+err.Error(), "run sponge reindex to make the paragraph vectors again")
	}
	if err := store.Check(model); err != nil {
		store.Close()
		return nil, "", model, unavailable("items are found by keyword only: "+err.Error(), "run sponge setup --embedding to embed the paragraphs with the installed model")
	}
	return store, path, model, nil
}

func unavailable(msg, hint string) *jsonl.Warning {
	return &jsonl.Warning{Code: jsonl.WarnSemanticUnavailable, Message: msg, Hint: hint}
}

// searchMeaning embeds the question and finds the items whose paragraphs
// are closest to it.
func searchMeaning(store *vectors.Store, wait func() (embed.Embedder, error), model vectors.Model, question string) meaningResult {
	emb, err := wait()
	if err != nil {
		return meaningResult{warning: unavailable("items are found by keyword only: cannot run the embedding model: "+err.Error(), embedHint(err))}
	}
	defer closeLater(emb)
	embed.Mark("embedder started")
	conv := embed.ConventionsFor(emb.Info().Name + " " + model.Name)
	qv, err := emb.Embed([]string{conv.QueryPrefix + question})
	embed.Mark("question embedded")
	if err != nil {
		return meaningResult{warning: unavailable("items are found by keyword only: the embedding model failed: "+err.Error(), "run sponge setup to check the embedding model")}
	}
	ms, err := store.Search(qv[0], meaningParagraphs)
	embed.Mark("vectors searched")
	if err != nil {
		return meaningResult{warning: unavailable("items are found by keyword only: "+err.Error(), "run sponge setup --embedding to embed the paragraphs with the installed model")}
	}
	return meaningResult{hits: bestPerItem(ms, depth)}
}

// closeLater closes c a moment after the search: the model is freed (or
// sponge-embed told to end) and the vectors unmapped then, because doing it
// at once takes the CPU (about 5 ms of work) and the memory map's lock from
// the rest of the search, and a program that exits before then has no need
// to do it at all.
func closeLater(c io.Closer) {
	time.AfterFunc(closeDelay, func() { c.Close() })
}

func embedHint(err error) string {
	if errors.Is(err, embed.ErrNoHelper) || errors.Is(err, embed.ErrNoRuntime) {
		return "build sponge-embed with 'make build' and keep it beside sponge-search"
	}
	return "run sponge setup to check the embedding model"
}

// bestPerItem ranks items by their best paragraph, keeping n items. A
// paragraph at a right angle to the question (or worse) is no match at all.
func bestPerItem(ms []vectors.Match, n int) []meaningHit {
	seen := map[string]bool{}
	var out []meaningHit
	for _, m := range ms { // best first
		if m.Score <= 0 {
			break
		}
		if seen[m.ItemID] {
			continue
		}
		seen[m.ItemID] = true
		out = append(out, meaningHit{m.ItemID, m.Paragraph, m.Score})
		if len(out) == n {
			break
		}
	}
	return out
}

// fused is an item in the fused list.
type fused struct {
	itemID      string
	score       float64
	keywordRank int // 1-based; 0: not found by keyword
	meaningRank int
	paragraph   int
}

// fuse merges the keyword list (item ids, best first) and the meaning list
// by reciprocal rank fusion. Ties go to the better keyword place, then the
// better meaning place.
func fuse(keyword []string, meaning []meaningHit) []fused {
	byID := map[string]*fused{}
	var all []*fused
	get := func(id string) *fused {
		f, ok := byID[id]
		if !ok {
			f = &fused{itemID: id}
			byID[id] = f
			all = append(all, f)
		}
		return f
	}
	for i, id := range keyword {
		f := get(id)
		f.keywordRank = i + 1
		f.score += float64(rrfK) / float64(rrfK+i+1)
	}
	for i, m := range meaning {
		f := get(m.itemID)
		f.meaningRank = i + 1
		f.paragraph = m.paragraph
		f.score += float64(rrfK) / float64(rrfK+i+1)
	}
	sort.SliceStable(all, func(a, b int) bool {
		x, y := all[a], all[b]
		if x.score != y.score {
			return x.score > y.score
		}
		if (x.keywordRank == 0) != (y.keywordRank == 0) {
			return x.keywordRank != 0
		}
		if x.keywordRank != y.keywordRank {
			return x.keywordRank < y.keywordRank
		}
		return x.meaningRank < y.meaningRank
	})
	out := make([]fused, len(all))
	for i, f := range all {
		out[i] = *f
	}
	return out
}

func (f fused) foundBy() []string {
	var by []string
	if f.keywordRank > 0 {
		by = append(by, jsonl.FoundByKeyword)
	}
	if f.meaningRank > 0 {
		by = append(by, jsonl.FoundByMeaning)
	}
	return by
}

func (f fused) String() string {
	return fmt.Sprintf("%s %.4f kw%d m%d ¶%d", f.itemID[:8], f.score, f.keywordRank, f.meaningRank, f.paragraph)
}
