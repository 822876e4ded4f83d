package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

func init() {
	cmdline.Implement(runs, "add", runAdd)
}

func runAdd(env *Env, opts *cmdline.AddOptions, rest []string) int {
	if len(rest) == 0 {
		console.PrintError(env.Stderr, Prog, "nothing to add")
		console.PrintHint(env.Stderr, Prog, "sponge add FILE|FOLDER|URL|- (see 'sponge add --help')")
		return console.ExitUsage
	}
	if opts.Title != "" && len(rest) > 1 {
		return console.Report(env.Stderr, Prog, console.Usage("--title goes with one input, not %d", len(rest)))
	}

	var inputs []ingest.Input
	failed, skipped := 0, 0
	for _, a := range rest {
		ins, skip, errs := ingest.Expand(a, ingest.WalkOptions{Follow: opts.Follow, NoIgnore: opts.NoIgnore, Hidden: opts.Hidden})
		for _, err := range errs {
			console.PrintError(env.Stderr, Prog, err.Error())
		}
		failed += len(errs)
		if !opts.Quiet {
			for _, line := range skippedLines(skip) {
				console.PrintWarning(env.Stderr, Prog, line)
			}
		}
		skipped += len(skip)
		inputs = append(inputs, ins...)
	}

	w, err := openWriter(env, opts.Library)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}

	bar := (*progress.Bar)(nil)
	if len(inputs) > 1 && !opts.Quiet {
		bar = progress.New(env.Stderr, int64(len(inputs)), "adding", false)
	}
	t := newTally(env, w, bar, opts.Quiet)
	t.failed, t.skipped, t.allText = failed, skipped, opts.AllText
	err = ingest.Add(context.Background(), w, inputs, ingest.AddOptions{Title: opts.Title, Timeout: opts.Timeout, Link: opts.Link, Stdin: env.Stdin, AllText: opts.AllText}, t.take)
	bar.Finish()
	if err != nil {
		console.PrintError(env.Stderr, Prog, "cannot remove the earlier versions: "+err.Error())
		console.PrintHint(env.Stderr, Prog, "the new versions are saved; run the same command again to remove the earlier ones")
		t.failed++
	}
	// Folders are noted for sponge update, which adds the files that
	// appear under them.
	for _, a := range rest {
		if st, err := os.Stat(a); err == nil && st.IsDir() {
			if abs, err := filepath.Abs(a); err == nil {
				if err := w.AddFolder(library.Folder{Path: abs, Link: opts.Link, NoIgnore: opts.NoIgnore, Hidden: opts.Hidden}); err != nil {
					console.Report(env.Stderr, Prog, err)
					t.failed++
				}
			}
		}
	}
	if err := w.Close(); err != nil {
		console.PrintError(env.Stderr, Prog, "cannot finish the index: "+err.Error())
		console.PrintHint(env.Stderr, Prog, unfinishedHint(t.added))
		t.failed++
	}
	// Meaning search: embed the new items' paragraphs (embedding.go).
	embedAdded(env, w.Library, t.saved)
	if opts.Summarize && len(t.saved) > 0 {
		t.failed += summarizeAdded(env, w.Library, t.saved, opts.Quiet)
	} else {
		t.failed += summarizeAgain(env, w.Library, t.resummarize, opts.Quiet)
	}
	summary := fmt.Sprintf("added %d, already saved %d, failed %d", t.added, t.had, t.failed)
	if t.updated > 0 {
		summary = fmt.Sprintf("added %d, updated %d, already saved %d, failed %d", t.added, t.updated, t.had, t.failed)
	}
	if t.skipped > 0 {
		summary += fmt.Sprintf(", skipped %d", t.skipped)
	}
	if !opts.Quiet {
		fmt.Fprintln(env.Stdout, summary)
	}
	if t.failed > 0 {
		return console.ExitFailure
	}
	return console.ExitOK
}

// unfinishedHint is the hint when the index could not be finished after
// added items were saved: true only of what this add saved.
func unfinishedHint(added int) string {
	switch added {
	case 0:
		return "nothing was saved; fix the cause, run 'sponge reindex', and add again"
	case 1:
		return "the item added is saved; run 'sponge reindex' to put it in the index"
	}
	return fmt.Sprintf("the %d items added are saved; run 'sponge reindex' to put them in the index", added)
}

// maxSkippedEach is how many files of one folder skipped for one reason
// are named a line each; past it they are one line (a documentation
// folder's 118 images would otherwise bury the lines that matter).
const maxSkippedEach = 3

// skippedLines says what a folder's walk skipped: a line per file, or,
// for more than maxSkippedEach files of one folder skipped for the same
// reason, one line naming the folder, how many, why, and the first few.
func skippedLines(skip []ingest.Skipped) []string {
	type group struct {
		dir, why string
	}
	var order []group
	files := map[group][]string{}
	for _, s := range skip {
		g := group{filepath.Dir(s.Path), s.Why}
		if _, ok := files[g]; !ok {
			order = append(order, g)
		}
		files[g] = append(files[g], s.Path)
	}
	var lines []string
	for _, g := range order {
		paths := files[g]
		if len(paths) <= maxSkippedEach {
			for _, p := range paths {
				lines = append(lines, p+": skipped, "+g.why)
			}
			continue
		}
		names := make([]string, maxSkippedEach)
		for i, p := range paths[:maxSkippedEach] {
			names[i] = filepath.Base(p)
		}
		lines = append(lines, fmt.Sprintf("%s%c: %d files skipped, %s (%s and %d more)",
			g.dir, filepath.Separator, len(paths), g.why, strings.Join(names, ", "), len(paths)-maxSkippedEach))
	}
	return lines
}
