//go:build cgo

package draft

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/model/chat"
	"github.com/sponge-library/sponge/internal/model/llama"
	"github.com/sponge-library/sponge/jsonl"
)

func init() {
	builtin.OpenEmbedded = func(modelPath string, opt ModelOptions) (Drafter, error) {
		return OpenEmbedded(modelPath, opt)
	}
}

// The embedded drafter runs a GGUF model in-process (internal/model/llama) and
// writes the framing of each statement itself; the model only chooses:
// whether to write another statement or stop, the statement's words, the
// passage number (only numbers of given passages are allowed), and the quote,
// where only tokens that keep the quote a span of the named passage are
// allowed. So every quote is copied from its passage by construction, and
// sponge-verify only ever leaves out duplicates.
//
// The assistant's turn looks like this, each field on its own line:
//
//	Statement: Green tea is brewed below boiling.
//	Passage: 2
//	Quote: “water at 80 degrees”
//	Done
const (
	frameStatement = "Statement:"
	framePassage   = "Passage:"
	frameQuote     = "Quote: “"
	frameDone      = "Done"

	// maxTextTokens ends a statement's words that run on.
	maxTextTokens = 64
	// A quote may grow to softQuoteBytes; past it, it ends as soon as it
	// may, and is given up at hardQuoteBytes.
	softQuoteBytes = 400
	hardQuoteBytes = 800
	// answerRoom is the context kept free for the answer.
	answerRoom = 1024
)

// narrowMost is the most tokens a choice may be among for the model to skip
// scoring the whole vocabulary (llama.Sequence.FeedNarrow): scoring one
// token in Go takes about 1 µs, leaving out Qwen 2.5 0.5B's output layer
// saves about 6 ms. A variable for the tests.
var narrowMost = 2048

const systemPrompt = `You answer a question using only the numbered passages the user gives, which come from their own library.
Write at most six statements. Each statement has three lines:
Statement: one short sentence, in your own words, that answers part of the question
Passage: the number of the one passage that supports it
Quote: “words copied exactly from that passage that show the statement is true”
A passage may be cut to its sentences that bear on the question: … stands where words were left out, and a quote never runs across it.
After the last statement write Done. If the passages do not answer the question, write Done and nothing else.`

// summaryPrompt is systemPrompt for a summary: the same framing of
// statements, passages and quotes, asked of one item's passages.
const summaryPrompt = `You sum up one item of the user's own library from numbered passages taken from all of it, in reading order.
Write at most five statements that together say what the item is about and its main points, in the item's order. Each statement has three lines:
Statement: one short sentence, in your own words, that says one main point
Passage: the number of the one passage that supports it
Quote: “words copied exactly from that passage that show the statement is true”
A passage may be cut: … stands where words were left out, and a quote never runs across it.
After the last statement write Done.`

// Embedded is the drafter that runs a model in-process.
type Embedded struct {
	m    *llama.Model
	tmpl chat.Template
	opt  ModelOptions

	// Tokens of the framing, each as read after a line break.
	statement, passage, quoteOpen, done []int
	newline                             int
	// Token classes, by token.
	textDeny  []bool // never in a statement's words: line breaks inside a piece
	textEnd   []bool // ends a statement's words: a piece ending in one line break
	closeTok  []bool // ends a quote: ” or " (then optional white space)
	numberTok []int  // pieces of a passage number: digits, one optional leading space
	// Made on first use.
	textDenyButEnd []bool
	closers        []int

	// Fixed, when set, makes every draft the same length whatever the model
	// prefers: Statements statements of TextTokens words-tokens and
	// QuoteTokens quote tokens. For benchmarks with random weights.
	Fixed *Fixed
	// Unconstrained lets quotes be any text (benchmarks measure what the
	// constraint costs with it).
	Unconstrained bool

	stats Stats
	// summary: the prompt asks for a summary (Summarize), not an answer.
	summary bool
}

// Stats tells how the last Draft went.
type Stats struct {
	PromptTokens int
	// PromptCached of them were in the model's memory from the draft before
	// (sponge serve): the system prompt, and the question when it is the
	// same; they were not read again.
	PromptCached int
	// PromptFits is how many times the whole prompt was tokenized to fit
	// the passages to the budget and the context.
	PromptFits int
	// PassagesShown is how many passages the model read, PassagesCut how
	// many of them were cut to their sentences that bear on the question.
	PassagesShown, PassagesCut int
	// PromptTime is the time the model took to read the prompt.
	PromptTime time.Duration
	// Chosen is the tokens the model chose; Framing the tokens the program
	// wrote between them. Both were decoded in GenTime.
	Chosen, Framing int
	GenTime         time.Duration
	// QuoteTokens were chosen under the quote constraint.
	QuoteTokens int
	// Narrow is how many decode steps left out scoring the whole
	// vocabulary, since the next choice was among a few tokens.
	Narrow int
	// GaveUp is how many statements were begun and not finished: the
	// model wrote itself into a quote it could not complete from the
	// passages (errGaveUp).
	GaveUp int
	// FirstStatement is the time from the start of Draft to the first
	// statement emitted.
	FirstStatement time.Duration
	Statements     int
	// PromptCPU and GenCPU are the CPU time the process used while reading
	// the prompt and while writing: on a busy machine, tokens per CPU second
	// tell the speed better than the wall clock.
	PromptCPU, GenCPU time.Duration
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// OpenEmbedded loads the GGUF model at path. While it loads, a progress bar
// shows on opt.Stderr when that is a terminal.
func OpenEmbedded(path string, opt ModelOptions) (*Embedded, error) {
	if opt.MaxStatements <= 0 {
		opt.MaxStatements = jsonl.MaxStatements
	}
	lo := llama.LoadOptions{Threads: opt.Threads}
	var bar *progress.Bar
	if opt.Stderr != nil {
		bar = progress.New(opt.Stderr, 100, "loading the model", false)
		lo.Progress = func(f float64) { bar.Set(int64(f * 100)) }
	}
	m, err := llama.Load(path, lo)
	bar.Finish()
	if err != nil {
		return nil, err
	}
	e := &Embedded{m: m, tmpl: chat.Detect(m.Info().ChatTemplate), opt: opt}
	if !e.tmpl.Known && opt.Stderr != nil {
		what := "a chat template of no family sponge knows"
		if m.Info().ChatTemplate == "" {
			what = "no chat template"
		}
		console.PrintWarning(opt.Stderr, Prog, fmt.Sprintf("the model %s has %s, so its prompts are written in ChatML (<|im_start|>…), which it may not have been trained on: its statements may be poor", path, what))
		console.PrintHint(opt.Stderr, Prog, "use a GGUF file that carries its model's chat template (Qwen, Llama 3, Gemma, Phi and Mistral templates are known)")
	}
	if err := e.prepare(); err != nil {
		m.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return e, nil
}

// Name is the model's name, for the model record.
func (e *Embedded) Name() string { return e.m.Info().Name }

// Close frees the model.
func (e *Embedded) Close() error { return e.m.Close() }

// Stats tells how the last Draft went.
func (e *Embedded) Stats() Stats { return e.stats }

// Abandoned implements Abandoner: the statements the last Draft began and
// could not finish.
func (e *Embedded) Abandoned() int { return e.stats.GaveUp }

// prepare tokenizes the framing and sorts the vocabulary into the classes
// the drafter needs.
func (e *Embedded) prepare() error {
	pieces := e.m.Pieces()
	e.newline = -1
	for t, p := range pieces {
		if p == "\n" && !e.m.IsControl(t) {
			e.newline = t
			break
		}
	}
	if e.newline < 0 {
		return errors.New("the model has no token for a line break")
	}
	// Framing is tokenized as it follows a line break: some tokenizers
	// write a word differently at the start of a text.
	nl, err := e.m.Tokenize("\n", false)
	if err != nil {
		return err
	}
	frame := func(s string) ([]int, error) {
		t, err := e.m.Tokenize("\n"+s, false)
		if err != nil {
			return nil, err
		}
		if len(t) > len(nl) && equalInts(t[:len(nl)], nl) {
			return t[len(nl):], nil
		}
		return e.m.Tokenize(s, false)
	}
	for _, f := range []struct {
		dst  *[]int
		text string
	}{{&e.statement, frameStatement}, {&e.passage, framePassage}, {&e.quoteOpen, frameQuote}, {&e.done, frameDone}} {
		if *f.dst, err = frame(f.text); err != nil {
			return err
		}
		if len(*f.dst) == 0 {
			return fmt.Errorf("cannot tokenize %q", f.text)
		}
	}
	if e.statement[0] == e.done[0] {
		return errors.New("the model's tokens cannot tell Statement from Done")
	}
	n := len(pieces)
	e.textDeny = make([]bool, n)
	e.textEnd = make([]bool, n)
	e.closeTok = make([]bool, n)
	for t, p := range pieces {
		if p == "" || e.m.IsControl(t) {
			e.textDeny[t] = true
			continue
		}
		if i := strings.IndexByte(p, '\n'); i >= 0 {
			e.textDeny[t] = true
			if i == len(p)-1 {
				e.textEnd[t] = true
			}
		}
		if c, ok := strings.CutPrefix(p, "”"); ok && strings.TrimSpace(c) == "" {
			e.closeTok[t] = true
		} else if c, ok := strings.CutPrefix(p, `"`); ok && strings.TrimSpace(c) == "" {
			e.closeTok[t] = true
		}
		if d := strings.TrimPrefix(p, " "); d != "" && strings.Trim(d, "0123456789") == "" || p == " " {
			e.numberTok = append(e.numberTok, t)
		}
	}
	e.m.Vocab() // build the trie now, not during the first answer
	return nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Prompt is the chat prompt for question and passages.
func (e *Embedded) Prompt(question string, passages []*jsonl.Passage) string {
	var b strings.Builder
	system := systemPrompt
	if e.summary && len(passages) > 0 {
		system = summaryPrompt
		b.WriteString("Item: " + passages[0].Title + "\n\nPassages:\n")
	} else {
		b.WriteString("Question: " + strings.TrimSpace(question) + "\n\nPassages:\n")
	}
	for _, p := range passages {
		b.WriteString(passageHeader(p) + strings.TrimSpace(p.Text) + "\n")
	}
	return e.tmpl.Format([]chat.Message{{Role: "system", Content: system}, {Role: "user", Content: b.String()}}, true)
}

// Summarize writes a summary of one item's passages. It differs from Draft
// only in the prompt (summaryPrompt, and the item's title where the question
// was); the quotes are copied by construction all the same.
func (e *Embedded) Summarize(ctx context.Context, passages []*jsonl.Passage, emit func(*jsonl.Statement) error) error {
	e.summary = true
	defer func() { e.summary = false }()
	return e.Draft(ctx, jsonl.SummaryQuestion, passages, emit)
}

// Draft writes statements for question from passages, calling emit with each
// as soon as it is complete.
func (e *Embedded) Draft(ctx context.Context, question string, passages []*jsonl.Passage, emit func(*jsonl.Statement) error) error {
	start := time.Now()
	e.stats = Stats{}
	if e.opt.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.opt.Timeout)
		defer cancel()
	}
	if len(passages) == 0 {
		return nil
	}
	prompt, shown, err := e.fit(ctx, question, passages)
	if err != nil {
		return err
	}
	byNumber := map[int]*shownPassage{}
	for _, p := range shown {
		byNumber[p.Number] = p
		if p.Text != p.Source {
			e.stats.PassagesCut++
		}
	}
	e.stats.PassagesShown = len(shown)

	t0, c0 := time.Now(), cpuTime()
	seq, err := e.m.Start(ctx, prompt)
	if err != nil {
		return err
	}
	defer seq.Close()
	e.stats.PromptTokens = len(prompt)
	e.stats.PromptCached = seq.Cached()
	e.stats.PromptTime = time.Since(t0)
	t1, c1 := time.Now(), cpuTime()
	e.stats.PromptCPU = c1 - c0
	defer func() {
		e.stats.GenTime = time.Since(t1)
		e.stats.GenCPU = cpuTime() - c1
	}()

	// The prompt ends where the assistant's turn begins: a new line.
	w := &writer{e: e, seq: seq, ctx: ctx, sp: llama.Greedy(), atEOL: true}
	seen := map[string]bool{}
	max := e.opt.MaxStatements
	if e.Fixed != nil {
		max = e.Fixed.Statements
	}
	for e.stats.Statements < max {
		if e.Fixed == nil {
			more, err := w.another()
			if err != nil {
				return err
			}
			if !more {
				break
			}
		}
		st, err := w.statement(byNumber, seen)
		if err != nil {
			if errors.Is(err, errGaveUp) {
				e.stats.GaveUp++
				break
			}
			return err
		}
		if e.stats.Statements == 0 {
			e.stats.FirstStatement = time.Since(start)
		}
		e.stats.Statements++
		if err := emit(st); err != nil {
			return err
		}
	}
	return nil
}

// fit returns the prompt and the passages as the model is shown them: cut
// to the passage budget (ModelOptions.PassageTokens; a summary has none),
// and always to the context, leaving answerRoom tokens free. The passages'
// sentences are counted one by one; the whole prompt is tokenized once, and
// again only when the counts fell short of it near a full context.
func (e *Embedded) fit(ctx context.Context, question string, passages []*jsonl.Passage) ([]int, []*shownPassage, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	limit := e.m.Info().ContextSize - answerRoom
	prompt := func(shown []*shownPassage) ([]int, error) {
		e.stats.PromptFits++
		ps := make([]*jsonl.Passage, len(shown))
		for i, p := range shown {
			ps[i] = p.Passage
		}
		return e.m.TokenizePrompt(e.Prompt(question, ps))
	}
	bare, err := prompt(nil)
	if err != nil {
		return nil, nil, err
	}
	budget := limit - len(bare)
	if b := e.opt.PassageTokens; b >= 0 && !e.summary {
		budget = min(budget, cmp.Or(b, DefaultPassageTokens))
	}
	count := func(s string) int {
		t, _ := e.m.Tokenize(s, false)
		return len(t)
	}
	for budget > 0 {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		shown := cutPassages(question, passages, budget, count)
		toks, err := prompt(shown)
		if err != nil {
			return nil, nil, err
		}
		if len(toks) <= limit {
			return toks, shown, nil
		}
		budget -= len(toks) - limit + 16
	}
	return nil, nil, fmt.Errorf("the first passage alone is too long for the model's context of %d tokens", e.m.Info().ContextSize)
}

// errGaveUp ends the list when the model wrote itself into a quote it cannot
// finish.
var errGaveUp = errors.New("the quote cannot be finished")

// writer writes one answer: the framing, and the model's choices between.
type writer struct {
	e     *Embedded
	seq   *llama.Sequence
	ctx   context.Context
	sp    *llama.Sampler
	atEOL bool // the last token ended a line
	buf   []int
	// pending is framing not yet read by the model: it is read in one batch
	// just before the model's next choice, which is much cheaper than a
	// decode step per piece of framing.
	pending []int
}

// feed writes framing tokens.
func (w *writer) feed(toks ...int) error {
	w.e.stats.Framing += len(toks)
	w.pending = append(w.pending, toks...)
	w.atEOL = w.e.m.Piece(toks[len(toks)-1]) == "\n"
	return nil
}

// ready has the model read the pending framing, so that its scores for the
// next token are current. narrow tells that the next choice is among a few
// tokens only, so the model need not score the whole vocabulary.
func (w *writer) ready(narrow bool) error {
	if len(w.pending) == 0 {
		return nil
	}
	feed := w.seq.Feed
	if narrow {
		feed = w.seq.FeedNarrow
	}
	err := feed(w.ctx, w.pending)
	w.pending = w.pending[:0]
	if err == nil && w.seq.Logits() == nil {
		w.e.stats.Narrow++
	}
	return err
}

// line starts a new line with the framing toks.
func (w *writer) line(toks []int) error {
	if !w.atEOL {
		if err := w.feed(w.e.newline); err != nil {
			return err
		}
	}
	return w.feed(toks...)
}

// take has the model read the token it chose: with the framing that follows
// it, in one batch before the next choice (a decode step saved per piece of
// framing).
func (w *writer) take(tok int) error {
	w.e.stats.Chosen++
	w.pending = append(w.pending, tok)
	w.atEOL = strings.HasSuffix(w.e.m.Piece(tok), "\n")
	return nil
}

// another asks the model whether it writes another statement or Done, by
// the first token of each.
func (w *writer) another() (bool, error) {
	if w.seq.Room() < 256 {
		return false, nil
	}
	if err := w.ready(narrowMost >= 2); err != nil {
		return false, err
	}
	return w.seq.Score(w.e.statement[0]) > w.seq.Score(w.e.done[0]), nil
}

func (w *writer) statement(byNumber map[int]*shownPassage, seen map[string]bool) (*jsonl.Statement, error) {
	e := w.e
	if err := w.line(e.statement); err != nil {
		return nil, err
	}
	text, err := w.words()
	if err != nil {
		return nil, err
	}
	if err := w.line(e.passage); err != nil {
		return nil, err
	}
	n, err := w.number(byNumber)
	if err != nil {
		return nil, err
	}
	if err := w.line(e.quoteOpen); err != nil {
		return nil, err
	}
	q, err := w.quote(byNumber[n], seen)
	if err != nil {
		return nil, err
	}
	seen[quote.Normal(q)] = true
	return &jsonl.Statement{Text: text, Passage: n, Quote: q}, nil
}

// words has the model write a statement's words, up to a line break.
func (w *writer) words() (string, error) {
	e := w.e
	var sb strings.Builder
	limit := maxTextTokens
	if e.Fixed != nil {
		limit = e.Fixed.TextTokens
	}
	for i := 0; i < limit; i++ {
		deny := e.textDeny
		if e.Fixed == nil && strings.TrimSpace(sb.String()) != "" {
			deny = w.denyButEnd()
		}
		if err := w.ready(false); err != nil {
			return "", err
		}
		tok, err := w.seq.ChooseExcept(w.sp, deny)
		if err != nil {
			return "", err
		}
		if err := w.take(tok); err != nil {
			return "", err
		}
		sb.WriteString(e.m.Piece(tok))
		if e.textEnd[tok] {
			break
		}
	}
	return strings.TrimSpace(strings.ToValidUTF8(sb.String(), "")), nil
}

// denyButEnd is textDeny with the line-ending tokens allowed.
func (w *writer) denyButEnd() []bool {
	e := w.e
	if e.textDenyButEnd == nil {
		e.textDenyButEnd = make([]bool, len(e.textDeny))
		for t := range e.textDeny {
			e.textDenyButEnd[t] = e.textDeny[t] && !e.textEnd[t]
		}
	}
	return e.textDenyButEnd
}

// number has the model write the number of one of the passages.
func (w *writer) number(byNumber map[int]*shownPassage) (int, error) {
	e := w.e
	valid := func(digits string, whole bool) bool {
		for n := range byNumber {
			s := strconv.Itoa(n)
			if whole && s == digits || !whole && strings.HasPrefix(s, digits) {
				return true
			}
		}
		return false
	}
	digits := ""
	spaced := false // a space may come once, before the digits
	for {
		var allow []int
		for _, t := range e.numberTok {
			p := e.m.Piece(t)
			if strings.HasPrefix(p, " ") && (digits != "" || spaced) {
				continue
			}
			if d := strings.TrimPrefix(p, " "); valid(digits+d, false) {
				allow = append(allow, t)
			}
		}
		if digits != "" && valid(digits, true) {
			allow = append(allow, e.newline)
		}
		if len(allow) == 0 {
			return 0, fmt.Errorf("the model's vocabulary cannot write passage number %q", digits)
		}
		if err := w.ready(len(allow) <= narrowMost); err != nil {
			return 0, err
		}
		tok, err := w.seq.Choose(w.sp, allow)
		if err != nil {
			return 0, err
		}
		if err := w.take(tok); err != nil {
			return 0, err
		}
		if tok == e.newline {
			break
		}
		spaced = true
		digits += strings.TrimPrefix(e.m.Piece(tok), " ")
		// A number with no longer one to grow into is complete.
		n, _ := strconv.Atoi(digits)
		if _, ok := byNumber[n]; ok && !hasLonger(byNumber, digits) {
			break
		}
	}
	n, _ := strconv.Atoi(digits)
	return n, nil
}

// hasLonger reports whether a passage number is longer than digits and
// starts with it.
func hasLonger(byNumber map[int]*shownPassage, digits string) bool {
	for n := range byNumber {
		if s := strconv.Itoa(n); len(s) > len(digits) && strings.HasPrefix(s, digits) {
			return true
		}
	}
	return false
}

// quote has the model copy a quote from the passage p as it was shown: only
// tokens that keep it a span of one part of the text shown (never across a
// cut) are allowed, and it may end (with ”) only where sponge-verify will
// find it in the whole passage, at least quote.MinWords long, and not a
// quote already given. A token after which the quote could end nowhere is
// not allowed either (viable), so the model never writes itself into a
// quote it cannot finish.
func (w *writer) quote(p *shownPassage, seen map[string]bool) (string, error) {
	e := w.e
	ptext := quote.NewText(p.Source)
	ok := func(q string) bool {
		q = strings.TrimSpace(q)
		if q == "" || !utf8.ValidString(q) {
			return false
		}
		nq := quote.NewQuote(q)
		if nq.Words() < quote.MinWords || seen[nq.Normal()] {
			return false
		}
		_, found := ptext.Find(nq)
		return found
	}
	var starts []int
	for _, pt := range p.Parts {
		for _, s := range spanStarts(p.Text[pt[0]:pt[1]], quote.MinWords) {
			starts = append(starts, pt[0]+s)
		}
	}
	span := e.m.Vocab().NewSpanIn(p.Text, p.Parts, starts)
	var free strings.Builder // the quote when Unconstrained
	written := func() string {
		if e.Unconstrained {
			return free.String()
		}
		return span.Written()
	}
	closable := func() bool { return ok(written()) }
	for steps := 0; ; steps++ {
		if err := w.ctx.Err(); err != nil {
			return "", err
		}
		// A Fixed quote ends after QuoteTokens, as soon as it may: a
		// constrained one only where sponge-verify will find it.
		fixedEnd := e.Fixed != nil && steps >= e.Fixed.QuoteTokens
		n := len(written())
		mayClose := (e.Fixed == nil || fixedEnd) && (e.Unconstrained || closable())
		if fixedEnd && mayClose || n >= softQuoteBytes && mayClose {
			// End the quote here: the program writes the closing mark.
			return w.closeQuote(written())
		}
		if n >= hardQuoteBytes || w.seq.Room() < 64 {
			return "", errGaveUp
		}
		var tok int
		var err error
		if e.Unconstrained {
			if err := w.ready(false); err != nil {
				return "", err
			}
			tok, err = w.seq.ChooseExcept(w.sp, e.textDeny)
		} else {
			allow := span.Allowed(w.buf[:0])
			w.buf = allow
			allow = w.viable(allow, p, span.Places(), written(), ok)
			if len(allow) == 0 {
				// The part of the passage ends here, or every way on is a
				// dead end.
				if closable() {
					return w.closeQuote(written())
				}
				return "", errGaveUp
			}
			if mayClose {
				allow = append(allow, w.closers()...)
			}
			if err := w.ready(len(allow) <= narrowMost); err != nil {
				return "", err
			}
			tok, err = w.seq.Choose(w.sp, allow)
		}
		if err != nil {
			return "", err
		}
		if mayClose && e.closeTok[tok] {
			q := strings.TrimSpace(written())
			if err := w.take(tok); err != nil {
				return "", err
			}
			return q, nil
		}
		if e.Unconstrained {
			free.WriteString(e.m.Piece(tok))
		} else if !span.Advance(tok) {
			return "", fmt.Errorf("internal error: token %q does not continue the quote", e.m.Piece(tok))
		}
		e.stats.QuoteTokens++
		if err := w.take(tok); err != nil {
			return "", err
		}
	}
}

// viable keeps of allow, the tokens that continue a quote (written so far,
// standing at places of p's text), those after which it can still end:
// right after the token, or further on. Near the end of a part a token
// could otherwise leap past the last place to end into a dead end.
func (w *writer) viable(allow []int, p *shownPassage, places [][2]int, written string, ok func(string) bool) []int {
	near := false
	for _, pl := range places {
		near = near || partEnd(p.Parts, pl[0])-pl[1] < aheadBytes
	}
	if !near {
		return allow
	}
	out := allow[:0]
	for _, t := range allow {
		piece := w.e.m.Piece(t)
		for _, pl := range places {
			end := partEnd(p.Parts, pl[0])
			at := pl[1] + len(piece)
			if at <= end && p.Text[pl[1]:at] == piece && (ok(written+piece) || canEndAhead(p.Text, at, end, written+piece, ok)) {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// partEnd is the end of the part of parts that holds offset at.
func partEnd(parts [][2]int, at int) int {
	for _, p := range parts {
		if at >= p[0] && at <= p[1] {
			return p[1]
		}
	}
	return at
}

// closeQuote writes the closing mark for the model.
func (w *writer) closeQuote(q string) (string, error) {
	if c := w.closers(); len(c) > 0 {
		if err := w.feed(c[0]); err != nil {
			return "", err
		}
	}
	return strings.TrimSpace(strings.ToValidUTF8(q, "")), nil
}

// closers are the tokens that end a quote, ” first.
func (w *writer) closers() []int {
	e := w.e
	if e.closers == nil {
		for t, ok := range e.closeTok {
			if ok && strings.HasPrefix(e.m.Piece(t), "”") {
				e.closers = append(e.closers, t)
			}
		}
		for t, ok := range e.closeTok {
			if ok && !strings.HasPrefix(e.m.Piece(t), "”") {
				e.closers = append(e.closers, t)
			}
		}
	}
	return e.closers
}

// spanStarts are the byte offsets where a quote of text may start: where a
// word or a mark begins, and the space before it (tokenizers often carry a
// word's leading space); but not so near the end that fewer than minWords
// words follow. In a script written without spaces (Chinese, Japanese…)
// each character is taken for a word here: more starts than sponge-verify's
// reckoning (two Han or kana characters a word) allows, never fewer, and a
// quote still closes only where quote.Words says it is long enough.
func spanStarts(text string, minWords int) []int {
	type start struct{ at, words int }
	var starts []start
	words := 0 // words begun so far
	prev := rune(-1)
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i, r := range text {
		word := isWord(r)
		prevWord := prev >= 0 && isWord(prev) && !quote.NoSpaceScript(prev)
		if quote.NoSpaceScript(r) {
			prevWord = false
		}
		if !unicode.IsSpace(r) && (!word || !prevWord) {
			if prev == ' ' {
				starts = append(starts, start{i - 1, words})
			}
			starts = append(starts, start{i, words})
		}
		if word && !prevWord {
			words++
		}
		prev = r
	}
	var out []int
	for _, s := range starts {
		// A start the quote check would refuse (the hyphen of
		// "well-known", the point of "3.14", before a combining mark) is a
		// quote that can never be found: a dead end.
		at := s.at
		if text[at] == ' ' {
			at++
		}
		if words-s.words >= minWords && quote.MayStart(text, at) {
			out = append(out, s.at)
		}
	}
	return out
}
