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
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/files"
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
	Link  bool // keep this file where it is (AddOptions.Link for one input)
	// AllText: read with every word its page shows (AddOptions.AllText for
	// one input: a file saved so is read so again)
	AllText bool
}

// AddOptions say how Add saves its inputs.
type AddOptions struct {
	Title   string        // the title of the item, with one input
	Timeout time.Duration // how long to wait for a URL
	Link    bool          // keep files where they are: no copy of the original in the store
	Stdin   io.Reader     // what an Input with Stdin reads
	AllText bool          // keep every word a page shows (extract.Options.AllText)
}

// Added is what happened to one input.
type Added struct {
	Input Input
	Item  *item.Item // extracted, saved and queued for the index; nil when Had or Err
	ID    string
	Err   error
	Had   bool // the library had it already (or an earlier input of this run)
	// Source is what the item notes the input as: the file's absolute path,
	// the URL, or "stdin".
	Source string
	// Replaced are the items this one replaced: earlier versions of its
	// source (see claim), removed from the library when Add ends.
	Replaced []string
	// Noted: the library had these bytes from another source, and the item
	// now notes this one too (item.Also).
	Noted bool
	// Stat is the file as it was read, when it is a regular file.
	Stat *library.Stat
	// Little is set when the item keeps under a fifth of the text its
	// file shows (extract.Document.KeptLittle): Kept and Shown characters.
	Little      bool
	Kept, Shown int
}

// Skipped is a file under a folder that sponge does not read, and why.
type Skipped struct {
	Path, Why string
}

// Expand turns one argument into inputs. Under a folder, files that
// sponge does not read are returned as skipped, and each file or folder
// that cannot be read as an error naming it, while the walk goes on: one
// locked sub-folder costs its own files, not the whole folder. What the
// walk leaves out unsaid is in WalkOptions: hidden files, .git,
// node_modules, and what .gitignore and .spongeignore files exclude. A
// link to a file inside the folder is followed, as the file a person sees
// there; a link to a file outside it is not, unless opts.Follow (sponge add
// --follow): a link planted in a downloads or shared folder must not bring
// a private file (~/.ssh/id_ed25519) into the library, from where any MCP
// client may read it; ripgrep and fd follow none by default. A link to a
// folder is never followed (a walk that followed them could go round for
// ever, or reach far outside the folder), and is skipped. A file named as
// arg itself is read wherever a link takes it, and whatever the ignore
// rules say: the person named it.
func Expand(arg string, opts WalkOptions) (ins []Input, skipped []Skipped, errs []error) {
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
	root, err := filepath.EvalSymlinks(arg)
	if err != nil {
		return nil, nil, []error{fmt.Errorf("%s: %v", arg, errors.Unwrap(err))}
	}
	errs = walkFolder(arg, opts, nil, func(p string, d fs.DirEntry) {
		mode := d.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			switch {
			case err != nil:
				skipped = append(skipped, Skipped{p, "a link to nothing"})
				return
			case st.IsDir():
				skipped = append(skipped, Skipped{p, "a link to a folder, not followed (add the folder itself)"})
				return
			case !opts.Follow && !inside(root, p):
				skipped = append(skipped, Skipped{p, "a link to a file outside the folder, not followed (--follow follows it)"})
				return
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
	})
	sort.Slice(ins, func(i, j int) bool { return ins[i].Path < ins[j].Path })
	return ins, skipped, errs
}

// Dirs are the folders a walk of the folder arg goes into (arg too), by
// the same rules as Expand: those sponge update --watch watches.
func Dirs(arg string, opts WalkOptions) (dirs []string, errs []error) {
	errs = walkFolder(arg, opts, func(p string) { dirs = append(dirs, p) }, nil)
	return dirs, errs
}

// walkFolder walks the folder arg, leaving out what opts leave out, and
// calls dir with each folder it goes into (arg first) and file with each
// other entry; either may be nil. It returns the files and folders that
// could not be read, while the walk goes on without them.
func walkFolder(arg string, opts WalkOptions, dir func(p string), file func(p string, d fs.DirEntry)) (errs []error) {
	// The ignore rules match absolute paths: the folder's, as given (a link
	// to it keeps its name), and each file's under it.
	abs, err := filepath.Abs(arg)
	if err != nil {
		return []error{fmt.Errorf("%s: %v", arg, err)}
	}
	var rules map[string]*ignoreRules // of each folder walked, by its absolute path
	if !opts.NoIgnore {
		above := rulesAbove(abs)
		if above.excluded(abs, true) {
			// The person named a folder that an ignore file above it leaves
			// out (a home folder kept in git whose .gitignore says /*): it
			// is read, under its own ignore files only.
			above = nil
		}
		rules = map[string]*ignoreRules{abs: above.within(abs)}
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
		isDir := d.IsDir()
		if p != arg {
			if opts.skipName(d.Name(), isDir) {
				if isDir {
					return filepath.SkipDir
				}
				return nil
			}
			if rules != nil {
				rel, err := filepath.Rel(arg, p)
				if err != nil {
					return nil
				}
				ap := filepath.Join(abs, rel)
				in := rules[filepath.Dir(ap)]
				if in.excluded(ap, isDir) {
					if isDir {
						return filepath.SkipDir
					}
					return nil
				}
				if isDir {
					rules[ap] = in.within(ap)
				}
			}
		}
		switch {
		case isDir && dir != nil:
			dir(p)
		case !isDir && file != nil:
			file(p, d)
		}
		return nil
	})
	return errs
}

// inside says whether the link p leads to a file under the folder root
// (a real path, links resolved).
func inside(root, p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Add saves the inputs: it reads and extracts them on all cores, saves each
// new one in the store and queues it for the index, and tells each the
// result, in input order. An input whose source was saved before with other
// bytes replaces that item (Added.Replaced): once every input is saved and
// in the index, the items replaced are removed (RemoveItems), so a killed
// add leaves both versions and the same add run again finishes the job. The
// caller closes w, which finishes the index. The error is of that removal.
func Add(ctx context.Context, w *Writer, inputs []Input, opts AddOptions, each func(Added)) error {
	// Which item is each source's is read before this run saves any.
	if _, err := w.ItemsOf(""); err != nil {
		return err
	}
	results := make(chan Added, runtime.GOMAXPROCS(0)*2)
	go prepareAll(ctx, w, inputs, opts, results)
	// The items new in this run, as first saved (without their paragraphs:
	// a run of thousands of files must not hold them all), and the sources
	// noted of each since.
	first := map[string]*item.Item{}
	also := map[string][]string{}
	var replaced, files []string
	for r := range results {
		if f := first[r.ID]; r.Err == nil && !r.Had && f != nil {
			r.Had = true
			// Its worker saved the same bytes again, under its own source
			// and title: the first input's item goes back, with the
			// paragraphs read again from the same bytes.
			fixed := *f
			fixed.Kind, fixed.Paragraphs = r.Item.Kind, r.Item.Paragraphs
			fixed.Also = also[r.ID]
			if err := w.resave(&fixed); err != nil {
				r.Err = fmt.Errorf("cannot save: %w", err)
			}
		}
		if r.Err == nil && !r.Had {
			if err := w.Queue(r.Item); err != nil {
				r.Err = fmt.Errorf("cannot index: %w", err)
			} else {
				head := *r.Item
				head.Paragraphs = nil
				first[r.ID] = &head
			}
		}
		if r.Err == nil {
			var err error
			if r.Replaced, r.Noted, err = w.claim(r.Source, r.ID, !r.Had); err != nil {
				r.Err = fmt.Errorf("cannot replace its earlier version: %w", err)
			}
			if r.Noted && first[r.ID] != nil {
				also[r.ID] = append(also[r.ID], r.Source)
			}
			replaced = append(replaced, r.Replaced...)
		}
		if r.Stat != nil && (r.Err == nil || errors.Is(r.Err, extract.ErrNoText)) {
			w.NoteStat(r.Source, *r.Stat)
		}
		if r.Had {
			r.Item = nil
		}
		if r.Err == nil && r.Input.Path != "" {
			files = append(files, r.Source)
		}
		each(r)
	}
	// A file removed with sponge rm and added again is no longer kept out
	// of sponge update.
	if err := w.NoteRemoved(nil, files); err != nil {
		return err
	}
	if len(replaced) == 0 {
		return nil
	}
	// Never one the run still counts as current (an input saved again with
	// the bytes of a version it replaced a moment ago).
	current := map[string]bool{}
	w.mu.Lock()
	for _, ids := range w.sources {
		for _, id := range ids {
			current[id] = true
		}
	}
	w.mu.Unlock()
	replaced = slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(replaced))), func(id string) bool { return current[id] })
	return w.RemoveItems(replaced)
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
	var st fs.FileInfo
	regular := false
	switch {
	case in.Stdin:
		data, r.Err = extract.ReadAll(opts.Stdin, extract.MaxBytes, 0)
		name, source = "stdin", "stdin"
	case in.URL != "":
		data, contentType, r.Err = extract.Fetch(ctx, in.URL, extract.FetchOptions{Timeout: opts.Timeout})
		name, source = in.URL, in.URL
	default:
		checked := time.Now()
		var buf *files.Buffer
		data, buf, st, r.Err = readFile(in.Path)
		// The file's bytes are lent: given back once saved, or found in
		// the library, when nothing holds them any more. An extractor
		// that failed may still hold them (a PDF given up on after its
		// time limit reads on), so on an error they are left to the GC.
		defer func() {
			if r.Err == nil {
				buf.Return()
			}
		}()
		if st != nil && st.Mode().IsRegular() {
			r.Stat = &library.Stat{Size: st.Size(), ModTime: st.ModTime(), Checked: checked}
		}
		regular = st != nil && st.Mode().IsRegular()
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
	r.Source = source
	if r.Err != nil {
		r.Stat = nil
		return r
	}
	r.ID = library.ItemID(data)
	if r.Stat != nil {
		r.Stat.ID = r.ID
	}
	// Saved by another input of this run, the bytes are read and saved
	// again: Add, which takes the results in input order, tells which
	// input was first.
	if w.Has(r.ID) && !w.fresh(r.ID, false) {
		r.Had = true
		return r
	}
	allText := opts.AllText || in.AllText
	doc, err := extractSafely(data, name, contentType, extract.Options{AllText: allText})
	if err != nil {
		r.Err = err
		if r.Stat != nil {
			r.Stat.ID = "" // nothing saved: read again only once it changes
			r.Stat.NoText = errors.Is(err, extract.ErrNoText)
		}
		return r
	}
	r.Little, r.Kept, r.Shown = doc.KeptLittle()
	title := opts.Title
	if title == "" {
		title = ExtractedTitle(doc, name)
	}
	r.Item = &item.Item{ID: r.ID, Title: title, TitleGiven: opts.Title != "", Source: source, Kind: doc.Kind,
		Added: time.Now().UTC().Truncate(time.Second), Paragraphs: doc.Paragraphs, AllText: allText,
		Author: doc.Author, Published: doc.Published}
	if (opts.Link || in.Link) && regular && filepath.IsAbs(source) {
		r.Item.Linked = true
		data = nil
	}
	// Saved here, on the worker, so that writing the store's files goes on
	// in parallel; the writer then only has to index it.
	w.fresh(r.ID, true)
	if err := w.Save(r.Item, data); err != nil {
		r.Err = fmt.Errorf("cannot save: %w", err)
	}
	return r
}

// lendBelow is the size of the largest file read into a lent buffer: a
// few big files (PDFs) would keep that much memory lent for the rest of
// the add.
const lendBelow = 1 << 20

// readFile reads a file given by path, at most extract.MaxBytes of it: a
// regular file, whose size is known before it is read, or a named pipe
// (`sponge add <(…)`), read like stdin. Devices and sockets are refused:
// /dev/zero has no end, and a terminal or a disk is not a document.
//
// A regular file is read into a lent buffer (buf, files.Borrow): an add
// reads thousands, and each fresh buffer was cleared before the read and
// garbage after. The caller gives buf back once done with data.
func readFile(path string) (data []byte, buf *files.Buffer, st fs.FileInfo, err error) {
	f, err := files.Open(path) // without the poller: a system call or two less per file
	if err != nil {
		return nil, nil, nil, errors.Unwrap(err)
	}
	defer f.Close()
	// Stat before reading: a file written while it is read gets a later
	// time than this, so sponge update reads it again.
	st, err = f.Stat()
	if err != nil {
		return nil, nil, nil, errors.Unwrap(err)
	}
	var known int64
	switch m := st.Mode(); {
	case m.IsRegular():
		known = st.Size()
	case m&fs.ModeNamedPipe != 0:
	case m.IsDir():
		return nil, nil, nil, errors.New("a folder, not a file") // made since Expand looked
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
		return nil, nil, nil, fmt.Errorf("%s, not a file: sponge reads files, folders, URLs and stdin (-)", what)
	}
	var first []byte
	if known > 0 && known < lendBelow {
		buf = files.Borrow(int(known) + 1)
		first = buf.B
	}
	data, err = extract.ReadInto(first, f, extract.MaxBytes, known)
	var perr *fs.PathError
	if errors.As(err, &perr) {
		err = perr.Err
	}
	return data, buf, st, err
}

// ExtractedTitle is an item's title when none is given: the document's,
// else the file name's.
func ExtractedTitle(doc *extract.Document, name string) string {
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	if doc.Title == "" || !utf8.ValidString(base) && (doc.Title == string([]rune(base)) || doc.Title == strings.ToValidUTF8(base, "\uFFFD")) {
		// The extractor's title is the name's, with U+FFFD for each byte
		// that is not UTF-8: it is shown escaped.
		return escapeBytes(base)
	}
	return doc.Title
}

// escapeBytes writes the bytes of a file name that are not UTF-8 as \xNN,
// as ls -b and Go's %q show them: a title is text, and the name's bytes
// stay in the item's source.
func escapeBytes(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// extractSafely turns a panic in an extractor into an error for that input,
// so one bad file cannot stop a whole folder.
func extractSafely(data []byte, name, contentType string, o extract.Options) (doc *extract.Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("cannot read it (the extractor failed: %v)", p)
		}
	}()
	return extract.BytesWith(data, name, contentType, o)
}
