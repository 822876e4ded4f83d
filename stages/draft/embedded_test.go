//go:build cgo

package draft

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/model/gguf"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/verify"
)

// teaParagraphs are the saved item the tests draft from: twelve paragraphs,
// so that passage numbers have two digits, with marks and letters beyond
// ASCII that a quote must copy exactly.
var teaParagraphs = []string{
	"Green tea is brewed with water at about 80 °C, well below boiling, because hotter water draws out the bitter catechins.",
	"The leaves are steeped for two to three minutes; longer steeping makes the cup bitter and dark.",
	"Black tea, by contrast, is fully oxidised and takes water just off the boil — 95 to 100 degrees.",
	"A study of 40,000 people found that those who drank more green tea had a lower risk of heart disease.",
	"Matcha is made from shade-grown leaves ground into a fine powder and whisked into the water.",
	"In Japan, sencha is the most common green tea; gyokuro is shaded for three weeks before the harvest.",
	"“Tea is naught but this,” wrote Sen no Rikyū: “first you heat the water, then you make the tea.”",
	"Oolong sits between green and black tea: the leaves are partly oxidised and rolled into balls.",
	"Caffeine in a cup of green tea is about half that of a cup of coffee, though it varies with the leaf.",
	"White tea is the least processed: the young buds are withered and dried in the sun.",
	"Hard water dulls the flavour of tea; soft, fresh water gives a clearer, sweeter cup.",
	"Storing tea away from light, air and moisture keeps its aroma for months.",
}

// teaFixture writes the tiny random-weight model and a library holding the tea
// item, and returns them with the item's paragraphs as numbered passages.
func teaFixture(t *testing.T) (model, libDir string, passages []*jsonl.Passage) {
	t.Helper()
	dir := t.TempDir()
	model = filepath.Join(dir, "tiny.gguf")
	if err := ggufgen.WriteRandom(model, ggufgen.Tiny()); err != nil {
		t.Fatal(err)
	}
	libDir = filepath.Join(dir, "lib")
	lib, err := library.Create(libDir)
	if err != nil {
		t.Fatal(err)
	}
	src := []byte(strings.Join(teaParagraphs, "\n\n"))
	it := &item.Item{ID: library.ItemID(src), Title: "Notes on tea", Source: "tea.txt", Kind: "text", Added: time.Unix(0, 0).UTC()}
	for i, p := range teaParagraphs {
		it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: p})
		passages = append(passages, &jsonl.Passage{Number: i + 1, ItemID: it.ID, Title: it.Title, Paragraph: i, Text: p, Score: 1})
	}
	if err := lib.Put(it, src); err != nil {
		t.Fatal(err)
	}
	return model, libDir, passages
}

func openTiny(t *testing.T) *Embedded {
	t.Helper()
	model, _, _ := teaFixture(t)
	e, err := OpenEmbedded(model, ModelOptions{MaxStatements: jsonl.MaxStatements, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func draftAll(t *testing.T, e *Embedded, question string, passages []*jsonl.Passage) []*jsonl.Statement {
	t.Helper()
	var out []*jsonl.Statement
	err := e.Draft(context.Background(), question, passages, func(s *jsonl.Statement) error {
		out = append(out, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkSpans asserts what the constraint guarantees: each statement names a
// given passage and its quote is a span of that passage.
// checkQuotesVerify checks that each statement's quote is found in its
// passage, as sponge-verify looks for it, and is long enough; what names
// the quotes in messages.
func checkQuotesVerify(t *testing.T, what string, sts []*jsonl.Statement, passages []*jsonl.Passage) {
	t.Helper()
	for _, s := range sts {
		q := quote.NewQuote(s.Quote)
		if _, found := quote.NewText(passages[s.Passage-1].Text).Find(q); q.Words() < quote.MinWords || !found {
			t.Errorf("%s %q does not verify (%d words)", what, s.Quote, q.Words())
		}
	}
}

func checkSpans(t *testing.T, sts []*jsonl.Statement, passages []*jsonl.Passage) {
	t.Helper()
	for i, s := range sts {
		if s.Passage < 1 || s.Passage > len(passages) {
			t.Errorf("statement %d names passage %d of %d", i+1, s.Passage, len(passages))
			continue
		}
		if s.Quote == "" || !strings.Contains(passages[s.Passage-1].Text, s.Quote) {
			t.Errorf("statement %d: quote %q is not in passage %d: %q", i+1, s.Quote, s.Passage, passages[s.Passage-1].Text)
		}
	}
}

// TestQuotesVerify runs the stages as a user does, sponge-draft with the
// model and then sponge-verify: with random weights every quote verifies.
func TestQuotesVerify(t *testing.T) {
	t.Parallel()
	model, lib, passages := teaFixture(t)
	var in bytes.Buffer
	w := jsonl.NewWriter(&in)
	w.Write(&jsonl.Question{Text: "How hot should the water be for green tea?"})
	for _, p := range passages {
		w.Write(p)
	}
	var drafted, stderr bytes.Buffer
	if code := Main([]string{"--library", lib, "--model-file", model, "--threads", "1"}, &in, &drafted, &stderr); code != 0 {
		t.Fatalf("sponge-draft exit %d: %s", code, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("sponge-draft wrote to stderr (not a terminal): %q", stderr.String())
	}
	recs := streamRecords(t, drafted.Bytes())
	var sts []*jsonl.Statement
	var model_ *jsonl.Model
	var done *jsonl.Done
	for _, r := range recs {
		switch r := r.(type) {
		case *jsonl.Statement:
			sts = append(sts, r)
		case *jsonl.Model:
			model_ = r
		case *jsonl.Done:
			done = r
		case *jsonl.Warning:
			t.Errorf("warning %+v", r)
		}
	}
	if model_ == nil || model_.Name != ggufgen.Tiny().Name {
		t.Errorf("model record %+v, want the model's name", model_)
	}
	if len(sts) == 0 || len(sts) > jsonl.MaxStatements || done == nil || done.Statements != len(sts) {
		t.Fatalf("%d statements, done %+v", len(sts), done)
	}
	checkSpans(t, sts, passages)

	var verified bytes.Buffer
	stderr.Reset()
	if code := verify.Main([]string{"--library", lib}, &drafted, &verified, &stderr); code != 0 {
		t.Fatalf("sponge-verify exit %d: %s", code, stderr.String())
	}
	n := 0
	for _, r := range streamRecords(t, verified.Bytes()) {
		switch r := r.(type) {
		case *jsonl.Verified:
			n++
		case *jsonl.LeftOut:
			t.Errorf("left out (%s): passage %d, quote %q", r.Reason, r.Passage, r.Quote)
		}
	}
	if n != len(sts) {
		t.Errorf("%d of %d statements verified", n, len(sts))
	}
}

func streamRecords(t *testing.T, b []byte) []jsonl.Record {
	t.Helper()
	r := jsonl.NewReader(bytes.NewReader(b), "out")
	var out []jsonl.Record
	for {
		line, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out
			}
			t.Fatal(err)
		}
		out = append(out, line.Record)
	}
}

// TestFixedLengthQuotesAreSpans makes the model write six statements with
// long quotes whatever it prefers: every quote is still a span of the
// passage it names, ending only where sponge-verify finds it (so it may run
// past 14 tokens, to the end of a word).
func TestFixedLengthQuotesAreSpans(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	_, _, passages := teaFixture(t)
	e.Fixed = &Fixed{Statements: 6, TextTokens: 6, QuoteTokens: 14}
	defer func() { e.Fixed = nil }()
	sts := draftAll(t, e, "What do the notes say about tea?", passages)
	if len(sts) != 6 {
		t.Fatalf("%d statements, want 6", len(sts))
	}
	checkSpans(t, sts, passages)
	checkQuotesVerify(t, "quote", sts, passages)
	st := e.Stats()
	// A quote ends early only where its passage ends.
	if st.QuoteTokens < 6*3 || st.Statements != 6 || st.PromptTokens == 0 || st.FirstStatement <= 0 {
		t.Errorf("stats %+v", st)
	}
	// Without the constraint the same model does not copy.
	e.Unconstrained = true
	defer func() { e.Unconstrained = false }()
	copied := 0
	for _, s := range draftAll(t, e, "What do the notes say about tea?", passages) {
		if strings.Contains(passages[s.Passage-1].Text, s.Quote) {
			copied++
		}
	}
	if copied == 6 {
		t.Error("unconstrained quotes are spans too: the constraint is not what makes them so")
	}
}

func TestDraftIsDeterministic(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	_, _, passages := teaFixture(t)
	a := draftAll(t, e, "How long should green tea steep?", passages)
	b := draftAll(t, e, "How long should green tea steep?", passages)
	if len(a) != len(b) {
		t.Fatalf("%d then %d statements", len(a), len(b))
	}
	for i := range a {
		if *a[i] != *b[i] {
			t.Errorf("statement %d: %+v then %+v", i+1, a[i], b[i])
		}
	}
}

// TestStatementsStream: each statement is emitted as soon as it is made, so
// an error from the first emit ends the draft before any other is written.
func TestStatementsStream(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	_, _, passages := teaFixture(t)
	e.Fixed = &Fixed{Statements: 6, TextTokens: 4, QuoteTokens: 6}
	defer func() { e.Fixed = nil }()
	stop := errors.New("enough")
	n := 0
	err := e.Draft(context.Background(), "tea?", passages, func(*jsonl.Statement) error {
		n++
		return stop
	})
	if !errors.Is(err, stop) || n != 1 || e.Stats().Statements != 1 {
		t.Errorf("err %v after %d emits, %d statements made", err, n, e.Stats().Statements)
	}
	// A cancelled context ends the draft too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := e.Draft(ctx, "tea?", passages, func(*jsonl.Statement) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestPromptHasOnlyQuestionAndPassages(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	_, _, passages := teaFixture(t)
	p := e.Prompt("How hot should the water be?", passages[:3])
	for _, want := range []string{"<|im_start|>system\n", "Question: How hot should the water be?", "[1] From “Notes on tea”\n" + teaParagraphs[0], "[3] From", "<|im_start|>assistant\n"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, teaParagraphs[3]) || strings.Contains(p, "[4]") {
		t.Errorf("prompt has a passage it was not given:\n%s", p)
	}
	if sts := draftAll(t, e, "tea?", nil); len(sts) != 0 {
		t.Errorf("%d statements from no passages", len(sts))
	}
}

func TestNumbersOnlyOfGivenPassages(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	_, _, passages := teaFixture(t)
	// Passages 7 and 12 only, as after a filter: nothing else may be named.
	some := []*jsonl.Passage{passages[6], passages[11]}
	e.Fixed = &Fixed{Statements: 6, TextTokens: 3, QuoteTokens: 5}
	defer func() { e.Fixed = nil }()
	for _, s := range draftAll(t, e, "What did Rikyū write?", some) {
		if s.Passage != 7 && s.Passage != 12 {
			t.Errorf("statement names passage %d; only 7 and 12 were given", s.Passage)
			continue
		}
		if p := passages[s.Passage-1].Text; !strings.Contains(p, s.Quote) {
			t.Errorf("quote %q is not in passage %d", s.Quote, s.Passage)
		}
	}
}

func TestBrokenModelFile(t *testing.T) {
	t.Parallel()
	model, lib, passages := teaFixture(t)
	good, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, tt := range map[string]struct {
		data []byte
		want string
	}{
		"not-gguf.gguf":  {[]byte("<html>not found</html>"), "not a GGUF model file"},
		"truncated.gguf": {good[:len(good)/2], "truncated"},
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, tt.data, 0o644)
		var in, out, stderr bytes.Buffer
		w := jsonl.NewWriter(&in)
		w.Write(&jsonl.Question{Text: "tea?"})
		w.Write(passages[0])
		code := Main([]string{"--library", lib, "--model-file", p}, &in, &out, &stderr)
		if code != 1 || !strings.HasPrefix(stderr.String(), "sponge-draft: error: "+p+": ") || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%s: exit %d, stderr %q", name, code, stderr.String())
		}
		if strings.Contains(out.String(), `"statement"`) {
			t.Errorf("%s: statements written from a broken model", name)
		}
	}
}

func TestSpanStarts(t *testing.T) {
	t.Parallel()
	text := "Tea, at 80 °C — “bitter”, hot."
	var got []string
	for _, s := range spanStarts(text, 1) {
		got = append(got, strconv.Quote(string([]rune(text[s:])[:2])))
	}
	want := `"Te" ", " " a" "at" " 8" "80" " °" "°C" "C " " —" "— " " “" "“b" "bi" "”," ", " " h" "ho"`
	if strings.Join(got, " ") != want {
		t.Errorf("starts %s\nwant   %s", strings.Join(got, " "), want)
	}
	// Where fewer than 3 words follow, no quote starts.
	last := spanStarts(text, 3)
	if n := last[len(last)-1]; n != strings.Index(text, "C —") {
		t.Errorf("with 3 words, the last start is %q", text[n:])
	}
	// In Chinese and Japanese each character is a word, as sponge-verify
	// counts them: a quote may start at any of them but the last two.
	for text, want := range map[string]string{"绿茶用水冲泡。": "绿茶用水", "緑茶はお湯で": "緑茶はお"} {
		got = got[:0]
		for _, s := range spanStarts(text, 3) {
			got = append(got, string([]rune(text[s:])[:1]))
		}
		if strings.Join(got, "") != want {
			t.Errorf("%s: starts at %q, want at each of %q", text, got, want)
		}
	}
}

// TestNarrowChoicesChangeNothing drafts with a model whose output layer is
// Q8_0, like Qwen 2.5 0.5B's: the model leaves out scoring the whole
// vocabulary before quote pieces and passage numbers, and the statements
// are the same as when it scores every token.
func TestNarrowChoicesChangeNothing(t *testing.T) {
	_, _, passages := teaFixture(t)
	s := ggufgen.Tiny()
	s.Type, s.TiedEmbeddings = gguf.Q8_0, true
	model := filepath.Join(t.TempDir(), "q8.gguf")
	if err := ggufgen.WriteRandom(model, s); err != nil {
		t.Fatal(err)
	}
	e, err := OpenEmbedded(model, ModelOptions{MaxStatements: jsonl.MaxStatements, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	defer func(n int) { narrowMost = n }(narrowMost)
	for _, fixed := range []*Fixed{nil, {Statements: 6, TextTokens: 5, QuoteTokens: 12}} {
		e.Fixed = fixed
		narrowMost = -1
		want := draftAll(t, e, "How hot should the water be for green tea?", passages)
		if n := e.Stats().Narrow; n != 0 {
			t.Fatalf("%d narrow steps with narrowing off", n)
		}
		narrowMost = 2048
		got := draftAll(t, e, "How hot should the water be for green tea?", passages)
		st := e.Stats()
		if fixed != nil && (len(got) != 6 || st.Narrow < 6*12) {
			t.Errorf("fixed draft: %d statements, %d narrow steps; want 6 and one a quote piece at least", len(got), st.Narrow)
		}
		if len(got) != len(want) {
			t.Fatalf("fixed %v: %d statements narrowed, %d not", fixed != nil, len(got), len(want))
		}
		for i := range got {
			if *got[i] != *want[i] {
				t.Errorf("fixed %v, statement %d: %+v narrowed, %+v not", fixed != nil, i+1, got[i], want[i])
			}
		}
		checkSpans(t, got, passages)
		t.Logf("fixed %v: %d statements, %d narrow steps of %d chosen tokens", fixed != nil, len(got), st.Narrow, st.Chosen)
	}
}

// TestFitToTheContext: with no passage budget, the passages fill the
// context but answerRoom, in a few tokenizations of the prompt rather than
// one per passage left out.
func TestFitToTheContext(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	e.opt.PassageTokens = -1
	var passages []*jsonl.Passage
	for i := range 90 {
		passages = append(passages, &jsonl.Passage{Number: i + 1, Title: "Notes on tea", Text: teaParagraphs[i%len(teaParagraphs)]})
	}
	const question = "How hot should the water be for green tea?"
	all, err := e.m.TokenizePrompt(e.Prompt(question, passages))
	if err != nil {
		t.Fatal(err)
	}
	limit := e.m.Info().ContextSize - answerRoom
	if len(all) <= limit {
		t.Fatal("all 90 passages fit: the test needs more")
	}
	draftAll(t, e, question, passages)
	st := e.Stats()
	// Full but for less than the longest passage and its header.
	if st.PromptTokens > limit || st.PromptTokens < limit-80 {
		t.Errorf("the prompt has %d tokens, want at most %d and close to it", st.PromptTokens, limit)
	}
	if st.PassagesShown == 0 || st.PassagesShown == len(passages) || st.PassagesCut != 0 {
		t.Errorf("%d passages shown, %d cut, of %d one-sentence passages", st.PassagesShown, st.PassagesCut, len(passages))
	}
	if st.PromptFits > 3 {
		t.Errorf("the prompt was tokenized %d times to fit 90 passages, want at most 3", st.PromptFits)
	}
}

// TestPassageBudget: the passages the model reads cost at most the budget
// in tokens, by the model's own tokenizer, and the prompt grows with it.
func TestPassageBudget(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	passages := cutFixture()
	bare, err := e.m.TokenizePrompt(e.Prompt(budgetQuestion, nil))
	if err != nil {
		t.Fatal(err)
	}
	prev := 0
	for _, budget := range []int{100, 160, 240, 320} {
		e.opt.PassageTokens = budget
		_, shown, err := e.fit(context.Background(), budgetQuestion, passages)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, p := range shown {
			toks, _ := e.m.Tokenize(passageHeader(p.Passage)+strings.TrimSpace(p.Text)+"\n", false)
			n += len(toks)
		}
		// Cut marks and the joins between sentences are not reckoned one
		// by one: a token or two each.
		slack := 0
		for _, p := range shown {
			slack += 2 * len(p.Parts)
		}
		t.Logf("budget %d: %d passages shown, %d tokens of passages (the prompt without them: %d)", budget, len(shown), n, len(bare))
		if n > budget+slack {
			t.Errorf("budget %d: the passages shown cost %d tokens", budget, n)
		}
		if n <= prev {
			t.Errorf("budget %d: %d tokens of passages, not more than with a smaller budget (%d)", budget, n, prev)
		}
		prev = n
	}
}

// cutFixture is the tea paragraphs as three passages of four sentences,
// with the item they are from.
func cutFixture() []*jsonl.Passage {
	var passages []*jsonl.Passage
	for i := 0; i < len(teaParagraphs); i += 4 {
		passages = append(passages, &jsonl.Passage{Number: i/4 + 1, Title: "Notes on tea", Paragraph: i / 4, Text: strings.Join(teaParagraphs[i:i+4], " "), Score: 1})
	}
	return passages
}

// TestQuotesStayInTheTextShown: when the passages are cut to a small
// budget, a long quote still stays inside the sentences shown to the model,
// never runs across a cut mark nor into the words cut, and verifies.
func TestQuotesStayInTheTextShown(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	e.opt.PassageTokens = 90
	e.Fixed = &Fixed{Statements: 6, TextTokens: 3, QuoteTokens: 40}
	passages := cutFixture()
	_, shown, err := e.fit(context.Background(), budgetQuestion, passages)
	if err != nil {
		t.Fatal(err)
	}
	byNumber := map[int]*shownPassage{}
	cut := 0
	for _, p := range shown {
		byNumber[p.Number] = p
		if p.Text != p.Source {
			cut++
		}
	}
	if cut == 0 {
		t.Fatalf("no passage was cut: %v", texts(shown))
	}
	// Six statements: a quote that reaches the end of a part ends there; it
	// never runs on into a cut mark, where it could not end.
	sts := draftAll(t, e, budgetQuestion, passages)
	if len(sts) != 6 {
		t.Errorf("%d statements, want 6: %+v", len(sts), e.Stats())
	}
	for _, s := range sts {
		p := byNumber[s.Passage]
		if p == nil {
			t.Errorf("statement names passage %d, which the model was not shown", s.Passage)
			continue
		}
		in := false
		for _, pt := range p.Parts {
			in = in || strings.Contains(p.Text[pt[0]:pt[1]], s.Quote)
		}
		if !in {
			t.Errorf("quote %q is not in the text shown of passage %d: %q", s.Quote, s.Passage, p.Text)
		}
	}
	// Ever longer quotes reach the end of their sentence, and end there.
	for qt := 20; qt <= 120; qt += 20 {
		e.Fixed = &Fixed{Statements: 1, TextTokens: 3, QuoteTokens: qt}
		sts := draftAll(t, e, budgetQuestion, passages)
		if len(sts) != 1 {
			t.Errorf("quotes of %d tokens: %d statements, want 1", qt, len(sts))
			continue
		}
		p, q := byNumber[sts[0].Passage], sts[0].Quote
		if !slices.ContainsFunc(p.Parts, func(pt [2]int) bool { return strings.Contains(p.Text[pt[0]:pt[1]], q) }) {
			t.Errorf("quote %q is not in the text shown of passage %d: %q", q, p.Number, p.Text)
		}
	}
	e.Fixed = &Fixed{Statements: 6, TextTokens: 3, QuoteTokens: 40}
	qs := []question{{text: budgetQuestion, title: "Notes on tea"}}
	for _, p := range passages {
		qs[0].passages = append(qs[0].passages, p.Text)
	}
	if written, verified := draftAndVerify(t, e, qs); written != len(sts) || verified != written {
		t.Errorf("%d statements written, %d verified", written, verified)
	}
}

// TestWarmStartKeepsTheSystemPrompt: a model that stays loaded (sponge
// serve) does not read the system prompt again for a new question: the
// prompt's tokens up to the question are kept from the draft before.
func TestWarmStartKeepsTheSystemPrompt(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	passages := cutFixture()
	e.Fixed = &Fixed{Statements: 1, TextTokens: 2, QuoteTokens: 4}
	first, second := "How hot should the water be for green tea?", "Which tea is the least processed?"
	draftAll(t, e, first, passages)
	if c := e.Stats().PromptCached; c != 0 {
		t.Errorf("the first draft found %d tokens cached", c)
	}
	draftAll(t, e, second, passages)
	a, _ := e.m.TokenizePrompt(e.Prompt(first, nil))
	b, _ := e.m.TokenizePrompt(e.Prompt(second, nil))
	shared := 0
	for shared < min(len(a), len(b)) && a[shared] == b[shared] {
		shared++
	}
	system, _ := e.m.Tokenize(systemPrompt, false)
	st := e.Stats()
	t.Logf("second question: %d of %d prompt tokens cached (the system prompt is %d tokens)", st.PromptCached, st.PromptTokens, len(system))
	if st.PromptCached < shared || shared < len(system) {
		t.Errorf("second question: %d tokens cached, want the %d the prompts share (the system prompt is %d)", st.PromptCached, shared, len(system))
	}
}

// TestDraftCancelledBeforeFitting: a request whose client has gone does
// not start reading the prompt.
func TestDraftCancelledBeforeFitting(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	_, _, passages := teaFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := e.Draft(ctx, "How hot?", passages, func(*jsonl.Statement) error { t.Error("a statement"); return nil })
	if !errors.Is(err, context.Canceled) || e.Stats().PromptFits != 0 {
		t.Errorf("got %v after %d tokenizations", err, e.Stats().PromptFits)
	}
}

// TestUnknownTemplateWarns: a model whose chat template is of no known
// family, or that has none, is prompted in ChatML with a warning, not
// silently.
func TestUnknownTemplateWarns(t *testing.T) {
	t.Parallel()
	_, lib, passages := teaFixture(t)
	for _, tmpl := range []string{"{% for m in messages %}### {{ m.role }}: {{ m.content }}\n{% endfor %}", "", ggufgen.ChatMLTemplate} {
		s := ggufgen.Tiny()
		s.ChatTemplate = tmpl
		model := filepath.Join(t.TempDir(), "m.gguf")
		if err := ggufgen.WriteRandom(model, s); err != nil {
			t.Fatal(err)
		}
		var in, out, stderr bytes.Buffer
		w := jsonl.NewWriter(&in)
		w.Write(&jsonl.Question{Text: "How hot should the water be for green tea?"})
		w.Write(passages[0])
		if code := Main([]string{"--library", lib, "--model-file", model, "--threads", "1"}, &in, &out, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		warned := strings.HasPrefix(stderr.String(), "sponge-draft: warning: the model "+model+" has ") &&
			strings.Contains(stderr.String(), "ChatML") && strings.Contains(stderr.String(), "\nsponge-draft: hint: ")
		if warned != (tmpl != ggufgen.ChatMLTemplate) {
			t.Errorf("template %q: stderr %q", tmpl, stderr.String())
		}
	}
}

// TestSummaryQuotesVerify: a summary is written with the same quote
// constraint as an answer (only its prompt differs), so statements forced to
// be long are still spans that sponge-verify finds; and the prompt names the
// item where an answer's names the question.
func TestSummaryQuotesVerify(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	_, _, passages := teaFixture(t)
	e.Fixed = &Fixed{Statements: 4, TextTokens: 4, QuoteTokens: 10}
	defer func() { e.Fixed = nil }()
	var sts []*jsonl.Statement
	err := e.Summarize(context.Background(), passages, func(s *jsonl.Statement) error {
		sts = append(sts, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sts) != 4 {
		t.Fatalf("%d statements, want 4", len(sts))
	}
	checkSpans(t, sts, passages)
	checkQuotesVerify(t, "summary quote", sts, passages)
	if p := e.Prompt("What does this item say?", passages[:2]); !strings.Contains(p, "Question: ") || strings.Contains(p, "Item: ") {
		t.Errorf("after Summarize, an answer's prompt is still a summary's:\n%s", p)
	}
	e.summary = true
	p := e.Prompt("What does this item say?", passages[:2])
	e.summary = false
	if !strings.Contains(p, "Item: Notes on tea") || strings.Contains(p, "Question: ") {
		t.Errorf("a summary's prompt does not name the item:\n%s", p)
	}
}

// TestQuotesNeverDeadEnd: from a short passage a model that prefers to
// repeat itself (random weights, greedy) still writes six quotes, each new:
// a quote never starts, nor runs on, where it could not end (every way on
// being a quote given already), which would end the list there.
func TestQuotesNeverDeadEnd(t *testing.T) {
	t.Parallel()
	e := openTiny(t)
	passages := []*jsonl.Passage{{Number: 1, Title: "Notes on tea", Text: "White tea is the least processed of all teas."}}
	for _, qt := range []int{4, 40} {
		e.Fixed = &Fixed{Statements: 6, TextTokens: 2, QuoteTokens: qt}
		sts := draftAll(t, e, "Which tea is the least processed?", passages)
		seen := map[string]bool{}
		for _, s := range sts {
			q := quote.NewQuote(s.Quote)
			if _, found := quote.NewText(passages[0].Text).Find(q); !found || q.Words() < quote.MinWords || seen[q.Normal()] {
				t.Errorf("quotes of %d tokens: quote %q does not verify, or repeats one", qt, s.Quote)
			}
			seen[q.Normal()] = true
		}
		if len(sts) != 6 {
			t.Errorf("quotes of %d tokens: %d statements, want 6: %+v", qt, len(sts), sts)
		}
	}
}
