// Package mcp serves a sponge library to coding agents over the Model
// Context Protocol: find_passages (the ranked passages of sponge ask
// --passages), search (items), show (an item's text) and ask (a checked
// answer). It only reads: no argument is a path, items are named by id.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/termtext"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/search"
)

// MaxShowChars is about the most characters of text one show call returns;
// a longer item is shown in parts, each saying where the next starts.
const MaxShowChars = 40000

// Options are what a server is made with.
type Options struct {
	// Library is the library folder (resolved by the front end).
	Library string
	// FormatItem prints an item for reading (the text of sponge show).
	FormatItem func(it *item.Item, sum *item.Summary, from, to int, numbers bool) string
	// Endpoint and Model are the server that writes the ask tool's
	// statements (the settings sponge resolved); empty: sponge-draft's choice.
	Endpoint, Model string
	// EndpointFrom is where Endpoint was set (pipeline.Ask.EndpointFrom).
	EndpointFrom string
	// Models is the shared models folder (the embedding model for meaning
	// search, the writing model for ask); "" for none.
	Models string
	// FindStage finds a stage binary (sponge-draft, for ask).
	FindStage func(name string) (string, error)
	// Stderr gets the server's own warnings; nil discards them.
	Stderr io.Writer
	// Idle is how long the index stays open after a call (0: DefaultIdle).
	Idle time.Duration
}

// Server is the library's MCP server.
type Server struct {
	opts Options
	dir  string
	idx  *indexes
	srv  *sdk.Server
}

const instructions = `These tools read the user's sponge library: the notes, web pages, PDFs and transcripts they saved. They only read; nothing here changes the library.
To answer a question from the library, call find_passages and write the answer from the passages it returns, naming the item (title, id) and paragraph of each passage you use. Call show with an item id (itemId) and a paragraph range to read around a passage, and search to see which items match. ask returns sponge's own answer, each statement resting on a quote checked word for word against the saved item.`

// New makes a server for the library in opts.
func New(opts Options) *Server {
	dir := opts.Library
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	lib := &library.Library{Dir: dir}
	s := &Server{
		opts: opts,
		dir:  dir,
		idx:  newIndexes(lib.IndexDir(), filepath.Join(dir, "lock"), opts.Idle),
	}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "sponge", Title: "sponge library", Version: version()},
		&sdk.ServerOptions{Instructions: instructions, Capabilities: &sdk.ServerCapabilities{}})
	s.addTools()
	return s
}

// Run serves one client over t until it disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	defer s.idx.close()
	return s.srv.Run(ctx, t)
}

// Dir is the library folder the server reads.
func (s *Server) Dir() string { return s.dir }

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// Arguments of the tools. A pointer is an argument that may be left out.

type questionArgs struct {
	Question string `json:"question"`
	Limit    *int   `json:"limit,omitempty"`
}

type showArgs struct {
	ItemID string `json:"itemId"`
	From   *int   `json:"from,omitempty"`
	To     *int   `json:"to,omitempty"`
}

// ShowJSON is the show tool's result.
type ShowJSON struct {
	ItemID     string    `json:"itemId"`
	Title      string    `json:"title"`
	Source     string    `json:"source"`
	Kind       string    `json:"kind"`
	Added      time.Time `json:"added"`
	Paragraphs int       `json:"paragraphCount"`
	From       int       `json:"from"`
	To         int       `json:"to"`
	Next       *int      `json:"next"`
	Text       string    `json:"text"`
	// Summary is the item's checked summary (sponge summarize), with the
	// first paragraphs only; Text then starts with it.
	Summary *item.Summary `json:"summary,omitempty"`
}

var readOnly = &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}

func limitSchema(in *jsonschema.Schema, what string) {
	p := in.Properties["limit"]
	p.Minimum, p.Maximum = jsonschema.Ptr(1.0), jsonschema.Ptr(float64(search.MaxLimit))
	p.Default = []byte(fmt.Sprint(search.DefaultLimit))
	p.Type, p.Types = "integer", nil
	p.Description = what
}

func (s *Server) addTools() {
	passageDescs := map[string]string{
		"question":           "the question, as asked",
		"passages":           "the passages, best first",
		"passages.number":    "the passage's number, 1 for the best",
		"passages.itemId":    "the id of the item the passage is from",
		"passages.title":     "the item's title",
		"passages.heading":   "the heading the paragraph is under, if any",
		"passages.page":      "the PDF page the paragraph starts on, if from a PDF",
		"passages.startMs":   "the time the paragraph starts at, in milliseconds, if from a transcript",
		"passages.paragraph": "the paragraph's index in the item (0-based), as show numbers them",
		"passages.text":      "the paragraph's text, as saved",
		"passages.score":     "how well the paragraph matches the question",
		"warnings":           "what limits the result (e.g. items found by keyword only)",
		"warnings.code":      "what kind of warning",
		"warnings.message":   "the warning, in words",
		"warnings.hint":      "what the user can do about it",
	}
	addTool[questionArgs, render.PassagesJSON](s.srv, &sdk.Tool{
		Name:  "find_passages",
		Title: "Find passages in the library",
		Description: "Find the passages of the user's saved library that best answer a question: the best paragraphs " +
			"of the items that match it best (at most 4 per item, 8 when one item alone has passages or of an item of 150 paragraphs or more; about 12,000 characters in all), best first. " +
			"Each passage has its number, the item's id and title, its heading, PDF page or transcript time " +
			"(startMs), its paragraph index and text. The same JSON as `sponge ask --passages --json`. " +
			"Answer from these passages, naming the items you use; call show to read around a passage.",
		Annotations: readOnly,
	}, func(in, out *jsonschema.Schema) {
		describe(in, map[string]string{"question": "the question, in the user's words"})
		limitSchema(in, "how many of the best-matching items to take passages from, 1 to 20")
		describe(out, passageDescs)
	}, s.findPassages)

	addTool[questionArgs, search.ResultJSON](s.srv, &sdk.Tool{
		Name:  "search",
		Title: "Search the library",
		Description: "Find the saved items that best match a question, best first: each with its id, title, source " +
			"(the file or URL it was saved from), kind, score, how it was found and a snippet around the words " +
			"that matched. The same JSON as `sponge search --json`.",
		Annotations: readOnly,
	}, func(in, out *jsonschema.Schema) {
		describe(in, map[string]string{"question": "the question, or the words to search for"})
		limitSchema(in, "how many items, 1 to 20")
		describe(out, map[string]string{
			"question":       "the question, as given",
			"hits":           "the items found, best first",
			"hits.itemId":    "the item's id (give it, or its first 8 or more digits, to show)",
			"hits.title":     "the item's title",
			"hits.source":    "the file or URL the item was saved from",
			"hits.kind":      "markdown, text, html, pdf, vtt or srt",
			"hits.score":     "how well the item matches the question",
			"hits.rank":      "the item's place, 1 for the best",
			"hits.foundBy":   "how the item was found: keyword and/or meaning",
			"hits.paragraph": "the paragraph meaning search matched, if any",
			"hits.snippet":   "a short piece of the item around the words that matched",
			"warnings":       "what limits the result",
		})
	}, s.search)

	addTool[showArgs, ShowJSON](s.srv, &sdk.Tool{
		Name:  "show",
		Title: "Show a saved item",
		Description: "Show a saved item: a header (title, id, source, kind, when it was added, size), then its text " +
			"with headings (## …), PDF page markers (--- p. N ---) and transcript times ([m:ss]); each paragraph " +
			"starts with ¶N, its index, the paragraph number passages give. from and to pick paragraphs, " +
			fmt.Sprintf("e.g. a few around a passage. About %d characters at most are shown per call; ", MaxShowChars) +
			"the result then says where to go on (next).",
		Annotations: readOnly,
	}, func(in, out *jsonschema.Schema) {
		describe(in, map[string]string{
			"itemId": "the item's id, or a prefix of it of at least 4 hex digits that no other item has",
			"from":   "the first paragraph to show (0-based, as passages number them); default 0",
			"to":     "the last paragraph to show (included); default the item's last",
		})
		for _, n := range []string{"from", "to"} {
			in.Properties[n].Type, in.Properties[n].Types = "integer", nil
			in.Properties[n].Minimum = jsonschema.Ptr(0.0)
		}
		describe(out, map[string]string{
			"itemId":         "the item's full id",
			"title":          "the item's title",
			"source":         "the file or URL the item was saved from",
			"kind":           "markdown, text, html, pdf, vtt or srt",
			"added":          "when the item was saved",
			"paragraphCount": "how many paragraphs the item has",
			"from":           "the first paragraph shown",
			"to":             "the last paragraph shown (included)",
			"next":           "the paragraph to go on from with another call, when the text was cut; else null",
			"text":           "the header and the paragraphs, as sponge show -n prints them",
		})
	}, s.show)

	addTool[questionArgs, render.AnswerJSON](s.srv, &sdk.Tool{
		Name:  "ask",
		Title: "Ask the library",
		Description: "Answer a question from the library: a few statements, each resting on a quote that was " +
			"checked to stand word for word in a saved item; statements that fail the check are left out. " +
			"The same JSON as `sponge ask --json`. Written by the user's model if one is set up, else made of " +
			"the passages' best sentences, quoted (model \"extractive\"). Slower than find_passages; when you " +
			"write the answer yourself, use find_passages.",
		Annotations: readOnly,
	}, func(in, out *jsonschema.Schema) {
		describe(in, map[string]string{"question": "the question, in the user's words"})
		limitSchema(in, "how many of the best-matching items to take passages from, 1 to 20")
		describe(out, map[string]string{
			"question":       "the question, as asked",
			"answered":       "whether any statement was verified",
			"claims":         "the verified statements, in order",
			"claims.text":    "the statement",
			"claims.quote":   "the saved words it rests on, as they stand in the item",
			"claims.itemId":  "the id of the quoted item",
			"claims.passage": "the number of the passage quoted",
			"claims.page":    "the PDF page the quote starts on, if any",
			"claims.startMs": "the transcript time the quote starts at, if any",
			"passages":       "the passages the statements were written from",
			"dropped":        "how many statements were left out",
			"warnings":       "what limits the answer",
			"model":          "what wrote the statements (\"extractive\": sentences quoted as they are)",
			"complete":       "false when the answer was cut off",
			"sources":        "the items quoted, numbered in order of first use",
			"leftOut":        "the statements left out, and why",
			"closest":        "the items nearest the question, when nothing answers it",
		})
	}, s.ask)
}

// question checks a question and a limit as sponge ask does.
func question(text string, limit *int) (string, int, error) {
	q := strings.TrimSpace(text)
	if q == "" {
		return "", 0, fmt.Errorf("the question is empty: give the question in words")
	}
	n := search.DefaultLimit
	if limit != nil {
		n = *limit
		if n < 1 || n > search.MaxLimit {
			return "", 0, fmt.Errorf("limit must be from 1 to %d, not %d", search.MaxLimit, n)
		}
	}
	return q, n, nil
}

// open opens the library; a missing one is a fault.NoLibrary error.
func (s *Server) open() (*library.Library, error) {
	return library.Open(s.dir)
}

// find searches with the index the server keeps open.
func (s *Server) find(lib *library.Library, q string, limit int) (*search.Result, error) {
	if _, err := os.Stat(lib.IndexDir()); errors.Is(err, os.ErrNotExist) {
		// No index yet: search says the library is empty, as sponge ask does.
		return search.Find(lib.Dir, s.opts.Models, q, limit)
	}
	x, release, err := s.idx.acquire()
	if err != nil {
		return nil, err
	}
	defer release()
	return search.FindIn(s.opts.Models, lib, x, q, limit)
}

func (s *Server) findPassages(ctx context.Context, in *questionArgs) (*reply, error) {
	st, err := s.passages(ctx, in.Question, in.Limit)
	if err != nil {
		return nil, err
	}
	// render's own writer makes the document, so it is byte for byte what
	// sponge ask --passages --json prints.
	var b bytes.Buffer
	if err := render.WriteJSON(&b, st); err != nil {
		return nil, err
	}
	return &reply{text: b.String(), structured: jsonRaw(b.Bytes())}, nil
}

func (s *Server) search(ctx context.Context, in *questionArgs) (*reply, error) {
	q, limit, err := question(in.Question, in.Limit)
	if err != nil {
		return nil, err
	}
	lib, err := s.open()
	if err != nil {
		return nil, err
	}
	res, err := s.find(lib, q, limit)
	if err != nil {
		return nil, err
	}
	// termtext.WriteJSON makes the document, so it is byte for byte what
	// sponge search --json prints.
	var b bytes.Buffer
	if err := termtext.WriteJSON(&b, search.Document(lib, q, res)); err != nil {
		return nil, err
	}
	return &reply{text: b.String(), structured: jsonRaw(b.Bytes())}, nil
}

func (s *Server) show(ctx context.Context, in *showArgs) (*reply, error) {
	if strings.TrimSpace(in.ItemID) == "" {
		return nil, fmt.Errorf("the itemId is empty: give an item id from search or find_passages")
	}
	lib, err := s.open()
	if err != nil {
		return nil, err
	}
	id, err := lib.Resolve(in.ItemID)
	if err != nil {
		return nil, err
	}
	it, err := lib.Item(id)
	if err != nil {
		return nil, err
	}
	n := len(it.Paragraphs)
	from, to := 0, n-1
	if in.From != nil {
		from = *in.From
	}
	if in.To != nil {
		to = *in.To
	}
	switch {
	case n == 0:
		from, to = 0, -1
	case from < 0 || to < 0:
		return nil, fmt.Errorf("from and to are paragraph indexes, 0 or more (got from %d, to %d)", from, to)
	case from >= n:
		return nil, fmt.Errorf("from %d is past the item's end: it has paragraphs 0 to %d", from, n-1)
	case to < from:
		return nil, fmt.Errorf("to (%d) is before from (%d)", to, from)
	}
	to = min(to, n-1)
	// Cut a long range at MaxShowChars, keeping at least one paragraph.
	var next *int
	chars := 0
	for i := from; i <= to; i++ {
		chars += utf8.RuneCountInString(it.Paragraphs[i].Text)
		if chars > MaxShowChars && i > from {
			next = new(int)
			*next = i
			to = i - 1
			break
		}
	}
	// The summary comes first, with the first paragraphs.
	var sum *item.Summary
	if from == 0 {
		sum = lib.CurrentSummary(it)
	}
	text := s.opts.FormatItem(it, sum, from, to+1, true)
	if next != nil {
		text += fmt.Sprintf("\n[cut here: paragraphs %d to %d are not shown; call show with from %d to go on]\n", *next, min(n-1, max(*next, derefOr(in.To, n-1))), *next)
	}
	out := ShowJSON{ItemID: it.ID, Title: it.Title, Source: it.Source, Kind: it.Kind, Added: it.Added,
		Paragraphs: n, From: from, To: to, Next: next, Text: text, Summary: sum}
	return &reply{text: text, structured: out}, nil
}

func derefOr(p *int, d int) int {
	if p == nil {
		return d
	}
	return *p
}

// jsonRaw turns a JSON document into structured content.
func jsonRaw(b []byte) json.RawMessage { return json.RawMessage(bytes.TrimSpace(b)) }
