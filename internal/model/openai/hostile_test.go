package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hostile is a server on 127.0.0.1 that answers every chat request with
// chunk, written again and again (after pause) until the client hangs up;
// it gives up by itself after 64 MiB or 10 seconds, so a client that does
// not stop fails the test instead of hanging it. It counts what it wrote.
func hostile(t *testing.T, contentType, head, chunk string, pause time.Duration) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var wrote atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, head)
		stop := time.After(10 * time.Second)
		for wrote.Load() < 64<<20 {
			n, err := fmt.Fprint(w, chunk)
			wrote.Add(int64(n))
			if err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-stop:
				return
			case <-time.After(pause):
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &wrote
}

func chunkOf(content string) string {
	b, _ := json.Marshal(ChatResponse{Object: "chat.completion.chunk", Choices: []Choice{{Delta: &Delta{Content: content}}}})
	return "data: " + string(b) + "\n\n"
}

// A line that never ends is given up at MaxLineBytes, not read into memory
// whole.
func TestLineWithoutEnd(t *testing.T) {
	srv, wrote := hostile(t, "text/event-stream", "data: ", strings.Repeat("a", 64<<10), 0)
	c, _ := NewClient(srv.URL)
	_, _, err := collect(t, c)
	want := "endpoint " + srv.URL + ": a line of the reply stream passed 1 MiB (an event takes a few hundred bytes)"
	if kindOf(err) != ErrTooLarge || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	if n := wrote.Load(); n >= 64<<20 {
		t.Errorf("the server wrote %d bytes: the client did not hang up", n)
	}
}

// A valid stream that never ends is given up at MaxReplyBytes, and what
// the caller was given stays below it.
func TestEndlessStream(t *testing.T) {
	srv, wrote := hostile(t, "text/event-stream", "", chunkOf(strings.Repeat("x", 1024)), 0)
	c, _ := NewClient(srv.URL)
	c.MaxReplyBytes = 256 << 10
	got, _, err := collect(t, c)
	want := "endpoint " + srv.URL + ": the reply passed 256 KiB and was still coming (a few statements take a few KB)"
	if kindOf(err) != ErrTooLarge || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	if len(got) == 0 || len(got) > 256<<10 {
		t.Errorf("%d bytes of text passed on", len(got))
	}
	if n := wrote.Load(); n >= 64<<20 {
		t.Errorf("the server wrote %d bytes: the client did not hang up", n)
	}
}

// The default limits hold for a client made by NewClient.
func TestDefaultLimits(t *testing.T) {
	c, _ := NewClient("http://127.0.0.1:1")
	if c.MaxReplyBytes != DefaultMaxReplyBytes || c.TotalTimeout != DefaultTotalTimeout {
		t.Errorf("MaxReplyBytes %d, TotalTimeout %v", c.MaxReplyBytes, c.TotalTimeout)
	}
}

// A whole (not streamed) reply is bounded the same way.
func TestEndlessWholeReply(t *testing.T) {
	srv, _ := hostile(t, "application/json", `{"choices":[{"message":{"content":"`, strings.Repeat("x", 64<<10), 0)
	c, _ := NewClient(srv.URL)
	c.MaxReplyBytes = 256 << 10
	for name, call := range map[string]func() error{
		"ChatStream": func() error { _, _, err := collect(t, c); return err },
		"Chat": func() error {
			_, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "x"}}})
			return err
		},
	} {
		if err := call(); kindOf(err) != ErrTooLarge || !strings.Contains(err.Error(), "the reply passed 256 KiB") {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

// A server that keeps the line open with a little text now and then (each
// piece within the idle timeout) is given up at the total timeout.
func TestTrickleEndsAtTotalTimeout(t *testing.T) {
	srv, _ := hostile(t, "text/event-stream", "", chunkOf(" "), 20*time.Millisecond)
	c, _ := NewClient(srv.URL)
	c.TotalTimeout = 300 * time.Millisecond
	got, _, err := collect(t, c)
	want := "endpoint " + srv.URL + ": the reply took longer than 300ms"
	if kindOf(err) != ErrTimeout || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	if strings.TrimSpace(got) != "" || got == "" {
		t.Errorf("got %q, want the spaces sent before the deadline", got)
	}
}

// Without a first-byte timeout, the idle timeout starts with the first
// event: a server that says one thing and falls silent is still given up.
func TestIdleWithoutFirstByteTimeout(t *testing.T) {
	srv, _ := hostile(t, "text/event-stream", "", chunkOf("a"), 5*time.Second)
	c, _ := NewClient(srv.URL)
	c.FirstByteTimeout = 0
	c.IdleTimeout = 200 * time.Millisecond
	if _, _, err := collect(t, c); kindOf(err) != ErrTimeout || !strings.Contains(err.Error(), "the reply stalled for 200ms") {
		t.Fatalf("got %v", err)
	}
}

// A 5xx says the server failed, with its message; it is not taken for a
// server that is down.
func TestServerFailed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusInternalServerError, "server_error", "", "CUDA error: out of memory")
	}))
	defer srv.Close()
	c, _ := NewClient(srv.URL)
	_, _, err := collect(t, c)
	want := "endpoint " + srv.URL + ": the server failed (500 Internal Server Error): CUDA error: out of memory"
	var e *Error
	if kindOf(err) != ErrStatus || err.Error() != want || !errors.As(err, &e) || e.Status != 500 {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}
