package openai

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
)

// Generator writes the assistant's reply to a chat. `sponge serve` wraps the
// loaded model in one.
type Generator interface {
	// Model is the name the server offers the model under.
	Model() string
	// Generate writes the reply to req.Messages, calling emit with each piece
	// of text as it is made, and says why it stopped (FinishStop or
	// FinishLength). An error made with BadRequest is the asker's fault.
	Generate(ctx context.Context, req *ChatRequest, emit func(piece string) error) (finish string, usage Usage, err error)
}

// RequestError is a request the generator cannot serve as asked, such as a
// response_format it does not support or a prompt longer than its context.
type RequestError struct{ Msg string }

func (e *RequestError) Error() string { return e.Msg }

// BadRequest makes a *RequestError.
func BadRequest(format string, a ...any) error {
	return &RequestError{Msg: fmt.Sprintf(format, a...)}
}

// Handler serves GET /health, GET /v1/models and POST /v1/chat/completions
// (streamed and whole) for one generator, one request at a time: a CPU
// serves one reply fastest alone, so later requests wait their turn.
type Handler struct {
	gen  Generator
	turn chan struct{}
	mux  *http.ServeMux
	// Log, when set, is told about each request that ends in an error.
	Log func(format string, a ...any)
}

// NewHandler returns the HTTP handler for g.
func NewHandler(g Generator) *Handler {
	h := &Handler{gen: g, turn: make(chan struct{}, 1), mux: http.NewServeMux()}
	h.mux.HandleFunc("GET /health", h.health)
	h.mux.HandleFunc("GET /v1/models", h.models)
	h.mux.HandleFunc("POST /v1/chat/completions", h.chat)
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "invalid_request_error", "not_found",
			fmt.Sprintf("no such endpoint: %s %s (this server has GET /health, GET /v1/models, POST /v1/chat/completions)", r.Method, r.URL.Path))
	})
	return h
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

func (h *Handler) logf(format string, a ...any) {
	if h.Log != nil {
		h.Log(format, a...)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, typ, code, msg string) {
	writeJSON(w, status, map[string]any{"error": ErrorBody{Message: msg, Type: typ, Code: code}})
}

func (h *Handler) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "model": h.gen.Model()})
}

func (h *Handler) models(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, ModelList{Object: "list", Data: []ModelInfo{
		{ID: h.gen.Model(), Object: "model", OwnedBy: OwnedBy},
	}})
}

func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return "chatcmpl-" + hex.EncodeToString(b[:])
}

// MaxRequestBytes bounds the body of a chat request. The model reads at
// most its context, 8,192 tokens (some 32 KB of text); a request from
// sponge-draft carries its passages twice, about 30 KB.
const MaxRequestBytes = 1 << 20

func (h *Handler) chat(w http.ResponseWriter, r *http.Request) {
	// A web page can POST text/plain to any address without asking first
	// (a "simple" cross-origin request); it must ask before sending JSON,
	// and this server never says yes.
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "invalid_request_error", "",
			fmt.Sprintf("the request is %q; send it as Content-Type: application/json", r.Header.Get("Content-Type")))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, http.StatusRequestEntityTooLarge, "invalid_request_error", "",
				fmt.Sprintf("the request is larger than %s, far more than the model can read", size(MaxRequestBytes)))
			return
		}
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "cannot read the request: "+err.Error())
		return
	}
	var req ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "the request is not a chat completion request: "+err.Error())
		return
	}
	if len(req.Messages) == 0 {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "messages is empty")
		return
	}
	if req.Model != "" && req.Model != h.gen.Model() {
		writeError(w, http.StatusNotFound, "invalid_request_error", "model_not_found",
			fmt.Sprintf("model %q not found; this server has %q", req.Model, h.gen.Model()))
		return
	}
	if rf := req.ResponseFormat; rf != nil && rf.Type != "" && rf.Type != "text" && rf.Type != "json_object" && rf.Type != "json_schema" {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", fmt.Sprintf("response_format type %q is not supported", rf.Type))
		return
	}
	select {
	case h.turn <- struct{}{}:
		defer func() { <-h.turn }()
	case <-r.Context().Done():
		return
	}

	id, created, model := newID(), time.Now().Unix(), h.gen.Model()
	if !req.Stream {
		var sb strings.Builder
		finish, usage, err := h.gen.Generate(r.Context(), &req, func(p string) error { sb.WriteString(p); return nil })
		if err != nil {
			h.failBeforeReply(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, ChatResponse{
			ID: id, Object: "chat.completion", Created: created, Model: model,
			Choices: []Choice{{Index: 0, Message: &Message{Role: "assistant", Content: sb.String()}, FinishReason: &finish}},
			Usage:   &usage,
		})
		return
	}

	// Headers go out with the first piece, so an error found before any
	// text (a bad response_format, a prompt too long) is still a plain 4xx.
	flusher, _ := w.(http.Flusher)
	started := false
	send := func(chunk ChatResponse) error {
		chunk.ID, chunk.Object, chunk.Created, chunk.Model = id, "chat.completion.chunk", created, model
		b, err := json.Marshal(chunk)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return err
		}
		if flusher != nil {
			flusher.Flush()
		}
		return nil
	}
	start := func() error {
		if started {
			return nil
		}
		started = true
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		return send(ChatResponse{Choices: []Choice{{Delta: &Delta{Role: "assistant"}}}})
	}
	finish, usage, err := h.gen.Generate(r.Context(), &req, func(p string) error {
		if err := start(); err != nil {
			return err
		}
		return send(ChatResponse{Choices: []Choice{{Delta: &Delta{Content: p}}}})
	})
	if err != nil {
		if !started {
			h.failBeforeReply(w, r, err)
			return
		}
		if r.Context().Err() != nil {
			return // the asker hung up
		}
		h.logf("generating a reply failed: %v", err)
		b, _ := json.Marshal(map[string]any{"error": ErrorBody{Message: err.Error(), Type: "server_error"}})
		fmt.Fprintf(w, "data: %s\n\n", b)
		return
	}
	if err := start(); err != nil {
		return
	}
	if err := send(ChatResponse{Choices: []Choice{{Delta: &Delta{}, FinishReason: &finish}}, Usage: &usage}); err != nil {
		return
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

func (h *Handler) failBeforeReply(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return
	}
	var re *RequestError
	if errors.As(err, &re) {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", re.Msg)
		return
	}
	h.logf("generating a reply failed: %v", err)
	writeError(w, http.StatusInternalServerError, "server_error", "", err.Error())
}
