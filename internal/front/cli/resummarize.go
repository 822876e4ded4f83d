package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"sort"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library"
)

// extractiveWriter is the name a summary notes when no model wrote it.
const extractiveWriter = "extractive"

// summarizeAgain summarizes the new versions of items whose earlier version
// had a summary (sponge update, or sponge add of a changed file): a summary
// is of one item's bytes, so the new version had none, and a person who
// asked for one would lose it at each edit. Each is written by the writer of
// the earlier summary: the extractive one, or the model, if it is the one
// that writes now (a model that no longer does is said, with a hint). It
// prints a line per writer and returns how many failed.
func summarizeAgain(env *Env, lib *library.Library, by map[string]string, quiet bool) (failed int) {
	if len(by) == 0 {
		return 0
	}
	writers := map[string][]string{}
	for id, model := range by {
		writers[model] = append(writers[model], id)
	}
	names := make([]string, 0, len(writers))
	for m := range writers {
		names = append(names, m)
	}
	sort.Strings(names)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	for _, model := range names {
		ids := slices.Sorted(slices.Values(writers[model]))
		sz, err := newSummarizer(env, lib, model == extractiveWriter, "", "", 5*time.Minute)
		if err == nil && model != extractiveWriter {
			var now string
			if now, err = sz.writer(ctx); err == nil && now != model {
				console.PrintWarning(env.Stderr, Prog, fmt.Sprintf("not summarized again: %s had a summary by %s, which does not write now (%s does)",
					cmdline.Count(len(ids), "new version"), model, now))
				console.PrintHint(env.Stderr, Prog, "run 'sponge summarize "+shortIDs(ids)+"' to summarize them with "+now)
				continue
			}
		}
		if err != nil {
			console.Report(env.Stderr, Prog, err)
			failed += len(ids)
			continue
		}
		n, f := sz.run(ctx, ids, false, quiet)
		failed += f
		if ctx.Err() != nil {
			console.PrintWarning(env.Stderr, Prog, fmt.Sprintf("stopped summarizing again: %d of %s summarized", n, cmdline.Count(len(ids), "item")))
			console.PrintHint(env.Stderr, Prog, "run 'sponge summarize --all' to go on")
			return failed
		}
		if !quiet {
			fmt.Fprintf(env.Stdout, "summarized again by %s, as the earlier version was: %s\n", model, shortIDs(ids))
		}
	}
	return failed
}

// shortIDs are the ids as a command takes them: their first digits, and
// a space between.
func shortIDs(ids []string) string {
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += " "
		}
		out += id[:min(len(id), item.ShortLen)]
	}
	return out
}
