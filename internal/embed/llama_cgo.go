//go:build cgo

package embed

/*
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// llama.cpp logs a lot while loading; sponge keeps quiet unless
// SPONGE_LLAMA_LOG is set, and keeps the first error for its own message.
// (internal/llama installs the same kind of callback; whichever is set last
// serves both.)
typedef void (*sponge_embed_log_cb)(int level, const char *text, void *user_data);
void llama_log_set(sponge_embed_log_cb cb, void *user_data);
void llama_backend_init(void);

static int sponge_embed_verbose;
static char sponge_embed_err[512];
static int sponge_embed_rec;

static void sponge_embed_log(int level, const char *text, void *user_data) {
	(void)user_data;
	if (sponge_embed_verbose) {
		fputs(text, stderr);
	}
	if (level == 4) {
		sponge_embed_rec = sponge_embed_err[0] == 0;
	} else if (level != 5) {
		sponge_embed_rec = 0;
	}
	if (sponge_embed_rec) {
		size_t n = strlen(sponge_embed_err);
		if (n < sizeof sponge_embed_err - 1) {
			strncat(sponge_embed_err, text, sizeof sponge_embed_err - 1 - n);
		}
	}
}

static void sponge_embed_init(int verbose) {
	sponge_embed_verbose = verbose;
	llama_log_set(sponge_embed_log, NULL);
	llama_backend_init();
}
static void sponge_embed_clear(void) { sponge_embed_err[0] = 0; sponge_embed_rec = 0; }
static const char *sponge_embed_error(void) { return sponge_embed_err; }

struct llama_context;
void llama_free(struct llama_context *ctx);
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"
)

// HasRuntime reports whether this build runs models in-process.
const HasRuntime = true

var (
	initOnce sync.Once
	loadMu   sync.Mutex
)

// maxSeqs is the most texts encoded together in one step.
const maxSeqs = 64

// Model is an embedding model loaded in this process. Its methods are safe
// for concurrent use.
//
// It runs one llama.cpp context per thread, each single-threaded, and hands
// the steps of a batch to them in turn: texts are independent, so this
// scales without the threads waiting for each other at every layer (which
// is what one context with several threads does, and on a busy machine,
// where a thread is often descheduled, that made embedding 4× slower than
// one thread).
type Model struct {
	info    Info
	model   *llama.Model
	workers chan *worker
	all     []*worker
	// batchTokens is the most tokens of one step; maxTokens the most of one text.
	batchTokens, maxTokens int
	mu                     sync.Mutex
	closed                 bool
}

// worker is one context with its batch.
type worker struct {
	ctx   *llama.Context
	batch *llama.Batch
}

// Load checks the GGUF file at path (Inspect) and loads it.
func Load(path string, opt Options) (*Model, error) {
	info, err := Inspect(path)
	if err != nil {
		return nil, err
	}
	if opt.Threads <= 0 {
		opt.Threads = runtime.NumCPU()
	}
	if opt.BatchTokens <= 0 {
		opt.BatchTokens = 512
	}
	initOnce.Do(func() {
		v := 0
		if os.Getenv("SPONGE_LLAMA_LOG") != "" {
			v = 1
		}
		C.sponge_embed_init(C.int(v))
	})
	loadMu.Lock()
	defer loadMu.Unlock()
	C.sponge_embed_clear()
	m, err := llama.LoadModelFromFile(path, llama.ModelParams{UseMmap: true})
	if err != nil {
		return nil, fmt.Errorf("llama.cpp cannot load %s: %s", path, lastError("unknown error"))
	}
	if got := m.NEmbd(); got != info.Dims {
		llama.FreeModel(m)
		return nil, fmt.Errorf("%s: llama.cpp reads %d dimensions, the header says %d", path, got, info.Dims)
	}
	// A step of several texts must fit in one micro-batch: a BERT encoder
	// cannot split a text across steps (llama.cpp aborts if asked to).
	bt := opt.BatchTokens
	mod := &Model{info: info, model: m, workers: make(chan *worker, opt.Threads), batchTokens: bt, maxTokens: min(bt, info.ContextLength)}
	for range opt.Threads {
		cp := llama.NewContextParams(bt, bt, maxSeqs, 1, ml.FlashAttentionDisabled, "")
		ctx, err := llama.NewContextWithModel(m, cp)
		if err != nil {
			mod.free()
			return nil, fmt.Errorf("cannot make a context for %s: %s", path, lastError("out of memory?"))
		}
		batch, err := llama.NewBatch(bt, 1, 0)
		if err != nil {
			freeContext(ctx)
			mod.free()
			return nil, err
		}
		w := &worker{ctx: ctx, batch: batch}
		mod.all = append(mod.all, w)
		mod.workers <- w
	}
	return mod, nil
}

func (m *Model) free() {
	for _, w := range m.all {
		w.batch.Free()
		freeContext(w.ctx)
	}
	m.all = nil
	llama.FreeModel(m.model)
}

func lastError(fallback string) string {
	msg := strings.TrimSpace(C.GoString(C.sponge_embed_error()))
	for {
		i := strings.Index(msg, ": ")
		if i < 0 || strings.ContainsAny(msg[:i], " ") {
			break
		}
		msg = msg[i+2:]
	}
	msg = strings.TrimPrefix(msg, "error loading model: ")
	if msg == "" {
		return fallback
	}
	return msg
}

// freeContext frees a context, which the binding cannot do: its Context
// struct starts with the C pointer (v0.17.4).
func freeContext(ctx *llama.Context) {
	C.llama_free(*(**C.struct_llama_context)(unsafe.Pointer(ctx)))
}

// Info describes the model.
func (m *Model) Info() Info { return m.info }

// Tokens is how many tokens the model reads of text (after cutting).
func (m *Model) Tokens(text string) (int, error) {
	t, err := m.tokenize(text)
	return len(t), err
}

func (m *Model) tokenize(text string) ([]int, error) {
	t, err := m.model.Tokenize(text, true, false)
	if err != nil {
		return nil, err
	}
	if len(t) > m.maxTokens {
		// Keep the start, and the closing [SEP] the model expects.
		last := t[len(t)-1]
		t = append(t[:m.maxTokens-1], last)
	}
	return t, nil
}

// Embed returns a unit-length vector per text, several texts per step.
func (m *Model) Embed(texts []string) ([][]float32, error) {
	toks := make([][]int, len(texts))
	for i, s := range texts {
		t, err := m.tokenize(s)
		if err != nil {
			return nil, fmt.Errorf("cannot tokenize text %d: %v", i+1, err)
		}
		if len(t) == 0 {
			return nil, fmt.Errorf("text %d has no tokens", i+1)
		}
		toks[i] = t
	}
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		return nil, errors.New("embed: the model is closed")
	}
	// Steps: runs of texts that fit in one micro-batch together.
	type step struct{ start, end int }
	var steps []step
	for start := 0; start < len(toks); {
		end, n := start, 0
		for end < len(toks) && end-start < maxSeqs && n+len(toks[end]) <= m.batchTokens {
			n += len(toks[end])
			end++
		}
		steps = append(steps, step{start, end})
		start = end
	}
	out := make([][]float32, len(texts))
	next := make(chan step, len(steps))
	for _, st := range steps {
		next <- st
	}
	close(next)
	errs := make(chan error, len(steps))
	var wg sync.WaitGroup
	for range min(len(steps), cap(m.workers)) {
		w := <-m.workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { m.workers <- w }()
			for st := range next {
				if err := w.encode(toks[st.start:st.end], out[st.start:st.end]); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return out, nil
}

// encode runs one step: the texts as separate sequences of one batch.
func (w *worker) encode(toks [][]int, out [][]float32) error {
	w.batch.Clear()
	for s, t := range toks {
		for pos, tok := range t {
			w.batch.Add(tok, nil, pos, true, s)
		}
	}
	if err := w.ctx.Decode(w.batch); err != nil {
		return fmt.Errorf("llama.cpp failed to encode: %v (%s)", err, lastError("no detail"))
	}
	for s := range toks {
		v := w.ctx.GetEmbeddingsSeq(s)
		if v == nil {
			return errors.New("llama.cpp gave no pooled vector (does the model pool?)")
		}
		Normalize(v)
		out[s] = v
	}
	return nil
}

// Close frees the model.
func (m *Model) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.closed {
		m.closed = true
		// Wait for every worker to be back from its step.
		for range m.all {
			<-m.workers
		}
		m.free()
	}
	return nil
}
