package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

func init() {
	register("add", "save files, folders, URLs or stdin (-) in the library",
		"[OPTIONS] FILE|FOLDER|URL|- ...", addAbout, runAdd)
}

const addAbout = "Save files, folders (every supported file under them), http(s) URLs, or stdin (-).\n" +
	"Formats: Markdown, plain text, HTML, PDF, EPUB, DOCX, ODT, reStructuredText, Org, man pages,\n" +
	"WebVTT, SubRip, logs, and any other file of text (see README.md for what is read of each).\n" +
	"A file or URL saved before with other bytes is a new version: it replaces the old item, which is\n" +
	"gone (\"updated ID (was OLD ID)\"); the same bytes under another path are one item noting both.\n" +
	"Folders are remembered: 'sponge update' adds the files that appear under them later." +
	"\n\nExamples:\n\n" +
	"  sponge add notes.md ~/papers\n" +
	"  sponge add https://go.dev/doc/effective_go\n" +
	"  cat notes.txt | sponge add --title \"Tea notes\" -"

type addOptions struct {
	LibraryOpt
	Title     string        `long:"title" value-name:"TITLE" description:"the title of the item (with one input, e.g. stdin)"`
	Timeout   time.Duration `long:"timeout" default:"30s" value-name:"DURATION" description:"how long to wait for a URL"`
	Quiet     bool          `short:"q" long:"quiet" description:"print only errors: no line per input, no skipped inputs, no progress and no summary"`
	Summarize bool          `long:"summarize" description:"then write a summary of each item added (as sponge summarize does)"`
	Link      bool          `long:"link" description:"keep files where they are instead of a copy of each in the library (which then takes about the size of the text); sponge reindex --extract reads them there if they are unchanged. URLs and stdin are kept whole."`
}

func runAdd(env *Env, opts *addOptions, rest []string) int {
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
		ins, skip, errs := ingest.Expand(a)
		for _, err := range errs {
			console.PrintError(env.Stderr, Prog, err.Error())
		}
		failed += len(errs)
		if !opts.Quiet {
			for _, s := range skip {
				console.PrintWarning(env.Stderr, Prog, s.Path+": skipped, "+s.Why)
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
	t.failed, t.skipped = failed, skipped
	err = ingest.Add(context.Background(), w, inputs, ingest.AddOptions{Title: opts.Title, Timeout: opts.Timeout, Link: opts.Link, Stdin: env.Stdin}, t.take)
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
				if err := w.AddFolder(library.Folder{Path: abs, Link: opts.Link}); err != nil {
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
