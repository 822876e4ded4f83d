package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library/extract"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

// tally prints what became of each input of sponge add and sponge update, one
// line each, and counts it for the summary line.
type tally struct {
	env *Env
	w   *ingest.Writer
	bar *progress.Bar // nil when there is none
	// quiet leaves out the line per input (-q, or a progress bar shows the
	// run); quietSkips also leaves out the inputs skipped (-q only).
	quiet, quietSkips bool
	// sameIsUnchanged: update reads a touched file again and finds its bytes
	// saved; that is "unchanged", not "already saved" (a new path of saved
	// bytes, noted on their item, still is).
	sameIsUnchanged bool
	// allText: sponge add --all-text, which says so of an input whose bytes
	// were saved before without it (they are kept as they were).
	allText bool

	added, updated, had, same, skipped, failed int
	saved                                      map[string]bool // items new or updated, to embed or summarize
	// resummarize are the new versions whose earlier version had a
	// summary, and who wrote it: the new one is summarized again by the
	// same writer (resummarize.go).
	resummarize map[string]string
}

func newTally(env *Env, w *ingest.Writer, bar *progress.Bar, quiet bool) *tally {
	return &tally{env: env, w: w, bar: bar, quiet: quiet || bar != nil, quietSkips: quiet, saved: map[string]bool{}, resummarize: map[string]string{}}
}

// take prints and counts one result of ingest.Add.
func (t *tally) take(r ingest.Added) {
	t.bar.Add(1)
	switch {
	case errors.Is(r.Err, extract.ErrNoText):
		// Nothing is wrong with a page of navigation only, or an empty
		// file: there is just nothing to save.
		t.skipped++
		if !t.quietSkips {
			t.bar.Clear()
			console.PrintWarning(t.env.Stderr, Prog, r.Input.Name+": skipped, "+r.Err.Error())
		}
	case r.Err != nil:
		msg := r.Err.Error()
		if !strings.HasPrefix(msg, r.Input.Name+":") {
			msg = r.Input.Name + ": " + msg // fetch errors name their URL already
		}
		t.bar.Clear()
		console.PrintError(t.env.Stderr, Prog, msg)
		t.failed++
	case len(r.Replaced) > 0:
		t.updated++
		if r.Item != nil {
			t.saved[r.ID] = true
		}
		// The earlier versions are still in the store (Add removes them
		// once every input is saved), with their summaries.
		for _, old := range r.Replaced {
			if sum, err := t.w.Summary(old); err == nil && sum != nil {
				t.resummarize[r.ID] = sum.Model
				break
			}
		}
		if !t.quiet {
			fmt.Fprintln(t.env.Stdout, updatedLine(t.w, r))
		}
	case r.Had && t.sameIsUnchanged && !r.Noted:
		t.same++ // touched, or read since a killed update: the same bytes
	case r.Had:
		t.had++
		if !t.quiet {
			title := r.Input.Name
			if m, err := t.w.Meta(r.ID); err == nil {
				title = m.Title
			}
			also := ""
			if r.Noted {
				also = "also at "
			}
			fmt.Fprintf(t.env.Stdout, "already saved %s %s (%s%s)\n", item.Short(r.ID), cmdline.OneLine(title), also, cmdline.OneLine(r.Input.Name))
		}
		if t.allText && !t.quietSkips {
			if it, err := t.w.Item(r.ID); err == nil && !it.AllText {
				t.bar.Clear()
				console.PrintWarning(t.env.Stderr, Prog, r.Input.Name+": saved before without --all-text, and kept as it was")
				console.PrintHint(t.env.Stderr, Prog, fmt.Sprintf("to keep every word it shows, remove it ('sponge rm %s') and add it again with --all-text", item.Short(r.ID)))
			}
		}
	default:
		t.saved[r.ID] = true
		t.added++
		if !t.quiet {
			fmt.Fprintf(t.env.Stdout, "added %s %s (%s, %s)\n", item.Short(r.ID), cmdline.OneLine(r.Item.Title), r.Item.Kind, cmdline.Count(len(r.Item.Paragraphs), "paragraph"))
		}
	}
	if r.Err == nil && r.Item != nil && r.Little && !t.quietSkips {
		// Saved, but most of what the file shows was taken for menus and
		// links: say so, as the person may know the page is all content.
		t.bar.Clear()
		share := fmt.Sprintf("%d%%", 100*r.Kept/r.Shown)
		if 100*r.Kept < r.Shown {
			share = "under 1%" // not "0%" of a page that kept a sentence
		}
		console.PrintWarning(t.env.Stderr, Prog, fmt.Sprintf("%s: kept %d of the %d characters of text it shows (%s), taking the rest for menus, links and other page furniture",
			r.Input.Name, r.Kept, r.Shown, share))
		console.PrintHint(t.env.Stderr, Prog, fmt.Sprintf("if it is all content, remove it ('sponge rm %s') and add it again with --all-text", item.Short(r.ID)))
	}
}

// updatedLine says that an input is the new version of items saved before:
// "updated <id> <title> (was <old id>)".
func updatedLine(w *ingest.Writer, r ingest.Added) string {
	title, what := r.Input.Name, ""
	if r.Item != nil {
		title, what = r.Item.Title, fmt.Sprintf("%s, %s; ", r.Item.Kind, cmdline.Count(len(r.Item.Paragraphs), "paragraph"))
	} else if m, err := w.Meta(r.ID); err == nil {
		title = m.Title
	}
	was := make([]string, len(r.Replaced))
	for i, id := range r.Replaced {
		was[i] = item.Short(id)
	}
	return fmt.Sprintf("updated %s %s (%swas %s)", item.Short(r.ID), cmdline.OneLine(title), what, strings.Join(was, ", "))
}
