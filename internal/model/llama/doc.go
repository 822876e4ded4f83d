// Package llama runs a GGUF language model in-process with llama.cpp, through
// the cgo binding github.com/ollama/ollama/llama (which vendors llama.cpp).
//
// It gives what sponge needs and no more: Load a model (checked first by
// internal/gguf, since llama.cpp may abort the process on a malformed file),
// tokenize and detokenize, a Sequence to feed tokens and choose each next token
// from the model's logits among the tokens the caller allows (constrained
// decoding), and Generate for plain chat completions with streaming, stop
// strings, greedy or temperature/top-p sampling.
//
// The code that touches llama.cpp builds only with cgo (see the Makefile's
// llama block for the flags it needs); without cgo, Load reports that this
// build has no model runtime, so every package still builds with
// CGO_ENABLED=0.
package llama

import (
	"errors"
	"time"
)

// LoadOptions tune Load. The zero value is good.
type LoadOptions struct {
	// ContextSize is the most tokens the model sees at once (prompt and
	// answer); 0 means the model's trained length, at most 8192.
	ContextSize int
	// Threads is the number of CPU threads; 0 means one per core.
	Threads int
	// BatchSize is how many prompt tokens are decoded in one step; 0 means 512.
	BatchSize int
	// Progress, when set, is called while the weights load, with the
	// fraction done from 0 to 1.
	Progress func(fraction float64)
}

// Info describes a loaded model.
type Info struct {
	Path         string
	Name         string // general.name, or the file name when the model has none
	Architecture string // general.architecture, e.g. "qwen2"
	ChatTemplate string // tokenizer.chat_template, "" when the model has none
	// ContextLength is what the model was trained for; ContextSize is what
	// it was loaded with.
	ContextLength int
	ContextSize   int
	VocabSize     int
	FileSize      int64
}

// GenOptions tune Generate.
type GenOptions struct {
	// MaxTokens ends the answer after this many tokens; 0 means until the
	// context is full.
	MaxTokens int
	// Temperature 0 chooses the likeliest token every time (greedy, the same
	// answer every run); above 0 samples, sharper below 1.
	Temperature float64
	// TopP keeps the likeliest tokens whose probabilities add up to TopP
	// (0 or 1: all of them), when sampling.
	TopP float64
	// Seed makes sampling repeatable.
	Seed uint64
	// Stop ends the answer before the first of these strings; the stop string
	// itself is not emitted.
	Stop []string
	// Filter, when set, is the constrained-decoding hook: before each token it
	// gets the text written so far and returns the tokens allowed next (nil:
	// any). Returning an empty non-nil slice ends the answer.
	Filter func(written string) []int
}

// Why Generate stopped, in GenResult.Reason (the words of OpenAI's
// finish_reason).
const (
	ReasonStop   = "stop"   // the model ended its turn, or a stop string came
	ReasonLength = "length" // MaxTokens or the context size was reached
)

// GenResult reports on one Generate call.
type GenResult struct {
	Text         string
	Reason       string
	PromptTokens int
	// CachedTokens of the prompt were already in the model's memory from the
	// previous call and were not decoded again.
	CachedTokens int
	Tokens       int // tokens written
	PromptTime   time.Duration
	GenTime      time.Duration
}

// ErrNoRuntime is returned by Load in a build without cgo.
var ErrNoRuntime = errors.New("this build of sponge has no model runtime (it was built without cgo)")

// ErrContextFull is returned when a prompt does not fit in the context.
var ErrContextFull = errors.New("the prompt does not fit in the model's context")

// LogEnv names the environment variable that lets llama.cpp log to stderr
// (for people chasing a model that will not load); a program's main reads
// it (settings.Environ) and sets Log before the first model loads.
const LogEnv = "SPONGE_LLAMA_LOG"

// Log lets llama.cpp log to stderr.
var Log bool
