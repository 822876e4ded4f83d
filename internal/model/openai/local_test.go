package openai

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestLocalOnly(t *testing.T) {
	t.Parallel()
	h := LocalOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), "sponge serve")
	for _, tt := range []struct {
		host, origin string
		want         int
	}{
		{"127.0.0.1:7701", "", 200},
		{"localhost:7701", "", 200},
		{"[::1]:7701", "", 200},
		{"evil.example:7701", "", 403},
		{"evil.example", "", 403},
		// A browser names the page that sent a request.
		{"127.0.0.1:7701", "http://127.0.0.1:7701", 200},
		{"127.0.0.1:7701", "http://localhost:3000", 200},
		{"127.0.0.1:7701", "https://evil.example", 403},
		{"127.0.0.1:7701", "http://127.0.0.1.evil.example", 403},
		{"127.0.0.1:7701", "null", 403}, // a sandboxed frame or a file
		{"127.0.0.1:7701", "chrome-extension://abc", 403},
	} {
		r := httptest.NewRequest("POST", "/v1/chat/completions", nil)
		r.Host = tt.host
		if tt.origin != "" {
			r.Header.Set("Origin", tt.origin)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.want {
			t.Errorf("Host %s, Origin %q: got %d, want %d", tt.host, tt.origin, w.Code, tt.want)
		}
		if w.Code == 403 && !strings.HasPrefix(w.Body.String(), "sponge serve answers") {
			t.Errorf("Host %s, Origin %q: the refusal does not name the server: %q", tt.host, tt.origin, w.Body.String())
		}
	}
}

// TestLocalServerTimeouts: a client must send its request in bounded time,
// and a streamed reply is not cut by a write timeout.
func TestLocalServerTimeouts(t *testing.T) {
	t.Parallel()
	srv := NewLocalServer(http.NotFoundHandler())
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.IdleTimeout <= 0 || srv.WriteTimeout != 0 {
		t.Errorf("ReadHeaderTimeout %v, ReadTimeout %v, IdleTimeout %v, WriteTimeout %v",
			srv.ReadHeaderTimeout, srv.ReadTimeout, srv.IdleTimeout, srv.WriteTimeout)
	}
}
