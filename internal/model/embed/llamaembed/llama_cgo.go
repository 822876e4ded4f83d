//go:build cgo

package llamaembed

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"
	"github.com/sponge-library/sponge/internal/model/embed"
	spongellama "github.com/sponge-library/sponge/internal/model/llama"
)

// HasRuntime reports whether this build runs models in-process.
const HasRuntime = true

// A program that links this package embeds in-process (embed.Start).
func init() {
	embed.InProcess = func(path string, opt embed.Options) (embed.Embedder, error) {
		m, err := Load(path, opt)
		if err != nil {
			return nil, err
		}
		return m, nil
	}
}

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
	info    embed.Info
	model   *llama.Model
	workers chan *worker
	all     []*worker
	// batchTokens is the most tokens of one step; maxTokens the most of one text.
	batchTokens, maxTokens int
	mu                     sync.Mutex
	closed                 bool
	// warm is closed when the first tokenization is done.
	warm chan struct{}
}

// worker is one context with its batch.
type worker struct {
	ctx   *llama.Context
	batch *llama.Batch
}

// Load checks the GGUF file at path (embed.Inspect) and loads it.
func Load(path string, opt embed.Options) (*Model, error) {
	info, err := embed.Inspect(path)
	if err != nil {
		return nil, err
	}
	if opt.Threads <= 0 {
		opt.Threads = runtime.NumCPU()
	}
	if opt.BatchTokens <= 0 {
		opt.BatchTokens = 512
	}
	embed.Mark("embed: model header read")
	end := spongellama.BeginLoad()
	defer end()
	embed.Mark("embed: llama.cpp set up")
	m, err := llama.LoadModelFromFile(path, llama.ModelParams{UseMmap: true})
	embed.Mark("embed: model loaded")
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
	// The first tokenization builds llama.cpp's Unicode tables (about 1 ms):
	// it is done beside making the contexts, not before the first text.
	mod.warm = make(chan struct{})
	go func() {
		m.Tokenize("a", true, false)
		close(mod.warm)
	}()
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
	<-mod.warm
	embed.Mark("embed: %d context(s) of %d tokens made", opt.Threads, bt)
	return mod, nil
}

func (m *Model) free() {
	<-m.warm
	for _, w := range m.all {
		w.batch.Free()
		freeContext(w.ctx)
	}
	m.all = nil
	llama.FreeModel(m.model)
}

func lastError(fallback string) string { return spongellama.LastError(fallback) }

func freeContext(ctx *llama.Context) { spongellama.FreeContext(ctx) }

// embed.Info describes the model.
func (m *Model) Info() embed.Info { return m.info }

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
	embed.Mark("embed: %d text(s) tokenized", len(texts))
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
	embed.Mark("embed: %d text(s) encoded", len(texts))
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
		embed.Normalize(v)
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
		embed.Mark("embed: model freed")
	}
	return nil
}
