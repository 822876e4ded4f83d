//go:build cgo

package llama

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The few llama.cpp functions the binding does not wrap, declared here so
// that this package needs no include path into the module cache; they are
// linked from github.com/ollama/ollama/llama.
struct llama_vocab;
typedef void (*sponge_log_callback)(int level, const char *text, void *user_data);
void llama_backend_init(void);
void llama_log_set(sponge_log_callback cb, void *user_data);
int32_t llama_vocab_get_attr(const struct llama_vocab *vocab, int32_t token);
int32_t llama_token_to_piece(const struct llama_vocab *vocab, int32_t token, char *buf, int32_t length, int32_t lstrip, bool special);
struct llama_context;
void llama_free(struct llama_context *ctx);
float *llama_get_logits_ith(struct llama_context *ctx, int32_t i);
float *llama_get_embeddings_ith(struct llama_context *ctx, int32_t i);
struct ggml_tensor;
const char *ggml_get_name(const struct ggml_tensor *tensor);

// llama.h's struct llama_context_params of ollama v0.17.4, field by field,
// to set the graph callback the binding does not offer (sponge_narrow
// checks the copy against values it knows before trusting it).
struct sponge_context_params {
	uint32_t n_ctx, n_batch, n_ubatch, n_seq_max;
	int32_t n_threads, n_threads_batch;
	int rope_scaling_type, pooling_type, attention_type, flash_attn_type;
	float rope_freq_base, rope_freq_scale, yarn_ext_factor, yarn_attn_factor, yarn_beta_fast, yarn_beta_slow;
	uint32_t yarn_orig_ctx;
	float defrag_thold;
	bool (*cb_eval)(struct ggml_tensor *t, bool ask, void *user_data);
	void *cb_eval_user_data;
	int type_k, type_v;
	bool (*abort_callback)(void *data);
	void *abort_callback_data;
	bool embeddings, offload_kqv, no_perf, op_offload, swa_full, kv_unified;
};

// A narrow decode stops the graph once the final norm is computed: the
// output layer, which scores every token of the vocabulary, is left out,
// and the caller scores the few tokens it allows from the hidden state
// (llama.cpp's scheduler ends a split, with success, when the callback
// returns false).
struct sponge_narrow {
	int narrow;  // set before a decode
	int stopped; // the output layer was left out
};

static bool sponge_eval(struct ggml_tensor *t, bool ask, void *user_data) {
	struct sponge_narrow *n = user_data;
	if (!n->narrow) {
		return !ask;
	}
	if (ask) {
		// The final norm, renamed by llama.cpp's pooling step when
		// embeddings are on (the binding turns them on).
		const char *name = ggml_get_name(t);
		return strcmp(name, "result_norm") == 0 || strcmp(name, "result_embd_pooled") == 0;
	}
	n->stopped = 1;
	return false;
}

static int sponge_set_narrow(void *params, size_t size, uint32_t n_ctx, int32_t threads, struct sponge_narrow *n) {
	struct sponge_context_params *p = params;
	if (size != sizeof *p || p->n_ctx != n_ctx || p->n_threads != threads || p->n_threads_batch != threads ||
	    p->cb_eval != NULL || p->cb_eval_user_data != NULL || p->abort_callback != NULL ||
	    p->type_k != 1 || p->type_v != 1 || !p->embeddings || !p->offload_kqv || p->kv_unified) {
		return 0;
	}
	p->cb_eval = sponge_eval;
	p->cb_eval_user_data = n;
	return 1;
}

// llama.cpp logs a lot while loading. sponge keeps quiet, unless
// SPONGE_LLAMA_LOG is set, and keeps the first error since it was cleared
// (the cause; later ones say "failed to load model") for its own message.
static int sponge_log_verbose;
static char sponge_first_error[512];
static int sponge_recording;

static void sponge_log(int level, const char *text, void *user_data) {
	(void)user_data;
	if (sponge_log_verbose) {
		fputs(text, stderr);
	}
	// GGML_LOG_LEVEL_ERROR is 4; 5 continues the previous message.
	if (level == 4) {
		sponge_recording = sponge_first_error[0] == 0;
	} else if (level != 5) {
		sponge_recording = 0;
	}
	if (sponge_recording) {
		size_t n = strlen(sponge_first_error);
		if (n < sizeof sponge_first_error - 1) {
			strncat(sponge_first_error, text, sizeof sponge_first_error - 1 - n);
		}
	}
}

static void sponge_log_init(int verbose) {
	sponge_log_verbose = verbose;
	llama_log_set(sponge_log, NULL);
}

static void sponge_clear_error(void) { sponge_first_error[0] = 0; sponge_recording = 0; }
static const char *sponge_error(void) { return sponge_first_error; }
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"
)

// Token attributes (llama.h, enum llama_token_attr).
const (
	attrUnknown = 1 << 0
	attrUnused  = 1 << 1
	attrControl = 1 << 3
)

var initOnce sync.Once

// initRuntime sets up llama.cpp once. It does not call the binding's
// BackendInit, which would look for GPU libraries beside the executable and
// log to stderr: the CPU backend is built in.
func initRuntime() {
	initOnce.Do(func() {
		verbose := 0
		if Log {
			verbose = 1
		}
		C.sponge_log_init(C.int(verbose))
		C.llama_backend_init()
	})
}

type cgoBackend struct {
	model *llama.Model
	ctx   *llama.Context
	c     *C.struct_llama_context
	batch *llama.Batch
	vocab *C.struct_llama_vocab
	n     int
	embd  int
	bsize int
	// narrow is the graph callback's state, nil when it could not be set.
	narrow *C.struct_sponge_narrow
}

// loadMu serialises loading, so the last llama.cpp error belongs to this load.
var loadMu sync.Mutex

func openBackend(path string, opt LoadOptions) (backend, error) {
	initRuntime()
	loadMu.Lock()
	defer loadMu.Unlock()
	C.sponge_clear_error()
	params := llama.ModelParams{UseMmap: true}
	if opt.Progress != nil {
		params.Progress = func(f float32) { opt.Progress(float64(f)) }
	}
	m, err := llama.LoadModelFromFile(path, params)
	if err != nil {
		return nil, loadError(path)
	}
	// Flash attention stays off: on this CPU backend it read a 2,700-token
	// prompt at 90 tokens per CPU second against 140 without, and wrote 28
	// tokens per CPU second against 34 (Qwen2.5-0.5B shape, Q8_0).
	cp := llama.NewContextParams(opt.ContextSize, opt.BatchSize, 1, opt.Threads, ml.FlashAttentionDisabled, "")
	narrow := (*C.struct_sponge_narrow)(C.calloc(1, C.size_t(unsafe.Sizeof(C.struct_sponge_narrow{}))))
	if C.sponge_set_narrow(unsafe.Pointer(&cp), C.size_t(unsafe.Sizeof(cp)), C.uint32_t(opt.ContextSize), C.int32_t(opt.Threads), narrow) == 0 {
		C.free(unsafe.Pointer(narrow))
		narrow = nil
	}
	ctx, err := llama.NewContextWithModel(m, cp)
	if err != nil {
		C.free(unsafe.Pointer(narrow))
		llama.FreeModel(m)
		return nil, fmt.Errorf("cannot make a context of %d tokens for %s: %s", opt.ContextSize, path, lastError("out of memory?"))
	}
	batch, err := llama.NewBatch(opt.BatchSize, 1, 0)
	if err != nil {
		C.free(unsafe.Pointer(narrow))
		llama.FreeModel(m)
		return nil, err
	}
	b := &cgoBackend{
		model:  m,
		ctx:    ctx,
		c:      *(**C.struct_llama_context)(unsafe.Pointer(ctx)),
		batch:  batch,
		vocab:  (*C.struct_llama_vocab)(unsafe.Pointer(m.Vocab())),
		n:      m.NumVocab(),
		embd:   m.NEmbd(),
		bsize:  opt.BatchSize,
		narrow: narrow,
	}
	return b, nil
}

// lastError is llama.cpp's first logged error since the load began, trimmed of its function-name
// prefixes, or fallback.
func lastError(fallback string) string {
	msg := strings.TrimSpace(C.GoString(C.sponge_error()))
	// "llama_model_load: error loading model: key not found …"
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

func loadError(path string) error {
	return fmt.Errorf("llama.cpp cannot load %s: %s", path, lastError("unknown error"))
}

func (b *cgoBackend) vocabSize() int { return b.n }
func (b *cgoBackend) batchSize() int { return b.bsize }

func (b *cgoBackend) tokenize(text string, addSpecial, parseSpecial bool) ([]int, error) {
	if text == "" && !addSpecial {
		return nil, nil
	}
	if text == "" {
		// The binding cannot tokenize an empty string; a space stands in,
		// and only the added special tokens before it are kept.
		t, err := b.model.Tokenize(" ", true, false)
		if err != nil {
			return nil, err
		}
		plain, err := b.model.Tokenize(" ", false, false)
		if err != nil || len(plain) == 0 || len(t) < len(plain) {
			return nil, err
		}
		return t[:len(t)-len(plain)], nil
	}
	return b.model.Tokenize(text, addSpecial, parseSpecial)
}

func (b *cgoBackend) attr(tok int) int {
	if tok < 0 || tok >= b.n {
		return attrUnknown
	}
	return int(C.llama_vocab_get_attr(b.vocab, C.int32_t(tok)))
}

func (b *cgoBackend) control(tok int) bool {
	return b.attr(tok)&(attrControl|attrUnknown|attrUnused) != 0
}

func (b *cgoBackend) piece(tok int) string {
	var buf [64]byte
	n := C.llama_token_to_piece(b.vocab, C.int32_t(tok), (*C.char)(unsafe.Pointer(&buf[0])), C.int32_t(len(buf)), 0, false)
	if n >= 0 {
		return string(buf[:n])
	}
	big := make([]byte, -n)
	n = C.llama_token_to_piece(b.vocab, C.int32_t(tok), (*C.char)(unsafe.Pointer(&big[0])), C.int32_t(len(big)), 0, false)
	if n < 0 {
		return ""
	}
	return string(big[:n])
}

func (b *cgoBackend) end(tok int) bool {
	return tok >= 0 && tok < b.n && b.model.TokenIsEog(tok)
}

func (b *cgoBackend) canNarrow() bool { return b.narrow != nil }

// decode returns views of llama.cpp's own buffers, valid until the next
// decode: copying 150,000 scores per token is time spent for nothing.
func (b *cgoBackend) decode(tokens []int, pos int, narrow bool) (logits, hidden []float32, err error) {
	b.batch.Clear()
	for i, t := range tokens {
		b.batch.Add(t, nil, pos+i, i == len(tokens)-1, 0)
	}
	if b.narrow != nil {
		b.narrow.narrow = 0
		if narrow {
			b.narrow.narrow = 1
		}
		b.narrow.stopped = 0
	}
	if err := b.ctx.Decode(b.batch); err != nil {
		if errors.Is(err, llama.ErrKvCacheFull) {
			return nil, nil, ErrContextFull
		}
		return nil, nil, fmt.Errorf("llama.cpp failed to read the prompt: %v", err)
	}
	last := C.int32_t(len(tokens) - 1)
	if p := C.llama_get_embeddings_ith(b.c, last); p != nil {
		hidden = unsafe.Slice((*float32)(unsafe.Pointer(p)), b.embd)
	}
	if b.narrow != nil && b.narrow.stopped != 0 {
		if hidden == nil {
			return nil, nil, errors.New("llama.cpp gave no hidden state for the next token")
		}
		return nil, hidden, nil
	}
	p := C.llama_get_logits_ith(b.c, last)
	if p == nil {
		return nil, nil, errors.New("llama.cpp gave no scores for the next token")
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(p)), b.n), hidden, nil
}

func (b *cgoBackend) forget(pos int) bool {
	if pos == 0 {
		b.ctx.KvCacheClear()
		return true
	}
	return b.ctx.KvCacheSeqRm(0, pos, -1)
}

func (b *cgoBackend) close() {
	b.batch.Free()
	FreeContext(b.ctx)
	llama.FreeModel(b.model)
	C.free(unsafe.Pointer(b.narrow))
	b.narrow = nil
}

// FreeContext frees a context of the binding, which cannot do it itself
// (its memory holds the KV cache). Its Context struct starts with the C
// pointer (v0.17.4: struct { c *C.struct_llama_context; numThreads int }).
func FreeContext(ctx *llama.Context) {
	C.llama_free(*(**C.struct_llama_context)(unsafe.Pointer(ctx)))
}

// BeginLoad is for other packages that load models through the binding
// (internal/embed): it sets llama.cpp up once, with this package's quiet
// logging, takes the load lock and forgets the last error, so that
// LastError then tells why this load failed. Call the returned end when the
// load is over.
func BeginLoad() (end func()) {
	initRuntime()
	loadMu.Lock()
	C.sponge_clear_error()
	return loadMu.Unlock
}

// LastError is llama.cpp's first error since BeginLoad, or fallback.
func LastError(fallback string) string { return lastError(fallback) }
