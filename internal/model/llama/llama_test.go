//go:build cgo

package llama

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sponge-library/sponge/internal/testsupport"

	"github.com/sponge-library/sponge/internal/model/chat"
	"github.com/sponge-library/sponge/internal/model/gguf"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
)

var (
	tinyOnce sync.Once
	tinyPath string
	tinyErr  error
)

// tiny writes the random-weight test model once per test binary.
func tiny(t *testing.T) string {
	t.Helper()
	tinyOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sponge-llama-test")
		if err != nil {
			tinyErr = err
			return
		}
		tinyPath = filepath.Join(dir, "tiny.gguf")
		tinyErr = ggufgen.WriteRandom(tinyPath, ggufgen.Tiny())
	})
	if tinyErr != nil {
		t.Fatal(tinyErr)
	}
	return tinyPath
}

func TestMain(m *testing.M) {
	code := testsupport.Isolated(m).Run()
	if tinyPath != "" {
		os.RemoveAll(filepath.Dir(tinyPath))
	}
	os.Exit(code)
}

func load(t *testing.T) *Model {
	t.Helper()
	m, err := Load(tiny(t), LoadOptions{ContextSize: 1024, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func prompt(m *Model, user string) string {
	return chat.Detect(m.Info().ChatTemplate).Format([]chat.Message{{Role: "user", Content: user}}, true)
}

func TestLoadInfo(t *testing.T) {
	m := load(t)
	info := m.Info()
	spec := ggufgen.Tiny()
	if info.Name != spec.Name || info.Architecture != "llama" || info.ContextLength != spec.ContextLength ||
		info.ContextSize != 1024 || info.VocabSize != spec.VocabSize {
		t.Errorf("Info = %+v", info)
	}
	if chat.Detect(info.ChatTemplate).Style != chat.ChatML {
		t.Errorf("chat template %q is not detected as ChatML", info.ChatTemplate)
	}
}

func TestTokenize(t *testing.T) {
	m := load(t)
	text := "The green tea was brewed at 80 degrees: “bitter”, naïve 茶.\nNext line"
	toks, err := m.Tokenize(text, false)
	if err != nil {
		t.Fatal(err)
	}
	// Whole words of the vocabulary are one token each.
	found := false
	for _, tok := range toks {
		found = found || m.Piece(tok) == " green"
	}
	if !found {
		t.Errorf("no token is %q in %v", " green", toks)
	}
	// SentencePiece adds a space before the text; byte fallback spells the
	// characters the vocabulary lacks.
	if got := m.Detokenize(toks); got != " "+text {
		t.Errorf("Detokenize(Tokenize(text)) = %q", got)
	}
	// Control-token text is a control token only when asked.
	special, _ := m.Tokenize("<|im_start|>", true)
	plain, _ := m.Tokenize("<|im_start|>", false)
	if len(special) != 1 || !m.IsControl(special[0]) || m.Piece(special[0]) != "" {
		t.Errorf("special tokenization = %v", special)
	}
	if len(plain) < 2 {
		t.Errorf("plain tokenization of control text = %v, want its characters", plain)
	}
	end, _ := m.Tokenize("<|im_end|>", true)
	if len(end) != 1 || !m.IsEnd(end[0]) {
		t.Errorf("<|im_end|> = %v is not an end token", end)
	}
}

func TestGenerateStreamsAndIsDeterministic(t *testing.T) {
	m := load(t)
	p := prompt(m, "What is green tea?")
	var pieces []string
	res, err := m.Generate(context.Background(), p, GenOptions{MaxTokens: 24}, func(s string) error {
		pieces = append(pieces, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != ReasonLength || res.Tokens != 24 {
		t.Errorf("Reason %q after %d tokens, want length after 24", res.Reason, res.Tokens)
	}
	if len(pieces) < 2 {
		t.Errorf("emitted %d pieces, want the answer streamed in many", len(pieces))
	}
	if strings.Join(pieces, "") != res.Text || res.Text == "" {
		t.Errorf("pieces %q do not add up to the text %q", pieces, res.Text)
	}
	res2, err := m.Generate(context.Background(), p, GenOptions{MaxTokens: 24}, func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if res2.Text != res.Text {
		t.Errorf("greedy answers differ:\n%q\n%q", res.Text, res2.Text)
	}
	// The second time the prompt was in memory already.
	if res2.CachedTokens != res2.PromptTokens-1 {
		t.Errorf("CachedTokens = %d of %d", res2.CachedTokens, res2.PromptTokens)
	}
	// Sampling with a seed repeats; another seed differs.
	gen := func(seed uint64) string {
		r, err := m.Generate(context.Background(), p, GenOptions{MaxTokens: 24, Temperature: 1, TopP: 0.95, Seed: seed}, func(string) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		return r.Text
	}
	if a, b := gen(7), gen(7); a != b {
		t.Errorf("same seed, different answers: %q, %q", a, b)
	}
	if a, b := gen(7), gen(8); a == b {
		t.Errorf("seeds 7 and 8 gave the same answer %q", a)
	}
}

func TestGenerateStops(t *testing.T) {
	m := load(t)
	p := prompt(m, "Tell me about tea.")
	full, err := m.Generate(context.Background(), p, GenOptions{MaxTokens: 40}, func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Fields(full.Text)
	if len(words) < 6 {
		t.Fatalf("answer too short to test stopping: %q", full.Text)
	}
	stop := words[len(words)/2]
	want := full.Text[:strings.Index(full.Text, stop)]
	var emitted bytes.Buffer
	res, err := m.Generate(context.Background(), p, GenOptions{MaxTokens: 40, Stop: []string{"zzz-never", stop}}, func(s string) error {
		emitted.WriteString(s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != ReasonStop || res.Text != want || emitted.String() != want {
		t.Errorf("stop %q: reason %q, text %q, emitted %q; want %q", stop, res.Reason, res.Text, emitted.String(), want)
	}
	// An error from emit ends the answer with that error.
	boom := errors.New("boom")
	_, err = m.Generate(context.Background(), p, GenOptions{MaxTokens: 40}, func(string) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("emit error: got %v", err)
	}
	// A cancelled context ends it too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Generate(ctx, prompt(m, "Another question entirely"), GenOptions{MaxTokens: 40}, func(string) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}

func TestGenerateFilter(t *testing.T) {
	m := load(t)
	// Allow only the tokens of two words: the answer is made of them.
	var allow []int
	for _, w := range []string{" green", " tea"} {
		toks, _ := m.Tokenize(w, false)
		allow = append(allow, toks[len(toks)-1])
	}
	res, err := m.Generate(context.Background(), prompt(m, "Say something."), GenOptions{
		MaxTokens: 10,
		Filter: func(written string) []int {
			if strings.Count(written, " ") >= 5 {
				return []int{} // enough: end the answer
			}
			return allow
		},
	}, func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if res.Tokens != 5 || res.Reason != ReasonStop {
		t.Errorf("%d tokens, reason %q; want 5, stop", res.Tokens, res.Reason)
	}
	if rest := strings.NewReplacer(" green", "", " tea", "").Replace(res.Text); rest != "" {
		t.Errorf("answer %q has more than the allowed words", res.Text)
	}
}

func TestContextFull(t *testing.T) {
	m, err := Load(tiny(t), LoadOptions{ContextSize: 64, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	_, err = m.Generate(context.Background(), prompt(m, strings.Repeat("green tea ", 50)), GenOptions{}, func(string) error { return nil })
	if !errors.Is(err, ErrContextFull) {
		t.Errorf("a prompt longer than the context: got %v", err)
	}
	// A short prompt writes until the context is full.
	res, err := m.Generate(context.Background(), prompt(m, "tea"), GenOptions{}, func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != ReasonLength || res.PromptTokens+res.Tokens > 64 {
		t.Errorf("reason %q with %d+%d tokens in a context of 64", res.Reason, res.PromptTokens, res.Tokens)
	}
}

func TestConcurrentGenerate(t *testing.T) {
	m := load(t)
	want, err := m.Generate(context.Background(), prompt(m, "one"), GenOptions{MaxTokens: 8}, func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := "one"
			if i%2 == 1 {
				q = "two"
			}
			res, err := m.Generate(context.Background(), prompt(m, q), GenOptions{MaxTokens: 8}, func(string) error { return nil })
			if err != nil {
				t.Error(err)
				return
			}
			if q == "one" && res.Text != want.Text {
				t.Errorf("concurrent answer %q, alone %q", res.Text, want.Text)
			}
		}()
	}
	wg.Wait()
}

func TestSpanConstraintWithModel(t *testing.T) {
	m := load(t)
	text := "Green tea is brewed with water at about 80 degrees, and the leaves are steeped for two minutes."
	seq, err := m.Start(context.Background(), mustTokens(t, m, prompt(m, "Quote the text.")))
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	span := m.Vocab().NewSpan(text, []int{0, 6, 10})
	sp := Greedy()
	for range 30 {
		allow := span.Allowed(nil)
		if len(allow) == 0 {
			break
		}
		tok, err := seq.Next(context.Background(), sp, allow)
		if err != nil {
			t.Fatal(err)
		}
		if !span.Advance(tok) {
			t.Fatalf("chosen token %q does not continue %q", m.Piece(tok), span.Written())
		}
	}
	w := span.Written()
	if len(w) < 20 || !strings.Contains(text, w) {
		t.Errorf("constrained text %q is not a long span of the text", w)
	}
}

// The end of the turn is a free choice, but never a text token.
func TestEndTokenChoice(t *testing.T) {
	m := load(t)
	seq, err := m.Start(context.Background(), mustTokens(t, m, prompt(m, "Hi")))
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	end, _ := m.Tokenize("<|im_end|>", true)
	start, _ := m.Tokenize("<|im_start|>", true)
	seq.Logits()[start[0]] = 1e9 // a control token that does not end the turn
	seq.Logits()[end[0]] = 1e8
	if tok, err := seq.Choose(Greedy(), nil); err != nil || tok != end[0] {
		t.Errorf("Choose = %d, %v; want the end token %d", tok, err, end[0])
	}
	tok, err := seq.ChooseExcept(Greedy(), nil)
	if err != nil || m.IsControl(tok) || m.Piece(tok) == "" {
		t.Errorf("ChooseExcept = %d (%q), %v; want a text token", tok, m.Piece(tok), err)
	}
}

func mustTokens(t *testing.T, m *Model, p string) []int {
	t.Helper()
	toks, err := m.TokenizePrompt(p)
	if err != nil {
		t.Fatal(err)
	}
	return toks
}

func TestBrokenModelFiles(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(tiny(t))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	patch := func(from, to string) []byte {
		if len(from) != len(to) || !bytes.Contains(good, []byte(from)) {
			t.Fatalf("cannot patch %q", from)
		}
		return bytes.Replace(bytes.Clone(good), []byte(from), []byte(to), 1)
	}
	tests := []struct {
		name, path, want string
		is               error
	}{
		{"text file", write("notes.gguf", []byte("these are my notes, not a model\n")), "not a GGUF model file", gguf.ErrNotGGUF},
		{"empty", write("empty.gguf", nil), "not a GGUF model file", gguf.ErrNotGGUF},
		{"truncated header", write("cut1.gguf", good[:3000]), "truncated", gguf.ErrTruncated},
		{"truncated weights", write("cut2.gguf", good[:len(good)-100]), "truncated", gguf.ErrTruncated},
		{"unknown architecture", write("arch.gguf", patch("\x05\x00\x00\x00\x00\x00\x00\x00llama", "\x05\x00\x00\x00\x00\x00\x00\x00lla_a")), `architecture "lla_a"`, nil},
		// A GGUF file llama.cpp itself refuses: its error is passed on.
		{"missing hyperparameter", write("key.gguf", patch("llama.block_count", "llama.block_coun!")), "llama.block_count", nil},
		{"folder", dir, "folder", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Load(tt.path, LoadOptions{})
			if err == nil {
				m.Close()
				t.Fatal("loaded")
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.path) {
				t.Errorf("error %q does not name the file and say %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
		})
	}
	// The good model still loads after all that.
	m, err := Load(tiny(t), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
}

// loadQ8 loads a small random model whose output layer is Q8_0, like Qwen
// 2.5 0.5B's, so that FeedNarrow leaves the output layer out.
func loadQ8(t *testing.T) *Model {
	t.Helper()
	s := ggufgen.Tiny()
	s.Name, s.Type, s.TiedEmbeddings, s.Seed = "sponge-tiny-q8", gguf.Q8_0, true, 11
	p := filepath.Join(t.TempDir(), "q8.gguf")
	if err := ggufgen.WriteRandom(p, s); err != nil {
		t.Fatal(err)
	}
	m, err := Load(p, LoadOptions{ContextSize: 1024, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func TestFeedNarrowScoresLikeLlamaCpp(t *testing.T) {
	m := loadQ8(t)
	if m.out == nil {
		t.Fatal("no output layer to score from for a Q8_0 model")
	}
	ctx := context.Background()
	toks, err := m.TokenizePrompt(prompt(m, "Is green tea brewed with hot water?"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := m.Tokenize(" The leaves were steeped for two minutes in water", false)
	next, _ := m.Tokenize(" at eighty degrees", false)

	// Every token's score, read through Feed and FeedNarrow alike.
	run := func(narrow bool) (after, then []float32) {
		s, err := m.Start(ctx, toks)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if !m.outChecked || m.out == nil {
			t.Fatal("the output layer's scores differ from llama.cpp's")
		}
		feed := s.Feed
		if narrow {
			feed = s.FeedNarrow
		}
		if err := feed(ctx, more); err != nil {
			t.Fatal(err)
		}
		if narrow != (s.Logits() == nil) {
			t.Fatalf("narrow %v: Logits() is nil: %v", narrow, s.Logits() == nil)
		}
		for tok := range m.Info().VocabSize {
			after = append(after, s.Score(tok))
		}
		// What the model read stays right: the scores after more tokens.
		if err := s.Feed(ctx, next); err != nil {
			t.Fatal(err)
		}
		return after, append([]float32(nil), s.Logits()...)
	}
	full, fullThen := run(false)
	narrow, narrowThen := run(true)
	for tok := range full {
		if math.Float32bits(full[tok]) != math.Float32bits(narrow[tok]) {
			t.Fatalf("token %d (%q): score %v after FeedNarrow, %v from llama.cpp", tok, m.Piece(tok), narrow[tok], full[tok])
		}
	}
	for tok := range fullThen {
		if math.Float32bits(fullThen[tok]) != math.Float32bits(narrowThen[tok]) {
			t.Fatalf("after FeedNarrow and Feed, token %d scores %v, after two Feeds %v", tok, narrowThen[tok], fullThen[tok])
		}
	}

	// Choose among a few tokens picks the same as with every score; a free
	// choice after FeedNarrow is refused.
	s, err := m.Start(ctx, toks)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.FeedNarrow(ctx, more); err != nil {
		t.Fatal(err)
	}
	allow := []int{5, 300, 301, 700, 1000}
	best := allow[0]
	for _, tok := range allow {
		if full[tok] > full[best] {
			best = tok
		}
	}
	if got, err := s.Choose(Greedy(), allow); err != nil || got != best {
		t.Errorf("Choose after FeedNarrow = %d, %v; want %d", got, err, best)
	}
	if _, err := s.Choose(Greedy(), nil); err == nil {
		t.Error("a free choice after FeedNarrow was not refused")
	}
	if _, err := s.ChooseExcept(Greedy(), nil); err == nil {
		t.Error("ChooseExcept after FeedNarrow was not refused")
	}
}

func TestHalfFloats(t *testing.T) {
	for _, c := range []struct {
		f float32
		h uint16
	}{
		{0, 0}, {1, 0x3c00}, {-2, 0xc000}, {65504, 0x7bff}, {65520, 0x7c00}, {1e-8, 0},
		{5.9604645e-08, 0x0001}, {6.1035156e-05, 0x0400}, {1.0009766, 0x3c01},
		{1.00048828125, 0x3c00}, // halfway: to even
		{1.00146484375, 0x3c02}, // halfway: to even
		{float32(math.Inf(1)), 0x7c00},
	} {
		if got := toHalf(c.f); got != c.h {
			t.Errorf("toHalf(%v) = %#04x, want %#04x", c.f, got, c.h)
		}
	}
	for h := range 1 << 16 {
		f := fromHalf(uint16(h))
		if f != f {
			continue // NaN
		}
		if back := toHalf(f); back != uint16(h) && !(f == 0 && back&0x7fff == 0) {
			t.Fatalf("toHalf(fromHalf(%#04x) = %v) = %#04x", h, f, back)
		}
	}
}

func TestFMA32(t *testing.T) {
	// 1+2^-23 squared is 1 + 2^-22 + 2^-46: one rounding keeps the 2^-46
	// deciding a tie that two roundings would break the other way.
	a := float32(1 + 1.0/(1<<23))
	c := float32(-1)
	want := float32(1.0/(1<<22) + 1.0/(1<<46))
	if got := fma32(a, a, c); got != want {
		t.Errorf("fma32 = %v, want %v", got, want)
	}
	x, y, z := float32(1.0000001), float32(3.0000002), float32(-3.0000005)
	if got, want := fma32(x, y, z), float32(math.FMA(float64(x), float64(y), float64(z))); got != want {
		t.Errorf("fma32(%v, %v, %v) = %v, want %v", x, y, z, got, want)
	}
}
