package cmdline

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/base/termtext"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/jsonl"
)

func init() {
	register("list", "list the saved items",
		"[OPTIONS]", listAbout, runList)
	register("show", "show a saved item: where it came from, then its text",
		"[OPTIONS] ID", showAbout, runShow)
}

const listAbout = "One line per item: short id, kind, title, source, when it was added (oldest first)." +
	"\n\nExamples:\n\n" +
	"  sponge list\n" +
	"  sponge list --json"

const showAbout = "Show an item: title, source (and other paths with the same bytes), kind, when it was added,\n" +
	"its summary (see sponge summarize), then the saved text with its headings and PDF page or transcript\n" +
	"time markers. ID is any unique prefix (4+ hex digits). The id of an item replaced by a new version of\n" +
	"its file or URL names nothing: sponge keeps no old versions, which would keep, and quote in answers,\n" +
	"words you changed or took out." +
	"\n\nExamples:\n\n" +
	"  sponge show 0a57\n" +
	"  sponge show --paragraphs 3-7 -n 0a57"

type listOptions struct {
	LibraryOpt
	JSON bool `long:"json" description:"print a JSON array for scripts"`
	Long bool `short:"l" long:"long" description:"under each item, the first statement of its summary (see sponge summarize)"`
}

func runList(env *Env, opts *listOptions, rest []string) int {
	if len(rest) > 0 {
		return console.Report(env.Stderr, Prog, console.Usage("list takes no arguments (got %q)", rest[0]))
	}
	lib, err := library.Open(opts.Library)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	ids, err := lib.IDs()
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	metas := make([]*library.Meta, 0, len(ids))
	failed := 0
	for _, id := range ids {
		m, err := lib.Meta(id)
		if err != nil {
			// One damaged item is named, and the rest still listed.
			console.Report(env.Stderr, Prog, err)
			failed++
			continue
		}
		metas = append(metas, m)
	}
	// Items saved but not yet in the index (an add at work, or one that
	// was killed) are listed, but search cannot find them: say so, so that
	// list and search do not seem to disagree.
	if pending, err := lib.Pending(); err == nil {
		saved := map[string]bool{}
		for _, id := range ids {
			saved[id] = true
		}
		n := 0
		for _, id := range pending {
			if saved[id] {
				n++
			}
		}
		if n > 0 {
			msg := fmt.Sprintf("%d items are saved but not yet in the index, so search does not find them yet", n)
			if n == 1 {
				msg = "1 item is saved but not yet in the index, so search does not find it yet"
			}
			console.PrintWarning(env.Stderr, Prog, msg)
			console.PrintHint(env.Stderr, Prog, "a running 'sponge add' indexes them; after one that was stopped, the next 'sponge add' or 'sponge reindex' does")
		}
	}
	sort.SliceStable(metas, func(i, j int) bool { return metas[i].Added.Before(metas[j].Added) })
	if opts.JSON {
		out := make([]ListItemJSON, 0, len(metas))
		for _, m := range metas {
			out = append(out, ListItemJSON{ItemID: m.ID, Title: m.Title, Source: m.Source, Kind: m.Kind,
				Added: m.Added, Paragraphs: m.Paragraphs, Chars: m.Chars, Pages: m.Pages, Gist: lib.Gist(m)})
		}
		return console.Report(env.Stderr, Prog, termtext.WriteJSON(env.Stdout, out))
	}
	if len(metas) == 0 {
		fmt.Fprintln(env.Stdout, "The library is empty. Save something with: sponge add FILE|FOLDER|URL")
		return console.ExitOK
	}
	titles, sources := make([]string, len(metas)), make([]string, len(metas))
	for i, m := range metas {
		titles[i], sources[i] = m.Title, m.Source
	}
	labels := item.Labels(titles, sources)
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	for i, m := range metas {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", item.Short(m.ID), m.Kind, clipLabel(labels[i], 60), clip(m.Source, 60), m.Added.Local().Format("2006-01-02 15:04"))
	}
	tw.Flush()
	for i, line := range strings.SplitAfter(strings.TrimSuffix(table.String(), "\n"), "\n") {
		fmt.Fprint(env.Stdout, strings.TrimSuffix(line, "\n")+"\n")
		if opts.Long {
			// The gist: the first statement of the item's summary.
			if gist := lib.Gist(metas[i]); gist != "" {
				fmt.Fprintf(env.Stdout, "    %s\n", clip(gist, 100))
			} else if sum, _ := lib.Summary(metas[i].ID); lib.Made(metas[i], sum) {
				fmt.Fprintf(env.Stdout, "    (summarized: no sentence of it could be quoted as a statement)\n")
			} else {
				fmt.Fprintf(env.Stdout, "    (no summary yet: sponge summarize %s)\n", metas[i].ID[:8])
			}
		}
	}
	if failed > 0 {
		return console.ExitFailure
	}
	return console.ExitOK
}

// oneLine shows outside text (a title, a file name) on one line of a
// terminal: each run of whitespace as one space, control characters inert.
func OneLine(s string) string { return termtext.Safe(strings.Join(strings.Fields(s), " ")) }

// clip shows s on one line (oneLine), shortened to at most n characters
// ending with "…".
func clip(s string, n int) string {
	s = OneLine(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// clipLabel is clip for an item's label: what it ends with in brackets
// (what tells it apart from another item of the same title, item.Labels)
// stays, and the title before it is clipped.
func clipLabel(label string, n int) string {
	label = OneLine(label)
	i := strings.LastIndex(label, " (")
	if len([]rune(label)) <= n || i <= 0 || !strings.HasSuffix(label, ")") {
		return clip(label, n)
	}
	end := label[i:]
	if room := n - len([]rune(end)); room >= 10 {
		return clip(label[:i], room) + end
	}
	return clip(label, n)
}

// ListItemJSON is an item in `sponge list --json`: its library.Meta, with
// the id called itemId as in every JSON document sponge prints (the Meta
// kept in the store says id), and the counts paragraphCount and pageCount,
// since paragraphs and pages are lists in show --json.
type ListItemJSON struct {
	ItemID     string    `json:"itemId"`
	Title      string    `json:"title"`
	Source     string    `json:"source"`
	Kind       string    `json:"kind"`
	Added      time.Time `json:"added"`
	Paragraphs int       `json:"paragraphCount"`
	Chars      int       `json:"chars"`
	Pages      int       `json:"pageCount,omitempty"`
	// Gist is the first statement of the item's summary, when it has one.
	Gist string `json:"gist,omitempty"`
}

// ItemJSON is `sponge show --json`: the item.Item, with the id called
// itemId (the item kept in the store says id).
type ItemJSON struct {
	ItemID     string           `json:"itemId"`
	Title      string           `json:"title"`
	TitleGiven bool             `json:"titleGiven,omitempty"`
	Linked     bool             `json:"linked,omitempty"`
	Source     string           `json:"source"`
	Also       []string         `json:"also,omitempty"`
	Kind       string           `json:"kind"`
	Added      time.Time        `json:"added"`
	Author     string           `json:"author,omitempty"`
	Published  string           `json:"published,omitempty"`
	Paragraphs []item.Paragraph `json:"paragraphs"`
	// Summary is the item's checked summary, when it has a current one.
	Summary *item.Summary `json:"summary,omitempty"`
}

type showOptions struct {
	LibraryOpt
	JSON       bool   `long:"json" description:"print the whole item as JSON"`
	Paragraphs string `long:"paragraphs" value-name:"FROM-TO" description:"show only these paragraphs (0-based, as quotes name them), e.g. 3-7 or 12"`
	Numbers    bool   `short:"n" long:"numbers" description:"number the paragraphs"`
}

func runShow(env *Env, opts *showOptions, rest []string) int {
	if len(rest) != 1 {
		return console.Report(env.Stderr, Prog, console.Usage("show takes one item id").WithHint("run 'sponge list' to see the ids"))
	}
	lib, err := library.Open(opts.Library)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	id, err := lib.Resolve(rest[0])
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	it, err := lib.Item(id)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	from, to, err := paragraphRange(opts.Paragraphs, len(it.Paragraphs))
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	if opts.JSON {
		out := ItemJSON{ItemID: it.ID, Title: it.Title, TitleGiven: it.TitleGiven, Linked: it.Linked,
			Source: it.Source, Also: it.Also, Kind: it.Kind, Added: it.Added, Author: it.Author, Published: it.Published,
			Paragraphs: it.Paragraphs[from:to],
			Summary:    lib.CurrentSummary(it)}
		return console.Report(env.Stderr, Prog, termtext.WriteJSON(env.Stdout, &out))
	}
	// The MCP show tool gets FormatItem's text exact, inside JSON; a terminal
	// gets it with its control characters inert.
	var sum *item.Summary
	if from == 0 {
		sum = lib.CurrentSummary(it)
	}
	fmt.Fprint(env.Stdout, termtext.Safe(FormatItem(it, sum, from, to, opts.Numbers)))
	return console.ExitOK
}

// paragraphRange parses "FROM-TO" or "N" into a half-open range of paragraph indexes.
func paragraphRange(s string, n int) (from, to int, err error) {
	if s == "" {
		return 0, n, nil
	}
	a, b, isRange := strings.Cut(s, "-")
	if _, err := fmt.Sscan(a, &from); err != nil {
		return 0, 0, console.Usage("--paragraphs %q: give FROM-TO or N", s)
	}
	to = from
	if isRange {
		if _, err := fmt.Sscan(b, &to); err != nil {
			return 0, 0, console.Usage("--paragraphs %q: give FROM-TO or N", s)
		}
	}
	if from < 0 || to < from || from >= n {
		return 0, 0, console.Usage("--paragraphs %q: the item has paragraphs 0 to %d", s, n-1)
	}
	return from, min(to+1, n), nil
}

// FormatItem prints an item for a person: a header, its summary when sum
// is not nil, then paragraphs from..to with their headings and page or time
// markers.
func FormatItem(it *item.Item, sum *item.Summary, from, to int, numbers bool) string {
	var b strings.Builder
	m := library.MetaOf(it)
	fmt.Fprintf(&b, "%s\n", it.Title)
	fmt.Fprintf(&b, "id:      %s\n", it.ID)
	fmt.Fprintf(&b, "source:  %s\n", it.Source)
	for _, a := range it.Also {
		fmt.Fprintf(&b, "also:    %s (the same bytes)\n", a)
	}
	if it.Linked {
		fmt.Fprintf(&b, "original: not kept in the library (saved with --link)\n")
	}
	if it.Author != "" {
		fmt.Fprintf(&b, "author:  %s\n", it.Author)
	}
	if it.Published != "" {
		fmt.Fprintf(&b, "published: %s\n", it.Published)
	}
	fmt.Fprintf(&b, "kind:    %s\n", it.Kind)
	fmt.Fprintf(&b, "added:   %s\n", it.Added.Local().Format("2006-01-02 15:04"))
	size := Count(m.Paragraphs, "paragraph")
	if m.Pages > 0 {
		size += ", " + Count(m.Pages, "page")
	}
	fmt.Fprintf(&b, "size:    %s, %d characters\n", size, m.Chars)
	if sum != nil {
		b.WriteString("\n" + FormatSummary(sum))
	}
	heading, page := "", 0
	for i := from; i < to; i++ {
		p := &it.Paragraphs[i]
		newHeading := p.Heading != "" && p.Heading != heading
		// a heading at a page's foot shows on its page, its first
		// paragraph on the next
		if hp := p.HeadingOn(); newHeading && hp > 0 && hp != page {
			fmt.Fprintf(&b, "\n--- p. %d ---\n", hp)
			page = hp
		}
		if newHeading {
			fmt.Fprintf(&b, "\n## %s\n", p.Heading)
			heading = p.Heading
		}
		if p.Page > 0 && p.Page != page {
			fmt.Fprintf(&b, "\n--- p. %d ---\n", p.Page)
			page = p.Page
		}
		b.WriteString("\n")
		if numbers {
			fmt.Fprintf(&b, "¶%d ", i)
		}
		if p.StartMs != nil {
			fmt.Fprintf(&b, "[%s] ", item.FormatTime(*p.StartMs))
		}
		text := p.Text
		// A paragraph that runs onto later pages shows where each page starts.
		if len(p.Pages) > 0 {
			r := []rune(text)
			var tb strings.Builder
			last := 0
			for _, ps := range p.Pages {
				if ps.Offset <= last || ps.Offset > len(r) {
					continue
				}
				tb.WriteString(string(r[last:ps.Offset]))
				fmt.Fprintf(&tb, " [p. %d] ", ps.Page)
				last = ps.Offset
				page = ps.Page
			}
			tb.WriteString(string(r[last:]))
			text = tb.String()
		}
		b.WriteString(codeLines(text, "    "))
		b.WriteString("\n")
	}
	return b.String()
}

// codeLines shows a paragraph's text, or a quote of it, as a person reads
// it: a block of code in it (item.CodeOf) with its lines, each indented
// by indent under the sentence that announces it (so that a line opening
// with "## " is never taken for a heading), the rest as it is.
func codeLines(text, indent string) string {
	prose, code := item.CodeOf(text)
	if code == "" {
		return text
	}
	var b strings.Builder
	if prose != "" {
		b.WriteString(prose)
		b.WriteString("\n")
	}
	for i, line := range strings.Split(code, "\n") {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(indent + line)
	}
	return b.String()
}

// FormatSummary prints a summary for a person: who wrote it, then each
// statement with its quote and its page or time. A statement that is its
// own quote (the extractive drafter's) is shown once, as the quote.
func FormatSummary(sum *item.Summary) string {
	var b strings.Builder
	if sum.Model == jsonl.ModelExtractive {
		b.WriteString("Summary (extractive: the item's most central sentences, quoted):\n")
	} else {
		fmt.Fprintf(&b, "Summary (written by %s, every quote checked):\n", sum.Model)
	}
	if len(sum.Statements) == 0 {
		b.WriteString("  (no sentence of this item could be quoted as a statement)\n")
	}
	for _, st := range sum.Statements {
		where := item.Where(st.Page, st.StartMs)
		if where != "" {
			where = " " + where
		}
		if quote.Same(st.Text, st.Quote) {
			fmt.Fprintf(&b, "  “%s”%s\n", summaryQuote(st.Quote), where)
			continue
		}
		fmt.Fprintf(&b, "  %s\n    “%s”%s\n", oneLineText(st.Text), summaryQuote(st.Quote), where)
	}
	return b.String()
}

// summaryQuote is a summary's quote on one line, but for a block of code
// quoted with the sentence that announces it, whose lines are shown under
// it (codeLines), as sponge ask shows them.
func summaryQuote(q string) string {
	prose, code := item.CodeOf(q)
	if prose == "" || code == "" {
		return oneLineText(q)
	}
	return codeLines(oneLineText(prose)+"\n\n"+code, "        ")
}

// oneLineText is s with each run of white space as one space.
func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }
