package cli

import (
	"errors"
	"fmt"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

func init() {
	cmdline.Implement(runs, "rm", runRm)
	cmdline.Implement(runs, "reindex", runReindex)
}

func runRm(env *Env, opts *cmdline.RmOptions, rest []string) int {
	if len(rest) == 0 {
		return console.Report(env.Stderr, Prog, console.Usage("rm takes one or more item ids").WithHint("run 'sponge list' to see the ids"))
	}
	w, err := openExistingWriter(env, opts.Library)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	// Every id is resolved before any is removed: one that is no id at all
	// (too short, not hex) is a usage error, as no id is, and removes
	// nothing; one that names no item is an error of its own, and the rest
	// are still removed.
	ids := make([]string, len(rest))
	errs := make([]error, len(rest))
	usage := false
	for i, a := range rest {
		ids[i], errs[i] = w.Resolve(a)
		if fault.Is(errs[i], fault.BadID) {
			console.Report(env.Stderr, Prog, errs[i])
			usage = true
		}
	}
	if usage {
		if err := w.Close(); err != nil {
			console.Report(env.Stderr, Prog, err)
		}
		return console.ExitUsage
	}
	failed := 0
	for i := range rest {
		id, err := ids[i], errs[i]
		if err == nil {
			// As the remove button of sponge ui: the files are noted as
			// removed, so that sponge update does not add them back.
			m, removed, rerr := w.RemoveNoted(id)
			if err = rerr; removed {
				title := "(damaged, set aside)"
				if m != nil {
					title = m.Title
				}
				fmt.Fprintf(env.Stdout, "removed %s %s\n", item.Short(id), cmdline.OneLine(title))
			}
		}
		if err != nil {
			console.Report(env.Stderr, Prog, err)
			failed++
		}
	}
	if err := w.Close(); err != nil {
		console.Report(env.Stderr, Prog, err)
		failed++
	}
	if failed > 0 {
		return console.ExitFailure
	}
	return console.ExitOK
}

func runReindex(env *Env, opts *cmdline.ReindexOptions, rest []string) int {
	if len(rest) > 0 {
		return console.Report(env.Stderr, Prog, console.Usage("reindex takes no arguments"))
	}
	w, err := openExistingWriter(env, opts.Library)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	ids, err := w.IDs()
	if err != nil {
		w.Close()
		return console.Report(env.Stderr, Prog, err)
	}
	failed := 0
	var changed map[string]bool
	if opts.Extract {
		changed, failed = reextract(env, w, ids, opts.Quiet)
		if !opts.Quiet {
			fmt.Fprintf(env.Stdout, "read %s again: %d changed, %d the same, %d failed\n",
				cmdline.Count(len(ids), "item"), len(changed), len(ids)-len(changed)-failed, failed)
		}
	}
	var bar *progress.Bar
	if !opts.Quiet {
		bar = progressFor(env, len(ids), "indexing")
	}
	err = w.Rebuild(func(done, total int) { bar.Set(int64(done)) })
	bar.Finish()
	tellSetAside(env, w)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	if !opts.Quiet {
		fmt.Fprintf(env.Stdout, "reindexed %s\n", cmdline.Count(len(ids), "item"))
	}
	// The paragraph vectors too, when an embedding model is set up (embedding.go).
	if code := rebuildVectors(env, w.Library, changed, opts.Quiet); code != 0 || failed == 0 {
		return code
	}
	return console.ExitFailure
}

// reextract runs ingest.Reextract with a progress bar, and warns of each
// item that cannot be read again (it is kept as it was). quiet: no bar.
func reextract(env *Env, w *ingest.Writer, ids []string, quiet bool) (changed map[string]bool, failed int) {
	var bar *progress.Bar
	if !quiet {
		bar = progressFor(env, len(ids), "reading again")
	}
	defer bar.Finish()
	done, linked := 0, false
	changed = ingest.Reextract(w, ids, func(id string, _ bool, err error) {
		done++
		bar.Set(int64(done))
		if err != nil {
			failed++
			linked = linked || errors.Is(err, ingest.ErrLinked)
			console.PrintWarning(env.Stderr, Prog, fmt.Sprintf("%s: %v; kept as it was", item.Short(id), err))
		}
	})
	if linked {
		console.PrintHint(env.Stderr, Prog, "'sponge update' reads a linked file that changed again, its new version replacing the old; for one that moved, 'sponge add --link' it where it is now, and 'sponge update --prune' removes the old")
	}
	return changed, failed
}
