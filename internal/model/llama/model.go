package llama

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/sponge-library/sponge/internal/model/gguf"
)

// backend is what Model needs from llama.cpp: llama_cgo.go implements it
// with the cgo binding; a build without cgo has none.
type backend interface {
	vocabSize() int
	tokenize(text string, addSpecial, parseSpecial bool) ([]int, error)
	// piece is the text of a token as it appears in written text: raw bytes
	// (a byte-fallback token may be part of a UTF-8 sequence), "" for
	// control tokens.
	piece(tok int) string
	// control reports tokens that are not text: control, unknown, unused.
	control(tok int) bool
	// end reports tokens that end the model's turn.
	end(tok int) bool
	// decode feeds tokens at positions pos, pos+1, … and returns the logits
	// for the token after the last one, and the model's last hidden state
	// when it has it; with narrow (see canNarrow) it may leave out the
	// logits (nil). Both are valid until the next decode.
	decode(tokens []int, pos int, narrow bool) (logits, hidden []float32, err error)
	// canNarrow reports whether decode can leave out the logits.
	canNarrow() bool
	// forget drops every position from pos on from the model's memory.
	forget(pos int) bool
	close()
}

// Model is a loaded model with one context: one text is written at a time.
// Its methods are safe for concurrent use; Sequence and Generate wait for the
// model to be free.
type Model struct {
	info Info
	b    backend

	mu     sync.Mutex // held by the open Sequence
	cache  []int      // tokens in the model's memory, in order
	closed bool

	bos int // the begin-of-text token the model wants first, or -1

	// out scores single tokens from the hidden state, for narrow decodes;
	// nil when the model's output layer is not one it can score. It is
	// trusted once its scores were found equal to llama.cpp's.
	out        *outputLayer
	outChecked bool
	scratch    []float32 // scores of the allowed tokens, indexed by token

	piecesOnce sync.Once
	pieces     []string
	control    []bool
	notFree    []bool // control tokens but those that end the turn
	vocabOnce  sync.Once
	vocab      *Vocab
}

// Load checks the GGUF file at path and loads it. Errors are for people: a
// file that is not GGUF, is truncated, or has an architecture llama.cpp
// cannot run gives a *gguf.Error naming the file.
func Load(path string, opt LoadOptions) (*Model, error) {
	gi, err := gguf.ReadInfo(path)
	if err != nil {
		return nil, err
	}
	if err := gi.Check(); err != nil {
		return nil, err
	}
	if opt.Threads <= 0 {
		opt.Threads = runtime.NumCPU()
	}
	if opt.BatchSize <= 0 {
		opt.BatchSize = 512
	}
	if opt.ContextSize <= 0 {
		opt.ContextSize = 8192
		if gi.ContextLength > 0 {
			opt.ContextSize = min(opt.ContextSize, gi.ContextLength)
		}
	}
	opt.BatchSize = min(opt.BatchSize, opt.ContextSize)
	b, err := openBackend(path, opt)
	if err != nil {
		return nil, err
	}
	name := gi.Name
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	m := &Model{b: b, info: Info{
		Path:          path,
		Name:          name,
		Architecture:  gi.Architecture,
		ChatTemplate:  gi.ChatTemplate,
		ContextLength: gi.ContextLength,
		ContextSize:   opt.ContextSize,
		VocabSize:     b.vocabSize(),
		FileSize:      gi.FileSize,
	}}
	m.bos = -1
	if t, err := b.tokenize("", true, false); err == nil && len(t) > 0 && !b.end(t[0]) {
		m.bos = t[0]
	}
	if b.canNarrow() {
		m.out = openOutput(path, gi)
	}
	return m, nil
}

// Close frees the model. It waits for an open Sequence to close.
func (m *Model) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.closed {
		m.closed = true
		m.b.close()
		m.out.close()
	}
	return nil
}

// Info describes the model.
func (m *Model) Info() Info { return m.info }

// Tokenize turns text into tokens. With special, the text of control tokens
// (such as "<|im_start|>" in a chat prompt) becomes those tokens; without,
// it is plain text. No begin-of-text token is added.
func (m *Model) Tokenize(text string, special bool) ([]int, error) {
	return m.b.tokenize(text, false, special)
}

// TokenizePrompt tokenizes a prompt in the model's chat format: the text of
// control tokens becomes those tokens, and the begin-of-text token is put
// first when the model wants it and the text does not already start with it.
func (m *Model) TokenizePrompt(prompt string) ([]int, error) {
	toks, err := m.b.tokenize(prompt, false, true)
	if err != nil {
		return nil, err
	}
	if m.bos >= 0 && (len(toks) == 0 || toks[0] != m.bos) {
		toks = append([]int{m.bos}, toks...)
	}
	return toks, nil
}

// Detokenize joins the text of tokens; control tokens are left out.
func (m *Model) Detokenize(tokens []int) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteString(m.Piece(t))
	}
	return sb.String()
}

// Piece is the text of one token, "" for a control token. It may be part
// of a UTF-8 character.
func (m *Model) Piece(tok int) string {
	p := m.Pieces()
	if tok < 0 || tok >= len(p) {
		return ""
	}
	return p[tok]
}

// Pieces is the text of every token, indexed by token; computed once. The
// caller must not change it.
func (m *Model) Pieces() []string {
	m.piecesOnce.Do(func() {
		n := m.b.vocabSize()
		m.pieces = make([]string, n)
		m.control = make([]bool, n)
		m.notFree = make([]bool, n)
		for t := range n {
			m.control[t] = m.b.control(t)
			m.notFree[t] = m.control[t] && !m.b.end(t)
			if !m.control[t] {
				m.pieces[t] = m.b.piece(t)
			}
		}
	})
	return m.pieces
}

// Vocab is the index of the model's token pieces for constrained decoding;
// built on first use (a fraction of a second for 150,000 tokens).
func (m *Model) Vocab() *Vocab {
	m.vocabOnce.Do(func() { m.vocab = NewVocab(m.Pieces()) })
	return m.vocab
}

// IsControl reports whether tok is not text (a control, unknown or unused
// token): such tokens are never allowed in constrained text.
func (m *Model) IsControl(tok int) bool {
	m.Pieces()
	return tok < 0 || tok >= len(m.control) || m.control[tok]
}

// IsEnd reports whether tok ends the model's turn.
func (m *Model) IsEnd(tok int) bool { return m.b.end(tok) }

// Sequence is the model reading and writing one text. While it is open the
// model serves no one else; Close it when done.
type Sequence struct {
	m      *Model
	logits []float32 // nil after FeedNarrow
	cached int
	closed bool
}

// Start opens a Sequence that has read prompt. Tokens at the start of prompt
// that the model read last time are not decoded again (a warm start).
func (m *Model) Start(ctx context.Context, prompt []int) (*Sequence, error) {
	if len(prompt) == 0 {
		return nil, errors.New("llama: empty prompt")
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, errors.New("llama: the model is closed")
	}
	s := &Sequence{m: m}
	keep := 0
	for keep < len(m.cache) && keep < len(prompt)-1 && m.cache[keep] == prompt[keep] {
		keep++
	}
	if !m.b.forget(keep) {
		keep = 0
		m.b.forget(0)
	}
	m.cache = m.cache[:keep]
	s.cached = keep
	if err := s.Feed(ctx, prompt[keep:]); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Cached is how many tokens at the start of the prompt were already in the
// model's memory, so Start did not decode them again.
func (s *Sequence) Cached() int { return s.cached }

// Len is how many tokens the model has read: the prompt and what followed.
func (s *Sequence) Len() int { return len(s.m.cache) }

// Feed has the model read tokens.
func (s *Sequence) Feed(ctx context.Context, tokens []int) error {
	return s.feed(ctx, tokens, false)
}

// FeedNarrow has the model read tokens like Feed, when its next choice will
// be among a few tokens (Choose with a short allow list, or Score): the
// model may then leave out scoring the whole vocabulary, and Choose and
// Score compute the scores of just those tokens, the same to the bit. It
// saves a quarter of the time per token with Qwen 2.5 0.5B (a Q8_0 output
// layer); with other models it is Feed. Logits is nil until the next Feed.
func (s *Sequence) FeedNarrow(ctx context.Context, tokens []int) error {
	return s.feed(ctx, tokens, true)
}

func (s *Sequence) feed(ctx context.Context, tokens []int, narrow bool) error {
	if s.closed {
		return errors.New("llama: the sequence is closed")
	}
	m := s.m
	if len(m.cache)+len(tokens) > m.info.ContextSize {
		return fmt.Errorf("%w (%d tokens, the context holds %d)", ErrContextFull, len(m.cache)+len(tokens), m.info.ContextSize)
	}
	batch := maxBatch(m)
	for len(tokens) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(batch, len(tokens))
		logits, hidden, err := m.b.decode(tokens[:n], len(m.cache), narrow && m.out != nil && m.outChecked)
		if err != nil {
			return err
		}
		m.cache = append(m.cache, tokens[:n]...)
		s.logits = logits
		tokens = tokens[n:]
		if m.out != nil {
			if hidden == nil {
				m.out.close()
				m.out = nil
			} else {
				m.out.quantize(hidden)
				if !m.outChecked && logits != nil {
					m.checkOutput(logits)
				}
			}
		}
	}
	return nil
}

// checkOutput compares the output layer's scores with llama.cpp's for a
// sample of tokens, and the likeliest one; on any difference it is not
// used.
func (m *Model) checkOutput(logits []float32) {
	m.outChecked = true
	best := 0
	for t, l := range logits {
		if l > logits[best] {
			best = t
		}
	}
	step := max(1, len(logits)/97)
	for t := 0; t <= len(logits); t += step {
		if t == len(logits) {
			t = best
		}
		if t >= m.out.rows || math.Float32bits(m.out.score(t)) != math.Float32bits(logits[t]) {
			m.out.close()
			m.out = nil
			return
		}
		if t == best {
			break
		}
	}
}

// Score is the model's score for the next token being tok, after Feed or
// FeedNarrow.
func (s *Sequence) Score(tok int) float32 {
	if s.logits != nil {
		if tok < 0 || tok >= len(s.logits) {
			return float32(math.Inf(-1))
		}
		return s.logits[tok]
	}
	if tok < 0 || tok >= s.m.out.rows {
		return float32(math.Inf(-1))
	}
	return s.m.out.score(tok)
}

// scores are the scores of the allowed tokens after FeedNarrow, in a slice
// indexed by token (other entries are stale).
func (s *Sequence) scores(allow []int) []float32 {
	m := s.m
	if m.scratch == nil {
		m.scratch = make([]float32, m.out.rows)
	}
	for _, t := range allow {
		if t >= 0 && t < len(m.scratch) {
			m.scratch[t] = m.out.score(t)
		}
	}
	return m.scratch
}

// errNarrow is a drafter's mistake: every token's score was asked for after
// FeedNarrow.
var errNarrow = errors.New("llama: the last FeedNarrow scored only the allowed tokens; use Feed before a free choice")

// Logits are the model's scores for the next token, indexed by token, or
// nil after FeedNarrow. The caller may change them; they are replaced by the
// next Feed.
func (s *Sequence) Logits() []float32 { return s.logits }

// Room is how many more tokens fit in the context.
func (s *Sequence) Room() int { return s.m.info.ContextSize - len(s.m.cache) }

// Next chooses the next token with sp among allow (nil: any text token, or
// a token that ends the turn), has the model read it, and returns it. An
// empty non-nil allow is an error.
func (s *Sequence) Next(ctx context.Context, sp *Sampler, allow []int) (int, error) {
	tok, err := s.Choose(sp, allow)
	if err != nil {
		return -1, err
	}
	return tok, s.Feed(ctx, []int{tok})
}

// Choose chooses the next token like Next, without reading it.
func (s *Sequence) Choose(sp *Sampler, allow []int) (int, error) {
	if allow != nil && len(allow) == 0 {
		return -1, errors.New("llama: no token is allowed")
	}
	if allow == nil {
		if s.logits == nil {
			return -1, errNarrow
		}
		s.m.Pieces()
		if t := sp.choose(s.logits, nil, func(t int) bool { return s.m.notFree[t] }); t >= 0 {
			return t, nil
		}
		return -1, errors.New("llama: no token is allowed")
	}
	if s.logits == nil {
		return sp.choose(s.scores(allow), allow, nil), nil
	}
	return sp.choose(s.logits, allow, nil), nil
}

// ChooseExcept chooses the next token among the text tokens (no control
// tokens, so not the end of the turn either) but those marked in deny
// (indexed by token).
func (s *Sequence) ChooseExcept(sp *Sampler, deny []bool) (int, error) {
	if s.logits == nil {
		return -1, errNarrow
	}
	s.m.Pieces()
	t := sp.choose(s.logits, nil, func(t int) bool { return s.m.control[t] || t < len(deny) && deny[t] })
	if t < 0 {
		return -1, errors.New("llama: no token is allowed")
	}
	return t, nil
}

// Close frees the model for the next Sequence. What was read stays in the
// model's memory for a warm start.
func (s *Sequence) Close() {
	if !s.closed {
		s.closed = true
		s.m.mu.Unlock()
	}
}

func maxBatch(m *Model) int {
	if cb, ok := m.b.(interface{ batchSize() int }); ok {
		return cb.batchSize()
	}
	return 512
}

// Generate writes an answer to prompt, a text already in the model's chat
// format (see internal/chat): control-token text in it is read as control
// tokens, and a begin-of-text token is added when the model wants one and the
// prompt lacks it. emit gets the answer in pieces as they are written, each a
// whole number of UTF-8 characters; a stop string is never emitted, not even
// in part. An error from emit ends Generate with that error.
func (m *Model) Generate(ctx context.Context, prompt string, opt GenOptions, emit func(piece string) error) (GenResult, error) {
	var res GenResult
	toks, err := m.TokenizePrompt(prompt)
	if err != nil {
		return res, err
	}
	if len(toks) == 0 {
		return res, errors.New("llama: empty prompt")
	}
	res.PromptTokens = len(toks)
	t0 := time.Now()
	s, err := m.Start(ctx, toks)
	if err != nil {
		return res, err
	}
	defer s.Close()
	res.CachedTokens = s.Cached()
	res.PromptTime = time.Since(t0)
	t1 := time.Now()

	sp := NewSampler(opt.Temperature, opt.TopP, opt.Seed)
	var written strings.Builder // all text the model wrote
	emitted := 0                // bytes of written already emitted
	flush := func(final bool) error {
		text := written.String()
		end := len(text)
		if !final {
			// Hold back what could be the start of a stop string, and an
			// unfinished UTF-8 character.
			for _, st := range opt.Stop {
				for k := min(len(st)-1, end-emitted); k > 0; k-- {
					if strings.HasSuffix(text, st[:k]) {
						end = min(end, len(text)-k)
						break
					}
				}
			}
			end -= partialRune(text[emitted:end])
		}
		if end > emitted {
			// Bytes that are no UTF-8 at all (a stray byte token) are dropped.
			if piece := strings.ToValidUTF8(text[emitted:end], ""); piece != "" {
				if err := emit(piece); err != nil {
					return err
				}
			}
			emitted = end
		}
		return nil
	}
	finish := func(reason string) (GenResult, error) {
		res.GenTime = time.Since(t1)
		res.Reason = reason
		err := flush(true)
		res.Text = strings.ToValidUTF8(written.String(), "")
		return res, err
	}
	for {
		if opt.MaxTokens > 0 && res.Tokens >= opt.MaxTokens || s.Room() <= 0 {
			return finish(ReasonLength)
		}
		var allow []int
		if opt.Filter != nil {
			allow = opt.Filter(written.String())
			if allow != nil && len(allow) == 0 {
				return finish(ReasonStop)
			}
		}
		tok, err := s.Choose(sp, allow)
		if err != nil {
			return res, err
		}
		if m.IsEnd(tok) {
			return finish(ReasonStop)
		}
		res.Tokens++
		written.WriteString(m.Piece(tok))
		if i, ok := firstStop(written.String(), opt.Stop); ok {
			text := written.String()[:i]
			written.Reset()
			written.WriteString(text)
			return finish(ReasonStop)
		}
		if err := flush(false); err != nil {
			return res, err
		}
		if err := s.Feed(ctx, []int{tok}); err != nil {
			return res, err
		}
	}
}

// partialRune is the length of an unfinished UTF-8 character at the end of
// s: the first bytes of a character whose last bytes are still to come.
func partialRune(s string) int {
	for k := 1; k <= 3 && k <= len(s); k++ {
		c := s[len(s)-k]
		if c < 0x80 {
			return 0 // ASCII: nothing unfinished
		}
		if c >= 0xC0 { // a lead byte: is its character complete?
			need := 2
			if c >= 0xF0 {
				need = 4
			} else if c >= 0xE0 {
				need = 3
			}
			if need > k {
				return k
			}
			return 0
		}
	}
	return 0
}

// firstStop finds the earliest stop string in text.
func firstStop(text string, stops []string) (int, bool) {
	best, found := len(text), false
	for _, st := range stops {
		if st == "" {
			continue
		}
		if i := strings.Index(text, st); i >= 0 && i < best {
			best, found = i, true
		}
	}
	return best, found
}
