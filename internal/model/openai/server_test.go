package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// echo is a generator that writes back the last message word by word; the
// handler's tests exercise HTTP, not a model (sponge serve's own tests run
// a real model behind it).
type echo struct {
	running, most atomic.Int32
	failAfter     int // fail after this many pieces, when > 0
}

func (e *echo) Model() string { return "echo" }

func (e *echo) Generate(ctx context.Context, req *ChatRequest, emit func(string) error) (string, Usage, error) {
	n := e.running.Add(1)
	defer e.running.Add(-1)
	for {
		m := e.most.Load()
		if n <= m || e.most.CompareAndSwap(m, n) {
			break
		}
	}
	if rf := req.ResponseFormat; rf != nil && rf.Type == "json_schema" {
		return "", Usage{}, BadRequest("response_format json_schema is not supported by echo")
	}
	words := strings.Fields(req.Messages[len(req.Messages)-1].Content)
	for i, w := range words {
		if e.failAfter > 0 && i == e.failAfter {
			return "", Usage{}, errors.New("the model fell over")
		}
		if i > 0 {
			w = " " + w
		}
		if err := emit(w); err != nil {
			return "", Usage{}, err
		}
		time.Sleep(5 * time.Millisecond)
	}
	return FinishStop, Usage{PromptTokens: 1, CompletionTokens: len(words), TotalTokens: 1 + len(words)}, nil
}

func serve(t *testing.T, g Generator) *Client {
	srv := httptest.NewServer(NewHandler(g))
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ask(text string) ChatRequest {
	return ChatRequest{Model: "echo", Messages: []Message{{Role: "user", Content: text}}}
}

func TestServerStream(t *testing.T) {
	c := serve(t, &echo{})
	var pieces []string
	res, err := c.ChatStream(context.Background(), ask("one two three"), func(s string) error { pieces = append(pieces, s); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pieces, "|") != "one| two| three" || res.FinishReason != FinishStop || res.Model != "echo" || res.Usage.CompletionTokens != 3 {
		t.Errorf("got %q %+v", pieces, res)
	}
}

func TestServerWhole(t *testing.T) {
	c := serve(t, &echo{})
	cr, err := c.Chat(context.Background(), ask("one two"))
	if err != nil {
		t.Fatal(err)
	}
	if cr.Object != "chat.completion" || cr.Choices[0].Message.Content != "one two" || *cr.Choices[0].FinishReason != FinishStop {
		t.Errorf("got %+v", cr)
	}
}

func TestServerModelsAndHealth(t *testing.T) {
	c := serve(t, &echo{})
	names, err := c.Models(context.Background())
	if err != nil || len(names) != 1 || names[0] != "echo" {
		t.Fatalf("got %v %v", names, err)
	}
	if err := c.Health(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestServerWrongModel(t *testing.T) {
	c := serve(t, &echo{})
	req := ask("x")
	req.Model = "gpt-4"
	_, err := c.ChatStream(context.Background(), req, func(string) error { return nil })
	if kindOf(err) != ErrModelNotFound || !strings.Contains(err.Error(), `this server has "echo"`) {
		t.Fatalf("got %v", err)
	}
}

func TestServerBadRequestBeforeAnyText(t *testing.T) {
	c := serve(t, &echo{})
	req := ask("x")
	req.ResponseFormat = &ResponseFormat{Type: "json_schema", JSONSchema: &JSONSchema{Name: "s", Schema: []byte(`{}`)}}
	_, err := c.ChatStream(context.Background(), req, func(string) error { return nil })
	if kindOf(err) != ErrFormatUnsupported {
		t.Fatalf("got %v", err)
	}
}

func TestServerFailsMidStream(t *testing.T) {
	c := serve(t, &echo{failAfter: 2})
	var got strings.Builder
	_, err := c.ChatStream(context.Background(), ask("a b c d"), func(s string) error { got.WriteString(s); return nil })
	if kindOf(err) != ErrServer || !strings.Contains(err.Error(), "the model fell over") {
		t.Fatalf("got %v", err)
	}
	if got.String() != "a b" {
		t.Errorf("got %q before the failure", got.String())
	}
}

func TestServerOneAtATime(t *testing.T) {
	g := &echo{}
	c := serve(t, g)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Chat(context.Background(), ask("a b c d e")); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if g.most.Load() != 1 {
		t.Errorf("%d replies were generated at once", g.most.Load())
	}
}

func TestServerBadBodies(t *testing.T) {
	srv := httptest.NewServer(NewHandler(&echo{}))
	defer srv.Close()
	for body, want := range map[string]int{
		`nope`:            400,
		`{"messages":[]}`: 400,
		`{"messages":[{"role":"user","content":"hi"}],"response_format":{"type":"xml"}}`:    400,
		`{"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"stop":"x"}`: 200,
	} {
		resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: got %d, want %d", body, resp.StatusCode, want)
		}
	}
	resp, err := http.Get(srv.URL + "/v1/embeddings")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown path: got %d", resp.StatusCode)
	}
}

// TestServerRefusesSimpleRequests: a web page can send a POST of
// text/plain (or a form) to 127.0.0.1 without asking the server first;
// such a request is refused before any reply is generated.
func TestServerRefusesSimpleRequests(t *testing.T) {
	g := &echo{}
	srv := httptest.NewServer(NewHandler(g))
	defer srv.Close()
	body := `{"messages":[{"role":"user","content":"hi"}]}`
	for ct, want := range map[string]int{
		"text/plain":                        http.StatusUnsupportedMediaType,
		"application/x-www-form-urlencoded": http.StatusUnsupportedMediaType,
		"multipart/form-data; boundary=x":   http.StatusUnsupportedMediaType,
		"":                                  http.StatusUnsupportedMediaType,
		"application/json; charset=utf-8":   http.StatusOK,
	} {
		req, _ := http.NewRequest("POST", srv.URL+"/v1/chat/completions", strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%q: got %d (%s), want %d", ct, resp.StatusCode, msg, want)
		}
		if want != http.StatusOK && !strings.Contains(string(msg), "send it as Content-Type: application/json") {
			t.Errorf("%q: message %s", ct, msg)
		}
	}
	if g.most.Load() != 1 {
		t.Errorf("%d replies generated at most at once, want the one JSON request only", g.most.Load())
	}
}

// TestServerRefusesLargeBody: a body past MaxRequestBytes is refused
// without being read whole.
func TestServerRefusesLargeBody(t *testing.T) {
	g := &echo{}
	srv := httptest.NewServer(NewHandler(g))
	defer srv.Close()
	big := `{"messages":[{"role":"user","content":"` + strings.Repeat("tea ", MaxRequestBytes/4) + `"}]}`
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(msg), "the request is larger than 1 MiB") {
		t.Errorf("got %d: %s", resp.StatusCode, msg)
	}
	if g.most.Load() != 0 {
		t.Error("a reply was generated")
	}
}
