package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/extract"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

func init() {
	register("add", "save files, folders, URLs or stdin (-) in the library",
		"[OPTIONS] FILE|FOLDER|URL|- ...", addAbout, runAdd)
}

const addAbout = "Save files, folders (every supported file under them), http(s) URLs, or stdin (-).\n" +
	"Formats: Markdown, plain text, HTML, PDF, WebVTT, SubRip.\n" +
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
	quiet := opts.Quiet || bar != nil

	nAdded, nHad, nUpdated := 0, 0, 0
	saved := map[string]bool{}
	err = ingest.Add(context.Background(), w, inputs, ingest.AddOptions{Title: opts.Title, Timeout: opts.Timeout, Link: opts.Link, Stdin: env.Stdin}, func(r ingest.Added) {
		bar.Add(1)
		msg := ""
		if r.Err != nil {
			msg = r.Err.Error()
			if !strings.HasPrefix(msg, r.Input.Name+":") {
				msg = r.Input.Name + ": " + msg // fetch errors name their URL already
			}
		}
		switch {
		case errors.Is(r.Err, extract.ErrNoText):
			// Nothing is wrong with a page of navigation only, or an empty
			// file: there is just nothing to save.
			skipped++
			if !opts.Quiet {
				bar.Clear()
				console.PrintWarning(env.Stderr, Prog, r.Input.Name+": skipped, "+r.Err.Error())
			}
		case r.Err != nil:
			bar.Clear()
			console.PrintError(env.Stderr, Prog, msg)
			failed++
		case len(r.Replaced) > 0:
			nUpdated++
			if r.Item != nil {
				saved[r.ID] = true
			}
			if !quiet {
				fmt.Fprintln(env.Stdout, updatedLine(w, r))
			}
		case r.Had:
			nHad++
			if !quiet {
				title := r.Input.Name
				if m, err := w.Meta(r.ID); err == nil {
					title = m.Title
				}
				also := ""
				if r.Noted {
					also = "also at "
				}
				fmt.Fprintf(env.Stdout, "already saved %s %s (%s%s)\n", item.Short(r.ID), oneLine(title), also, oneLine(r.Input.Name))
			}
		default:
			saved[r.ID] = true
			nAdded++
			if !quiet {
				fmt.Fprintf(env.Stdout, "added %s %s (%s, %s)\n", item.Short(r.ID), oneLine(r.Item.Title), r.Item.Kind, count(len(r.Item.Paragraphs), "paragraph"))
			}
		}
	})
	bar.Finish()
	if err != nil {
		console.PrintError(env.Stderr, Prog, "cannot remove the earlier versions: "+err.Error())
		console.PrintHint(env.Stderr, Prog, "the new versions are saved; run the same command again to remove the earlier ones")
		failed++
	}
	// Folders are noted for sponge update, which adds the files that
	// appear under them.
	for _, a := range rest {
		if st, err := os.Stat(a); err == nil && st.IsDir() {
			if abs, err := filepath.Abs(a); err == nil {
				if err := w.AddFolder(library.Folder{Path: abs, Link: opts.Link}); err != nil {
					console.Report(env.Stderr, Prog, err)
					failed++
				}
			}
		}
	}
	if err := w.Close(); err != nil {
		console.PrintError(env.Stderr, Prog, "cannot finish the index: "+err.Error())
		console.PrintHint(env.Stderr, Prog, unfinishedHint(nAdded))
		failed++
	}
	// Meaning search: embed the new items' paragraphs (embedding.go).
	embedAdded(env, w.Library, saved)
	if opts.Summarize && len(saved) > 0 {
		failed += summarizeAdded(env, w.Library, saved, opts.Quiet)
	}
	summary := fmt.Sprintf("added %d, already saved %d, failed %d", nAdded, nHad, failed)
	if nUpdated > 0 {
		summary = fmt.Sprintf("added %d, updated %d, already saved %d, failed %d", nAdded, nUpdated, nHad, failed)
	}
	if skipped > 0 {
		summary += fmt.Sprintf(", skipped %d", skipped)
	}
	if !opts.Quiet {
		fmt.Fprintln(env.Stdout, summary)
	}
	if failed > 0 {
		return console.ExitFailure
	}
	return console.ExitOK
}

// updatedLine says that an input is the new version of items saved before:
// "updated <id> <title> (was <old id>)".
func updatedLine(w *ingest.Writer, r ingest.Added) string {
	title, what := r.Input.Name, ""
	if r.Item != nil {
		title, what = r.Item.Title, fmt.Sprintf("%s, %s; ", r.Item.Kind, count(len(r.Item.Paragraphs), "paragraph"))
	} else if m, err := w.Meta(r.ID); err == nil {
		title = m.Title
	}
	was := make([]string, len(r.Replaced))
	for i, id := range r.Replaced {
		was[i] = item.Short(id)
	}
	return fmt.Sprintf("updated %s %s (%swas %s)", item.Short(r.ID), oneLine(title), what, strings.Join(was, ", "))
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
