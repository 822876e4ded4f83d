//go:build cgo

package draft

// The hidden modes the sponge command runs, since only sponge-draft links
// the model runtime: --serve (sponge serve) keeps the writing model loaded
// behind an OpenAI-compatible endpoint on 127.0.0.1, and --check-model FILE
// (sponge setup) loads a model and says whether it works.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/termtext"
	"github.com/sponge-library/sponge/internal/model/chat"
	"github.com/sponge-library/sponge/internal/model/gguf"
	"github.com/sponge-library/sponge/internal/model/llama"
	"github.com/sponge-library/sponge/internal/model/openai"
	"github.com/sponge-library/sponge/jsonl"
)

func init() {
	builtin.Serve = func(ctx context.Context, opts *Options, stdout, stderr io.Writer) int {
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		defer stop()
		return console.Report(stderr, serveProg, serve(ctx, opts, stderr, nil))
	}
	builtin.CheckModel = checkModel
}

// serveProg is how the serving process names itself: the person ran sponge serve.
const serveProg = "sponge serve"

// serve loads the model, listens, writes serve.json, and serves until ctx
// ends. ready, when set, gets the endpoint once requests are served.
func serve(ctx context.Context, opts *Options, stderr io.Writer, ready func(endpoint string)) error {
	libDir := opts.Library
	modelFile := opts.modelFile()
	port := opts.Port
	if port == 0 {
		port = openai.DefaultPort
	}
	// Take the port before the model: a busy port fails at once.
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return console.Errorf("port %d on 127.0.0.1 is in use", port).
				WithHint("is sponge serve running already? else choose another port with --port")
		}
		return console.Errorf("cannot listen on 127.0.0.1:%d: %v", port, err)
	}
	defer ln.Close()
	if _, err := os.Stat(modelFile); err != nil {
		return console.Errorf("no model file %s", modelFile).WithHint("run sponge setup --digest")
	}
	e, err := OpenEmbedded(modelFile, opts.modelOptions(stderr))
	if err != nil {
		return console.Errorf("cannot load the model: %v", err).WithHint("install a model that loads: sponge setup --digest")
	}
	defer e.Close()

	h := openai.NewHandler(&modelServer{e: e})
	h.Log = func(format string, a ...any) { console.PrintWarning(stderr, serveProg, fmt.Sprintf(format, a...)) }
	// Requests still running when the server stops are cancelled, so a
	// long answer does not hold up Ctrl-C.
	base, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := openai.NewLocalServer(openai.LocalOnly(h, serveProg))
	srv.BaseContext = func(net.Listener) context.Context { return base }
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	endpoint := "http://" + ln.Addr().String()
	info := openai.ServeInfo{Endpoint: endpoint, Model: e.Name(), PID: os.Getpid()}
	if err := os.MkdirAll(libDir, 0o755); err == nil {
		if err := openai.WriteServeInfo(libDir, info); err != nil {
			console.PrintWarning(stderr, serveProg, fmt.Sprintf("cannot write %s, so sponge ask will not find this server by itself: %v", filepath.Join(libDir, openai.ServeFile), err))
		}
		defer openai.RemoveServeInfo(libDir, info.PID)
	}
	fmt.Fprintf(stderr, "%s: serving %s at %s (OpenAI-compatible: /v1/chat/completions, /v1/models, /health); Ctrl-C stops it\n", serveProg, termtext.Safe(e.Name()), endpoint)
	if ready != nil {
		ready(endpoint)
	}
	select {
	case <-ctx.Done():
	case err := <-served:
		return console.Errorf("the server stopped: %v", err)
	}
	cancel()
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	srv.Shutdown(sctx)
	fmt.Fprintf(stderr, "%s: stopped\n", serveProg)
	return nil
}

// modelServer answers chat completions with the loaded model. The handler
// sends it one request at a time.
type modelServer struct {
	e *Embedded
}

func (s *modelServer) Model() string { return s.e.Name() }

func (s *modelServer) Generate(ctx context.Context, req *openai.ChatRequest, emit func(string) error) (string, openai.Usage, error) {
	if len(req.SpongeDraft) > 0 {
		return s.draft(ctx, req.SpongeDraft, emit)
	}
	if rf := req.ResponseFormat; rf != nil && rf.Type != "" && rf.Type != "text" {
		return "", openai.Usage{}, openai.BadRequest("response_format %q is not supported by sponge serve; ask for JSON in the messages instead", rf.Type)
	}
	msgs := make([]chat.Message, 0, len(req.Messages))
	for _, m := range req.Messages {
		switch m.Role {
		case "system", "user", "assistant":
		case "developer":
			m.Role = "system"
		default:
			return "", openai.Usage{}, openai.BadRequest("message role %q is not supported (system, user, assistant)", m.Role)
		}
		msgs = append(msgs, chat.Message{Role: m.Role, Content: m.Content})
	}
	opt := llama.GenOptions{MaxTokens: req.MaxTokens, Temperature: 0.8, TopP: 0.95, Stop: append([]string{s.e.tmpl.Stop()}, req.Stop...)}
	if req.Temperature != nil {
		opt.Temperature = *req.Temperature
	}
	if req.TopP != nil {
		opt.TopP = *req.TopP
	}
	if req.Seed != nil {
		opt.Seed = uint64(*req.Seed)
	} else {
		opt.Seed = uint64(time.Now().UnixNano())
	}
	res, err := s.e.m.Generate(ctx, s.e.tmpl.Format(msgs, true), opt, emit)
	usage := openai.Usage{PromptTokens: res.PromptTokens, CompletionTokens: res.Tokens, TotalTokens: res.PromptTokens + res.Tokens,
		PromptTokensDetails: &openai.PromptTokensDetails{CachedTokens: res.CachedTokens}}
	if errors.Is(err, llama.ErrContextFull) {
		return "", usage, openai.BadRequest("the messages are longer than the model's context of %d tokens", s.e.m.Info().ContextSize)
	}
	return res.Reason, usage, err
}

// maxServePassages bounds the passages of one sponge_draft request.
// sponge-rank sends at most 80 (4 paragraphs of each of 20 items), and the
// model's context holds a few dozen.
const maxServePassages = 100

// maxFixedTokens bounds each part of a benchmark's fixed-length statement.
const maxFixedTokens = 256

// draft writes statements with the embedded drafter (quotes copied by
// construction) for a sponge client, as the JSON the client asked for:
// {"statements":[…]}, one statement per piece, each as soon as it is made.
func (s *modelServer) draft(ctx context.Context, raw json.RawMessage, emit func(string) error) (string, openai.Usage, error) {
	var sd spongeDraft
	if err := json.Unmarshal(raw, &sd); err != nil {
		return "", openai.Usage{}, openai.BadRequest("sponge_draft is not a question with passages: %v", err)
	}
	if len(sd.Passages) > maxServePassages {
		return "", openai.Usage{}, openai.BadRequest("sponge_draft has %d passages; sponge serve reads at most %d (the model's context holds a few dozen)", len(sd.Passages), maxServePassages)
	}
	max := sd.MaxStatements
	if max <= 0 || max > jsonl.MaxStatements {
		max = jsonl.MaxStatements
	}
	s.e.opt.MaxStatements = max
	if f := sd.Fixed; f != nil {
		// Benchmarks only (OpenFixedEndpoint); bounded so that one request
		// cannot keep the server writing for long.
		if f.Statements < 1 || f.Statements > jsonl.MaxStatements || f.TextTokens < 1 || f.TextTokens > maxFixedTokens || f.QuoteTokens < 1 || f.QuoteTokens > maxFixedTokens {
			return "", openai.Usage{}, openai.BadRequest("sponge_draft.fixed asks for 1 to %d statements of 1 to %d tokens of words and of quote, not %d of %d and %d", jsonl.MaxStatements, maxFixedTokens, f.Statements, f.TextTokens, f.QuoteTokens)
		}
		s.e.Fixed = &Fixed{Statements: f.Statements, TextTokens: f.TextTokens, QuoteTokens: f.QuoteTokens}
		defer func() { s.e.Fixed = nil }()
	}
	opened := false
	var buf bytes.Buffer
	draft := s.e.Draft
	if sd.Summary {
		draft = func(ctx context.Context, _ string, passages []*jsonl.Passage, emit func(*jsonl.Statement) error) error {
			return s.e.Summarize(ctx, passages, emit)
		}
	}
	err := draft(ctx, sd.Question, sd.Passages, func(st *jsonl.Statement) error {
		buf.Reset()
		if !opened {
			buf.WriteString(`{"statements":[`)
			opened = true
		} else {
			buf.WriteString(",")
		}
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(struct {
			Text    string `json:"text"`
			Passage int    `json:"passage"`
			Quote   string `json:"quote"`
		}{st.Text, st.Passage, st.Quote})
		return emit(string(bytes.TrimRight(buf.Bytes(), "\n")))
	})
	st := s.e.Stats()
	usage := openai.Usage{PromptTokens: st.PromptTokens, CompletionTokens: st.Chosen + st.Framing, TotalTokens: st.PromptTokens + st.Chosen + st.Framing,
		PromptTokensDetails: &openai.PromptTokensDetails{CachedTokens: st.PromptCached}}
	if err != nil {
		return "", usage, err
	}
	end := "]}"
	if !opened {
		end = `{"statements":[]}`
	}
	return openai.FinishStop, usage, emit(end)
}

// checkModel is --check-model FILE: load the model as the drafter would,
// and say what it is. Exit 0 means sponge can write with it.
func checkModel(opts *Options, stdout, stderr io.Writer) int {
	e, err := OpenEmbedded(opts.CheckModel, ModelOptions{MaxStatements: jsonl.MaxStatements, Threads: opts.Threads})
	if err != nil {
		// The person named the file: say what is wrong with it, not where.
		var ge *gguf.Error
		if errors.As(err, &ge) {
			err = errors.New(ge.Msg)
		}
		return console.Report(stderr, Prog, err)
	}
	defer e.Close()
	info := e.m.Info()
	fmt.Fprintf(stdout, "%s: %s (%s), %d tokens of context, %d in the vocabulary, chat format %s\n",
		termtext.Safe(opts.CheckModel), termtext.Safe(info.Name), termtext.Safe(info.Architecture), info.ContextSize, info.VocabSize, e.tmpl.Style)
	return console.ExitOK
}
