package ui

import (
	"context"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/rank"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/search"
	"github.com/sponge-library/sponge/stages/verify"
)

// The ask page runs the stages of sponge ask in this process, joined by
// pipeline.Chain, as the MCP server does: sponge-search, sponge-rank,
// sponge-draft as a child program (pipeline.Process: the same writer sponge
// ask would choose, and only it links the model runtime), sponge-verify;
// the last stage here sends each verified statement to the page the moment
// sponge-verify passes it (server-sent events). A statement is shown only
// from a verified record, which only sponge-verify writes (it refuses a
// stream that holds one already).

// askData is the ask page's.
type askData struct {
	Question string
	Passages bool // passages only (sponge ask --passages)
	CanDraft bool // sponge-draft can run (else passages only)
	Stream   string
	// Whole is the answer made before the page, for a browser without
	// script (?whole=1, the page's noscript link): the events' fragments.
	Whole     []template.HTML
	End       template.HTML // the end (or the failure) of Whole
	WholeLink string
	Done      bool // Whole holds the answer
}

// askPage is the question box; with ?q= the page streams its answer from
// /ask (script), or shows it whole once it is made (?whole=1: without
// script, from the page's noscript link).
func (s *Server) askPage(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if len(q) > MaxWords {
		s.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the question is longer than %d bytes", MaxWords), "ask in fewer words")
		return
	}
	d := askData{Question: q, Passages: r.URL.Query().Get("passages") != "", CanDraft: s.opts.FindStage != nil}
	if !d.CanDraft {
		d.Passages = true
	}
	title := "Ask"
	if q != "" {
		title = q
		v := url.Values{"q": {q}}
		if d.Passages {
			v.Set("passages", "1")
		}
		d.Stream = "/ask?" + v.Encode()
		v.Set("whole", "1")
		d.WholeLink = "/?" + v.Encode()
	}
	if q != "" && r.URL.Query().Get("whole") != "" {
		// Each fragment is a template's output, escaped there.
		err := s.answer(r.Context(), q, d.Passages, func(ev event) error {
			if ev.name == "end" {
				d.End = template.HTML(ev.html)
			} else {
				d.Whole = append(d.Whole, template.HTML(ev.html))
			}
			return nil
		})
		if err != nil {
			_, hint := console.Explain(err)
			d.End = template.HTML(s.fragment("failure", failure{Message: err.Error(), Hint: hint}))
		}
		d.Stream, d.Done = "", true
	}
	s.render(w, http.StatusOK, "ask.html", &Page{Title: title, Nav: "ask", Data: d})
}

// event is one server-sent event: its name and an HTML fragment made by a
// template (everything in it escaped).
type event struct {
	name string
	html string
}

// sse writes server-sent events, each flushed as it is written.
type sse struct {
	w   http.ResponseWriter
	err error
}

func (e *sse) send(ev event) error {
	if e.err != nil {
		return e.err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "event: %s\n", ev.name)
	// A saved text may hold a carriage return, which ends a line of the
	// stream as a newline does: each becomes a line of its own, so that no
	// text of an item can start a field of the stream. An empty line (the
	// blank line between a sentence and the block of code it announces,
	// item.CodeOf) is an empty data field, which the browser joins back.
	html := strings.ReplaceAll(strings.ReplaceAll(ev.html, "\r\n", "\n"), "\r", "\n")
	for line := range strings.SplitSeq(html, "\n") {
		b.WriteString("data: " + line + "\n")
	}
	b.WriteString("\n")
	if _, e.err = e.w.Write([]byte(b.String())); e.err == nil {
		if f, ok := e.w.(http.Flusher); ok {
			f.Flush()
		}
	}
	return e.err
}

// statementView is a verified statement as the page shows it.
type statementView struct {
	Number     int // its source's number
	Text       string
	Quote      string // the saved words
	Extractive bool   // the statement is its quote: shown once
	Label      string // the source's title, told apart from same titles
	Where      string // "p. 12", "12:34"
	Link       string // the item page at the quote
	PageLink   string // a PDF quote's page drawn, the quote marked on it; "" for other kinds
	ItemID     string
}

// passageView is a ranked passage (passages only).
type passageView struct {
	Number       int
	Label, Where string
	Heading      string
	Text         string
	Link         string
	ItemID       string
}

// closestView is one of the closest items of an answer with nothing verified.
type closestView struct {
	Label, Link, ItemID string
}

// endView is what follows the statements.
type endView struct {
	LeftOutLabel string // render.LeftOutLabel
	Nothing      string // "Nothing in your library answers that." or why none is shown
	Closest      []closestView
	NoneNear     string
	LeftOut      int // statements not shown (sponge-verify left them out), shown as the CLI shows them: when any
	Passages     bool
	Warnings     []*jsonl.Warning
	// Setup are the warnings of a part not set up (no writing model, no
	// embedding model): a choice, shown folded, where sponge ask shows
	// them a few times only.
	Setup []*jsonl.Warning
	Model string
}

// askStream answers ?q= as server-sent events: "statement" (or "passage")
// for each as it comes, then "end" with the left-out count, or nothing
// found and the closest items; "failure" when the stages fail.
func (s *Server) askStream(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	switch {
	case q == "":
		http.Error(w, "the question is empty: ask it in words (?q=…)", http.StatusBadRequest)
		return
	case len(q) > MaxWords:
		http.Error(w, fmt.Sprintf("the question is longer than %d bytes", MaxWords), http.StatusRequestEntityTooLarge)
		return
	}
	passages := r.URL.Query().Get("passages") != "" || s.opts.FindStage == nil
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	out := &sse{w: w}
	if err := s.answer(r.Context(), q, passages, out.send); err != nil && r.Context().Err() == nil {
		_, hint := console.Explain(err)
		out.send(event{"failure", s.fragment("failure", failure{Message: err.Error(), Hint: hint})})
	}
}

// MaxAnswers is how many answers are made at once; more wait their turn
// (each runs its own sponge-draft, on a CPU that serves one fastest).
const MaxAnswers = 2

// answer runs the stages for q and calls send with each event.
func (s *Server) answer(ctx context.Context, q string, passages bool, send func(event) error) error {
	select {
	case s.answering <- struct{}{}:
		defer func() { <-s.answering }()
	case <-ctx.Done():
		return ctx.Err()
	}
	lib, err := s.open()
	if err != nil {
		return err
	}
	stages := []pipeline.Stage{
		&search.Stage{Library: lib.Dir, Models: s.opts.Models, Question: q},
		&rank.Stage{Library: lib.Dir},
	}
	if !passages {
		draft, err := s.draftStage(lib, q)
		if err != nil {
			return err
		}
		v := verify.New(lib)
		v.Warn = func(msg string) { console.PrintWarning(s.opts.Stderr, Prog, msg) }
		stages = append(stages, draft, v)
	}
	stages = append(stages, pipeline.Func(func(ctx context.Context, r *jsonl.Reader, _ *jsonl.Writer) error {
		return s.show(lib, r, passages, send)
	}))
	return pipeline.Chain(ctx, strings.NewReader(""), io.Discard, stages...)
}

// draftStage is sponge-draft with the arguments sponge ask gives it.
func (s *Server) draftStage(lib *library.Library, q string) (pipeline.Stage, error) {
	for _, step := range (pipeline.Ask{Library: lib.Dir, Models: s.opts.Models, Question: q, Endpoint: s.opts.Endpoint, Model: s.opts.Model, EndpointFrom: s.opts.EndpointFrom}).Steps() {
		if step.Name == "sponge-draft" {
			path, err := s.opts.FindStage(step.Name)
			if err != nil {
				return nil, err
			}
			// Warnings of a drafter that succeeded go to the server's log.
			return &pipeline.Process{Path: path, Args: step.Args, Stderr: s.opts.Stderr}, nil
		}
	}
	return nil, fmt.Errorf("sponge ask has no sponge-draft step")
}

// show reads the stream and sends each verified statement (or passage) as
// it comes, then the end.
func (s *Server) show(lib *library.Library, r *jsonl.Reader, passages bool, send func(event) error) error {
	st := &render.Stream{}
	var labels map[string]string
	numbers := map[string]int{}
	err := pipeline.Each(r, func(line *jsonl.Line) error {
		st.Add(line.Record)
		switch rec := line.Record.(type) {
		case *jsonl.Verified:
			if labels == nil {
				labels = hitLabels(st)
			}
			n, ok := numbers[rec.ItemID]
			if !ok {
				n = len(numbers) + 1
				numbers[rec.ItemID] = n
			}
			label := labels[rec.ItemID]
			if label == "" {
				label = rec.Title
			}
			return send(event{"statement", s.fragment("statement", statementView{Number: n, Text: rec.Text, Quote: rec.Saved,
				Extractive: render.Extractive(rec), Label: label, Where: item.Where(rec.Page, rec.StartMs),
				Link: QuoteLink(rec.ItemID, rec.Paragraph, rec.Saved), PageLink: quotePage(rec.ItemID, rec.Page, rec.Saved), ItemID: rec.ItemID})})
		case *jsonl.Passage:
			if !passages {
				return nil
			}
			if labels == nil {
				labels = hitLabels(st)
			}
			label := labels[rec.ItemID]
			if label == "" {
				label = rec.Title
			}
			return send(event{"passage", s.fragment("passage", passageView{Number: rec.Number, Label: label, Where: item.Where(rec.Page, rec.StartMs),
				Heading: rec.Heading, Text: rec.Text, Link: QuoteLink(rec.ItemID, rec.Paragraph, ""), ItemID: rec.ItemID})})
		}
		return nil
	})
	if err != nil {
		return err
	}
	end := endView{LeftOutLabel: render.LeftOutLabel, LeftOut: st.Dropped(), Passages: passages}
	if st.Model != nil {
		end.Model = st.Model.Name
	}
	for _, wn := range st.AllWarnings() {
		if wn.Setup {
			end.Setup = append(end.Setup, wn)
		} else {
			end.Warnings = append(end.Warnings, wn)
		}
	}
	if (passages && len(st.Passages) == 0) || (!passages && len(st.Verified) == 0) {
		switch {
		case passages || st.NothingAnswers():
			end.Nothing = render.NothingAnswers
		case !st.Complete():
			end.Nothing = render.CutBeforeAny
		default:
			end.Nothing = render.NoneChecked
		}
		if labels == nil {
			labels = hitLabels(st)
		}
		for _, h := range render.Closest(st.Hits) {
			end.Closest = append(end.Closest, closestView{Label: labels[h.ItemID], Link: "/item/" + h.ItemID, ItemID: h.ItemID})
		}
		if len(st.Hits) == 0 {
			end.NoneNear = render.NothingClose
		}
	}
	return send(event{"end", s.fragment("end", end)})
}

// hitLabels are the labels of the items search found (item.Labels: two
// items of one title are told apart by their files), by id.
func hitLabels(st *render.Stream) map[string]string {
	var ids, titles []string
	seen := map[string]bool{}
	for _, h := range st.Hits {
		if !seen[h.ItemID] {
			seen[h.ItemID] = true
			ids, titles = append(ids, h.ItemID), append(titles, h.Title)
		}
	}
	labels := st.Labels(ids, titles)
	m := make(map[string]string, len(ids))
	for i, id := range ids {
		m[id] = labels[i]
	}
	return m
}

// fragment is the HTML of a template of fragments.html.
func (s *Server) fragment(name string, data any) string {
	var b strings.Builder
	if err := s.pages.ExecuteTemplate(&b, name, data); err != nil {
		console.PrintWarning(s.opts.Stderr, Prog, fmt.Sprintf("the fragment %s: %v", name, err))
		return ""
	}
	return b.String()
}
