// Package verify is the sponge-verify stage: it keeps only the statements
// whose quote is found, word for word, in the saved item, and says where.
package verify

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/jsonl"
)

// Prog is how the stage names itself in messages.
const Prog = "sponge-verify"

const about = `Reads a JSONL stream on stdin and checks each statement: its quote must
stand, word for word, in the saved item its passage belongs to (anywhere in
that item, inside one paragraph). A statement found is written as a
"verified" record whose quote is the item's own words, with the paragraph,
offsets and page or time where they start; one not found as a "left-out"
record with the reason. Every other record passes on unchanged.

The same words: differences in whitespace and line breaks, a word broken by a
line-end hyphen, curly or straight quotes and apostrophes, dash variants,
"…" or "...", Unicode normal forms (NFC or NFD), soft hyphens and other
invisible break hints in the item, and the case of the first letter are
forgiven; nothing else is, and a combining mark (an accent, a tone mark) is a
letter like any other. A quote needs at least 3 words, and at most 6
statements are kept.`

type options struct {
	Library string `long:"library" value-name:"DIR" description:"the library folder (default $SPONGE_HOME, else the config file's library, else $XDG_DATA_HOME/sponge, else ~/.local/share/sponge)"`
}

// Command is sponge-verify as a program.
var Command = pipeline.Command{
	Prog:   Prog,
	Usage:  "[OPTIONS] < statements.jsonl",
	About:  about,
	NoArgs: true,
	Setup: func() (any, func([]string, pipeline.Env) (pipeline.Stage, error)) {
		var opts options
		return &opts, func(args []string, env pipeline.Env) (pipeline.Stage, error) {
			lib, _, err := env.Folders(opts.Library, "")
			if err != nil {
				return nil, err
			}
			v := Open(lib)
			v.Warn = func(msg string) { console.PrintWarning(env.Stderr, Prog, msg) }
			return v, nil
		}
	},
}

// Main runs the stage and returns its exit code, with no environment: its
// flags give the library (MainIn).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return MainIn(settings.Environ{}, args, stdin, stdout, stderr)
}

// MainIn runs the stage in the environment its program was started in
// (settings.FromOS, in cmd/), where a missing --library is resolved.
func MainIn(environ settings.Environ, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return pipeline.Main(Command, environ, args, stdin, stdout, stderr)
}

// Verifier checks statements against a library. It remembers the passages it
// has seen and caches the items it has loaded.
type Verifier struct {
	lib      *library.Library
	dir      string // the library to open on the first statement, when lib is nil
	passages map[int]*jsonl.Passage
	items    map[string]*loaded
	seen     map[string]bool // Normal of each verified quote
	shown    int
	// Warn, when set, is told about items that cannot be read.
	Warn func(msg string)
}

type loaded struct {
	title string
	paras []*item.Paragraph
	doc   *quote.Doc
	err   error
}

// New makes a Verifier for the library.
func New(lib *library.Library) *Verifier {
	return &Verifier{lib: lib, passages: map[int]*jsonl.Passage{}, items: map[string]*loaded{}, seen: map[string]bool{}}
}

// Open makes a Verifier for the library in dir (""; the default), opened
// on the first statement: a stream without one (the stage before failed and
// has said why, or it holds only passages) needs no library, and a missing
// library is then not told twice.
func Open(dir string) *Verifier {
	v := New(nil)
	v.dir = dir
	return v
}

// Run reads the stream, writes each checked statement as soon as it is
// checked, and passes every other record on. A malformed line stops it, and
// so does a verified or left-out record: a stream that holds one already is
// refused whole (exit 3), since it claims checks this stage did not make.
func (v *Verifier) Run(ctx context.Context, r *jsonl.Reader, w *jsonl.Writer) error {
	return pipeline.Each(r, func(line *jsonl.Line) error {
		var err error
		switch rec := line.Record.(type) {
		case *jsonl.Passage:
			v.passages[rec.Number] = rec
			err = w.WriteRaw(line.Raw)
		case *jsonl.Statement:
			if v.lib == nil {
				if v.lib, err = library.Open(v.dir); err != nil {
					return err
				}
			}
			err = w.Write(v.Check(rec))
		case *jsonl.Verified, *jsonl.LeftOut:
			// Only this stage says a quote was checked: a stream that
			// already holds its records was written by someone else, and
			// passing them on would show an unchecked quote as checked.
			return &jsonl.DecodeError{Input: r.Name(), Line: line.Number,
				Err: fmt.Errorf("a %s record in sponge-verify's input: only sponge-verify writes them, from statements", jsonl.TypeOf(rec))}
		default:
			err = w.WriteRaw(line.Raw)
		}
		if err != nil {
			return fmt.Errorf("cannot write the stream: %w", err)
		}
		return nil
	})
}

// Check checks one statement and returns a *jsonl.Verified or a *jsonl.LeftOut.
// Statements are checked in order: a duplicate is a quote already verified,
// and the count of statements shown grows with each one verified.
func (v *Verifier) Check(s *jsonl.Statement) jsonl.Record {
	leftOut := func(reason string) jsonl.Record {
		return &jsonl.LeftOut{Text: s.Text, Passage: s.Passage, Quote: s.Quote, Reason: reason}
	}
	q := quote.NewQuote(s.Quote)
	if strings.TrimSpace(s.Text) == "" || q.Empty() {
		return leftOut(jsonl.ReasonEmpty)
	}
	if v.shown >= jsonl.MaxStatements {
		return leftOut(jsonl.ReasonTooMany)
	}
	p, ok := v.passages[s.Passage]
	if !ok {
		return leftOut(jsonl.ReasonBadPassage)
	}
	if q.Words() < quote.MinWords {
		return leftOut(jsonl.ReasonTooShort)
	}
	if v.seen[q.Normal()] {
		return leftOut(jsonl.ReasonDuplicate)
	}
	l := v.load(p.ItemID)
	if l.err != nil {
		return leftOut(jsonl.ReasonItemMissing)
	}
	para, m, ok := l.doc.Find(q, p.Paragraph)
	if !ok {
		return leftOut(jsonl.ReasonNotFound)
	}
	v.seen[q.Normal()] = true
	v.shown++
	// The title is the library's, never the stream's: a real quote must
	// not be shown under a made-up source.
	title := l.title
	page, startMs := l.paras[para].At(m.Start)
	// The quote passed on is the item's words as matched, not the
	// statement's: what a later stage shows as checked is what was checked.
	return &jsonl.Verified{
		Text: s.Text, Passage: s.Passage, Quote: m.Saved,
		ItemID: p.ItemID, Title: title,
		Paragraph: para, Start: m.Start, End: m.End,
		Page: page, StartMs: startMs,
		Saved: m.Saved,
	}
}

// load returns the item with its paragraphs ready for searching, loading it
// once.
func (v *Verifier) load(id string) *loaded {
	if l, ok := v.items[id]; ok {
		return l
	}
	// The item's paragraphs as sponge-rank reads them (library.Paragraphs:
	// their texts not copied, no encoding/json for a plain one), not the
	// item decoded whole: a PDF of thousands of paragraphs took milliseconds.
	l := &loaded{}
	ps, err := v.lib.Paragraphs(id)
	if l.err = err; err == nil {
		l.title = ps.Item.Title
		l.paras = make([]*item.Paragraph, ps.Len())
		texts := make([]string, ps.Len())
		for i := range texts {
			if l.paras[i], l.err = ps.At(i); l.err != nil {
				break
			}
			texts[i] = l.paras[i].Text
		}
		if l.err == nil {
			l.doc = quote.NewDoc(texts)
		}
	}
	if l.err != nil && v.Warn != nil {
		v.Warn(fmt.Sprintf("%v; statements quoting it are left out", l.err))
	}
	v.items[id] = l
	return l
}
