package draft

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/model/openai"
	"github.com/sponge-library/sponge/jsonl"
)

var epPassages = []*jsonl.Passage{
	{Number: 1, ItemID: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Title: "Green tea", Heading: "Brewing", Text: "Brew green tea at 70 to 80 degrees for two minutes."},
	{Number: 2, ItemID: "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", Title: "Black tea", Page: 3, Text: "Black tea wants boiling water and four minutes."},
}

const epReply = `{"statements":[{"text":"Green tea is brewed below boiling.","passage":1,"quote":"Brew green tea at 70 to 80 degrees"},` +
	`{"text":"Black tea steeps longer.","passage":2,"quote":"four minutes"}]}`

var epStatements = []*jsonl.Statement{
	{Text: "Green tea is brewed below boiling.", Passage: 1, Quote: "Brew green tea at 70 to 80 degrees"},
	{Text: "Black tea steeps longer.", Passage: 2, Quote: "four minutes"},
}

// epServer is an OpenAI-compatible server on 127.0.0.1 that streams a
// fixed reply in small pieces, recording the requests it gets.
type epServer struct {
	reply     string
	piece     int           // bytes per streamed chunk
	pause     time.Duration // between chunks
	noSchema  bool          // refuse response_format json_schema, as older servers do
	models    []string      // for GET /v1/models; nil answers 404
	unlisted  bool          // answer 404 to GET /v1/models even with models, as some servers do
	dieAfter  int           // close the connection after this many bytes of reply, when > 0
	mu        sync.Mutex
	requests  []openai.ChatRequest
	cancelled bool
}

func (s *epServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/models":
		if s.models == nil || s.unlisted {
			http.NotFound(w, r)
			return
		}
		list := openai.ModelList{Object: "list"}
		for _, m := range s.models {
			list.Data = append(list.Data, openai.ModelInfo{ID: m, Object: "model"})
		}
		json.NewEncoder(w).Encode(list)
		return
	case "/v1/chat/completions":
	default:
		http.NotFound(w, r)
		return
	}
	var req openai.ChatRequest
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	if s.models != nil && req.Model != "" && !epContains(s.models, req.Model) {
		w.WriteHeader(404)
		fmt.Fprintf(w, `{"error":{"message":"model '%s' not found","type":"not_found_error"}}`, req.Model)
		return
	}
	if s.noSchema && req.ResponseFormat != nil && req.ResponseFormat.Type == "json_schema" {
		w.WriteHeader(400)
		fmt.Fprint(w, `{"error":{"message":"'response_format' of type 'json_schema' is not supported","type":"invalid_request_error"}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	piece := max(s.piece, 1)
	for i := 0; i < len(s.reply); i += piece {
		if s.dieAfter > 0 && i >= s.dieAfter {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		if s.pause > 0 {
			select {
			case <-time.After(s.pause):
			case <-r.Context().Done():
				s.mu.Lock()
				s.cancelled = true
				s.mu.Unlock()
				return
			}
		}
		b, _ := json.Marshal(openai.ChatResponse{Object: "chat.completion.chunk", Model: "tiny",
			Choices: []openai.Choice{{Delta: &openai.Delta{Content: s.reply[i:min(i+piece, len(s.reply))]}}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
		w.(http.Flusher).Flush()
	}
	stop := "stop"
	b, _ := json.Marshal(openai.ChatResponse{Object: "chat.completion.chunk", Choices: []openai.Choice{{Delta: &openai.Delta{}, FinishReason: &stop}}})
	fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", b)
}

func epContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func epStart(t *testing.T, s *epServer) string {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv.URL
}

type epEmitted struct {
	statements []*jsonl.Statement
	at         []time.Time
}

func (e *epEmitted) emit(s *jsonl.Statement) error {
	e.statements = append(e.statements, s)
	e.at = append(e.at, time.Now())
	return nil
}

func epDraft(t *testing.T, url, model string, opt ModelOptions) (*epEmitted, error) {
	t.Helper()
	d, err := openEndpointDrafter(url, model, opt)
	if err != nil {
		return nil, err
	}
	var e epEmitted
	err = d.Draft(context.Background(), "How hot should tea be?", epPassages, e.emit)
	return &e, err
}

func epHint(err error) string {
	var ce *console.Error
	if errors.As(err, &ce) {
		return ce.Hint
	}
	return ""
}

func TestEndpointStreamsStatements(t *testing.T) {
	t.Parallel()
	s := &epServer{reply: epReply, piece: 7, pause: 10 * time.Millisecond, models: []string{"tiny"}}
	url := epStart(t, s)
	e, err := epDraft(t, url, "", ModelOptions{MaxStatements: 6})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(epStatements, e.statements); diff != "" {
		t.Fatalf("statements (-want +got):\n%s", diff)
	}
	// The first statement went out while the reply was still coming.
	if gap := e.at[1].Sub(e.at[0]); gap < 50*time.Millisecond {
		t.Errorf("statements came %v apart: not streamed", gap)
	}
	req := s.requests[0]
	if req.Model != "tiny" || !req.Stream || *req.Temperature != 0 {
		t.Errorf("request %+v", req)
	}
	if req.ResponseFormat == nil || req.ResponseFormat.Type != "json_schema" || !strings.Contains(string(req.ResponseFormat.JSONSchema.Schema), `"enum":[1,2]`) {
		t.Errorf("response_format %+v", req.ResponseFormat)
	}
	user := req.Messages[1].Content
	for _, want := range []string{"Question: How hot should tea be?", "[1] Green tea — Brewing\nBrew green tea", "[2] Black tea (page 3)\nBlack tea wants"} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %q:\n%s", want, user)
		}
	}
	if !strings.Contains(req.Messages[0].Content, "at most 6 short statements") {
		t.Errorf("system prompt: %s", req.Messages[0].Content)
	}
}

func TestEndpointWithoutSchemaSupport(t *testing.T) {
	t.Parallel()
	// Without a schema, small models fence their JSON and write numbers as strings.
	reply := "```json\n" + strings.Replace(epReply, `"passage":2`, `"passage":"2"`, 1) + "\n```"
	s := &epServer{reply: reply, piece: 5, noSchema: true}
	e, err := epDraft(t, epStart(t, s), "tiny", ModelOptions{MaxStatements: 6})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(epStatements, e.statements); diff != "" {
		t.Fatalf("statements (-want +got):\n%s", diff)
	}
	if len(s.requests) != 2 || s.requests[1].ResponseFormat != nil {
		t.Errorf("want a second request without response_format, got %d requests", len(s.requests))
	}
}

func TestEndpointStopsAtMax(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	sb.WriteString(`{"statements":[`)
	for i := range 20 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"text":"s%d","passage":1,"quote":"green tea"}`, i)
	}
	sb.WriteString("]}")
	s := &epServer{reply: sb.String(), piece: 40, pause: 5 * time.Millisecond}
	e, err := epDraft(t, epStart(t, s), "tiny", ModelOptions{MaxStatements: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.statements) != 3 || e.statements[2].Text != "s2" {
		t.Fatalf("got %d statements", len(e.statements))
	}
	time.Sleep(100 * time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.cancelled {
		t.Error("the server was not told to stop writing")
	}
}

func TestEndpointNoStatements(t *testing.T) {
	t.Parallel()
	s := &epServer{reply: `{"statements": []}`, piece: 3}
	e, err := epDraft(t, epStart(t, s), "tiny", ModelOptions{})
	if err != nil || len(e.statements) != 0 {
		t.Fatalf("got %v, %v", e.statements, err)
	}
}

func TestEndpointDead(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	_, err = openEndpointDrafter(url, "tiny", ModelOptions{})
	if err == nil || err.Error() != "endpoint "+url+": connection refused (no server is listening there)" || epHint(err) != unreachableHint {
		t.Fatalf("got %v (hint %q)", err, epHint(err))
	}
}

// Issue 43: where nothing answers at the endpoint the person set (the
// config file, the environment), the statements are the passages' best
// sentences, with a warning naming the endpoint and how to stop using it;
// an endpoint given on the command line is an error, whose hint says how.
func TestEndpointDeadSetting(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	rt := Runtimes{OpenEndpoint: openEndpointDrafter}
	for _, c := range []struct {
		from, where, hint string
	}{
		{"config", "set in the config file", "start the server, or run 'sponge config unset endpoint' to stop using it"},
		{"env", "set in $SPONGE_ENDPOINT", "start the server, or unset SPONGE_ENDPOINT to stop using it"},
	} {
		var out, stderr bytes.Buffer
		code := MainWith(rt, []string{"--endpoint", url, "--endpoint-from", c.from}, epInput(), &out, &stderr)
		recs := records(t, out.String())
		if code != 0 || stderr.Len() != 0 {
			t.Fatalf("--endpoint-from %s: exit %d, stderr %q", c.from, code, stderr.String())
		}
		var w *jsonl.Warning
		var model string
		done := false
		for _, r := range recs {
			switch r := r.(type) {
			case *jsonl.Warning:
				w = r
			case *jsonl.Model:
				model = r.Name
			case *jsonl.Done:
				done = true
			}
		}
		wantMsg := "the endpoint " + url + " (" + c.where + ") does not answer: connection refused (no server is listening there); " +
			"so the statements are the passages' best sentences, quoted"
		if w == nil || w.Code != jsonl.WarnModelUnavailable || w.Message != wantMsg || w.Hint != c.hint {
			t.Errorf("--endpoint-from %s: warning %+v\nwant message %q, hint %q", c.from, w, wantMsg, c.hint)
		}
		if model != jsonl.ModelExtractive || !done {
			t.Errorf("--endpoint-from %s: model %q, done %v; want the extractive drafter's whole answer", c.from, model, done)
		}
	}
	var out, stderr bytes.Buffer
	code := MainWith(rt, []string{"--endpoint", url}, epInput(), &out, &stderr)
	want := "sponge-draft: error: endpoint " + url + ": connection refused (no server is listening there)\n" +
		"sponge-draft: hint: start the server, or leave out --endpoint ('sponge config unset endpoint' forgets a saved one)\n"
	if code != console.ExitFailure || stderr.String() != want || out.Len() != 0 {
		t.Errorf("--endpoint alone: exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out.String(), stderr.String(), want)
	}
	stderr.Reset()
	if code := MainWith(rt, []string{"--endpoint-from", "config"}, epInput(), &out, &stderr); code != console.ExitUsage {
		t.Errorf("--endpoint-from without --endpoint: exit %d, stderr %q", code, stderr.String())
	}
}

func TestEndpointDiesMidStream(t *testing.T) {
	t.Parallel()
	s := &epServer{reply: epReply, piece: 10, dieAfter: 130}
	e, err := epDraft(t, epStart(t, s), "tiny", ModelOptions{})
	if err == nil || !strings.Contains(err.Error(), "closed the connection before the reply was complete") || epHint(err) != failedHint {
		t.Fatalf("got %v", err)
	}
	// The statement complete before the cut went out; nothing half-made did.
	if diff := cmp.Diff(epStatements[:1], e.statements); diff != "" {
		t.Errorf("statements (-want +got):\n%s", diff)
	}
}

func TestEndpointWrongModel(t *testing.T) {
	t.Parallel()
	s := &epServer{reply: epReply, models: []string{"qwen2.5:0.5b", "llama3.2:1b", "qwen2.5:latest"}}
	url := epStart(t, s)
	// The server lists its models: a name it does not have is refused as
	// the drafter opens, before the stage writes anything.
	_, err := openEndpointDrafter(url, "qwen9", ModelOptions{})
	want := "endpoint " + url + `: the server has no model "qwen9"; it has: qwen2.5:0.5b, llama3.2:1b, qwen2.5:latest`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	if h := epHint(err); h != "pass one of them with --model" {
		t.Errorf("hint %q", h)
	}
	if len(s.requests) != 0 {
		t.Errorf("%d chat requests for a model the server does not list", len(s.requests))
	}
	// Ollama's short name for the :latest it lists is its model.
	if _, err := openEndpointDrafter(url, "qwen2.5", ModelOptions{}); err != nil {
		t.Errorf("qwen2.5 with qwen2.5:latest listed: %v", err)
	}
	// A server that does not list its models says so to the request.
	s2 := &epServer{reply: epReply, models: []string{"qwen2.5:0.5b", "llama3.2:1b"}, unlisted: true}
	url2 := epStart(t, s2)
	e, err := epDraft(t, url2, "qwen9", ModelOptions{})
	want = "endpoint " + url2 + `: the server has no model "qwen9" (model 'qwen9' not found)`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	if h := epHint(err); h != "check the name given to --model" {
		t.Errorf("hint %q", h)
	}
	if len(e.statements) != 0 {
		t.Error("statements were epEmitted")
	}
	// No name and several models: say which there are.
	_, err = openEndpointDrafter(url, "", ModelOptions{})
	if err == nil || !strings.Contains(err.Error(), "has 3 models (qwen2.5:0.5b, llama3.2:1b, qwen2.5:latest)") || epHint(err) != "add --model NAME" {
		t.Errorf("got %v", err)
	}
}

func TestEndpointGarbage(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct {
		reply, want string
		n           int
	}{
		"prose":         {"I am sorry, but I cannot answer that question.", `the reply is not the JSON that was asked for: "I am sorry, but I cannot answer that question."`, 0},
		"wrong shape":   {`{"answer":"70 degrees"}`, `the reply has no "statements" list: "{\"answer\":\"70 degrees\"}"`, 0},
		"bad element":   {`{"statements":[{"text":"a","passage":1,"quote":"b"},{"text":7}]}`, `statement 2 of the reply is not what was asked for: "text" is not a string`, 1},
		"bad passage":   {`{"statements":[{"text":"a","passage":"first","quote":"b"}]}`, `statement 1 of the reply is not what was asked for: "passage" is "first", not a passage number`, 0},
		"not an object": {`{"statements":["Green tea is brewed cool."]}`, `statement 1 of the reply is not what was asked for: not a JSON object: "\"Green tea is brewed cool.\""`, 0},
		"unfinished":    {`{"statements":[{"text":"a","passage":1,"quote":"b"},{"text":"c"`, `the reply is not the JSON that was asked for: "{\"statements\":[{\"text\":\"a\",\"passage\":1,\"quote\":\"b\"},{\"text\":\"c\""`, 1},
	} {
		t.Run(name, func(t *testing.T) {
			url := epStart(t, &epServer{reply: tt.reply, piece: 4})
			e, err := epDraft(t, url, "tiny", ModelOptions{})
			if err == nil || err.Error() != "endpoint "+url+": "+tt.want || epHint(err) != modelHint {
				t.Fatalf("got  %v\nwant endpoint %s: %s", err, url, tt.want)
			}
			if len(e.statements) != tt.n {
				t.Errorf("%d statements epEmitted, want %d", len(e.statements), tt.n)
			}
		})
	}
}

func TestEndpointLoneStatement(t *testing.T) {
	t.Parallel()
	url := epStart(t, &epServer{reply: `{"text":"a","passage":2,"quote":"four minutes"}`, piece: 4})
	e, err := epDraft(t, url, "tiny", ModelOptions{})
	if err != nil || len(e.statements) != 1 || e.statements[0].Passage != 2 {
		t.Fatalf("got %v %v", e.statements, err)
	}
}

func TestEndpointEmitErrorPassesThrough(t *testing.T) {
	t.Parallel()
	url := epStart(t, &epServer{reply: epReply, piece: 9})
	d, err := openEndpointDrafter(url, "tiny", ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	closed := errors.New("write |1: broken pipe")
	err = d.Draft(context.Background(), "q", epPassages, func(*jsonl.Statement) error { return closed })
	if err != closed {
		t.Fatalf("got %v", err)
	}
}

func TestEndpointTimeout(t *testing.T) {
	t.Parallel()
	url := epStart(t, &epServer{reply: epReply, piece: 10, pause: 300 * time.Millisecond})
	_, err := epDraft(t, url, "tiny", ModelOptions{Timeout: 500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "the reply took longer than 500ms") {
		t.Fatalf("got %v", err)
	}
}

func TestEndpointBadURL(t *testing.T) {
	t.Parallel()
	_, err := openEndpointDrafter("localhost:8080", "", ModelOptions{})
	var ce *console.Error
	if !errors.As(err, &ce) || ce.Code != console.ExitUsage {
		t.Fatalf("got %v", err)
	}
}

// TestSpongeDraftFixedOnlyForBenchmarks: the request to sponge serve names
// a fixed length only when the benchmark's OpenFixedEndpoint asked for one.
func TestSpongeDraftFixedOnlyForBenchmarks(t *testing.T) {
	t.Parallel()
	for _, fixed := range []*fixedDraft{nil, {Statements: 6, TextTokens: 16, QuoteTokens: 16}} {
		d := &endpointDrafter{max: 6, sponge: true, fixed: fixed}
		req := d.request("How hot?", epPassages, true)
		var sd map[string]json.RawMessage
		if err := json.Unmarshal(req.SpongeDraft, &sd); err != nil {
			t.Fatal(err)
		}
		raw, ok := sd["fixed"]
		switch {
		case fixed == nil && ok:
			t.Errorf("a normal request carries fixed: %s", raw)
		case fixed != nil && string(raw) != `{"statements":6,"textTokens":16,"quoteTokens":16}`:
			t.Errorf("fixed is %s", raw)
		}
	}
}

// epHostile is a server on 127.0.0.1 that answers a chat request with head
// and then chunk again and again (after pause) until the client hangs up;
// it stops by itself after 64 MiB or 30 seconds, so a client that does not
// stop fails the test instead of hanging it.
func epHostile(t *testing.T, head, chunk string, pause time.Duration) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, head)
		stop := time.After(30 * time.Second)
		for wrote := 0; wrote < 64<<20; wrote += len(chunk) {
			if _, err := fmt.Fprint(w, chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-stop:
				t.Error("the client did not hang up within 30 seconds")
				return
			case <-time.After(pause):
			}
		}
		t.Error("the client read 64 MiB")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func epChunk(content string) string {
	b, _ := json.Marshal(openai.ChatResponse{Object: "chat.completion.chunk", Choices: []openai.Choice{{Delta: &openai.Delta{Content: content}}}})
	return "data: " + string(b) + "\n\n"
}

func epInput() *strings.Reader {
	var sb strings.Builder
	w := jsonl.NewWriter(&sb)
	w.Write(&jsonl.Question{Text: "How hot should tea be?"})
	for _, p := range epPassages {
		w.Write(p)
	}
	return strings.NewReader(sb.String())
}

// TestEndpointHostile: sponge-draft --endpoint against servers that never
// stop writing, or never finish: each run ends with an error that says
// what happened, and the hint for it, instead of filling the memory or
// waiting for ever.
func TestEndpointHostile(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct {
		head, chunk string
		pause       time.Duration
		timeout     string
		want, hint  string
	}{
		"line without end": {"data: ", strings.Repeat("a", 64<<10), 0, "1m",
			"a line of the reply stream passed 1 MiB (an event takes a few hundred bytes)", failedHint},
		"endless stream": {"", epChunk(strings.Repeat("x", 1024)), 0, "1m",
			"the reply passed 4 MiB and was still coming (a few statements take a few KB)", failedHint},
		"trickle": {"", epChunk(" "), 50 * time.Millisecond, "2s",
			"the reply took longer than 2s", slowHint},
	} {
		t.Run(name, func(t *testing.T) {
			url := epHostile(t, tt.head, tt.chunk, tt.pause)
			var out, stderr strings.Builder
			code := Main([]string{"--library", t.TempDir(), "--endpoint", url, "--timeout", tt.timeout}, epInput(), &out, &stderr)
			want := "sponge-draft: error: endpoint " + url + ": " + tt.want + "\nsponge-draft: hint: " + tt.hint + "\n"
			if code != console.ExitFailure || stderr.String() != want {
				t.Fatalf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr.String(), want)
			}
			if strings.Contains(out.String(), `"type":"done"`) {
				t.Error("a done record after a failed draft")
			}
		})
	}
}

// TestEndpointStatusHints: each way a server fails has its own hint; a
// server that is up and failing is not told to start.
func TestEndpointStatusHints(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status     int
		said       string // the server's message
		want, hint string
	}{
		{500, "llama_decode failed", "the server failed (500 Internal Server Error): llama_decode failed", failedHint},
		{503, "loading model", "the server failed (503 Service Unavailable): loading model", failedHint},
		{401, "invalid api key", "the server answered 401: invalid api key", protocolHint},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/v1/chat/completions" {
				http.NotFound(w, r)
				return
			}
			w.WriteHeader(tt.status)
			fmt.Fprintf(w, `{"error":{"message":%q}}`, tt.said)
		}))
		_, err := epDraft(t, srv.URL, "tiny", ModelOptions{})
		srv.Close()
		if err == nil || err.Error() != "endpoint "+srv.URL+": "+tt.want || epHint(err) != tt.hint {
			t.Errorf("%d: got %v (hint %q)", tt.status, err, epHint(err))
		}
	}
}

func TestEndpointTimeoutUsage(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"0", "-1s"} {
		var out, stderr strings.Builder
		code := Main([]string{"--endpoint", "http://127.0.0.1:1", "--timeout", bad}, strings.NewReader(""), &out, &stderr)
		if code != console.ExitUsage || !strings.HasPrefix(stderr.String(), "sponge-draft: error: --timeout must be more than 0") {
			t.Errorf("--timeout %s: exit %d, %q", bad, code, stderr.String())
		}
	}
}

// TestEndpointSummary: a summary question makes the stage ask the server
// for a summary of the item (its prompt, the item's title where the
// question was), and a question after it is an answer again.
func TestEndpointSummary(t *testing.T) {
	t.Parallel()
	s := &epServer{reply: epReply, piece: 50, models: []string{"tiny"}}
	url := epStart(t, s)
	var sb strings.Builder
	w := jsonl.NewWriter(&sb)
	w.Write(&jsonl.Question{Text: jsonl.SummaryQuestion, Summary: true})
	w.Write(epPassages[0])
	var out, errb bytes.Buffer
	if code := Main([]string{"--endpoint", url}, strings.NewReader(sb.String()), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), `"type":"statement"`) {
		t.Errorf("no statement:\n%s", out.String())
	}
	req := s.requests[0]
	if !strings.Contains(req.Messages[0].Content, "You sum up one item") || !strings.HasPrefix(req.Messages[1].Content, "Item: Green tea\n") {
		t.Errorf("not a summary prompt:\n%s\n%s", req.Messages[0].Content, req.Messages[1].Content)
	}
	if _, err := epDraft(t, url, "", ModelOptions{MaxStatements: 6}); err != nil {
		t.Fatal(err)
	}
	if last := s.requests[len(s.requests)-1]; strings.Contains(last.Messages[0].Content, "You sum up") {
		t.Errorf("an answer was asked as a summary")
	}
}
