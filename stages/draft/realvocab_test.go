//go:build cgo

package draft

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/verify"
)

// question is a question with the passages a search would give it.
type question struct {
	text     string
	title    string
	passages []string
}

// worldQuestions have passages in German, Russian, Chinese, Japanese, with
// emoji and with ligatures (ﬁ ﬂ), whose tokens cross spaces, punctuation
// and the bytes of one character in every real vocabulary.
var worldQuestions = []question{
	{"Wie heiß soll das Wasser für grünen Tee sein?", "Über Tee", []string{
		"Grüner Tee wird mit Wasser von etwa 80 °C aufgebrüht, deutlich unter dem Siedepunkt, weil heißeres Wasser die bitteren Gerbstoffe löst.",
		"Die Blätter ziehen zwei bis drei Minuten; längeres Ziehen macht den Tee bitter und dunkel. Größere Blätter brauchen mehr Zeit.",
	}},
	{"Как заваривать зелёный чай?", "О чае", []string{
		"Зелёный чай заваривают водой около 80 градусов, а не кипятком, потому что горячая вода вытягивает горькие вещества.",
		"Листья настаивают две-три минуты; если держать дольше, чай становится горьким и тёмным.",
	}},
	{"绿茶应该用多热的水冲泡？", "茶的笔记", []string{
		"绿茶用大约八十度的水冲泡，而不是沸水，因为更热的水会泡出苦味的儿茶素。",
		"茶叶浸泡两到三分钟；浸泡时间更长会使茶汤变得又苦又暗。抹茶是用遮阴种植的茶叶磨成的细粉。",
	}},
	{"緑茶はどのくらいの温度のお湯で淹れますか？", "お茶について", []string{
		"緑茶は沸騰したお湯ではなく、八十度くらいのお湯で淹れます。熱すぎるお湯は苦味を引き出します。",
		"日本では煎茶が最も一般的な緑茶で、玉露は収穫前に三週間ほど日光を遮って育てられます。",
	}},
	{"What do the notes say about tea and mood?", "Tea 🍵 and mood", []string{
		"A warm cup 🍵 in the morning makes most of us happier 😀 — the study found 👍🏽 from 72% of the people asked.",
		"Families 👨‍👩‍👧 who drink tea together said they talk more at the table ☕️ than those who do not.",
	}},
	{"What is the first flower of the field?", "The ﬁeld book", []string{
		"The ﬁrst ﬂower of the ﬁeld is the snowdrop; it ﬂourishes before the ﬁnal frost and is ﬁne to pick.",
		"Oﬃcial records of the ﬂora were kept by the ﬁeld oﬃce from 1921, with a ﬁle for each ﬂower.",
	}},
}

// scifactQuestions are SciFact training claims with the abstracts they cite,
// from ../shared/bench/scifact (benchmark data, not in the repository: the
// test does without them when they are absent).
func scifactQuestions(t *testing.T, n int) []question {
	dir := filepath.Join(filepath.Dir(filepath.Dir(ggufgen.TokenizersDir())), "..", "shared", "bench", "scifact")
	claims, err := os.Open(filepath.Join(dir, "claims-train-evidence.jsonl"))
	if err != nil {
		t.Logf("no SciFact (%v): drafting from the other passages only", err)
		return nil
	}
	defer claims.Close()
	type claim struct {
		Claim    string `json:"claim"`
		Cited    []int  `json:"cited_doc_ids"`
		Evidence []any  `json:"evidence"`
	}
	var want []claim
	need := map[string]bool{}
	sc := bufio.NewScanner(claims)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && len(want) < n {
		var c claim
		if json.Unmarshal(sc.Bytes(), &c) != nil || len(c.Evidence) == 0 || len(c.Cited) == 0 {
			continue
		}
		want = append(want, c)
		for _, d := range c.Cited {
			need[fmt.Sprint(d)] = true
		}
	}
	corpus, err := os.Open(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer corpus.Close()
	docs := map[string][2]string{}
	sc = bufio.NewScanner(corpus)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var d struct {
			ID          string `json:"_id"`
			Title, Text string
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if need[d.ID] {
			docs[d.ID] = [2]string{d.Title, d.Text}
		}
	}
	var qs []question
	for _, c := range want {
		q := question{text: c.Claim}
		for _, id := range c.Cited {
			d, ok := docs[fmt.Sprint(id)]
			if !ok {
				t.Fatalf("SciFact claim %q cites %d, which is not in the corpus", c.Claim, id)
			}
			q.title = d[0]
			q.passages = append(q.passages, d[1])
		}
		qs = append(qs, q)
	}
	return qs
}

// draftAndVerify drafts each question with e and runs sponge-verify on the
// statements against a library holding the passages: it returns how many
// statements were written and how many verified.
func draftAndVerify(t *testing.T, e *Embedded, qs []question) (written, verified int) {
	t.Helper()
	libDir := filepath.Join(t.TempDir(), "lib")
	lib, err := library.Create(libDir)
	if err != nil {
		t.Fatal(err)
	}
	var stream bytes.Buffer
	for _, q := range qs {
		src := []byte(strings.Join(q.passages, "\n\n"))
		it := &item.Item{ID: library.ItemID(src), Title: q.title, Source: "notes.txt", Kind: "text", Added: time.Unix(0, 0).UTC()}
		var passages []*jsonl.Passage
		for i, p := range q.passages {
			it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: p})
			passages = append(passages, &jsonl.Passage{Number: i + 1, ItemID: it.ID, Title: it.Title, Paragraph: i, Text: p, Score: 1})
		}
		if err := lib.Put(it, src); err != nil {
			t.Fatal(err)
		}
		stream.Reset()
		w := jsonl.NewWriter(&stream)
		w.Write(&jsonl.Question{Text: q.text})
		for _, p := range passages {
			w.Write(p)
		}
		n := 0
		err := e.Draft(context.Background(), q.text, passages, func(s *jsonl.Statement) error {
			n++
			return w.Write(s)
		})
		if err != nil {
			t.Fatalf("%q: %v", q.text, err)
		}
		if n < jsonl.MaxStatements {
			t.Logf("%q: %d statements", q.text, n)
		}
		if st := e.Stats(); st.PassagesCut > 0 || st.PassagesShown < len(passages) {
			t.Logf("%q: %d of %d passages shown, %d of them cut to the passage budget", q.text, st.PassagesShown, len(passages), st.PassagesCut)
		}
		w.Write(&jsonl.Done{Statements: n})
		var out, stderr bytes.Buffer
		if code := verify.Main([]string{"--library", libDir}, &stream, &out, &stderr); code != 0 {
			t.Fatalf("sponge-verify exit %d: %s", code, stderr.String())
		}
		for _, r := range streamRecords(t, out.Bytes()) {
			switch r := r.(type) {
			case *jsonl.Verified:
				verified++
			case *jsonl.LeftOut:
				if !e.Unconstrained {
					t.Errorf("%q: left out (%s): passage %d, quote %q", q.text, r.Reason, r.Passage, r.Quote)
				}
			}
		}
		written += n
	}
	return written, verified
}

// TestQuotesVerifyOnRealVocabularies: with each real vocabulary (Qwen2.5's
// 151,936 tokens, Llama 3's 128,256, Gemma 3's 262,144) every quote the
// constrained model writes verifies, in every language; without the
// constraint the same model does not copy.
func TestQuotesVerifyOnRealVocabularies(t *testing.T) {
	t.Parallel()
	qs := append(scifactQuestions(t, 2), worldQuestions...)
	for _, f := range ggufgen.Families {
		t.Run(f.Package, func(t *testing.T) {
			t.Parallel()
			tok := f.Need(t)
			model := filepath.Join(t.TempDir(), f.Package+".gguf")
			if err := ggufgen.WriteRandom(model, f.Small(tok)); err != nil {
				t.Fatal(err)
			}
			e, err := OpenEmbedded(model, ModelOptions{MaxStatements: jsonl.MaxStatements, Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			// Six statements for every question whatever the random
			// weights prefer; each quote at least 6 tokens, ending where
			// the model chooses once it may.
			e.Fixed = &Fixed{Statements: jsonl.MaxStatements, TextTokens: 4, QuoteTokens: 6}
			written, verified := draftAndVerify(t, e, qs)
			t.Logf("constrained: %d statements for %d questions, %d verified", written, len(qs), verified)
			// Every question gets its six: a quote never runs into a dead end.
			if written != len(qs)*jsonl.MaxStatements || verified != written {
				t.Errorf("constrained: %d statements for %d questions, %d verified", written, len(qs), verified)
			}

			// Without the constraint (three questions show it: free
			// writing scores the whole vocabulary at every token).
			e.Unconstrained = true
			written, verified = draftAndVerify(t, e, qs[len(qs)-3:])
			t.Logf("unconstrained: %d statements, %d verified", written, verified)
			if verified == written {
				t.Errorf("unconstrained quotes verify too (%d of %d): the constraint is not what makes them", verified, written)
			}
		})
	}
}
