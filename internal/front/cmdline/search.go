package cmdline

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/base/termtext"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/search"
)

func init() {
	register("search", "find the items that best match a question",
		"[OPTIONS] QUESTION", searchAbout, runSearch)
}

const searchAbout = "Show the items sponge-search picks for QUESTION: short id, title, source, score and a snippet." +
	"\n\nExamples:\n\n" +
	"  sponge search \"green tea temperature\"\n" +
	"  sponge search --limit 3 \"brewing time\""

type searchOptions struct {
	LibraryOpt
	Limit int  `long:"limit" default:"8" value-name:"N" description:"how many items, 1 to 20"`
	JSON  bool `long:"json" description:"print one JSON document: the question, warnings and hits"`
}

func runSearch(env *Env, opts *searchOptions, rest []string) int {
	question := strings.TrimSpace(strings.Join(rest, " "))
	if question == "" {
		return console.Report(env.Stderr, Prog, console.Usage("search needs a question"))
	}
	if opts.Limit < 1 || opts.Limit > search.MaxLimit {
		return console.Report(env.Stderr, Prog, console.Usage("--limit must be from 1 to %d, not %d", search.MaxLimit, opts.Limit))
	}
	hints, err := setupHints(env.Settings, opts.Library)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	res, err := search.Find(opts.Library, env.Settings.ModelsDir(), question, opts.Limit)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	lib, err := library.Open(opts.Library)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	doc := search.Document(lib, question, res)
	if opts.JSON {
		if err := termtext.WriteJSON(env.Stdout, doc); err != nil {
			return console.Report(env.Stderr, Prog, err)
		}
		return searchExit(res.Hits)
	}
	if len(res.Hits) == 0 {
		fmt.Fprintln(env.Stdout, "No item matches.")
	}
	titles, sources := make([]string, len(res.Hits)), make([]string, len(res.Hits))
	for i, h := range res.Hits {
		titles[i], sources[i] = h.Title, h.Source
	}
	labels := item.Labels(titles, sources)
	for i, h := range res.Hits {
		fmt.Fprintf(env.Stdout, "%2d. %s  %s  (score %.2f, found by %s)\n", h.Rank, item.Short(h.ItemID), OneLine(labels[i]), h.Score, strings.Join(h.FoundBy, " and "))
		if h.Source != "" {
			fmt.Fprintf(env.Stdout, "    %s\n", OneLine(h.Source))
		}
		if h.Snippet != "" {
			fmt.Fprintf(env.Stdout, "    %s\n", OneLine(h.Snippet))
		}
	}
	for _, wr := range hints.Filter(res.Warnings) {
		fmt.Fprintf(env.Stderr, "Warning: %s: %s\n", OneLine(wr.Code), OneLine(wr.Message))
	}
	return searchExit(res.Hits)
}

// setupHints is how sponge ask and search show what is not set up (a
// model): until the person has seen it render.SeenTimes times, counted in
// the library, or never with 'sponge config set hints off'.
func setupHints(environ settings.Environ, library string) (*render.Hints, error) {
	v, err := environ.Resolve("hints", "")
	if err != nil {
		return nil, err
	}
	switch v.Value {
	case "off":
		return &render.Hints{Off: true}, nil
	case "", "on":
		return &render.Hints{File: filepath.Join(library, render.SeenFile)}, nil
	}
	return nil, console.Usage("the setting hints is on or off, not %q (%s)", v.Value, DescribeSource(v)).
		WithHint("sponge config set hints off")
}

// searchExit is ExitNothing when no item matches, as grep tells a script
// that nothing matched, else ExitOK.
func searchExit(hits []*jsonl.Hit) int {
	if len(hits) == 0 {
		return console.ExitNothing
	}
	return console.ExitOK
}
