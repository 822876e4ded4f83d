package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

func init() {
	cmdline.Implement(runs, "update", runUpdate)
}

// The command is update, not sync: sync suggests copying both ways, and
// sponge never writes to the person's files; it brings the library up to
// date with them, and says "updated" of each new version, as add does.

func runUpdate(env *Env, opts *cmdline.UpdateOptions, rest []string) int {
	if len(rest) > 0 {
		return console.Report(env.Stderr, Prog, console.Usage("update takes no arguments (got %q)", rest[0]).
			WithHint("sponge add FILE|FOLDER saves something new; update reads again what is saved"))
	}
	if opts.Watch {
		ctx, stop := watchContext()
		defer stop()
		return watch(ctx, env, opts, watchPassed)
	}
	return updatePass(env, opts, false)
}

// watchContext ends sponge update --watch: Ctrl-C or SIGTERM. watchPassed
// is told of each pass. Tests set both.
var (
	watchContext = func() (context.Context, context.CancelFunc) {
		return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	}
	watchPassed func()
)

// updatePass brings the library up to date once, and returns the exit
// code. quietSame: a pass that finds nothing changed says nothing (each
// pass of --watch).
func updatePass(env *Env, opts *cmdline.UpdateOptions, quietSame bool) int {
	w, err := openExistingWriter(env, opts.Library)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	c, err := ingest.FindChanges(w, opts.Follow)
	if err != nil {
		w.Close()
		return console.Report(env.Stderr, Prog, err)
	}
	failed := len(c.Errs)
	for _, err := range c.Errs {
		console.PrintError(env.Stderr, Prog, err.Error())
	}

	var bar *progress.Bar
	if len(c.Read) > 1 && !opts.Quiet {
		bar = progress.New(env.Stderr, int64(len(c.Read)), "updating", false)
	}
	t := newTally(env, w, bar, opts.Quiet)
	t.sameIsUnchanged = true
	t.failed, t.same = failed, c.Unchanged
	err = ingest.Add(context.Background(), w, c.Read, ingest.AddOptions{}, t.take)
	bar.Finish()
	if err != nil {
		console.PrintError(env.Stderr, Prog, "cannot remove the earlier versions: "+err.Error())
		console.PrintHint(env.Stderr, Prog, "the new versions are saved; run 'sponge update' again to remove the earlier ones")
		t.failed++
	}

	nGone, nRemoved := len(c.Gone), 0
	if opts.Prune && nGone > 0 {
		titles := map[string]string{}
		for _, g := range c.Gone {
			for _, id := range g.IDs {
				if m, err := w.Meta(id); err == nil {
					titles[id] = m.Title
				}
			}
		}
		removed, err := ingest.Prune(w, c.Gone)
		if err != nil {
			console.Report(env.Stderr, Prog, err)
			t.failed++
		}
		nRemoved = len(removed)
		if !opts.Quiet {
			for _, id := range removed {
				fmt.Fprintf(env.Stdout, "removed %s %s\n", item.Short(id), cmdline.OneLine(titles[id]))
			}
		}
	} else if !opts.Quiet {
		for _, g := range c.Gone {
			short := make([]string, len(g.IDs))
			title := ""
			for i, id := range g.IDs {
				short[i] = item.Short(id)
				if m, err := w.Meta(id); err == nil {
					title = m.Title
				}
			}
			fmt.Fprintf(env.Stdout, "gone %s %s (%s)\n", strings.Join(short, ", "), cmdline.OneLine(title), cmdline.OneLine(g.Source))
		}
	}
	if err := w.Close(); err != nil {
		console.PrintError(env.Stderr, Prog, "cannot finish the index: "+err.Error())
		console.PrintHint(env.Stderr, Prog, unfinishedHint(t.added+t.updated))
		t.failed++
	}
	embedAdded(env, w.Library, t.saved)
	t.failed += summarizeAgain(env, w.Library, t.resummarize, opts.Quiet)

	if !opts.Quiet {
		files := cmdline.Count(t.same+t.added+t.updated+t.had+nGone+t.skipped+t.failed, "file")
		if t.added+t.updated+t.had+nGone+t.failed+t.skipped == 0 {
			if !quietSame {
				fmt.Fprintf(env.Stdout, "nothing changed (%s checked)\n", files)
			}
		} else {
			summary := fmt.Sprintf("added %d, updated %d, unchanged %d, gone %d", t.added, t.updated, t.same, nGone)
			if t.had > 0 {
				summary = fmt.Sprintf("added %d, updated %d, already saved %d, unchanged %d, gone %d", t.added, t.updated, t.had, t.same, nGone)
			}
			if opts.Prune {
				summary += fmt.Sprintf(" (%d removed)", nRemoved)
			}
			summary += fmt.Sprintf(", failed %d", t.failed)
			if t.skipped > 0 {
				summary += fmt.Sprintf(", skipped %d", t.skipped)
			}
			fmt.Fprintln(env.Stdout, summary)
		}
		if nGone > 0 && !opts.Prune {
			console.PrintHint(env.Stderr, Prog, "'sponge update --prune' removes the items of files that are gone")
		}
	}
	if t.failed > 0 {
		return console.ExitFailure
	}
	return console.ExitOK
}
