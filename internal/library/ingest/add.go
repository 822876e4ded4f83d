package ingest

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

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/extract"
)

// Input is one thing to save: a file, a URL, or standard input.
type Input struct {
	Name  string // as the person gave it, or the path found in a folder
	Path  string
	URL   string
	Stdin bool
}

// AddOptions say how Add saves its inputs.
type AddOptions struct {
	Title   string        // the title of the item, with one input
	Timeout time.Duration // how long to wait for a URL
	Link    bool          // keep files where they are: no copy of the original in the store
	Stdin   io.Reader     // what an Input with Stdin reads
}

// Added is what happened to one input.
type Added struct {
	Input Input
	Item  *item.Item // extracted, saved and queued for the index; nil when Had or Err
	ID    string
	Err   error
	Had   bool // the library had it already (or an earlier input of this run)
}

// Skipped is a file under a folder that sponge does not read, and why.
type Skipped struct {
	Path, Why string
}

// Expand turns one argument into inputs. Under a folder, files that
// sponge does not read are returned as skipped, and each file or folder
// that cannot be read as an error naming it, while the walk goes on: one
// locked sub-folder costs its own files, not the whole folder. A link to a
// file is followed, as the file a person sees in the folder; a link to a
// folder is not (a walk that followed them could go round for ever, or
// reach far outside the folder), and is skipped.
func Expand(arg string) (ins []Input, skipped []Skipped, errs []error) {
	switch {
	case arg == "-":
		return []Input{{Name: "stdin", Stdin: true}}, nil, nil
	case strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://"):
		return []Input{{Name: arg, URL: arg}}, nil, nil
	}
	st, err := os.Stat(arg)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, []error{fmt.Errorf("%s: no such file or folder", arg)}
		}
		return nil, nil, []error{fmt.Errorf("%s: %v", arg, errors.Unwrap(err))}
	}
	if !st.IsDir() {
		return []Input{{Name: arg, Path: arg}}, nil, nil
	}
	filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() {
				errs = append(errs, fmt.Errorf("%s: cannot read the folder (%v)", p, errors.Unwrap(err)))
			} else {
				errs = append(errs, fmt.Errorf("%s: %v", p, errors.Unwrap(err)))
			}
			return nil // the walk goes on without it
		}
		if d.IsDir() {
			if p != arg && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		mode := d.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			switch {
			case err != nil:
				skipped = append(skipped, Skipped{p, "a link to nothing"})
				return nil
			case st.IsDir():
				skipped = append(skipped, Skipped{p, "a link to a folder, not followed (add the folder itself)"})
				return nil
			}
			mode = st.Mode().Type()
		}
		switch {
		case !mode.IsRegular():
			skipped = append(skipped, Skipped{p, "not a regular file"})
		case extract.Supported(d.Name()):
			ins = append(ins, Input{Name: p, Path: p})
		default:
			if ok, why := extract.SniffFile(p); ok {
				ins = append(ins, Input{Name: p, Path: p})
			} else {
				skipped = append(skipped, Skipped{p, why})
			}
		}
		return nil
	})
	sort.Slice(ins, func(i, j int) bool { return ins[i].Path < ins[j].Path })
	return ins, skipped, errs
}

// Add saves the inputs: it reads and extracts them on all cores, saves each
// new one in the store and queues it for the index, and tells each the
// result, in input order. The caller closes w, which finishes the index.
func Add(ctx context.Context, w *Writer, inputs []Input, opts AddOptions, each func(Added)) {
	results := make(chan Added, runtime.GOMAXPROCS(0)*2)
	go prepareAll(ctx, w, inputs, opts, results)
	seen := map[string]bool{}
	for r := range results {
		if r.Err == nil && !r.Had && seen[r.ID] {
			r.Had = true
		}
		if r.Err == nil && !r.Had {
			if err := w.Queue(r.Item); err != nil {
				r.Err = fmt.Errorf("cannot index: %w", err)
			} else {
				seen[r.ID] = true
			}
		}
		if r.Had {
			r.Item = nil
		}
		each(r)
	}
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
func prepareAll(ctx context.Context, w *Writer, inputs []Input, opts AddOptions, out chan<- Added) {
	defer close(out)
	workers := runtime.GOMAXPROCS(0)
	slots := make([]chan Added, len(inputs))
	for i := range slots {
		slots[i] = make(chan Added, 1)
	}
	sizes := make([]int64, len(inputs))
	for i, in := range inputs {
		sizes[i] = aheadUnknown
		if in.Path != "" {
			if st, err := os.Stat(in.Path); err == nil {
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
				slots[i] <- prepare(ctx, w, inputs[i], opts)
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

// prepare reads one input, and extracts and saves it unless the library has it.
func prepare(ctx context.Context, w *Writer, in Input, opts AddOptions) Added {
	r := Added{Input: in}
	var data []byte
	var contentType, name, source string
	regular := false
	switch {
	case in.Stdin:
		data, r.Err = extract.ReadAll(opts.Stdin, extract.MaxBytes, 0)
		name, source = "stdin", "stdin"
	case in.URL != "":
		data, contentType, r.Err = extract.Fetch(ctx, in.URL, extract.FetchOptions{Timeout: opts.Timeout})
		name, source = in.URL, in.URL
	default:
		data, regular, r.Err = readFile(in.Path)
		if r.Err != nil {
			return r
		}
		name = in.Path
		if abs, err := filepath.Abs(in.Path); err == nil {
			source = abs
		} else {
			source = in.Path
		}
	}
	if r.Err != nil {
		return r
	}
	r.ID = library.ItemID(data)
	if w.Has(r.ID) {
		r.Had = true
		return r
	}
	doc, err := extractSafely(data, name, contentType)
	if err != nil {
		r.Err = err
		return r
	}
	title := opts.Title
	if title == "" {
		title = ExtractedTitle(doc, name)
	}
	r.Item = &item.Item{ID: r.ID, Title: title, TitleGiven: opts.Title != "", Source: source, Kind: doc.Kind,
		Added: time.Now().UTC().Truncate(time.Second), Paragraphs: doc.Paragraphs}
	if opts.Link && regular && filepath.IsAbs(source) {
		r.Item.Linked = true
		data = nil
	}
	// Saved here, on the worker, so that writing the store's files goes on
	// in parallel; the writer then only has to index it.
	if err := w.Save(r.Item, data); err != nil {
		r.Err = fmt.Errorf("cannot save: %w", err)
	}
	return r
}

// readFile reads a file given by path, at most extract.MaxBytes of it: a
// regular file, whose size is known before it is read, or a named pipe
// (`sponge add <(…)`), read like stdin. Devices and sockets are refused:
// /dev/zero has no end, and a terminal or a disk is not a document.
func readFile(path string) (data []byte, regular bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, errors.Unwrap(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, errors.Unwrap(err)
	}
	var known int64
	switch m := st.Mode(); {
	case m.IsRegular():
		known, regular = st.Size(), true
	case m&fs.ModeNamedPipe != 0:
	case m.IsDir():
		return nil, false, errors.New("a folder, not a file") // made since Expand looked
	default:
		what := "not a regular file"
		switch {
		case m&fs.ModeCharDevice != 0:
			what = "a character device"
		case m&fs.ModeDevice != 0:
			what = "a block device"
		case m&fs.ModeSocket != 0:
			what = "a socket"
		}
		return nil, false, fmt.Errorf("%s, not a file: sponge reads files, folders, URLs and stdin (-)", what)
	}
	data, err = extract.ReadAll(f, extract.MaxBytes, known)
	var perr *fs.PathError
	if errors.As(err, &perr) {
		err = perr.Err
	}
	return data, regular, err
}

// ExtractedTitle is an item's title when none is given: the document's,
// else the file name's.
func ExtractedTitle(doc *extract.Document, name string) string {
	if doc.Title != "" {
		return doc.Title
	}
	return strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
}

// extractSafely turns a panic in an extractor into an error for that input,
// so one bad file cannot stop a whole folder.
func extractSafely(data []byte, name, contentType string) (doc *extract.Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("cannot read it (the extractor failed: %v)", p)
		}
	}()
	return extract.Bytes(data, name, contentType)
}
