package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Client talks to one OpenAI-compatible server.
type Client struct {
	// Endpoint is the server's base URL as the person gave it, for messages.
	Endpoint string
	base     string // scheme://host[:port][/prefix], without /v1

	// ConnectTimeout bounds opening the connection.
	ConnectTimeout time.Duration
	// FirstByteTimeout bounds the wait from sending a request to the first
	// event of the reply: on a CPU the server reads the whole prompt first.
	FirstByteTimeout time.Duration
	// IdleTimeout bounds the wait between two events of a streamed reply.
	IdleTimeout time.Duration
	// TotalTimeout bounds a whole request; zero means no bound but ctx.
	TotalTimeout time.Duration
	// MaxReplyBytes bounds the body of a reply, so that a server that
	// never stops writing cannot fill the memory; zero means no bound.
	MaxReplyBytes int64

	httpOnce sync.Once
	http     *http.Client
}

// Default timeouts.
const (
	DefaultConnectTimeout   = 5 * time.Second
	DefaultFirstByteTimeout = 3 * time.Minute
	DefaultIdleTimeout      = time.Minute
	// DefaultTotalTimeout: on a CPU a small model reads a question's
	// passages (about 3,000 tokens) in a minute or two and writes six
	// statements in one to three; a reply still coming after 5 minutes is
	// from a server that is stuck, or one that keeps the line open on purpose.
	DefaultTotalTimeout = 5 * time.Minute
)

// Default size limits. A streamed reply is a few hundred bytes of JSON per
// token, so even a thousand tokens (the most sponge asks for) are a few
// hundred KB: 4 MiB is far beyond any honest reply.
const (
	DefaultMaxReplyBytes = 4 << 20
	// MaxLineBytes bounds one line of a streamed reply: an event is one
	// token's chunk, a few hundred bytes.
	MaxLineBytes = 1 << 20
)

// NewClient returns a client for the server at endpoint: a base URL such as
// http://127.0.0.1:8080, with or without a trailing /v1 or
// /v1/chat/completions.
func NewClient(endpoint string) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http:// or https:// URL of a server", endpoint)
	}
	p := strings.TrimRight(u.Path, "/")
	p = strings.TrimSuffix(p, "/chat/completions")
	p = strings.TrimSuffix(p, "/models")
	p = strings.TrimSuffix(p, "/v1")
	u.Path = strings.TrimRight(p, "/")
	u.RawQuery, u.Fragment = "", ""
	c := &Client{
		Endpoint:         strings.TrimRight(endpoint, "/"),
		base:             u.String(),
		ConnectTimeout:   DefaultConnectTimeout,
		FirstByteTimeout: DefaultFirstByteTimeout,
		IdleTimeout:      DefaultIdleTimeout,
		TotalTimeout:     DefaultTotalTimeout,
		MaxReplyBytes:    DefaultMaxReplyBytes,
	}
	return c, nil
}

// httpClient is made on first use, so the timeouts set after NewClient count.
func (c *Client) httpClient() *http.Client {
	c.httpOnce.Do(func() {
		d := &net.Dialer{Timeout: c.ConnectTimeout}
		c.http = &http.Client{Transport: &http.Transport{
			Proxy:               nil, // a local server: never through a proxy
			DialContext:         d.DialContext,
			TLSHandshakeTimeout: c.ConnectTimeout,
			MaxIdleConnsPerHost: 4,
		}}
	})
	return c.http
}

// ErrorKind sorts the ways a server can fail.
type ErrorKind int

// Kinds of *Error.
const (
	ErrUnreachable       ErrorKind = iota + 1 // no connection: refused, no such host, connect timeout
	ErrTimeout                                // connected, but the reply did not come in time
	ErrModelNotFound                          // the server has no model of that name
	ErrFormatUnsupported                      // the server refused the response_format
	ErrStatus                                 // another non-2xx reply
	ErrMalformed                              // a reply that is not what the protocol says
	ErrServer                                 // the server reported an error inside the stream
	ErrCut                                    // the reply ended before it was complete
	ErrTooLarge                               // the reply, or a line of it, passed its size limit
)

// Error is a failure talking to a server. Its message names the endpoint.
type Error struct {
	Endpoint string
	Kind     ErrorKind
	Status   int // the HTTP status, when there was a reply
	Msg      string
	Err      error
}

func (e *Error) Error() string { return "endpoint " + e.Endpoint + ": " + e.Msg }

func (e *Error) Unwrap() error { return e.Err }

func (c *Client) errorf(kind ErrorKind, err error, format string, a ...any) *Error {
	return &Error{Endpoint: c.Endpoint, Kind: kind, Msg: fmt.Sprintf(format, a...), Err: err}
}

var (
	errFirstByte   = errors.New("first byte timeout")
	errIdle        = errors.New("idle timeout")
	errTotal       = errors.New("total timeout")
	errTooLarge    = errors.New("reply too large")
	errLineTooLong = errors.New("line too long")
)

// watchdog cancels a request when the server is silent too long.
type watchdog struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	timer  *time.Timer
	idle   time.Duration
	heard  atomic.Bool // the server has said something
	stop   func()
}

func (c *Client) watch(ctx context.Context) *watchdog {
	w := &watchdog{idle: c.IdleTimeout}
	ctx, w.cancel = context.WithCancelCause(ctx)
	var stopTotal context.CancelFunc = func() {}
	if c.TotalTimeout > 0 {
		ctx, stopTotal = context.WithTimeoutCause(ctx, c.TotalTimeout, errTotal)
	}
	w.ctx = ctx
	if c.FirstByteTimeout > 0 {
		w.timer = time.AfterFunc(c.FirstByteTimeout, func() {
			if w.heard.Load() {
				w.cancel(errIdle)
			} else {
				w.cancel(errFirstByte)
			}
		})
	}
	w.stop = func() {
		if w.timer != nil {
			w.timer.Stop()
		}
		stopTotal()
		w.cancel(nil)
	}
	return w
}

// alive is called on every event from the server.
func (w *watchdog) alive() {
	w.heard.Store(true)
	if w.timer == nil {
		// No bound on the first event (the total bounds it): the idle
		// timeout starts with it.
		if w.idle > 0 {
			w.timer = time.AfterFunc(w.idle, func() { w.cancel(errIdle) })
		}
		return
	}
	if w.idle > 0 {
		w.timer.Reset(w.idle)
	} else {
		w.timer.Stop()
	}
}

// transportError turns an error of the HTTP exchange into an *Error.
func (c *Client) transportError(ctx context.Context, err error, what string) *Error {
	switch {
	case errors.Is(err, errTooLarge):
		return c.errorf(ErrTooLarge, err, "the reply passed %s and was still coming (a few statements take a few KB)", size(c.MaxReplyBytes))
	case errors.Is(err, errLineTooLong):
		return c.errorf(ErrTooLarge, err, "a line of the reply stream passed %s (an event takes a few hundred bytes)", size(MaxLineBytes))
	}
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errFirstByte):
		return c.errorf(ErrTimeout, err, "no reply within %s of asking", round(c.FirstByteTimeout))
	case errors.Is(cause, errIdle):
		return c.errorf(ErrTimeout, err, "the reply stalled for %s", round(c.IdleTimeout))
	case errors.Is(cause, errTotal):
		return c.errorf(ErrTimeout, err, "the reply took longer than %s", round(c.TotalTimeout))
	case cause != nil && ctx.Err() != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded):
		return c.errorf(ErrTimeout, err, "%s: %v", what, cause)
	}
	if errors.Is(err, context.Canceled) {
		return c.errorf(ErrTimeout, err, "%s: cancelled", what)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return c.errorf(ErrTimeout, err, "%s: out of time", what)
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return c.errorf(ErrUnreachable, err, "connection refused (no server is listening there)")
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return c.errorf(ErrUnreachable, err, "no such host %q", dnsErr.Name)
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		if opErr.Timeout() {
			return c.errorf(ErrUnreachable, err, "could not connect within %s", round(c.ConnectTimeout))
		}
		return c.errorf(ErrUnreachable, err, "could not connect: %v", opErr.Err)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) {
		return c.errorf(ErrCut, err, "the server closed the connection before the reply was complete")
	}
	return c.errorf(ErrCut, err, "%s: %v", what, err)
}

// size says n bytes for people: 4 MiB, 512 KiB.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// capped reads at most n bytes of r; a byte more is errTooLarge.
type capped struct {
	r io.Reader
	n int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.n <= 0 {
		// At the limit: the end of the body, or one byte too many.
		var one [1]byte
		k, err := c.r.Read(one[:])
		if k > 0 {
			return 0, errTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= int64(n)
	return n, err
}

// body is the body of a reply, bounded by MaxReplyBytes.
func (c *Client) body(resp *http.Response) io.Reader {
	if c.MaxReplyBytes <= 0 {
		return resp.Body
	}
	return &capped{r: resp.Body, n: c.MaxReplyBytes}
}

// readLine reads one line, its newline included, of at most max bytes.
func readLine(br *bufio.Reader, max int) (string, error) {
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(line)+len(frag) > max {
			return "", errLineTooLong
		}
		line = append(line, frag...)
		if err != bufio.ErrBufferFull {
			return string(line), err
		}
	}
}

func round(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}

// do sends a request and returns the response once its headers are in.
func (c *Client) do(w *watchdog, method, path string, body any) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(w.ctx, method, c.base+path, rd)
	if err != nil {
		return nil, c.errorf(ErrMalformed, err, "bad request: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return nil, c.transportError(w.ctx, err, "sending the request")
	}
	return resp, nil
}

// statusError reads a non-2xx reply and says what it means.
func (c *Client) statusError(resp *http.Response, model string) *Error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	msg := errorMessage(body)
	e := &Error{Endpoint: c.Endpoint, Kind: ErrStatus, Status: resp.StatusCode}
	low := strings.ToLower(msg)
	switch {
	case resp.StatusCode == http.StatusNotFound && model != "" && strings.Contains(low, "model"):
		e.Kind = ErrModelNotFound
		e.Msg = fmt.Sprintf("the server has no model %q (%s)", model, msg)
	case resp.StatusCode == http.StatusNotFound:
		e.Msg = fmt.Sprintf("%s %s: not found (404); is this an OpenAI-compatible server?", resp.Request.Method, resp.Request.URL.Path)
		if msg != "" {
			e.Msg += " (" + msg + ")"
		}
	case (resp.StatusCode == 400 || resp.StatusCode == 422 || resp.StatusCode == 500 || resp.StatusCode == 501) &&
		(strings.Contains(low, "response_format") || strings.Contains(low, "json_schema") ||
			strings.Contains(low, "schema") || strings.Contains(low, "grammar")):
		e.Kind = ErrFormatUnsupported
		e.Msg = fmt.Sprintf("the server refused the JSON schema (%d: %s)", resp.StatusCode, msg)
	case resp.StatusCode >= 500:
		// The server is up: it failed, and its message says how.
		e.Msg = fmt.Sprintf("the server failed (%d %s)", resp.StatusCode, http.StatusText(resp.StatusCode))
		if msg != "" {
			e.Msg += ": " + msg
		}
	default:
		if msg == "" {
			msg = http.StatusText(resp.StatusCode)
		}
		e.Msg = fmt.Sprintf("the server answered %d: %s", resp.StatusCode, msg)
	}
	return e
}

// errorMessage finds the message in an error body: OpenAI's
// {"error":{"message":…}}, ollama's {"error":"…"}, FastAPI's {"detail":…},
// or the start of a plain text body.
func errorMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Detail  json.RawMessage `json:"detail"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var eb ErrorBody
		var s string
		switch {
		case json.Unmarshal(v.Error, &eb) == nil && eb.Message != "":
			return oneLine(eb.Message)
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return oneLine(s)
		case json.Unmarshal(v.Detail, &s) == nil && s != "":
			return oneLine(s)
		case len(v.Detail) > 0 && string(v.Detail) != "null":
			return oneLine(string(v.Detail))
		case v.Message != "":
			return oneLine(v.Message)
		}
	}
	return oneLine(string(body))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// Models lists the names of the models the server offers (GET /v1/models).
func (c *Client) Models(ctx context.Context) ([]string, error) {
	list, err := c.ModelList(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(list))
	for _, m := range list {
		names = append(names, m.ID)
	}
	return names, nil
}

// ModelList lists the models the server offers (GET /v1/models).
func (c *Client) ModelList(ctx context.Context) ([]ModelInfo, error) {
	w := c.watch(ctx)
	defer w.stop()
	resp, err := c.do(w, http.MethodGet, "/v1/models", nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, c.statusError(resp, "")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, c.transportError(w.ctx, err, "reading the model list")
	}
	var list ModelList
	if err := json.Unmarshal(body, &list); err != nil || list.Data == nil {
		return nil, c.errorf(ErrMalformed, err, "GET /v1/models did not answer with a model list")
	}
	return list.Data, nil
}

// Health asks GET /health and reports whether the server says it is ready.
func (c *Client) Health(ctx context.Context) error {
	w := c.watch(ctx)
	defer w.stop()
	resp, err := c.do(w, http.MethodGet, "/health", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return c.errorf(ErrStatus, nil, "not ready (GET /health answered %d)", resp.StatusCode)
	}
	return nil
}

// Result is what a chat completion ended with.
type Result struct {
	Model        string
	FinishReason string
	Usage        *Usage
}

// Chat asks for a whole reply (no streaming).
func (c *Client) Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	req.Stream = false
	w := c.watch(ctx)
	defer w.stop()
	resp, err := c.postChat(w, req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if w.timer != nil {
		w.timer.Stop() // the body of a whole reply comes at once, when it is done
	}
	body, err := io.ReadAll(c.body(resp))
	if err != nil {
		return nil, c.transportError(w.ctx, err, "reading the reply")
	}
	return c.decodeReply(body)
}

// postChat sends a chat completion request; a reply that is not a
// success is an error (its body closed).
func (c *Client) postChat(w *watchdog, req ChatRequest) (*http.Response, error) {
	resp, err := c.do(w, http.MethodPost, "/v1/chat/completions", req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		return nil, c.statusError(resp, req.Model)
	}
	return resp, nil
}

// decodeReply decodes a whole (not streamed) chat completion.
func (c *Client) decodeReply(body []byte) (*ChatResponse, error) {
	var cr ChatResponse
	if err := json.Unmarshal(body, &cr); err != nil {
		return nil, c.errorf(ErrMalformed, err, "the reply is not a chat completion: %s", oneLine(string(body)))
	}
	if cr.Error != nil {
		return nil, c.errorf(ErrServer, nil, "the server reported: %s", cr.Error.Message)
	}
	if len(cr.Choices) == 0 || cr.Choices[0].Message == nil {
		return nil, c.errorf(ErrMalformed, nil, "the reply has no message")
	}
	return &cr, nil
}

// ChatStream asks for a streamed reply and calls onDelta with each piece of
// the assistant's text as it arrives. An error from onDelta stops the
// request and is returned as is.
func (c *Client) ChatStream(ctx context.Context, req ChatRequest, onDelta func(text string) error) (*Result, error) {
	req.Stream = true
	w := c.watch(ctx)
	defer w.stop()
	resp, err := c.postChat(w, req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct == "application/json" {
		// A server that ignores "stream" sends the whole reply at once.
		body, err := io.ReadAll(c.body(resp))
		if err != nil {
			return nil, c.transportError(w.ctx, err, "reading the reply")
		}
		cr, err := c.decodeReply(body)
		if err != nil {
			return nil, err
		}
		if err := onDelta(cr.Choices[0].Message.Content); err != nil {
			return nil, err
		}
		res := &Result{Model: cr.Model, Usage: cr.Usage}
		if fr := cr.Choices[0].FinishReason; fr != nil {
			res.FinishReason = *fr
		}
		return res, nil
	}
	return c.readStream(w, c.body(resp), onDelta)
}

// readStream reads server-sent events: "data: {chunk}" lines, blank lines
// between events, and "data: [DONE]" at the end.
func (c *Client) readStream(w *watchdog, body io.Reader, onDelta func(string) error) (*Result, error) {
	br := bufio.NewReaderSize(body, 64<<10)
	res := &Result{}
	var data []string // the data lines of the event being read
	var event string  // its "event:" name
	sawEvent := false // any event at all
	dispatch := func() (done bool, err error) {
		if len(data) == 0 {
			event = ""
			return false, nil
		}
		payload := strings.Join(data, "\n")
		name := event
		data, event = data[:0], ""
		sawEvent = true
		w.alive()
		if strings.TrimSpace(payload) == "[DONE]" {
			return true, nil
		}
		if name == "error" {
			return false, c.errorf(ErrServer, nil, "the server reported: %s", errorMessage([]byte(payload)))
		}
		var chunk ChatResponse
		if err := json.Unmarshal([]byte(payload), &chunk); err != nil {
			return false, c.errorf(ErrMalformed, err, "the reply stream has a line that is not a chat completion chunk: %s", oneLine(payload))
		}
		if chunk.Error != nil {
			return false, c.errorf(ErrServer, nil, "the server reported: %s", chunk.Error.Message)
		}
		if chunk.Model != "" {
			res.Model = chunk.Model
		}
		if chunk.Usage != nil {
			res.Usage = chunk.Usage
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			text := ""
			if ch.Delta != nil {
				text = ch.Delta.Content
			} else if ch.Message != nil {
				text = ch.Message.Content
			}
			if text != "" {
				if err := onDelta(text); err != nil {
					return false, err
				}
			}
			if ch.FinishReason != nil && *ch.FinishReason != "" {
				res.FinishReason = *ch.FinishReason
			}
		}
		return false, nil
	}
	for {
		line, err := readLine(br, MaxLineBytes)
		if len(line) > 0 {
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "":
				done, derr := dispatch()
				if derr != nil {
					return nil, derr
				}
				if done {
					return res, nil
				}
			case strings.HasPrefix(line, ":"):
				w.alive() // a comment: servers send these to keep the line open
			default:
				field, value, _ := strings.Cut(line, ":")
				value = strings.TrimPrefix(value, " ")
				switch field {
				case "data":
					data = append(data, value)
				case "event":
					event = value
				case "error":
					// llama-server writes "error: {…}" for a failure mid-stream.
					return nil, c.errorf(ErrServer, nil, "the server reported: %s", errorMessage([]byte(value)))
				case "id", "retry":
				default:
					if !sawEvent && len(data) == 0 {
						return nil, c.errorf(ErrMalformed, nil, "the reply is not a chat completion stream: %s", oneLine(line))
					}
					return nil, c.errorf(ErrMalformed, nil, "the reply stream has a line that is not an event: %s", oneLine(line))
				}
			}
		}
		if err != nil {
			if err == io.EOF {
				// The last event may lack its blank line.
				done, derr := dispatch()
				if derr != nil {
					return nil, derr
				}
				if done || res.FinishReason != "" {
					return res, nil
				}
				if !sawEvent {
					return nil, c.errorf(ErrMalformed, nil, "the reply stream was empty")
				}
				return nil, c.errorf(ErrCut, nil, "the reply ended before it was complete (no [DONE])")
			}
			return nil, c.transportError(w.ctx, err, "reading the reply")
		}
	}
}
