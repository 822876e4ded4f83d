package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/extract"
)

func init() {
	register("add", "save files, folders, URLs or stdin (-) in the library", runAdd)
}

type addOptions struct {
	LibraryOpt
	Title   string        `long:"title" value-name:"TITLE" description:"the title of the item (with one input, e.g. stdin)"`
	Timeout time.Duration `long:"timeout" default:"30s" value-name:"DURATION" description:"how long to wait for a URL"`
	Quiet   bool          `short:"q" long:"quiet" description:"print only errors and the summary"`
	Link    bool          `long:"link" description:"keep files where they are instead of a copy of each in the library (which then takes about the size of the text); sponge reindex --extract reads them there if they are unchanged. URLs and stdin are kept whole."`
}

// input is one thing to save: a file, a URL, or stdin.
type input struct {
	name string // as the person gave it, or the path found in a folder
	path string
	url  string
	std  bool
}

// added is what happened to one input.
type added struct {
	in  input
	it  *item.Item // extracted and saved, to be indexed
	id  string
	err error
	had bool // the library had it already
}

func runAdd(env *Env, args []string) int {
	var opts addOptions
	rest, done, code := console.Parse(&opts, "sponge add", "[OPTIONS] FILE|FOLDER|URL|- ...",
		"Save files, folders (every supported file under them), http(s) URLs, or stdin (-).\n"+
			"Formats: Markdown, plain text, HTML, PDF, WebVTT, SubRip.", args, env.Stdout, env.Stderr)
	if done {
		return code
	}
	if len(rest) == 0 {
		console.PrintError(env.Stderr, Prog, "nothing to add")
		console.PrintHint(env.Stderr, Prog, "sponge add FILE|FOLDER|URL|- (see 'sponge add --help')")
		return console.ExitUsage
	}
	if opts.Title != "" && len(rest) > 1 {
		return console.Report(env.Stderr, Prog, console.Usage("--title goes with one input, not %d", len(rest)))
	}

	var inputs []input
	failed, skipped := 0, 0
	for _, a := range rest {
		ins, skip, err := expand(a)
		if err != nil {
			console.PrintError(env.Stderr, Prog, err.Error())
			failed++
			continue
		}
		for _, s := range skip {
			console.PrintWarning(env.Stderr, Prog, s+": skipped, not a format sponge reads")
		}
		skipped += len(skip)
		inputs = append(inputs, ins...)
	}

	w, err := openWriter(env, opts.Library)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}

	bar := (*progress.Bar)(nil)
	if len(inputs) > 1 {
		bar = progress.New(env.Stderr, int64(len(inputs)), "adding", false)
	}
	quiet := opts.Quiet || bar != nil

	results := make(chan added, runtime.GOMAXPROCS(0)*2)
	ctx := context.Background()
	go prepareAll(ctx, w, inputs, env.Stdin, opts, results)

	nAdded, nHad := 0, 0
	seen := map[string]bool{}
	for r := range results {
		bar.Add(1)
		if r.err == nil && !r.had && seen[r.id] {
			r.had = true
		}
		switch {
		case r.err != nil:
			bar.Clear()
			msg := r.err.Error()
			if !strings.HasPrefix(msg, r.in.name+":") {
				msg = r.in.name + ": " + msg // fetch errors name their URL already
			}
			console.PrintError(env.Stderr, Prog, msg)
			failed++
		case r.had:
			nHad++
			if !quiet {
				title := r.in.name
				if m, err := w.Meta(r.id); err == nil {
					title = m.Title
				}
				fmt.Fprintf(env.Stdout, "already saved %s %s (%s)\n", item.Short(r.id), title, r.in.name)
			}
		default:
			if err := w.Queue(r.it); err != nil {
				bar.Clear()
				console.PrintError(env.Stderr, Prog, r.in.name+": cannot index: "+err.Error())
				failed++
				continue
			}
			seen[r.id] = true
			nAdded++
			if !quiet {
				fmt.Fprintf(env.Stdout, "added %s %s (%s, %s)\n", item.Short(r.id), r.it.Title, r.it.Kind, count(len(r.it.Paragraphs), "paragraph"))
			}
		}
	}
	bar.Finish()
	if err := w.Close(); err != nil {
		console.PrintError(env.Stderr, Prog, "cannot finish the index: "+err.Error())
		console.PrintHint(env.Stderr, Prog, "the items are saved; run 'sponge reindex'")
		failed++
	}
	// Meaning search: embed the new items' paragraphs (embedding.go).
	embedAdded(env, w.Library, seen)
	summary := fmt.Sprintf("added %d, already saved %d, failed %d", nAdded, nHad, failed)
	if skipped > 0 {
		summary += fmt.Sprintf(", skipped %d", skipped)
	}
	fmt.Fprintln(env.Stdout, summary)
	if failed > 0 {
		return console.ExitFailure
	}
	return console.ExitOK
}

// expand turns one argument into inputs; files under a folder that sponge
// does not read are returned as skipped.
func expand(arg string) (ins []input, skipped []string, err error) {
	switch {
	case arg == "-":
		return []input{{name: "stdin", std: true}}, nil, nil
	case strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://"):
		return []input{{name: arg, url: arg}}, nil, nil
	}
	st, err := os.Stat(arg)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s: no such file or folder", arg)
		}
		return nil, nil, fmt.Errorf("%s: %v", arg, errors.Unwrap(err))
	}
	if !st.IsDir() {
		return []input{{name: arg, path: arg}}, nil, nil
	}
	err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %v", p, errors.Unwrap(err))
		}
		if d.IsDir() {
			if p != arg && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || !d.Type().IsRegular() {
			return nil
		}
		if extract.Supported(d.Name()) {
			ins = append(ins, input{name: p, path: p})
		} else {
			skipped = append(skipped, p)
		}
		return nil
	})
	sort.Slice(ins, func(i, j int) bool { return ins[i].path < ins[j].path })
	return ins, skipped, err
}

// How far prepareAll may read and extract ahead of the writer: at most
// aheadItems inputs, of at most aheadBytes together (an input whose size is
// not known beforehand, stdin or a URL, counts as aheadUnknown bytes), and
// always one input. One big PDF at the front then holds up the rest only once
// the others have gone that far ahead, while a folder of big PDFs is not all
// held in memory, extracted, before the writer takes it.
const (
	aheadItems   = 128
	aheadBytes   = 32 << 20
	aheadUnknown = 1 << 20
)

// prepareAll reads and extracts the inputs on all cores and sends the
// results in input order.
func prepareAll(ctx context.Context, w *library.Writer, inputs []input, stdin io.Reader, opts addOptions, out chan<- added) {
	defer close(out)
	workers := runtime.GOMAXPROCS(0)
	slots := make([]chan added, len(inputs))
	for i := range slots {
		slots[i] = make(chan added, 1)
	}
	sizes := make([]int64, len(inputs))
	for i, in := range inputs {
		sizes[i] = aheadUnknown
		if in.path != "" {
			if st, err := os.Stat(in.path); err == nil {
				sizes[i] = st.Size()
			}
		}
	}
	// The inputs taken by a worker and not yet by the writer, and their bytes.
	var (
		mu           sync.Mutex
		room         = sync.NewCond(&mu)
		items, bytes int64
	)
	next := make(chan int)
	go func() {
		defer close(next)
		for i := range inputs {
			mu.Lock()
			for items > 0 && (items >= aheadItems || bytes+sizes[i] > aheadBytes) {
				room.Wait()
			}
			items++
			bytes += sizes[i]
			mu.Unlock()
			next <- i
		}
	}()
	for range workers {
		go func() {
			for i := range next {
				slots[i] <- prepare(ctx, w, inputs[i], stdin, opts)
			}
		}()
	}
	for i, s := range slots {
		out <- <-s
		mu.Lock()
		items--
		bytes -= sizes[i]
		mu.Unlock()
		room.Signal()
	}
}

// prepare reads one input, and extracts it unless the library has it.
func prepare(ctx context.Context, w *library.Writer, in input, stdin io.Reader, opts addOptions) added {
	r := added{in: in}
	var data []byte
	var contentType, name, source string
	switch {
	case in.std:
		data, r.err = io.ReadAll(stdin)
		name, source = "stdin", "stdin"
	case in.url != "":
		data, contentType, r.err = extract.Fetch(ctx, in.url, extract.FetchOptions{Timeout: opts.Timeout})
		name, source = in.url, in.url
	default:
		data, r.err = os.ReadFile(in.path)
		if r.err != nil {
			r.err = errors.Unwrap(r.err)
			return r
		}
		name = in.path
		if abs, err := filepath.Abs(in.path); err == nil {
			source = abs
		} else {
			source = in.path
		}
	}
	if r.err != nil {
		return r
	}
	r.id = library.ItemID(data)
	if w.Has(r.id) {
		r.had = true
		return r
	}
	doc, err := extractSafely(data, name, contentType)
	if err != nil {
		r.err = err
		return r
	}
	title := opts.Title
	if title == "" {
		title = extractedTitle(doc, name)
	}
	r.it = &item.Item{ID: r.id, Title: title, TitleGiven: opts.Title != "", Source: source, Kind: doc.Kind,
		Added: time.Now().UTC().Truncate(time.Second), Paragraphs: doc.Paragraphs}
	if opts.Link && in.path != "" && filepath.IsAbs(source) {
		r.it.Linked = true
		data = nil
	}
	// Saved here, on the worker, so that writing the store's files goes on
	// in parallel; the writer then only has to index it.
	if err := w.Save(r.it, data); err != nil {
		r.err = fmt.Errorf("cannot save: %w", err)
	}
	return r
}

// extractSafely turns a panic in an extractor into an error for that input,
// so one bad file cannot stop a whole folder.
// extractedTitle is an item's title when none is given: the document's,
// else the file name's.
func extractedTitle(doc *extract.Document, name string) string {
	if doc.Title != "" {
		return doc.Title
	}
	return strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
}

func extractSafely(data []byte, name, contentType string) (doc *extract.Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("cannot read it (the extractor failed: %v)", p)
		}
	}()
	return extract.Bytes(data, name, contentType)
}
