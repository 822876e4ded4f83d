//go:build cgo

package draft

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sponge-library/sponge/internal/model/openai"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/verify"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startServe runs the real sponge serve (the --serve mode) on a free port
// until the test ends, and returns its endpoint.
func startServe(t *testing.T, model, lib string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var stderr bytes.Buffer
	go func() {
		done <- serve(ctx, &Options{Library: lib, ModelFile: model, Port: freePort(t), Threads: 1, PassageTokens: DefaultPassageTokens}, &stderr, func(ep string) { ready <- ep })
	}()
	var endpoint string
	select {
	case endpoint = <-ready:
	case err := <-done:
		t.Fatalf("serve ended: %v\n%s", err, stderr.String())
	case <-time.After(time.Minute):
		t.Fatal("serve did not start")
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		if !strings.HasSuffix(stderr.String(), "sponge serve: stopped\n") {
			t.Errorf("serve's stderr: %q", stderr.String())
		}
		if _, err := os.Stat(filepath.Join(lib, openai.ServeFile)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("serve.json left behind (%v)", err)
		}
	})
	return endpoint
}

func questionStream(passages []*jsonl.Passage) *bytes.Buffer {
	var in bytes.Buffer
	w := jsonl.NewWriter(&in)
	w.Write(&jsonl.Question{Text: "How hot should the water be for green tea?"})
	for _, p := range passages {
		w.Write(p)
	}
	return &in
}

// TestEndpointAgainstServe runs the --endpoint client against sponge serve
// itself, a real server with a real (random-weight) model: the statements
// are those the embedded drafter writes in-process, and every quote
// verifies.
func TestEndpointAgainstServe(t *testing.T) {
	t.Parallel()
	model, lib, passages := teaFixture(t)
	endpoint := startServe(t, model, lib)

	info := openai.FindServe(context.Background(), lib)
	if info == nil || info.Endpoint != endpoint || info.Model != ggufgen.Tiny().Name || info.PID != os.Getpid() {
		t.Fatalf("serve.json names %+v, want %s", info, endpoint)
	}

	e, err := OpenEmbedded(model, ModelOptions{MaxStatements: jsonl.MaxStatements, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := draftAll(t, e, "How hot should the water be for green tea?", passages)
	e.Close()

	for _, args := range [][]string{
		{"--library", lib},                         // finds sponge serve through serve.json
		{"--library", lib, "--endpoint", endpoint}, // named
	} {
		var out, stderr bytes.Buffer
		if code := Main(args, questionStream(passages), &out, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		var got []*jsonl.Statement
		var name string
		for _, r := range streamRecords(t, out.Bytes()) {
			switch r := r.(type) {
			case *jsonl.Statement:
				got = append(got, &jsonl.Statement{Text: r.Text, Passage: r.Passage, Quote: r.Quote})
			case *jsonl.Model:
				name = r.Name
			case *jsonl.Warning:
				t.Errorf("%v: warning %+v", args, r)
			}
		}
		if name != ggufgen.Tiny().Name {
			t.Errorf("%v: model record %q", args, name)
		}
		if len(got) == 0 {
			t.Fatalf("%v: no statements", args)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v: statements through sponge serve differ from in-process (-want +got):\n%s", args, diff)
		}
		var verified, verr bytes.Buffer
		if code := verify.Main([]string{"--library", lib}, &out, &verified, &verr); code != 0 {
			t.Fatalf("sponge-verify exit %d: %s", code, verr.String())
		}
		for _, r := range streamRecords(t, verified.Bytes()) {
			if lo, ok := r.(*jsonl.LeftOut); ok {
				t.Errorf("%v: left out (%s): %q", args, lo.Reason, lo.Quote)
			}
		}
	}
}

func TestServeChat(t *testing.T) {
	t.Parallel()
	model, _, _ := teaFixture(t)
	e, err := OpenEmbedded(model, ModelOptions{MaxStatements: jsonl.MaxStatements, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	srv := httptest.NewServer(openai.NewHandler(&modelServer{e: e}))
	defer srv.Close()
	c, _ := openai.NewClient(srv.URL)
	zero := 0.0
	req := openai.ChatRequest{Model: e.Name(), Messages: []openai.Message{{Role: "user", Content: "Say something about tea."}}, MaxTokens: 6, Temperature: &zero}

	var pieces []string
	res, err := c.ChatStream(context.Background(), req, func(s string) error { pieces = append(pieces, s); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if res.FinishReason != openai.FinishLength || res.Usage == nil || res.Usage.CompletionTokens != 6 || res.Usage.PromptTokens == 0 {
		t.Errorf("result %+v usage %+v", res, res.Usage)
	}
	if len(pieces) == 0 {
		t.Fatal("no text streamed")
	}
	whole, err := c.Chat(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	// Greedy: the whole reply is the streamed one.
	if got := whole.Choices[0].Message.Content; got != strings.Join(pieces, "") {
		t.Errorf("whole reply %q, streamed %q", got, strings.Join(pieces, ""))
	}

	req.Model = "gpt-4o"
	if _, err := c.Chat(context.Background(), req); err == nil || !strings.Contains(err.Error(), `the server has no model "gpt-4o"`) {
		t.Errorf("wrong model: %v", err)
	}
	req.Model = ""
	req.ResponseFormat = &openai.ResponseFormat{Type: "json_schema", JSONSchema: &openai.JSONSchema{Name: "x", Schema: []byte(`{"type":"object"}`)}}
	var oe *openai.Error
	if _, err := c.Chat(context.Background(), req); !errors.As(err, &oe) || oe.Kind != openai.ErrFormatUnsupported {
		t.Errorf("json_schema without sponge_draft: %v", err)
	}
}

// serveHandler serves g as sponge serve does (openai.LocalOnly included) on
// 127.0.0.1 for the length of the test.
func serveHandler(t *testing.T, g openai.Generator) string {
	t.Helper()
	srv := httptest.NewServer(openai.LocalOnly(openai.NewHandler(g), serveProg))
	t.Cleanup(srv.Close)
	return srv.URL
}

// post sends body to url's chat completions and returns the status and
// the reply.
func post(t *testing.T, url, contentType, origin string, body []byte) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url+"/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(b)
}

// TestServeRefusesHostileRequests: what a web page, or a careless client,
// can send sponge serve is refused before the model does any work: a
// text/plain POST, a request from another site's page, a body too large,
// and a draft of 10,000 passages (which once kept the model busy for more
// than ten minutes, re-reading the prompt for each passage it dropped).
func TestServeRefusesHostileRequests(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	url := serveHandler(t, &modelServer{e: e})
	many := make([]*jsonl.Passage, 10000)
	for i := range many {
		many[i] = &jsonl.Passage{Number: i + 1, Text: "tea"}
	}
	d := &endpointDrafter{model: e.Name(), max: jsonl.MaxStatements, sponge: true}
	tenThousand, err := json.Marshal(d.request("How hot?", many[:1], false))
	if err != nil {
		t.Fatal(err)
	}
	var req map[string]json.RawMessage
	json.Unmarshal(tenThousand, &req)
	req["sponge_draft"], _ = json.Marshal(spongeDraft{Question: "How hot?", Passages: many, MaxStatements: jsonl.MaxStatements})
	tenThousand, _ = json.Marshal(req)
	if len(tenThousand) >= openai.MaxRequestBytes {
		t.Fatalf("the request of 10,000 passages is %d bytes: it would be refused for its size", len(tenThousand))
	}
	one, _ := json.Marshal(d.request("How hot?", many[:1], false))
	big := bytes.Repeat([]byte(" "), openai.MaxRequestBytes+1)
	copy(big, one)

	for _, tt := range []struct {
		name, contentType, origin string
		body                      []byte
		status                    int
		says                      string
	}{
		{"text/plain", "text/plain", "", one, 415, "send it as Content-Type: application/json"},
		{"another site", "application/json", "https://evil.example", one, 403, "no requests from web pages of other sites"},
		{"too large", "application/json", "", big, 413, "the request is larger than 1 MiB"},
		{"10,000 passages", "application/json", "", tenThousand, 400, "sponge_draft has 10000 passages; sponge serve reads at most 100"},
	} {
		status, reply := post(t, url, tt.contentType, tt.origin, tt.body)
		if status != tt.status || !strings.Contains(reply, tt.says) {
			t.Errorf("%s: got %d %s, want %d saying %q", tt.name, status, reply, tt.status, tt.says)
		}
	}
	if n := e.Stats().PromptFits; n != 0 {
		t.Errorf("the model tokenized %d prompts for requests it refused", n)
	}
}

// hangUp serves a sponge_draft request and, once the first statement is
// made, waits for the client to hang up before the model goes on.
type hangUp struct {
	*modelServer
	pieces atomic.Int32
	done   chan error // what Generate returned
}

func (g *hangUp) Generate(ctx context.Context, req *openai.ChatRequest, emit func(string) error) (string, openai.Usage, error) {
	finish, usage, err := g.modelServer.Generate(ctx, req, func(p string) error {
		if g.pieces.Add(1) > 1 {
			return emit(p)
		}
		if err := emit(p); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
		}
		return nil // as if written: the model must notice by itself
	})
	g.done <- err
	return finish, usage, err
}

// TestServeStopsWhenClientHangsUp: when the client goes, the model stops
// writing, and the next request is served.
func TestServeStopsWhenClientHangsUp(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	_, _, passages := teaFixture(t)
	g := &hangUp{modelServer: &modelServer{e: e}, done: make(chan error, 1)}
	url := serveHandler(t, g)
	d, err := OpenFixedEndpoint(url, Fixed{Statements: jsonl.MaxStatements, TextTokens: 8, QuoteTokens: 8})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	d.Draft(ctx, "How hot?", passages, func(*jsonl.Statement) error { n++; cancel(); return nil })
	select {
	case err := <-g.done:
		if !errors.Is(err, context.Canceled) || g.pieces.Load() != 1 {
			t.Errorf("the model ended with %v after %d of %d statements", err, g.pieces.Load(), jsonl.MaxStatements)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the model went on writing after the client hung up")
	}
	if n != 1 {
		t.Errorf("the client got %d statements", n)
	}
	// The turn is free again.
	g.pieces.Store(1) // no more waiting
	got := 0
	if err := d.Draft(context.Background(), "How hot?", passages, func(*jsonl.Statement) error { got++; return nil }); err != nil {
		t.Fatal(err)
	}
	<-g.done
	if got != jsonl.MaxStatements {
		t.Errorf("the next request got %d statements, want %d", got, jsonl.MaxStatements)
	}
}

func TestServePortInUse(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	err = serve(context.Background(), &Options{Library: t.TempDir(), ModelFile: "unused.gguf", Port: port}, &bytes.Buffer{}, nil)
	if err == nil || err.Error() != "port "+strconv.Itoa(port)+" on 127.0.0.1 is in use" {
		t.Fatalf("got %v", err)
	}
}

func TestCheckModel(t *testing.T) {
	t.Parallel()
	model, _, _ := teaFixture(t)
	var out, stderr bytes.Buffer
	if code := Main([]string{"--check-model", model, "--threads", "1"}, strings.NewReader(""), &out, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(out.String(), ggufgen.Tiny().Name+" (llama)") {
		t.Errorf("stdout %q", out.String())
	}

	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.gguf")
	os.WriteFile(notes, []byte("not a model at all"), 0o644)
	data, _ := os.ReadFile(model)
	cut := filepath.Join(dir, "cut.gguf")
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	for file, want := range map[string]string{
		notes: "sponge-draft: error: not a GGUF model file (it does not start with \"GGUF\")\n",
		cut:   "sponge-draft: error: the file is truncated: its tensors need",
	} {
		out.Reset()
		stderr.Reset()
		code := Main([]string{"--check-model", file}, strings.NewReader(""), &out, &stderr)
		if code != 1 || !strings.HasPrefix(stderr.String(), want) || out.Len() != 0 {
			t.Errorf("%s: exit %d, stderr %q, want %q", filepath.Base(file), code, stderr.String(), want)
		}
	}
}

// TestFixedDraftThroughServe is what the draft benchmark measures warm:
// OpenFixedEndpoint makes sponge serve write drafts of the length asked,
// the same as the embedded drafter makes in-process, and bad lengths are
// refused by the server.
func TestFixedDraftThroughServe(t *testing.T) {
	t.Parallel()
	model, lib, passages := teaFixture(t)
	endpoint := startServe(t, model, lib)
	const question = "How hot should the water be for green tea?"

	fixed := Fixed{Statements: 4, TextTokens: 3, QuoteTokens: 5}
	e, err := OpenEmbedded(model, ModelOptions{MaxStatements: jsonl.MaxStatements, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	e.Fixed = &fixed
	want := draftAll(t, e, question, passages)
	e.Close()
	if len(want) != fixed.Statements {
		t.Fatalf("in-process: %d statements, want %d", len(want), fixed.Statements)
	}

	d, err := OpenFixedEndpoint(endpoint, fixed)
	if err != nil {
		t.Fatal(err)
	}
	for run := 0; run < 2; run++ { // the second draft finds the model warm and unchanged
		var got []*jsonl.Statement
		err = d.Draft(context.Background(), question, passages, func(s *jsonl.Statement) error { got = append(got, s); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("run %d: fixed draft through sponge serve differs from in-process (-want +got):\n%s", run, diff)
		}
	}

	// A request without fixed afterwards is not held to the last one's length.
	free, err := openEndpointDrafter(endpoint, "", ModelOptions{MaxStatements: jsonl.MaxStatements})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := free.Draft(context.Background(), question, passages, func(*jsonl.Statement) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	e, err = OpenEmbedded(model, ModelOptions{MaxStatements: jsonl.MaxStatements, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w := len(draftAll(t, e, question, passages)); n != w {
		t.Errorf("after a fixed draft: %d statements, in-process %d", n, w)
	}
	e.Close()

	for _, bad := range []Fixed{{0, 3, 5}, {jsonl.MaxStatements + 1, 3, 5}, {2, 0, 5}, {2, 3, maxFixedTokens + 1}} {
		d, err := OpenFixedEndpoint(endpoint, bad)
		if err != nil {
			t.Fatal(err)
		}
		err = d.Draft(context.Background(), question, passages, func(*jsonl.Statement) error { t.Errorf("%+v: a statement", bad); return nil })
		if err == nil || !strings.Contains(err.Error(), "sponge_draft.fixed asks for 1 to 6 statements") {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

// TestOpenFixedEndpointRefusesOtherServers: only sponge serve takes a
// fixed length; another server would write what it likes.
func TestOpenFixedEndpointRefusesOtherServers(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[{"id":"other","object":"model","owned_by":"someone"}]}`))
	}))
	defer srv.Close()
	_, err := OpenFixedEndpoint(srv.URL, Fixed{Statements: 6, TextTokens: 16, QuoteTokens: 16})
	if err == nil || !strings.Contains(err.Error(), "is not sponge serve") {
		t.Errorf("got %v", err)
	}
}
