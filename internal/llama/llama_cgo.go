//go:build cgo

package llama

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
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
	"os"
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
		if os.Getenv("SPONGE_LLAMA_LOG") != "" {
			verbose = 1
		}
		C.sponge_log_init(C.int(verbose))
		C.llama_backend_init()
	})
}

type cgoBackend struct {
	model *llama.Model
	ctx   *llama.Context
	batch *llama.Batch
	vocab *C.struct_llama_vocab
	n     int
	bsize int
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
	ctx, err := llama.NewContextWithModel(m, cp)
	if err != nil {
		llama.FreeModel(m)
		return nil, fmt.Errorf("cannot make a context of %d tokens for %s: %s", opt.ContextSize, path, lastError("out of memory?"))
	}
	batch, err := llama.NewBatch(opt.BatchSize, 1, 0)
	if err != nil {
		llama.FreeModel(m)
		return nil, err
	}
	b := &cgoBackend{
		model: m,
		ctx:   ctx,
		batch: batch,
		vocab: (*C.struct_llama_vocab)(unsafe.Pointer(m.Vocab())),
		n:     m.NumVocab(),
		bsize: opt.BatchSize,
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

func (b *cgoBackend) decode(tokens []int, pos int) ([]float32, error) {
	b.batch.Clear()
	for i, t := range tokens {
		b.batch.Add(t, nil, pos+i, i == len(tokens)-1, 0)
	}
	if err := b.ctx.Decode(b.batch); err != nil {
		if errors.Is(err, llama.ErrKvCacheFull) {
			return nil, ErrContextFull
		}
		return nil, fmt.Errorf("llama.cpp failed to read the prompt: %v", err)
	}
	logits := b.ctx.GetLogitsIth(len(tokens) - 1)
	if logits == nil {
		return nil, errors.New("llama.cpp gave no scores for the next token")
	}
	return logits, nil
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
