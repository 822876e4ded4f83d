// Package search is the sponge-search stage: it picks the items of the
// library that best answer a question and writes the question, warnings and
// one hit record per item.
package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/model/embed"
	"github.com/sponge-library/sponge/jsonl"
)

// Prog is the stage's name in messages.
const Prog = "sponge-search"

// Limits on how many items a search picks.
const (
	DefaultLimit = 8
	MaxLimit     = jsonl.MaxLimit
)

type options struct {
	Library string `long:"library" value-name:"DIR" description:"the library folder (default $SPONGE_HOME, else the config file's library, else $XDG_DATA_HOME/sponge, else ~/.local/share/sponge)"`
	Models  string `long:"models" value-name:"DIR" description:"the models folder every library shares, where the embedding model is (default $XDG_DATA_HOME/sponge/models, else ~/.local/share/sponge/models)"`
	Limit   int    `long:"limit" value-name:"N" description:"how many items to pick, 1 to 20 (default 8, or the question record's limit)"`
}

// Command is sponge-search as a program.
var Command = pipeline.Command{
	Prog:  Prog,
	Usage: "[OPTIONS] [QUESTION]",
	About: "Pick the items that best answer QUESTION (or the question record on stdin) and write\n" +
		"JSONL: the question, warnings, then one hit per item, best first.",
	Setup: func() (any, func([]string, pipeline.Env) (pipeline.Stage, error)) {
		var opts options
		return &opts, func(args []string, env pipeline.Env) (pipeline.Stage, error) {
			if opts.Limit != 0 && (opts.Limit < 1 || opts.Limit > MaxLimit) {
				return nil, console.Usage("--limit must be from 1 to %d, not %d", MaxLimit, opts.Limit)
			}
			lib, models, err := env.Folders(opts.Library, opts.Models)
			if err != nil {
				return nil, err
			}
			st := &Stage{Library: lib, Models: models, Limit: opts.Limit}
			if len(args) > 0 {
				st.Question = strings.TrimSpace(strings.Join(args, " "))
				if st.Question == "" {
					return nil, console.Usage("the question is empty")
				}
			}
			return st, nil
		}
	},
}

// Main runs sponge-search and returns its exit code, with no environment:
// its flags give the folders (MainIn).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return MainIn(settings.Environ{}, args, stdin, stdout, stderr)
}

// MainIn runs sponge-search in the environment its program was started in
// (settings.FromOS, in cmd/), where a missing --library or --models is
// resolved.
func MainIn(environ settings.Environ, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	embed.Mark("main")
	// A search allocates a few megabytes in a few tens of milliseconds: a
	// collection would cost more CPU than the memory it frees, and it takes
	// that CPU from the embedding model loading beside the search.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	code := pipeline.Main(Command, environ, args, stdin, stdout, stderr)
	embed.Mark("hits written")
	return code
}

// Stage is sponge-search: it writes the question and the hits. The
// question is Question, else the question record read from the stream
// (records before it are passed on).
type Stage struct {
	Library  string
	Models   string // the shared models folder ("": none)
	Question string
	Limit    int // 0: the question record's, else DefaultLimit
	// Find searches; nil is Find on Library. The MCP server keeps its
	// index open across calls and searches with that.
	Find func(question string, limit int) (*Result, error)
}

// Run searches and writes the question, warnings and hits.
func (s *Stage) Run(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
	q := &jsonl.Question{Text: s.Question}
	if s.Question == "" {
		var err error
		if q, err = readQuestion(r, w); err != nil {
			return err
		}
	}
	switch {
	case s.Limit != 0:
		q.Limit = s.Limit
	case q.Limit == 0:
		q.Limit = DefaultLimit
	case q.Limit < 1 || q.Limit > MaxLimit:
		return &console.Error{Code: console.ExitBadInput, Msg: fmt.Sprintf("the question's limit must be from 1 to %d, not %d", MaxLimit, q.Limit)}
	}
	find := s.Find
	if find == nil {
		find = func(question string, limit int) (*Result, error) { return Find(s.Library, s.Models, question, limit) }
	}
	res, err := find(q.Text, q.Limit)
	if err != nil {
		return err
	}
	return Write(w, q, res)
}

// errFound stops the read loop at the question.
var errFound = errors.New("found the question")

// readQuestion reads records until the question, passing on any other record.
func readQuestion(r *jsonl.Reader, w *jsonl.Writer) (*jsonl.Question, error) {
	var q *jsonl.Question
	err := pipeline.Each(r, func(line *jsonl.Line) error {
		rec, ok := line.Record.(*jsonl.Question)
		if !ok {
			return w.WriteRaw(line.Raw)
		}
		if strings.TrimSpace(rec.Text) == "" {
			return &console.Error{Code: console.ExitBadInput, Msg: fmt.Sprintf("<stdin>:%d: the question is empty", line.Number)}
		}
		q = rec
		return errFound
	})
	switch {
	case q != nil:
		return q, nil
	case err != nil:
		return nil, err
	}
	return nil, console.Usage("no question: give one as an argument, or a question record on stdin")
}

// Result is what a search found.
type Result struct {
	Warnings []*jsonl.Warning
	Hits     []*jsonl.Hit
	// IDF is how much each word of the question weighs in the whole
	// library (index.Weights); Write gives it to the question record.
	IDF map[string]float64
}

// Find searches the library at dir, with the embedding model of the shared
// models folder (models; "" for none) or else the library's own.
func Find(dir, models, question string, limit int) (*Result, error) {
	lib, err := library.Open(dir)
	if err != nil {
		return nil, err
	}
	embed.Mark("library opened")
	// The embedding model is the slow part: it starts loading first.
	meaning := startMeaning(models, lib, question)
	x, err := index.Open(lib.IndexDir())
	embed.Mark("index opened")
	if err != nil {
		// Meaning search, under way, ends on its own.
		if _, serr := os.Stat(lib.IndexDir()); errors.Is(serr, os.ErrNotExist) {
			return nil, nothingIndexed(lib, "missing")
		}
		return nil, err
	}
	defer x.Close()
	if n, err := x.Count(); err == nil && n == 0 {
		return nil, nothingIndexed(lib, "empty")
	}
	return findIn(lib, x, question, limit, meaning)
}

// nothingIndexed is the error of a search in a library whose index is
// missing or empty (how): the library is empty, or, when the store holds
// items (the index folder was removed, or lost), the index is broken and
// sponge reindex makes it again from them (issue 42: 300 items saved and
// no index folder was "the library is empty").
func nothingIndexed(lib *library.Library, how string) error {
	if ids, err := lib.IDs(); err == nil && len(ids) > 0 {
		e := fault.New(fault.IndexBroken, "the index of the library at %s is %s, but %d items are saved", lib.Dir, how, len(ids))
		e.Library = lib.Dir
		return e
	}
	return console.Errorf("the library at %s is empty", lib.Dir).WithHint("save something first: sponge add FILE|FOLDER|URL")
}

// FindIn searches an open index; servers that keep the index open call it
// directly. With an embedding model set up and the paragraphs embedded, the
// question is also embedded and items are found by meaning too: the two
// lists are fused (see fuse), and each hit says how it was found and which
// paragraph meaning search matched (models: the shared models folder). Otherwise items are found by keyword
// only, with a semantic-unavailable warning.
func FindIn(models string, lib *library.Library, x *index.Index, question string, limit int) (*Result, error) {
	if n, err := x.Count(); err == nil && n == 0 {
		return nil, nothingIndexed(lib, "empty")
	}
	return findIn(lib, x, question, limit, startMeaning(models, lib, question))
}

// findIn searches the index while meaning search runs.
func findIn(lib *library.Library, x *index.Index, question string, limit int, meaning meaningSearch) (*Result, error) {
	res, err := findHits(lib, x, question, limit, meaning)
	if err != nil {
		return nil, err
	}
	if res.IDF, err = x.Weights(question); err != nil {
		return nil, err
	}
	return res, nil
}

// findHits finds the hits of findIn.
func findHits(lib *library.Library, x *index.Index, question string, limit int, meaning meaningSearch) (*Result, error) {
	if meaning.warning != nil {
		return keywordOnly(x, question, limit, meaning.warning)
	}
	kw, err := x.Search(question, depth)
	embed.Mark("keyword search done")
	mr := <-meaning.result
	embed.Mark("meaning search done")
	if err != nil {
		return nil, keywordError(question, err)
	}
	if mr.warning != nil {
		if len(kw) > limit {
			kw = kw[:limit]
		}
		return keywordHits(kw, mr.warning), nil
	}
	info := map[string]index.Hit{}
	ids := make([]string, len(kw))
	for i, h := range kw {
		ids[i] = h.ItemID
		info[h.ItemID] = h
	}
	res := &Result{}
	for _, f := range fuse(ids, mr.hits) {
		if len(res.Hits) == limit {
			break
		}
		h, ok := info[f.itemID]
		if !ok {
			// Found by meaning only: the item's summary says what it is. An
			// item removed since it was embedded is skipped.
			m, err := lib.Meta(f.itemID)
			if err != nil || !lib.Has(f.itemID) {
				continue
			}
			h = index.Hit{ItemID: m.ID, Title: m.Title, Source: m.Source, Kind: m.Kind}
		}
		hit := &jsonl.Hit{
			ItemID: h.ItemID, Title: h.Title, Source: h.Source, Kind: h.Kind,
			Score: round(f.score), Rank: len(res.Hits) + 1, FoundBy: f.foundBy(),
		}
		if f.meaningRank > 0 {
			p := f.paragraph
			hit.Paragraph = &p
		}
		res.Hits = append(res.Hits, hit)
	}
	return res, nil
}

func keywordError(question string, err error) error {
	if errors.Is(err, index.ErrNoWords) {
		return console.Usage("the question %q has no words to search for", question)
	}
	return err
}

// keywordOnly is the search without meaning: BM25 scores, as they are.
func keywordOnly(x *index.Index, question string, limit int, warning *jsonl.Warning) (*Result, error) {
	hits, err := x.Search(question, limit)
	if err != nil {
		return nil, keywordError(question, err)
	}
	return keywordHits(hits, warning), nil
}

func keywordHits(hits []index.Hit, warning *jsonl.Warning) *Result {
	res := &Result{Warnings: []*jsonl.Warning{warning}}
	for i, h := range hits {
		res.Hits = append(res.Hits, &jsonl.Hit{
			ItemID: h.ItemID, Title: h.Title, Source: h.Source, Kind: h.Kind,
			Score: round(h.Score), Rank: i + 1, FoundBy: []string{jsonl.FoundByKeyword},
		})
	}
	return res
}

// Write writes the question, with the weights of its words, warnings and
// hits.
func Write(w *jsonl.Writer, q *jsonl.Question, res *Result) error {
	q.IDF = res.IDF
	if err := w.Write(q); err != nil {
		return err
	}
	for _, wr := range res.Warnings {
		if err := w.Write(wr); err != nil {
			return err
		}
	}
	for _, h := range res.Hits {
		if err := w.Write(h); err != nil {
			return err
		}
	}
	return nil
}

func round(f float64) float64 {
	return float64(int64(f*10000+0.5)) / 10000
}
