//go:build cgo

package draft

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
		done <- serve(ctx, &Options{Library: lib, ModelFile: model, Port: freePort(t), Threads: 1}, &stderr, func(ep string) { ready <- ep })
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

func TestServeLocalOnly(t *testing.T) {
	h := localOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	for host, want := range map[string]int{"127.0.0.1:7701": 200, "localhost:7701": 200, "[::1]:7701": 200, "evil.example:7701": 403, "evil.example": 403} {
		r := httptest.NewRequest("GET", "/health", nil)
		r.Host = host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("Host %s: got %d, want %d", host, w.Code, want)
		}
	}
}

func TestServePortInUse(t *testing.T) {
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
