package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// sse writes one chunk of a streamed reply.
func sse(w http.ResponseWriter, content string, finish string) {
	ch := Choice{Delta: &Delta{Content: content}}
	if finish != "" {
		ch.FinishReason = &finish
	}
	b, _ := json.Marshal(ChatResponse{Object: "chat.completion.chunk", Model: "m", Choices: []Choice{ch}})
	fmt.Fprintf(w, "data: %s\n\n", b)
	w.(http.Flusher).Flush()
}

func streamServer(t *testing.T, pieces []string, pause time.Duration) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		var req ChatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || !req.Stream {
			http.Error(w, "bad request", 400)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, p := range pieces {
			time.Sleep(pause)
			sse(w, p, "")
		}
		sse(w, "", "stop")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func collect(t *testing.T, c *Client) (string, *Result, error) {
	t.Helper()
	var sb strings.Builder
	res, err := c.ChatStream(context.Background(), ChatRequest{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}},
		func(s string) error { sb.WriteString(s); return nil })
	return sb.String(), res, err
}

func kindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

func TestStream(t *testing.T) {
	srv := streamServer(t, []string{"Hel", "lo", ", wor", "ld"}, 0)
	for _, ep := range []string{srv.URL, srv.URL + "/", srv.URL + "/v1", srv.URL + "/v1/chat/completions"} {
		c, err := NewClient(ep)
		if err != nil {
			t.Fatal(err)
		}
		got, res, err := collect(t, c)
		if err != nil {
			t.Fatalf("%s: %v", ep, err)
		}
		if got != "Hello, world" || res.FinishReason != "stop" || res.Model != "m" {
			t.Errorf("%s: got %q, %+v", ep, got, res)
		}
	}
}

func TestSlowStreamWithinIdleTimeout(t *testing.T) {
	srv := streamServer(t, []string{"a", "b", "c", "d", "e"}, 150*time.Millisecond)
	c, _ := NewClient(srv.URL)
	c.FirstByteTimeout = 400 * time.Millisecond
	c.IdleTimeout = 400 * time.Millisecond
	var times []time.Time
	_, err := c.ChatStream(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "x"}}},
		func(s string) error { times = append(times, time.Now()); return nil })
	if err != nil {
		t.Fatal(err) // 750 ms in all, above each timeout, but no gap is
	}
	if len(times) != 5 {
		t.Fatalf("got %d pieces, want 5", len(times))
	}
	// The pieces arrived as they were sent, not all at the end.
	if gap := times[4].Sub(times[0]); gap < 400*time.Millisecond {
		t.Errorf("pieces came %v apart; the stream was buffered", gap)
	}
}

func TestStalledStreamTimesOut(t *testing.T) {
	stall := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, "a", "")
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer stall.Close()
	c, _ := NewClient(stall.URL)
	c.IdleTimeout = 200 * time.Millisecond
	start := time.Now()
	got, _, err := collect(t, c)
	if kindOf(err) != ErrTimeout || !strings.Contains(err.Error(), "stalled") {
		t.Fatalf("got %v, want a stall timeout", err)
	}
	if got != "a" {
		t.Errorf("got %q before the stall, want %q", got, "a")
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}

func TestFirstByteTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so the server notices the client hanging up
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer srv.Close()
	c, _ := NewClient(srv.URL)
	c.FirstByteTimeout = 200 * time.Millisecond
	_, _, err := collect(t, c)
	if kindOf(err) != ErrTimeout || !strings.Contains(err.Error(), "no reply within 200ms") {
		t.Fatalf("got %v", err)
	}
	if !strings.HasPrefix(err.Error(), "endpoint "+srv.URL+": ") {
		t.Errorf("message does not name the endpoint: %v", err)
	}
}

func TestDiesMidStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, "part", "")
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		buf.Flush()
		conn.Close() // no final chunk of the chunked body: the reply is cut
	}))
	defer srv.Close()
	c, _ := NewClient(srv.URL)
	got, _, err := collect(t, c)
	if kindOf(err) != ErrCut {
		t.Fatalf("got %v, want a cut reply", err)
	}
	if got != "part" {
		t.Errorf("got %q", got)
	}
}

func TestEndsWithoutDone(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, "part", "")
	}))
	defer srv.Close()
	c, _ := NewClient(srv.URL)
	_, _, err := collect(t, c)
	if kindOf(err) != ErrCut || !strings.Contains(err.Error(), "ended before it was complete") {
		t.Fatalf("got %v", err)
	}
}

func TestRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c, _ := NewClient("http://" + addr)
	_, _, err = collect(t, c)
	if kindOf(err) != ErrUnreachable || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "endpoint http://"+addr) {
		t.Errorf("message does not name the endpoint: %v", err)
	}
}

func TestModelNotFound(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// What ollama answers for a model it does not have.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		fmt.Fprint(w, `{"error":{"message":"model \"nope\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`)
	}))
	defer srv.Close()
	c, _ := NewClient(srv.URL)
	_, err := c.ChatStream(context.Background(), ChatRequest{Model: "nope", Messages: []Message{{Role: "user", Content: "x"}}}, func(string) error { return nil })
	if kindOf(err) != ErrModelNotFound {
		t.Fatalf("got %v", err)
	}
	want := `endpoint ` + srv.URL + `: the server has no model "nope" (model "nope" not found, try pulling it first)`
	if err.Error() != want {
		t.Errorf("got  %q\nwant %q", err.Error(), want)
	}
}

func TestGarbage(t *testing.T) {
	for name, body := range map[string]string{
		"html":       "<html><body>It works!</body></html>\n",
		"bad-json":   "data: {not json\n\n",
		"empty":      "",
		"not-chunks": "data: [1,2,3]\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, body)
			}))
			defer srv.Close()
			c, _ := NewClient(srv.URL)
			_, _, err := collect(t, c)
			if kindOf(err) != ErrMalformed {
				t.Fatalf("got %v, want a malformed reply", err)
			}
		})
	}
}

func TestErrorInStream(t *testing.T) {
	for name, body := range map[string]string{
		"data":      `data: {"error":{"message":"out of memory"}}` + "\n\n",
		"llama.cpp": `error: {"code":500,"message":"out of memory","type":"server_error"}` + "\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, body)
			}))
			defer srv.Close()
			c, _ := NewClient(srv.URL)
			_, _, err := collect(t, c)
			if kindOf(err) != ErrServer || !strings.Contains(err.Error(), "out of memory") {
				t.Fatalf("got %v", err)
			}
		})
	}
}

func TestWholeReplyWhenStreamIgnored(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stop := "stop"
		writeJSON(w, 200, ChatResponse{Object: "chat.completion", Model: "m",
			Choices: []Choice{{Message: &Message{Role: "assistant", Content: "all at once"}, FinishReason: &stop}}})
	}))
	defer srv.Close()
	c, _ := NewClient(srv.URL)
	got, res, err := collect(t, c)
	if err != nil || got != "all at once" || res.FinishReason != "stop" {
		t.Fatalf("got %q %+v %v", got, res, err)
	}
}

func TestFormatUnsupported(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, 400, "invalid_request_error", "", "response_format type json_schema is not supported")
	}))
	defer srv.Close()
	c, _ := NewClient(srv.URL)
	_, _, err := collect(t, c)
	if kindOf(err) != ErrFormatUnsupported {
		t.Fatalf("got %v", err)
	}
}

func TestNotAnOpenAIServer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c, _ := NewClient(srv.URL)
	_, err := c.ChatStream(context.Background(), ChatRequest{Model: "m", Messages: []Message{{Role: "user", Content: "x"}}}, func(string) error { return nil })
	if kindOf(err) != ErrStatus || !strings.Contains(err.Error(), "is this an OpenAI-compatible server") {
		t.Fatalf("got %v", err)
	}
}

func TestCallbackErrorStops(t *testing.T) {
	srv := streamServer(t, []string{"a", "b", "c"}, 0)
	c, _ := NewClient(srv.URL)
	stop := errors.New("enough")
	n := 0
	_, err := c.ChatStream(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "x"}}},
		func(string) error { n++; return stop })
	if err != stop || n != 1 {
		t.Fatalf("got %v after %d pieces", err, n)
	}
}

func TestBadEndpoint(t *testing.T) {
	for _, ep := range []string{"", "127.0.0.1:8080", "ftp://x", "http://"} {
		if _, err := NewClient(ep); err == nil {
			t.Errorf("%q: no error", ep)
		}
	}
}

func TestModels(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"object":"list","data":[{"id":"a","object":"model"},{"id":"b","object":"model"}]}`)
	}))
	defer srv.Close()
	c, _ := NewClient(srv.URL)
	got, err := c.Models(context.Background())
	if err != nil || strings.Join(got, ",") != "a,b" {
		t.Fatalf("got %v %v", got, err)
	}
}
