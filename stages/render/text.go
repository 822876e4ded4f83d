package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/rivo/uniseg"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/termtext"
	"github.com/sponge-library/sponge/jsonl"
)

// Text shown for an answer with no verified statement.
const (
	NothingAnswers = "Nothing in your library answers that."
	CutBeforeAny   = "The answer was cut off before any statement was verified."
	NoneChecked    = "No statement of this answer was checked against your library."
	NothingClose   = "Your library has nothing close to it."
	ClosestHeading = "Closest items:"
	NoPassages     = "No passages in your library match that."
	LeftOutLabel   = "Left out:"
	WarningLabel   = "Warning:"
	HintLabel      = "Hint:"
	indent         = "    "
	quoteOpen      = "“"
	quoteClose     = "”"
	separator      = "·"
)

// ANSI colours, used sparingly: markers and source numbers, titles, ids.
const (
	cNumber = "\x1b[1;36m"
	cTitle  = "\x1b[1m"
	cDim    = "\x1b[2m"
	cWarn   = "\x1b[33m"
	cReset  = "\x1b[0m"
)

// WriteText writes the stream for a person: an answer, or the passages,
// without the warnings (WriteWarnings). It is what TextWriter writes when
// the whole stream is at hand.
func WriteText(w io.Writer, s *Stream, st Style) error {
	tw := NewTextWriter(w, st)
	if s.IsAnswer() {
		for _, v := range s.Verified {
			if err := tw.Statement(v); err != nil {
				return err
			}
		}
	}
	return tw.Finish(s)
}

// TextWriter writes the text view while the stream comes: each verified
// statement at once, with one Write, then the rest when the stream has
// ended (Finish). A statement's marker is its source's number, and sources
// are numbered in order of first use, so it is known when the statement
// comes and the text is the same as if it had waited for the whole stream.
type TextWriter struct {
	w       io.Writer
	p       printer
	numbers map[string]int // source number by item id
	shown   int
	err     error
}

// NewTextWriter returns a TextWriter to w in style st.
func NewTextWriter(w io.Writer, st Style) *TextWriter {
	return &TextWriter{w: w, p: printer{st: st}, numbers: map[string]int{}}
}

// Statement writes a verified statement now.
func (tw *TextWriter) Statement(v *jsonl.Verified) error {
	n, ok := tw.numbers[v.ItemID]
	if !ok {
		n = len(tw.numbers) + 1
		tw.numbers[v.ItemID] = n
	}
	tw.p.statement(v, n)
	tw.shown++
	return tw.flush()
}

// Shown is how many statements have been written.
func (tw *TextWriter) Shown() int { return tw.shown }

// Sources writes the sources of the statements written: what a stream
// cut by an error still owes the person.
func (tw *TextWriter) Sources(s *Stream) error {
	sources, _ := s.Sources()
	tw.p.sources(s, sources)
	return tw.flush()
}

// Finish writes what follows the statements once the whole stream s has
// come (s holds the statements written): the sources and what was left
// out, or why nothing answers; for a stream that stops at the passages,
// the passages.
func (tw *TextWriter) Finish(s *Stream) error {
	if s.IsAnswer() {
		tw.p.answer(s)
	} else {
		tw.p.passages(s)
	}
	return tw.flush()
}

// flush writes what the printer holds; after a failed write, nothing more.
func (tw *TextWriter) flush() error {
	if tw.err == nil && tw.p.b.Len() > 0 {
		_, tw.err = io.WriteString(tw.w, tw.p.b.String())
	}
	tw.p.b.Reset()
	return tw.err
}

type printer struct {
	st Style
	b  strings.Builder
}

// span is a piece of a line: its text, the colour it is shown in, how many
// spaces stand before it (one when 0), and whether it must stay on one line
// (a marker, a page). A line wraps only at spaces. The text may come from
// outside (a model, a saved item): line shows its control characters inert.
type span struct {
	text, colour string
	gap          int
	keep         bool
}

// line writes spans as one line, or wrapped to the width: the first line
// starts with first, the next ones with rest.
func (p *printer) line(first, rest string, spans ...span) {
	p.b.WriteString(first)
	col := uniseg.StringWidth(first)
	start := true
	for _, sp := range spans {
		words := strings.Fields(sp.text)
		for i, word := range words {
			words[i] = termtext.Safe(word)
		}
		if sp.keep {
			words = []string{strings.Join(words, " ")}
		}
		open := false // the span's colour is on
		for i, word := range words {
			gap := 1
			if i == 0 && sp.gap > 0 {
				gap = sp.gap
			}
			wd := uniseg.StringWidth(word)
			if !start && p.st.Width > 0 && col+gap+wd > p.st.Width {
				if open {
					p.b.WriteString(cReset)
					open = false
				}
				p.b.WriteString("\n" + rest)
				col = uniseg.StringWidth(rest)
				start = true
			}
			if !start {
				p.b.WriteString(strings.Repeat(" ", gap))
				col += gap
			}
			if !open && p.st.Colour && sp.colour != "" {
				p.b.WriteString(sp.colour)
				open = true
			}
			p.b.WriteString(word)
			col += wd
			start = false
		}
		if open {
			p.b.WriteString(cReset)
		}
	}
	p.b.WriteByte('\n')
}

func (p *printer) blank() { p.b.WriteByte('\n') }

// oneLine shows saved text on one line: any run of whitespace (a PDF line
// break, a transcript's cue break) as one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// quoted writes saved words between quote marks, then the spans after them
// (where they stand, a statement's number): on one line, or wrapped, but
// for a block of code quoted with the sentence that announces it
// (item.CodeOf), which keeps its lines, each on a line of its own indented
// under the quote, its indentation kept. A line of code is never wrapped:
// a person reads code by its lines. Other line breaks are spaces (oneLine):
// a quote inside a block alone, which only a model writes, and the line
// breaks of streams from elsewhere.
func (p *printer) quoted(first, rest, saved string, tail ...span) {
	prose, code := item.CodeOf(saved)
	if prose == "" || code == "" {
		p.line(first, rest, append([]span{{text: quoteOpen + oneLine(saved) + quoteClose}}, tail...)...)
		return
	}
	p.line(first, rest, span{text: quoteOpen + oneLine(prose)})
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		body := strings.TrimLeft(l, " ")
		lead := rest + indent + l[:len(l)-len(body)]
		if i < len(lines)-1 {
			p.line(lead, rest, span{text: body, keep: true})
			continue
		}
		p.line(lead, rest, append([]span{{text: body + quoteClose, keep: true}}, tail...)...)
	}
}

// statement writes a verified statement with its source's number: an
// extractive one as its quote, where it stands, else the model's words.
func (p *printer) statement(v *jsonl.Verified, number int) {
	marker := span{text: fmt.Sprintf("[%d]", number), colour: cNumber, keep: true}
	if Extractive(v) {
		var spans []span
		if where := item.Where(v.Page, v.StartMs); where != "" {
			spans = append(spans, span{text: where, colour: cDim, keep: true})
		}
		p.quoted("", "", v.Saved, append(spans, marker)...)
	} else {
		p.line("", "", span{text: oneLine(v.Text)}, marker)
	}
}

// answer writes what follows the statements of an answer (written by
// statement as they came): the sources, or why none is shown, and what was
// left out.
func (p *printer) answer(s *Stream) {
	if len(s.Verified) == 0 {
		// Say "nothing answers" only when every statement was checked and
		// the answer is whole; otherwise say what happened.
		switch {
		case s.NothingAnswers():
			p.line("", "", span{text: NothingAnswers})
		case !s.Complete():
			p.line("", "", span{text: CutBeforeAny})
		default:
			p.line("", "", span{text: NoneChecked})
		}
		p.closest(s)
	} else {
		sources, _ := s.Sources()
		p.sources(s, sources)
	}
	p.footer(s)
}

// sources writes each source with the quotes of its statements that are
// not shown as their quote already.
func (p *printer) sources(s *Stream, sources []*Source) {
	ids, titles := make([]string, len(sources)), make([]string, len(sources))
	for i, src := range sources {
		ids[i], titles[i] = src.ItemID, src.Title
	}
	labels := s.Labels(ids, titles)
	for i, src := range sources {
		p.blank()
		p.line("", indent, span{text: fmt.Sprintf("[%d]", src.Number), colour: cNumber}, span{text: labels[i], colour: cTitle})
		p.line(indent, indent, span{text: item.Short(src.ItemID), colour: cDim, keep: true})
		for _, i := range src.Claims {
			v := s.Verified[i]
			if Extractive(v) {
				continue // shown once, as the statement
			}
			var spans []span
			if where := item.Where(v.Page, v.StartMs); where != "" {
				spans = append(spans, span{text: where, colour: cDim, keep: true})
			}
			p.quoted(indent, indent+" ", v.Saved, spans...)
		}
	}
}

// closest lists the items search found nearest, for an answer with nothing
// verified: never a guess, only where to look.
func (p *printer) closest(s *Stream) {
	p.blank()
	if len(s.Hits) == 0 {
		p.line("", "", span{text: NothingClose})
		return
	}
	p.line("", "", span{text: ClosestHeading})
	closest := Closest(s.Hits)
	titles, sources := make([]string, len(closest)), make([]string, len(closest))
	for i, h := range closest {
		titles[i], sources[i] = h.Title, h.Source
	}
	labels := item.Labels(titles, sources)
	for i, h := range closest {
		p.line(indent, indent+strings.Repeat(" ", item.ShortLen+3), span{text: item.Short(h.ItemID), colour: cDim}, span{text: labels[i], gap: 2})
	}
}

// footer writes how many statements were left out.
func (p *printer) footer(s *Stream) {
	if !s.IsAnswer() || s.Dropped() == 0 {
		return
	}
	p.blank()
	p.line("", "", span{text: LeftOutLabel}, span{text: fmt.Sprint(s.Dropped())})
}

// WriteWarnings writes the stream's warnings and their hints for a person,
// each on a "Warning:" line and a "Hint:" line: they go to stderr, apart
// from the answer.
func WriteWarnings(w io.Writer, s *Stream, st Style) error {
	return writeWarnings(w, s.AllWarnings(), st)
}

func writeWarnings(w io.Writer, ws []*jsonl.Warning, st Style) error {
	p := &printer{st: st}
	for _, w := range ws {
		msg := w.Code
		if w.Message != "" {
			msg += ": " + oneLine(w.Message)
		}
		p.line("", indent, span{text: WarningLabel, colour: cWarn}, span{text: msg})
		if w.Hint != "" {
			p.line("", indent, span{text: HintLabel}, span{text: oneLine(w.Hint)})
		}
	}
	_, err := io.WriteString(w, p.b.String())
	return err
}

func (p *printer) passages(s *Stream) {
	if len(s.Passages) == 0 {
		p.line("", "", span{text: NoPassages})
	}
	// Each item once, so that its passages keep one label.
	var ids, titles []string
	seen := map[string]bool{}
	for _, ps := range s.Passages {
		if !seen[ps.ItemID] {
			seen[ps.ItemID] = true
			ids, titles = append(ids, ps.ItemID), append(titles, ps.Title)
		}
	}
	label := map[string]string{}
	for i, l := range s.Labels(ids, titles) {
		label[ids[i]] = l
	}
	for i, ps := range s.Passages {
		if i > 0 {
			p.blank()
		}
		p.line("", indent, span{text: fmt.Sprintf("[%d]", ps.Number), colour: cNumber}, span{text: label[ps.ItemID], colour: cTitle})
		about := []span{{text: item.Short(ps.ItemID), colour: cDim, keep: true}}
		if h := oneLine(ps.Heading); h != "" {
			about = append(about, span{text: separator, colour: cDim}, span{text: h})
		}
		if where := item.Where(ps.Page, ps.StartMs); where != "" {
			about = append(about, span{text: separator, colour: cDim}, span{text: where, keep: true})
		}
		p.line(indent, indent, about...)
		p.line(indent, indent, span{text: oneLine(ps.Text)})
	}
	p.footer(s)
}
