package draft

// The --endpoint drafter: statements written by a model behind any
// OpenAI-compatible server (llama.cpp's llama-server, ollama, vLLM,
// `sponge serve`).
//
// It asks for JSON, {"statements":[{"text","passage","quote"}, …]}, under a
// JSON schema where the server takes one (and as plain instructions where it
// refuses), streams the reply, and emits each statement the moment its JSON
// object closes. What a broken reply leaves printed: the statements already
// complete and well-formed have gone out (each is a whole record, and
// sponge-verify still checks its quote); the stage then fails with exit 1
// and writes no `done` record, so later stages see an answer that was cut.
// Failures found before any text (a dead server, a refused connection, a
// wrong model name, a refused request) print no statement at all.
//
// When the server is `sponge serve` (its model list says so), the request
// also carries the question and passages as records (sponge_draft), and the
// server writes the statements with the embedded drafter, whose quotes are
// copied from their passages by construction.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/model/openai"
	"github.com/sponge-library/sponge/jsonl"
)

func init() { builtin.OpenEndpoint = openEndpointDrafter }

// Hints for the ways a server can fail, by what the person can do.
const (
	// unreachableHint: nothing answers there.
	unreachableHint = "start the server, or run sponge setup --digest"
	// failedHint: the server is up, and failed (5xx, an error in the
	// stream, a reply cut off or without end).
	failedHint = "the server is running but failing: its own log says why"
	// slowHint: the reply did not come in time.
	slowHint = "is the server busy or stuck? a slow model can be given longer with --timeout"
	// protocolHint: the server does not answer as an OpenAI-compatible one.
	protocolHint = "give the base URL of an OpenAI-compatible server (llama-server, ollama, vLLM, sponge serve)"
	// modelHint: the model did not write what was asked.
	modelHint = "the model did not write the JSON asked for: a larger or instruction-tuned model may do better"
)

type endpointDrafter struct {
	client *openai.Client
	model  string
	max    int
	sponge bool // the server is sponge serve
	fixed  *fixedDraft
	// summary: the request asks for a summary (Summarize), not an answer.
	summary bool
}

// spongeDraft is the sponge_draft field of a request to sponge serve.
type spongeDraft struct {
	Question      string           `json:"question"`
	Passages      []*jsonl.Passage `json:"passages"`
	MaxStatements int              `json:"maxStatements"`
	// Fixed is for benchmarks only (OpenFixedEndpoint): sponge serve then
	// makes the draft this length whatever the model prefers, as
	// Embedded.Fixed does. sponge-draft --endpoint never sends it.
	Fixed *fixedDraft `json:"fixed,omitempty"`
	// Summary asks sponge serve for a summary of the passages (Summarize).
	Summary bool `json:"summary,omitempty"`
}

// fixedDraft is Fixed on the wire.
type fixedDraft struct {
	Statements  int `json:"statements"`
	TextTokens  int `json:"textTokens"`
	QuoteTokens int `json:"quoteTokens"`
}

// openEndpointDrafter checks that the server answers before anything is
// written, and, with no model name, uses the one model the server offers.
func openEndpointDrafter(endpoint, model string, opt ModelOptions) (Drafter, error) {
	c, err := openai.NewClient(endpoint)
	if err != nil {
		return nil, console.Usage("--endpoint: %v", err).WithHint("give the server's base URL, e.g. --endpoint http://127.0.0.1:8080")
	}
	if opt.Timeout > 0 {
		c.TotalTimeout = opt.Timeout
	}
	// The whole timeout bounds the wait for the first piece too: a CPU
	// server may read the prompt for minutes, and a person who gives it
	// longer with --timeout means that as well.
	c.FirstByteTimeout = 0
	d := &endpointDrafter{client: c, model: model, max: opt.MaxStatements}
	if d.max <= 0 {
		d.max = 6
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := c.ModelList(ctx)
	var oe *openai.Error
	switch {
	case err == nil:
	case errors.As(err, &oe) && (oe.Kind == openai.ErrStatus || oe.Kind == openai.ErrMalformed):
		// The server lists no models (not every one has /v1/models); the
		// chat request will say whether it serves one.
		list = nil
	default:
		return nil, endpointError(err)
	}
	var names []string
	for _, m := range list {
		names = append(names, m.ID)
		if m.OwnedBy == openai.OwnedBy && (d.model == "" || d.model == m.ID) {
			d.sponge = true
		}
	}
	if d.model != "" && len(names) > 0 && !servesModel(names, d.model) {
		// Said before anything is written: asked later, the failure would
		// come after the passages, and the answer would look cut off.
		return nil, console.Errorf("endpoint %s: the server has no model %q; it has: %s", c.Endpoint, d.model, listNames(names)).
			WithHint("pass one of them with --model")
	}
	if d.model == "" {
		switch len(names) {
		case 0:
		case 1:
			d.model = names[0]
		default:
			return nil, console.Errorf("endpoint %s has %d models (%s); say which to use", c.Endpoint, len(names), listNames(names)).
				WithHint("add --model NAME")
		}
	}
	return d, nil
}

// servesModel reports whether a server that lists names serves model:
// Ollama takes "qwen2.5" for the "qwen2.5:latest" it lists.
func servesModel(names []string, model string) bool {
	for _, n := range names {
		if n == model || n == model+":latest" {
			return true
		}
	}
	return false
}

func listNames(names []string) string {
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + ", …"
	}
	return strings.Join(names, ", ")
}

// Name is the model's name as the server calls it.
func (d *endpointDrafter) Name() string {
	if d.model != "" {
		return d.model
	}
	return d.client.Endpoint
}

// endpointError gives a failure of the server the hint for its kind; other
// errors pass unchanged.
func endpointError(err error) error {
	var oe *openai.Error
	if !errors.As(err, &oe) {
		return err
	}
	hint := protocolHint
	switch {
	case oe.Kind == openai.ErrUnreachable:
		hint = unreachableHint
	case oe.Kind == openai.ErrTimeout:
		hint = slowHint
	case oe.Kind == openai.ErrServer || oe.Kind == openai.ErrCut || oe.Kind == openai.ErrTooLarge ||
		oe.Kind == openai.ErrStatus && oe.Status >= 500:
		hint = failedHint
	}
	return &serverError{console.Errorf("%s", oe.Error()).WithHint("%s", hint), oe}
}

// serverError is a failure of the server: the message and hint for the
// person, and the failure itself, whose kind choose reads.
type serverError struct {
	msg   *console.Error
	cause *openai.Error
}

func (e *serverError) Error() string { return e.msg.Error() }

func (e *serverError) Unwrap() []error { return []error{e.msg, e.cause} }

// malformedError is a reply that is not the JSON asked for.
type malformedError struct{ msg string }

func (e *malformedError) Error() string { return e.msg }

// emitError carries an error of emit (such as a closed stdout) out of the
// stream unchanged.
type emitError struct{ err error }

func (e *emitError) Error() string { return e.err.Error() }

var errEnough = errors.New("enough statements")

// Draft asks the server and emits the statements as they complete.
func (d *endpointDrafter) Draft(ctx context.Context, question string, passages []*jsonl.Passage, emit func(*jsonl.Statement) error) error {
	if len(passages) == 0 {
		return nil
	}
	req := d.request(question, passages, true)
	err := d.stream(ctx, req, emit)
	var oe *openai.Error
	if errors.As(err, &oe) && oe.Kind == openai.ErrFormatUnsupported {
		// The server takes no JSON schema: the instructions alone ask for JSON.
		err = d.stream(ctx, d.request(question, passages, false), emit)
	}
	var ee *emitError
	if errors.As(err, &ee) {
		return ee.err
	}
	if errors.As(err, &oe) && oe.Kind == openai.ErrModelNotFound {
		hint := "check the name given to --model"
		lctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if names, lerr := d.client.Models(lctx); lerr == nil && len(names) > 0 {
			hint = fmt.Sprintf("the server has: %s; pass one with --model", listNames(names))
		}
		cancel()
		return console.Errorf("%s", oe.Error()).WithHint("%s", hint)
	}
	var me *malformedError
	if errors.As(err, &me) {
		return console.Errorf("endpoint %s: %s", d.client.Endpoint, me.msg).WithHint(modelHint)
	}
	return endpointError(err)
}

// stream sends one request and emits statements while the reply comes.
func (d *endpointDrafter) stream(ctx context.Context, req openai.ChatRequest, emit func(*jsonl.Statement) error) error {
	scan := openai.NewArrayScanner()
	n := 0
	res, err := d.client.ChatStream(ctx, req, func(text string) error {
		for _, raw := range scan.Write(text) {
			st, err := parseStatement(raw)
			if err != nil {
				return &malformedError{fmt.Sprintf("statement %d of the reply is not what was asked for: %v", n+1, err)}
			}
			n++
			if err := emit(st); err != nil {
				return &emitError{err}
			}
			if n >= d.max {
				return errEnough // at most max statements: stop the server writing more
			}
		}
		return nil
	})
	if errors.Is(err, errEnough) {
		return nil
	}
	if err != nil {
		return err
	}
	value, ok := scan.Value()
	if !ok {
		if res.FinishReason == openai.FinishLength {
			return &malformedError{"the reply reached the server's token limit before its JSON was complete"}
		}
		return &malformedError{"the reply is not the JSON that was asked for: " + excerpt(scan.Text())}
	}
	extra, err := checkReply(value)
	if err != nil {
		return &malformedError{err.Error() + ": " + excerpt(string(value))}
	}
	if extra != nil && n == 0 {
		// A single statement object rather than a list of them.
		st, err := parseStatement(extra)
		if err != nil {
			return &malformedError{"the reply is not what was asked for: " + err.Error()}
		}
		if err := emit(st); err != nil {
			return err
		}
	}
	return nil
}

func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(an empty reply)"
	}
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return strconv.Quote(s)
}

// checkReply checks the whole reply has the shape asked for: an object with
// a "statements" list, or a bare list. A lone statement object is returned
// for the caller to emit.
func checkReply(value []byte) (lone []byte, err error) {
	value = bytes.TrimSpace(value)
	if len(value) > 0 && value[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(value, &list); err != nil {
			return nil, fmt.Errorf("the reply is not valid JSON (%v)", err)
		}
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(value, &obj); err != nil {
		return nil, fmt.Errorf("the reply is not valid JSON (%v)", err)
	}
	if raw, ok := obj["statements"]; ok {
		var list []json.RawMessage
		if string(bytes.TrimSpace(raw)) == "null" {
			return nil, nil
		}
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, errors.New(`"statements" is not a list`)
		}
		return nil, nil
	}
	if _, ok := obj["quote"]; ok {
		return value, nil
	}
	return nil, errors.New(`the reply has no "statements" list`)
}

// parseStatement reads one statement object. Text and quote must be
// strings; the passage a number (a numeric string is taken too, as small
// models write one without a schema). Whether the passage exists and the
// quote is in it is for sponge-verify to judge.
func parseStatement(raw []byte) (*jsonl.Statement, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("not a JSON object: %s", excerpt(string(raw)))
	}
	st := &jsonl.Statement{}
	for _, f := range []struct {
		key string
		dst *string
	}{{"text", &st.Text}, {"quote", &st.Quote}} {
		v, ok := obj[f.key]
		if !ok || string(v) == "null" {
			continue
		}
		if err := json.Unmarshal(v, f.dst); err != nil {
			return nil, fmt.Errorf("%q is not a string", f.key)
		}
		*f.dst = strings.TrimSpace(*f.dst)
	}
	if v, ok := obj["passage"]; ok && string(v) != "null" {
		p, err := passageNumber(v)
		if err != nil {
			return nil, err
		}
		st.Passage = p
	}
	return st, nil
}

func passageNumber(v json.RawMessage) (int, error) {
	var f float64
	if err := json.Unmarshal(v, &f); err == nil {
		if f != float64(int(f)) {
			return 0, fmt.Errorf(`"passage" is %v, not a whole number`, f)
		}
		return int(f), nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err == nil {
		s = strings.TrimSpace(strings.TrimPrefix(strings.Trim(s, "[] "), "#"))
		if n, err := strconv.Atoi(s); err == nil {
			return n, nil
		}
	}
	return 0, fmt.Errorf(`"passage" is %s, not a passage number`, string(v))
}

// The prompt. The model reads the question and the numbered passages only.
const endpointPrompt = `You answer a question using only the numbered passages you are given.
Write at most %d short statements that answer the question. For each statement give:
- "text": the statement, one sentence in your own words;
- "passage": the number of the one passage it rests on;
- "quote": words copied exactly, character for character, from that passage (a phrase or one sentence) that show the statement is true.
Quote only from the passage you name. If the passages do not answer the question, write no statements.
Reply with JSON only, in this shape: {"statements":[{"text":"…","passage":1,"quote":"…"}]}`

// endpointSummaryPrompt is endpointPrompt for a summary of one item.
const endpointSummaryPrompt = `You sum up one item of the user's library from numbered passages taken from all of it, in reading order.
Write at most %d short statements that together say what the item is about and its main points, in the item's order. For each statement give:
- "text": the statement, one sentence in your own words;
- "passage": the number of the one passage it rests on;
- "quote": words copied exactly, character for character, from that passage (a phrase or one sentence) that show the statement is true.
Quote only from the passage you name.
Reply with JSON only, in this shape: {"statements":[{"text":"…","passage":1,"quote":"…"}]}`

// Summarize asks the server for a summary of one item's passages. It
// differs from Draft only in the prompt (endpointSummaryPrompt, the item's
// title where the question was) and, to sponge serve, the summary flag.
func (d *endpointDrafter) Summarize(ctx context.Context, passages []*jsonl.Passage, emit func(*jsonl.Statement) error) error {
	d.summary = true
	defer func() { d.summary = false }()
	return d.Draft(ctx, jsonl.SummaryQuestion, passages, emit)
}

func (d *endpointDrafter) request(question string, passages []*jsonl.Passage, schema bool) openai.ChatRequest {
	var b strings.Builder
	system := endpointPrompt
	if d.summary && len(passages) > 0 {
		system = endpointSummaryPrompt
		fmt.Fprintf(&b, "Item: %s\n\nPassages:\n", passages[0].Title)
	} else {
		fmt.Fprintf(&b, "Question: %s\n\nPassages:\n", question)
	}
	for _, p := range passages {
		fmt.Fprintf(&b, "\n[%d] %s", p.Number, p.Title)
		if p.Heading != "" {
			fmt.Fprintf(&b, " — %s", p.Heading)
		}
		if p.Page > 0 {
			fmt.Fprintf(&b, " (page %d)", p.Page)
		}
		fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(p.Text))
	}
	temp := 0.0
	req := openai.ChatRequest{
		Model: d.model,
		Messages: []openai.Message{
			{Role: "system", Content: fmt.Sprintf(system, d.max)},
			{Role: "user", Content: b.String()},
		},
		Temperature: &temp,
		MaxTokens:   160*d.max + 100,
	}
	if d.sponge {
		req.SpongeDraft, _ = json.Marshal(spongeDraft{Question: question, Passages: passages, MaxStatements: d.max, Fixed: d.fixed, Summary: d.summary})
	}
	if schema {
		req.ResponseFormat = &openai.ResponseFormat{Type: "json_schema", JSONSchema: &openai.JSONSchema{
			Name: "statements", Strict: true, Schema: statementSchema(passages, d.max),
		}}
	}
	return req
}

// statementSchema is the JSON schema of the reply, its properties in the
// order the model should write them (llama.cpp's grammar keeps the order),
// and passage numbers limited to those given.
func statementSchema(passages []*jsonl.Passage, max int) json.RawMessage {
	nums := make([]int, 0, len(passages))
	for _, p := range passages {
		nums = append(nums, p.Number)
	}
	enum, _ := json.Marshal(nums)
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"statements":{"type":"array","maxItems":%d,`+
		`"items":{"type":"object","properties":{"text":{"type":"string"},"passage":{"type":"integer","enum":%s},"quote":{"type":"string"}},`+
		`"required":["text","passage","quote"],"additionalProperties":false}}},"required":["statements"],"additionalProperties":false}`, max, enum))
}

// OpenFixedEndpoint opens the drafter of the sponge serve at endpoint for a
// benchmark: every draft it asks for has the length fixed sets (see
// Embedded.Fixed), so that random-weight models can be timed through the
// server. Other servers cannot be asked for that and are refused.
func OpenFixedEndpoint(endpoint string, fixed Fixed) (Drafter, error) {
	d, err := openEndpointDrafter(endpoint, "", ModelOptions{MaxStatements: fixed.Statements})
	if err != nil {
		return nil, err
	}
	ed := d.(*endpointDrafter)
	if !ed.sponge {
		return nil, fmt.Errorf("%s is not sponge serve, so it cannot make drafts of a fixed length", ed.client.Endpoint)
	}
	ed.fixed = &fixedDraft{Statements: fixed.Statements, TextTokens: fixed.TextTokens, QuoteTokens: fixed.QuoteTokens}
	return ed, nil
}
