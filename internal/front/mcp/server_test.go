package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

func call(t testing.TB, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return res
}

// text is the text content of a result.
func text(t testing.TB, res *sdk.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want one content block, got %d", len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("want text content, got %T", res.Content[0])
	}
	return tc.Text
}

// ok calls a tool that must succeed and returns its result.
func ok(t testing.TB, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res := call(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s %v: tool error: %s", name, args, text(t, res))
	}
	return res
}

// structured decodes a result's structured content into v.
func structured(t testing.TB, res *sdk.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content: %v\n%s", err, b)
	}
}

func TestToolsAndSchemas(t *testing.T) {
	cs := connect(t, docsLib)
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "sponge" || init.Capabilities.Tools == nil {
		t.Errorf("initialize: server %+v, capabilities %+v", init.ServerInfo, init.Capabilities)
	}
	if !strings.Contains(init.Instructions, "find_passages") {
		t.Errorf("the instructions do not say how to use the tools: %q", init.Instructions)
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		required []string
		optional []string
		output   []string
	}
	wants := map[string]want{
		"find_passages": {[]string{"question"}, []string{"limit"}, []string{"question", "passages", "warnings"}},
		"search":        {[]string{"question"}, []string{"limit"}, []string{"question", "hits", "warnings"}},
		"show":          {[]string{"itemId"}, []string{"from", "to"}, []string{"itemId", "title", "source", "kind", "paragraphCount", "from", "to", "next", "text"}},
		"ask":           {[]string{"question"}, []string{"limit"}, []string{"question", "answered", "claims", "passages", "dropped", "warnings", "model"}},
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		w, known := wants[tool.Name]
		if !known {
			t.Errorf("unexpected tool %q", tool.Name)
			continue
		}
		if tool.Description == "" || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s: want a description and readOnlyHint, got %q %+v", tool.Name, tool.Description, tool.Annotations)
		}
		in := schemaOf(t, tool.InputSchema)
		if in.Type != "object" || !slices.Equal(in.Required, w.required) {
			t.Errorf("%s: input schema type %q, required %v; want object, %v", tool.Name, in.Type, in.Required, w.required)
		}
		if in.AdditionalProperties == nil {
			t.Errorf("%s: the input schema allows arguments it does not know", tool.Name)
		}
		for _, p := range append(slices.Clone(w.required), w.optional...) {
			if in.Properties[p] == nil || in.Properties[p].Description == "" {
				t.Errorf("%s: argument %q is missing or undescribed", tool.Name, p)
			}
		}
		if l := in.Properties["limit"]; l != nil {
			if l.Type != "integer" || l.Minimum == nil || *l.Minimum != 1 || l.Maximum == nil || *l.Maximum != 20 {
				t.Errorf("%s: limit schema %+v, want an integer from 1 to 20", tool.Name, l)
			}
		}
		out := schemaOf(t, tool.OutputSchema)
		for _, p := range w.output {
			if out.Properties[p] == nil {
				t.Errorf("%s: output schema has no %q", tool.Name, p)
			}
		}
	}
	sort.Strings(names)
	if want := []string{"ask", "find_passages", "search", "show"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
}

func schemaOf(t testing.TB, v any) *jsonschema.Schema {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("schema: %v\n%s", err, b)
	}
	return &s
}

// checkOutput checks a result's structured content against the tool's
// advertised output schema, and that the text is that content when the tool
// answers in JSON.
func checkOutput(t testing.TB, cs *sdk.ClientSession, tool string, res *sdk.CallToolResult) {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name != tool {
			continue
		}
		rs, err := schemaOf(t, tl.OutputSchema).Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		structured(t, res, &v)
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s: the structured content does not fit the output schema: %v", tool, err)
		}
		return
	}
	t.Fatalf("no tool %s", tool)
}

// The passages equal, byte for byte, what `sponge ask --passages --json`
// prints, which runs sponge-search | sponge-rank | sponge-render --json as
// child processes.
func TestFindPassagesIsAskPassages(t *testing.T) {
	t.Parallel()
	cs := connect(t, docsLib)
	cases := []struct {
		question string
		limit    int // 0: left out
		check    func(t *testing.T, doc passagesDoc)
	}{
		{"how hot should green tea be", 0, func(t *testing.T, doc passagesDoc) {
			if !slices.ContainsFunc(doc.Passages, func(p passage) bool { return strings.Contains(p.Text, "70 °C") }) {
				t.Errorf("no passage gives sencha's temperature")
			}
		}},
		{"what decides whether an eruption is explosive", 2, func(t *testing.T, doc passagesDoc) {
			if len(doc.Passages) == 0 || doc.Passages[0].StartMs == nil || doc.Passages[0].Title != "volcano-lecture" {
				t.Errorf("want the lecture first, with its time: %+v", doc.Passages)
			}
		}},
		{"compost thermometer temperature of the heap", 20, func(t *testing.T, doc passagesDoc) {
			if len(doc.Passages) == 0 || doc.Passages[0].Page == 0 {
				t.Errorf("want a PDF passage with its page: %+v", doc.Passages)
			}
		}},
		{"  how long should   sourdough rise  ", 1, func(t *testing.T, doc passagesDoc) {
			for _, p := range doc.Passages {
				if p.Title != "Sourdough notes" {
					t.Errorf("limit 1 gave a passage of %q", p.Title)
				}
			}
		}},
		{"xylophone zeppelin", 0, func(t *testing.T, doc passagesDoc) {
			if len(doc.Passages) != 0 {
				t.Errorf("passages for words no item has: %+v", doc.Passages)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.question, func(t *testing.T) {
			args := map[string]any{"question": c.question}
			cli := []string{"ask", "--library", docsLib, "--passages", "--json"}
			if c.limit != 0 {
				args["limit"] = c.limit
				cli = append(cli, "--limit", strconv.Itoa(c.limit))
			}
			res := ok(t, cs, "find_passages", args)
			want, stderr, code := command(t, "sponge", append(cli, "--", c.question)...)
			if code != exitFor(c.question) {
				t.Fatalf("sponge ask --passages --json: exit %d\n%s", code, stderr)
			}
			if got := text(t, res); got != want {
				t.Errorf("find_passages differs from sponge ask --passages --json (-want +got):\n%s", cmp.Diff(want, got))
			}
			var fromCLI, fromTool any
			json.Unmarshal([]byte(want), &fromCLI)
			structured(t, res, &fromTool)
			if d := cmp.Diff(fromCLI, fromTool); d != "" {
				t.Errorf("structured content differs (-cli +tool):\n%s", d)
			}
			checkOutput(t, cs, "find_passages", res)
			var doc passagesDoc
			structured(t, res, &doc)
			if doc.Question != strings.TrimSpace(c.question) {
				t.Errorf("question %q", doc.Question)
			}
			for i, p := range doc.Passages {
				if p.Number != i+1 || len(p.ItemID) != 64 || p.Title == "" || p.Text == "" {
					t.Errorf("passage %d lacks its number, item, title or text: %+v", i, p)
				}
			}
			if !slices.ContainsFunc(doc.Warnings, func(w warning) bool { return w.Code == "semantic-unavailable" }) {
				t.Errorf("the warnings of sponge-search are missing: %+v", doc.Warnings)
			}
			c.check(t, doc)
		})
	}
}

// exitFor is the exit code of sponge ask for a question of these tests:
// nothing answers the one made of words no item has.
func exitFor(question string) int {
	if question == "xylophone zeppelin" {
		return console.ExitNothing
	}
	return console.ExitOK
}

type passagesDoc struct {
	Question string    `json:"question"`
	Passages []passage `json:"passages"`
	Warnings []warning `json:"warnings"`
}

type passage struct {
	Number    int    `json:"number"`
	ItemID    string `json:"itemId"`
	Title     string `json:"title"`
	Heading   string `json:"heading"`
	Page      int    `json:"page"`
	StartMs   *int64 `json:"startMs"`
	Paragraph int    `json:"paragraph"`
	Text      string `json:"text"`
}

type warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ask gives what `sponge ask --json` prints: here no model is set up, so
// the draft stage quotes the passages' best sentences and says so.
func TestAskIsSpongeAsk(t *testing.T) {
	t.Parallel()
	needDraft(t)
	cs := connect(t, docsLib)
	for _, q := range []string{"how hot should green tea be", "how do I clean a bicycle chain", "xylophone zeppelin"} {
		t.Run(q, func(t *testing.T) {
			res := ok(t, cs, "ask", map[string]any{"question": q})
			want, stderr, code := command(t, "sponge", "ask", "--library", docsLib, "--json", "--", q)
			if code != exitFor(q) {
				t.Fatalf("sponge ask --json: exit %d\n%s", code, stderr)
			}
			if got := text(t, res); got != want {
				t.Errorf("ask differs from sponge ask --json (-want +got):\n%s", cmp.Diff(want, got))
			}
			checkOutput(t, cs, "ask", res)
			var a struct {
				Answered bool      `json:"answered"`
				Model    *string   `json:"model"`
				Warnings []warning `json:"warnings"`
				Claims   []struct {
					Quote  string `json:"quote"`
					ItemID string `json:"itemId"`
				} `json:"claims"`
			}
			structured(t, res, &a)
			if a.Model == nil || *a.Model != "extractive" {
				t.Errorf("model %v, want extractive", a.Model)
			}
			if !slices.ContainsFunc(a.Warnings, func(w warning) bool { return w.Code == "model-unavailable" }) {
				t.Errorf("no model-unavailable warning: %+v", a.Warnings)
			}
			if q == "how hot should green tea be" && (!a.Answered || len(a.Claims) == 0) {
				t.Errorf("no answer about green tea: %s", text(t, res))
			}
		})
	}
}

func TestSearch(t *testing.T) {
	cs := connect(t, docsLib)
	res := ok(t, cs, "search", map[string]any{"question": "bicycle chain lubricant", "limit": 3})
	checkOutput(t, cs, "search", res)
	var got struct {
		Question string `json:"question"`
		Hits     []struct {
			ItemID                       string `json:"itemId"`
			Title, Source, Kind, Snippet string
			Score                        float64
		} `json:"hits"`
		Warnings []warning `json:"warnings"`
	}
	structured(t, res, &got)
	if len(got.Hits) == 0 || len(got.Hits) > 3 {
		t.Fatalf("want 1 to 3 items, got %+v", got.Hits)
	}
	first := got.Hits[0]
	if first.Title != "Looking after your bicycle chain" || first.Kind != "html" || !strings.HasSuffix(first.Source, "bicycle-chain-care.html") ||
		len(first.ItemID) != 64 || first.Score <= 0 || !strings.Contains(strings.ToLower(first.Snippet), "chain") {
		t.Errorf("first item %+v", first)
	}
	if len(got.Warnings) == 0 {
		t.Errorf("no warnings")
	}
	// The same document, byte for byte, as sponge search --json.
	want, stderr, code := command(t, "sponge", "search", "--library", docsLib, "--json", "--limit", "3", "bicycle chain lubricant")
	if code != 0 {
		t.Fatalf("sponge search: %s", stderr)
	}
	if got := text(t, res); got != want {
		t.Errorf("search differs from sponge search --json (-want +got):\n%s", cmp.Diff(want, got))
	}
}

func TestShow(t *testing.T) {
	cs := connect(t, docsLib)
	lib, err := library.Open(docsLib)
	if err != nil {
		t.Fatal(err)
	}
	byTitle := map[string]*item.Item{}
	ids, _ := lib.IDs()
	for _, id := range ids {
		it, err := lib.Item(id)
		if err != nil {
			t.Fatal(err)
		}
		byTitle[it.Title] = it
	}
	tea := byTitle["Brewing tea at home"]

	// A prefix and a range: the text of sponge show -n --paragraphs 2-4.
	res := ok(t, cs, "show", map[string]any{"itemId": tea.ID[:8], "from": 2, "to": 4})
	got := text(t, res)
	if want := cmdline.FormatItem(tea, nil, 2, 5, true); got != want {
		t.Errorf("show differs from FormatItem (-want +got):\n%s", cmp.Diff(want, got))
	}
	for _, s := range []string{"## Green tea", "¶3 Sencha: 70 °C, 1 minute", "id:      " + tea.ID} {
		if !strings.Contains(got, s) {
			t.Errorf("show lacks %q:\n%s", s, got)
		}
	}
	if strings.Contains(got, "¶5") || strings.Contains(got, "¶1 ") {
		t.Errorf("show gave paragraphs outside 2-4:\n%s", got)
	}
	checkOutput(t, cs, "show", res)
	var sj struct {
		ItemID     string `json:"itemId"`
		Paragraphs int    `json:"paragraphCount"`
		From, To   int
		Next       *int
		Text       string
	}
	structured(t, res, &sj)
	if sj.ItemID != tea.ID || sj.Paragraphs != len(tea.Paragraphs) || sj.From != 2 || sj.To != 4 || sj.Next != nil || sj.Text != got {
		t.Errorf("structured %+v", sj)
	}
	// The CLI prints the same text.
	cli, stderr, code := command(t, "sponge", "show", "--library", docsLib, "-n", "--paragraphs", "2-4", tea.ID[:8])
	if code != 0 || cli != got {
		t.Errorf("sponge show -n --paragraphs 2-4 (exit %d, %s) differs (-cli +tool):\n%s", code, stderr, cmp.Diff(cli, got))
	}

	// Whole items keep their page and time markers; to past the end is the end.
	pdf := text(t, ok(t, cs, "show", map[string]any{"itemId": byTitle["Composting at Home: A Short Guide"].ID}))
	if !strings.Contains(pdf, "--- p. 2 ---") {
		t.Errorf("the PDF has no page markers:\n%s", pdf)
	}
	srt := text(t, ok(t, cs, "show", map[string]any{"itemId": byTitle["volcano-lecture"].ID[:6], "to": 1000}))
	if !strings.Contains(srt, "[0:29] Yes. In May 1980") {
		t.Errorf("the transcript has no times:\n%s", srt)
	}
}

// A long item comes in parts, each saying where the next starts.
func TestShowLongItem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var paras []item.Paragraph
	for i := range 120 {
		paras = append(paras, item.Paragraph{Text: fmt.Sprintf("Paragraph %d. %s", i, strings.Repeat("All work and no play. ", 45))})
	}
	long := &item.Item{ID: library.ItemID([]byte("long")), Title: "A long item", Source: "long.md", Kind: item.KindMarkdown, Paragraphs: paras}
	if err := w.Add(long, []byte("long")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, dir)
	from, parts, seen := 0, 0, 0
	for {
		res := ok(t, cs, "show", map[string]any{"itemId": long.ID, "from": from})
		var sj struct {
			From, To int
			Next     *int
			Text     string
		}
		structured(t, res, &sj)
		if sj.From != from || sj.To < sj.From {
			t.Fatalf("part from %d: %+v", from, sj)
		}
		for i := sj.From; i <= sj.To; i++ {
			if !strings.Contains(sj.Text, fmt.Sprintf("¶%d Paragraph %d.", i, i)) {
				t.Fatalf("part from %d lacks paragraph %d", from, i)
			}
			seen++
		}
		if n := len([]rune(sj.Text)); n > 45000 {
			t.Errorf("a part of %d characters", n)
		}
		parts++
		if sj.Next == nil {
			if sj.To != 119 || strings.Contains(sj.Text, "[cut here") {
				t.Errorf("the last part ends at %d", sj.To)
			}
			break
		}
		if *sj.Next != sj.To+1 || !strings.Contains(sj.Text, fmt.Sprintf("call show with from %d", *sj.Next)) {
			t.Fatalf("next %d after %d; text ends %q", *sj.Next, sj.To, sj.Text[len(sj.Text)-120:])
		}
		from = *sj.Next
	}
	if parts < 3 || seen != 120 {
		t.Errorf("%d parts showed %d paragraphs, want 3 or more parts and all 120", parts, seen)
	}
}

// Bad arguments are tool errors that say what is wrong, and the server goes
// on answering.
func TestBadArguments(t *testing.T) {
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Two items whose ids share their first digits.
	for _, id := range []string{"abcd1" + strings.Repeat("0", 59), "abcd2" + strings.Repeat("0", 59)} {
		it := &item.Item{ID: id, Title: "Note " + id[:5], Kind: item.KindText, Paragraphs: []item.Paragraph{{Text: "A note about otters and rivers."}}}
		if err := w.Add(it, []byte(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, dir)
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"find_passages", map[string]any{}, "the question is empty"},
		{"find_passages", map[string]any{"question": "   "}, "the question is empty"},
		{"find_passages", map[string]any{"question": "otters", "limit": 50}, "limit must be from 1 to 20, not 50"},
		{"find_passages", map[string]any{"question": "otters", "limit": 0}, "limit must be from 1 to 20, not 0"},
		{"find_passages", map[string]any{"question": "otters", "limit": "8"}, "limit must be a whole number, not string"},
		{"find_passages", map[string]any{"question": "otters", "limit": 2.5}, "limit must be a whole number, not number 2.5"},
		{"find_passages", map[string]any{"question": 42}, "question must be a string, not number"},
		{"find_passages", map[string]any{"question": "otters", "path": "/etc/passwd"}, `find_passages takes no argument "path" (its arguments: question, limit)`},
		{"find_passages", map[string]any{"question": "?!"}, "has no words to search for"},
		{"ask", map[string]any{"question": ""}, "the question is empty"},
		{"ask", map[string]any{"question": "otters", "limit": 21}, "limit must be from 1 to 20, not 21"},
		{"search", map[string]any{"question": ""}, "the question is empty"},
		{"search", map[string]any{"question": "otters", "limit": -1}, "limit must be from 1 to 20, not -1"},
		{"show", map[string]any{}, "the itemId is empty"},
		{"show", map[string]any{"itemId": "abcd"}, `"abcd" matches 2 items: abcd1000, abcd2000`},
		{"show", map[string]any{"itemId": "abc"}, `item id "abc" is too short: give at least 4 hex digits`},
		{"show", map[string]any{"itemId": "ffff"}, "no item matches \"ffff\"\nhint: take ids from the results of search or find_passages"},
		{"show", map[string]any{"itemId": "../../etc/passwd"}, "is not an item id (ids are hex digits)"},
		{"show", map[string]any{"itemId": "abcd1", "from": 3}, "from 3 is past the item's end: it has paragraphs 0 to 0"},
		{"show", map[string]any{"itemId": "abcd1", "from": -1}, "from and to are paragraph indexes, 0 or more"},
		{"show", map[string]any{"itemId": "abcd1", "from": 0, "to": -2}, "from and to are paragraph indexes, 0 or more"},
		{"show", map[string]any{"itemId": "abcd1", "file": "x"}, `show takes no argument "file"`},
	}
	for _, c := range cases {
		res := call(t, cs, c.tool, c.args)
		if !res.IsError {
			t.Errorf("%s %v: want a tool error, got %s", c.tool, c.args, text(t, res))
			continue
		}
		if got := text(t, res); !strings.Contains(got, c.want) {
			t.Errorf("%s %v: error %q, want it to say %q", c.tool, c.args, got, c.want)
		}
	}
	// A tool that does not exist is a protocol error.
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "add", Arguments: map[string]any{"path": "/etc"}}); err == nil {
		t.Errorf("calling an unknown tool did not fail")
	}
	// The server still answers.
	res := ok(t, cs, "find_passages", map[string]any{"question": "otters"})
	var doc passagesDoc
	structured(t, res, &doc)
	if len(doc.Passages) != 2 {
		t.Errorf("after the bad calls: %s", text(t, res))
	}
	if got := text(t, ok(t, cs, "show", map[string]any{"itemId": "abcd2"})); !strings.Contains(got, "otters and rivers") {
		t.Errorf("show after the bad calls: %s", got)
	}
}

// A library that is not there, or has nothing in it, is an error with a
// hint for each call, not a server that will not start.
func TestNoLibrary(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nothing-here")
	cs := connect(t, missing)
	res := call(t, cs, "find_passages", map[string]any{"question": "tea"})
	if got := text(t, res); !res.IsError || !strings.Contains(got, "no library at "+missing) || !strings.Contains(got, "hint: the library is empty: ask the user to save something") {
		t.Errorf("find_passages in no library: %v %q", res.IsError, got)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("the server made the library folder")
	}
	empty := t.TempDir()
	w, err := ingest.OpenWriter(empty, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	cs = connect(t, empty)
	res = call(t, cs, "search", map[string]any{"question": "tea"})
	if got := text(t, res); !res.IsError || !strings.Contains(got, "is empty") {
		t.Errorf("search in an empty library: %v %q", res.IsError, got)
	}
}

// Nothing the tools do changes a file of the library.
func TestReadOnly(t *testing.T) {
	needDraft(t)
	before := snapshot(t, docsLib)
	cs := connect(t, docsLib)
	ok(t, cs, "find_passages", map[string]any{"question": "green tea"})
	ok(t, cs, "search", map[string]any{"question": "sourdough"})
	ok(t, cs, "show", map[string]any{"itemId": "330cadf4"})
	ok(t, cs, "ask", map[string]any{"question": "how long should sourdough rise"})
	call(t, cs, "show", map[string]any{"itemId": "../.."})
	if d := cmp.Diff(before, snapshot(t, docsLib)); d != "" {
		t.Errorf("the library changed (-before +after):\n%s", d)
	}
}

// snapshot is every file of a folder with its size and modification time.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files[p] = fmt.Sprintf("%v %d %s", info.Mode(), info.Size(), info.ModTime().Format(time.RFC3339Nano))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestCommandLine(t *testing.T) {
	msg, code := sponge("mcp", "extra")
	if code != 2 || !strings.Contains(msg, `sponge: error: mcp takes no arguments (got "extra")`) {
		t.Errorf("sponge mcp extra: exit %d, %q", code, msg)
	}
	out, _, code := command(t, "sponge", "mcp", "--help")
	if code != 0 || !strings.Contains(out, "find_passages") {
		t.Errorf("sponge mcp --help: exit %d\n%s", code, out)
	}
}

// sponge add and sponge rm go on while the server runs, whether the agent
// is idle or calling all the time, and the next call sees what they did.
func TestWritersWhileServing(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "lib")
	if msg, code := sponge("add", "--library", lib, filepath.Join("..", "..", "..", "testdata", "docs", "tea-brewing.md")); code != 0 {
		t.Fatal(msg)
	}
	docs := t.TempDir()
	for _, w := range []string{"otters", "badgers"} {
		os.WriteFile(filepath.Join(docs, w+".md"), []byte("# All about "+w+"\n\nThe "+w+" live by the river and eat fish.\n"), 0o644)
	}
	cs := connect(t, lib)
	titles := func(q string) []string {
		var doc passagesDoc
		structured(t, ok(t, cs, "find_passages", map[string]any{"question": q}), &doc)
		var ts []string
		for _, p := range doc.Passages {
			ts = append(ts, p.Title)
		}
		return ts
	}
	timed := func(args ...string) time.Duration {
		t.Helper()
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, filepath.Join(binDir, "sponge"), args...).CombinedOutput()
		if err != nil {
			t.Fatalf("sponge %v while serving: %v\n%s", args, err, out)
		}
		return time.Since(start)
	}
	if ts := titles("green tea"); len(ts) == 0 {
		t.Fatal("no passages") // the index is kept open now
	}
	idle := timed("add", "--library", lib, filepath.Join(docs, "otters.md"))
	if ts := titles("otters river"); !slices.Contains(ts, "All about otters") {
		t.Errorf("the item added while idle is not found: %v", ts)
	}

	// An agent calling all the time.
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				done <- n
				return
			default:
			}
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "find_passages", Arguments: map[string]any{"question": "river fish tea"}})
			if err != nil || res.IsError {
				t.Errorf("a call while writing failed: %v %+v", err, res)
			}
			n++
		}
	}()
	time.Sleep(100 * time.Millisecond)
	busyAdd := timed("add", "--library", lib, filepath.Join(docs, "badgers.md"))
	var otters string
	for _, id := range mustIDs(t, lib) {
		if it, err := mustItem(t, lib, id); err == nil && it.Title == "All about otters" {
			otters = id
		}
	}
	busyRm := timed("rm", "--library", lib, otters[:12])
	close(stop)
	calls := <-done
	t.Logf("sponge add took %v with the server idle; add %v and rm %v with %d calls going on", idle.Round(time.Millisecond), busyAdd.Round(time.Millisecond), busyRm.Round(time.Millisecond), calls)
	ts := titles("otters badgers river")
	if !slices.Contains(ts, "All about badgers") || slices.Contains(ts, "All about otters") {
		t.Errorf("after add and rm while busy: %v", ts)
	}
}

func mustIDs(t *testing.T, dir string) []string {
	t.Helper()
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := lib.IDs()
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func mustItem(t *testing.T, dir, id string) (*item.Item, error) {
	t.Helper()
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return lib.Item(id)
}
