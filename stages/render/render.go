// Package render is the sponge-render stage: it shows a stream to a person,
// as text (each verified statement as soon as it comes) or as one JSON
// document. A stream with statements becomes an answer; one that stops at
// the passages shows them.
package render

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/sponge-library/sponge/internal/base/settings"

	"golang.org/x/term"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/base/termtext"
	"github.com/sponge-library/sponge/internal/base/tty"
	"github.com/sponge-library/sponge/jsonl"
)

// Prog is how the stage names itself in messages.
const Prog = "sponge-render"

// Warning codes that render adds itself.
const (
	// WarnIncomplete: the stream ended before the drafter's closing record,
	// so statements may be missing.
	WarnIncomplete = "incomplete"
	// WarnUnchecked: statements reached render without passing
	// sponge-verify; they are never shown.
	WarnUnchecked = "unchecked"
)

// MaxClosest is how many of the closest items a refusal lists.
const MaxClosest = 5

// MinClosest is how near the best hit another item must come to be listed
// with it: its search score at least this share of the best's. A refusal
// lists where to look, so an item search found only through a word or two
// of the question (the bicycle chain's «water» for a question about coffee)
// is left out. Measured with the extractive bench ("Closest items of a
// refusal"): on the tuning halves of SQuAD 2.0 and SciFact the question's
// own item is listed as often as with no floor up to 0.5 (at 0.6 SciFact
// loses one). Not 0.5: with meaning search a hit's score is its fused rank,
// and an item found by one list only scores at most half of a best found
// by both; at 0.35 it is still listed while among its list's first 27.
const MinClosest = 0.35

// Closest returns the hits a refusal lists: the best, then up to
// MaxClosest-1 more whose score is at least MinClosest of the best's.
func Closest(hits []*jsonl.Hit) []*jsonl.Hit { return ClosestAbove(hits, MinClosest) }

// ClosestAbove is Closest with another floor (the bench's trade-off).
func ClosestAbove(hits []*jsonl.Hit, floor float64) []*jsonl.Hit {
	var out []*jsonl.Hit
	for i, h := range hits {
		if i == MaxClosest {
			break
		}
		if i > 0 && h.Score < floor*hits[0].Score {
			break
		}
		out = append(out, h)
	}
	return out
}

const about = `Reads a JSONL stream on stdin and shows it to a person. A stream with
statements is shown as an answer: each verified statement with a [n] marker,
the moment its record comes, then, when the stream ends, its sources,
numbered in order of first use, with their quotes; a stream that stops at
the passages (sponge ask --passages) shows the numbered passages. Only
verified statements are shown. --json writes one document at the end.

On a terminal the text is wrapped to its width and sources are coloured
(never when NO_COLOR is set).`

type options struct {
	JSON         bool   `long:"json" description:"write one JSON document instead of text"`
	Quiet        bool   `short:"q" long:"quiet" description:"write no warnings and hints on stderr, only the answer (the JSON document keeps them)"`
	SetupHints   string `long:"setup-hints" value-name:"FILE" description:"show each setup warning (setup: true, e.g. no writing model is set up) and its hint until it has been shown 3 times, counted in FILE (sponge ask: hints-seen.json in the library)"`
	NoSetupHints bool   `long:"no-setup-hints" description:"show no setup warnings (sponge config set hints off); the others are shown"`
}

// Command is sponge-render as a program.
var Command = pipeline.Command{
	Prog:   Prog,
	Usage:  "[OPTIONS] < stream.jsonl",
	About:  about,
	NoArgs: true,
	Setup: func() (any, func([]string, pipeline.Env) (pipeline.Stage, error)) {
		var opts options
		return &opts, func(args []string, env pipeline.Env) (pipeline.Stage, error) {
			st := &Stage{JSON: opts.JSON, Out: env.Stdout, Err: env.Stderr, Env: env.Settings}
			switch {
			case opts.Quiet:
				st.Err = nil
			case opts.SetupHints != "" || opts.NoSetupHints:
				st.Hints = &Hints{File: opts.SetupHints, Off: opts.NoSetupHints}
			}
			return st, nil
		}
	},
}

// Main runs sponge-render and returns its exit code. It catches SIGPIPE:
// render writes each statement as it comes, so a reader that stops early
// (sponge ask | head) can leave before the stream ends, and the warnings
// still go to stderr after it.
// It runs with no environment (see MainIn).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return MainIn(settings.Environ{}, args, stdin, stdout, stderr)
}

// MainIn is Main in the environment environ (the terminal's conventions:
// NO_COLOR, TERM, COLUMNS).
func MainIn(environ settings.Environ, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	pipes := make(chan os.Signal, 1)
	signal.Notify(pipes, syscall.SIGPIPE)
	defer signal.Stop(pipes)
	return pipeline.Main(Command, environ, args, stdin, stdout, stderr)
}

// Stage is sponge-render: the last stage, which writes no records but the
// answer for a person (text) or one JSON document, to Out. In the text view
// the warnings and hints are for the person, not the result: they go to Err
// (nil: dropped), so 'sponge ask q > answer.txt' keeps only the answer.
type Stage struct {
	JSON bool
	Out  io.Writer
	Err  io.Writer
	Env  settings.Environ // the terminal's conventions (StyleFor)
	// Hints chooses the setup warnings shown on Err (nil: all of them).
	Hints *Hints
}

// Run reads the stream and writes it to s.Out. The text view shows each
// verified statement the moment its record comes, so a person waiting on a
// slow model reads the first while the next is written; the sources, what
// was left out and the warnings follow when the stream ends. The JSON view
// is one document, written at the end. When nothing answers (a refusal, or
// no passage matches) it ends with console.ExitNothing, so a script can tell
// it from an answer and from a failure.
func (st *Stage) Run(ctx context.Context, r *jsonl.Reader, _ *jsonl.Writer) error {
	if st.JSON {
		s, err := Read(r)
		if err != nil {
			return err
		}
		if s.Empty() {
			// Nothing came: the stage before has said what went wrong, and an
			// answer made of nothing would only hide that.
			return nil
		}
		if err := WriteJSON(st.Out, s); err != nil && !readerGone(err) {
			return console.Errorf("cannot write the answer: %v", err)
		}
		return st.exit(s)
	}
	s := &Stream{}
	tw := NewTextWriter(st.Out, StyleFor(st.Out, st.Env))
	err := pipeline.Each(r, func(line *jsonl.Line) error {
		s.Add(line.Record)
		if v, ok := line.Record.(*jsonl.Verified); ok {
			// When the reader has gone (sponge ask | head), the stream is
			// still read to its end, for the warnings.
			if err := tw.Statement(v); err != nil && !readerGone(err) {
				return console.Errorf("cannot write the answer: %v", err)
			}
		}
		return nil
	})
	if err != nil {
		// The statements shown keep their sources; the error says the rest.
		if tw.Shown() > 0 {
			tw.Sources(s)
		}
		return err
	}
	if s.Empty() {
		return nil
	}
	err = tw.Finish(s)
	if (err == nil || readerGone(err)) && st.Err != nil {
		// The warnings are the person's even when the answer's reader
		// stopped early.
		err = writeWarnings(st.Err, st.Hints.Filter(s.AllWarnings()), StyleFor(st.Err, st.Env))
	}
	if err != nil && !readerGone(err) {
		return console.Errorf("cannot write the answer: %v", err)
	}
	return st.exit(s)
}

// readerGone reports whether a write failed because its reader has stopped
// (a pipe to head): no failure of render's. The program catches SIGPIPE
// (Main), so such a write returns EPIPE rather than ending it.
func readerGone(err error) bool { return errors.Is(err, syscall.EPIPE) }

// exit is how Run ends once the answer is written.
func (st *Stage) exit(s *Stream) error {
	if s.NothingAnswers() {
		return pipeline.ExitCode(console.ExitNothing)
	}
	return nil
}

// Stream is everything render needs from a stream, in stream order.
type Stream struct {
	Question   *jsonl.Question
	Warnings   []*jsonl.Warning
	Hits       []*jsonl.Hit
	Passages   []*jsonl.Passage
	Model      *jsonl.Model
	Statements []*jsonl.Statement // statements that were never checked
	Verified   []*jsonl.Verified
	LeftOut    []*jsonl.LeftOut
	Done       *jsonl.Done
}

// Empty reports whether the stream had no record at all.
func (s *Stream) Empty() bool {
	return s.Question == nil && len(s.Warnings) == 0 && len(s.Hits) == 0 && len(s.Passages) == 0 &&
		s.Model == nil && len(s.Statements) == 0 && len(s.Verified) == 0 && len(s.LeftOut) == 0 && s.Done == nil
}

// Read reads a whole stream. A malformed line is an error that exits 3.
func Read(r *jsonl.Reader) (*Stream, error) {
	s := &Stream{}
	err := pipeline.Each(r, func(line *jsonl.Line) error {
		s.Add(line.Record)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Add keeps a record of the stream; render ignores the types it does not
// show.
func (s *Stream) Add(rec jsonl.Record) {
	switch rec := rec.(type) {
	case *jsonl.Question:
		s.Question = rec
	case *jsonl.Warning:
		s.Warnings = append(s.Warnings, rec)
	case *jsonl.Hit:
		s.Hits = append(s.Hits, rec)
	case *jsonl.Passage:
		s.Passages = append(s.Passages, rec)
	case *jsonl.Model:
		s.Model = rec
	case *jsonl.Statement:
		s.Statements = append(s.Statements, rec)
	case *jsonl.Verified:
		s.Verified = append(s.Verified, rec)
	case *jsonl.LeftOut:
		s.LeftOut = append(s.LeftOut, rec)
	case *jsonl.Done:
		s.Done = rec
	}
}

// IsAnswer reports whether the stream went through a drafter: it is then
// shown as an answer, else as passages.
func (s *Stream) IsAnswer() bool {
	return s.Model != nil || s.Done != nil || len(s.Statements)+len(s.Verified)+len(s.LeftOut) > 0
}

// Complete reports whether the answer was finished: the drafter's closing
// record came, and every statement it counted came through.
func (s *Stream) Complete() bool {
	return s.Done != nil && s.Done.Statements <= len(s.Statements)+len(s.Verified)+len(s.LeftOut)
}

// NothingAnswers reports whether the stream is a whole answer with no
// statement verified and none unchecked ("Nothing in your library answers
// that."), or passages with none matching: the library was asked and has
// nothing, which is neither an answer nor a failure.
func (s *Stream) NothingAnswers() bool {
	if !s.IsAnswer() {
		return len(s.Passages) == 0
	}
	return len(s.Verified) == 0 && s.Complete() && len(s.Statements) == 0
}

// Dropped is the number of statements not shown: left out by sponge-verify,
// or never checked.
func (s *Stream) Dropped() int { return len(s.LeftOut) + len(s.Statements) }

// AllWarnings are the stream's warnings and those render adds: an answer
// that was cut off, statements that were never checked.
func (s *Stream) AllWarnings() []*jsonl.Warning {
	ws := append([]*jsonl.Warning{}, s.Warnings...)
	if s.IsAnswer() && !s.Complete() {
		ws = append(ws, &jsonl.Warning{Code: WarnIncomplete,
			Message: "the answer was cut off before the drafter finished, so it may lack statements",
			Hint:    "ask again; if it keeps happening, check the model with 'sponge setup'"})
	}
	if n := len(s.Statements); n > 0 {
		ws = append(ws, &jsonl.Warning{Code: WarnUnchecked,
			Message: fmt.Sprintf("%d %s never checked against the library and %s not shown", n, plural(n, "statement was", "statements were"), plural(n, "is", "are")),
			Hint:    "put sponge-verify between sponge-draft and sponge-render"})
	}
	return ws
}

// Source is an item that verified statements quote, numbered in order of
// first use.
type Source struct {
	Number int
	ItemID string
	Title  string
	// Claims are the indexes in Stream.Verified of the statements quoting it.
	Claims []int
}

// Sources groups the verified statements by item, in order of first use,
// and returns for each statement its source number.
func (s *Stream) Sources() (sources []*Source, numbers []int) {
	byID := map[string]*Source{}
	for i, v := range s.Verified {
		src, ok := byID[v.ItemID]
		if !ok {
			src = &Source{Number: len(sources) + 1, ItemID: v.ItemID, Title: v.Title}
			byID[v.ItemID] = src
			sources = append(sources, src)
		}
		src.Claims = append(src.Claims, i)
		numbers = append(numbers, src.Number)
	}
	return sources, numbers
}

// Labels are the labels of the items ids, shown together (an answer's
// sources, the passages, the closest items), whose records carry titles:
// item.Labels, so that two items of the same title are told apart by their
// files. The title and source are those of search's hit for the item, as
// saved; an item with no hit in the stream (a summary's) keeps its record's
// title.
func (s *Stream) Labels(ids, titles []string) []string {
	hits := map[string]*jsonl.Hit{}
	for _, h := range s.Hits {
		if hits[h.ItemID] == nil {
			hits[h.ItemID] = h
		}
	}
	ts, srcs := make([]string, len(ids)), make([]string, len(ids))
	for i, id := range ids {
		ts[i] = titles[i]
		if h, ok := hits[id]; ok {
			ts[i], srcs[i] = h.Title, h.Source
		}
	}
	return item.Labels(ts, srcs)
}

// Extractive reports whether a statement only restates its quote (as the
// extractive drafter's do), so it is shown once, as the quote.
func Extractive(v *jsonl.Verified) bool {
	return quote.Same(v.Text, v.Quote)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Style is how text output looks: the width to wrap to (0: no wrapping) and
// whether to colour.
type Style struct {
	Width  int
	Colour bool
}

// StyleFor returns the style for w: wrapped and coloured on a terminal,
// plain otherwise. The width is $COLUMNS, else the terminal's; colour is
// off when NO_COLOR is set or TERM is dumb (in env: the environment the
// program was started in).
func StyleFor(w io.Writer, env settings.Environ) Style {
	if !tty.IsTerminal(w) {
		return Style{}
	}
	st := Style{Width: 80, Colour: env.Get("NO_COLOR") == "" && env.Get("TERM") != "dumb"}
	if n, err := strconv.Atoi(env.Get("COLUMNS")); err == nil && n > 0 {
		st.Width = n
	} else if f, ok := w.(*os.File); ok {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n > 0 {
			st.Width = n
		}
	}
	return st
}

// writeJSONDoc writes v as indented JSON (termtext.WriteJSON: <, > and &
// kept, what a terminal acts on escaped).
func writeJSONDoc(w io.Writer, v any) error { return termtext.WriteJSON(w, v) }
