package rank

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/sponge-library/sponge/internal/base/definitions"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/index"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
	"github.com/sponge-library/sponge/internal/library/ingest"
	"github.com/sponge-library/sponge/internal/testsupport/stagetest"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/search"
)

var update = flag.Bool("update", false, "write the golden files instead of comparing")

// questions of the cases whose input is sponge-search's real output.
var searched = map[string]string{
	"green-tea":         "how hot should green tea be",
	"matcha-transcript": "how do you whisk matcha",
	"oolong-pdf":        "oolong infusion",
}

func TestGolden(t *testing.T) {
	lib := t.TempDir()
	if _, err := stagetest.Build(lib); err != nil {
		t.Fatal(err)
	}
	stagetest.Golden(t, filepath.Join("..", "..", "golden", "rank"), Main, lib, *update, "want.jsonl",
		func(t *testing.T, caseDir string, in []byte) []byte {
			q, ok := searched[filepath.Base(caseDir)]
			if !ok {
				return in
			}
			r := stagetest.Run(search.Main, []string{"--library", lib, q}, nil, "whole")
			if r.Code != 0 {
				t.Fatalf("search: %+v", r)
			}
			if *update {
				os.WriteFile(filepath.Join(caseDir, "in.jsonl"), []byte(r.Stdout), 0o644)
			}
			return []byte(r.Stdout)
		})
}

// TestBudget saves long items and checks the limits: at most PerItem
// passages of an item, about BudgetChars in all, numbered 1..N, no
// paragraph cut mid-sentence.
func TestBudget(t *testing.T) {
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var hits []*jsonl.Hit
	for n := range 5 {
		var paras []item.Paragraph
		for p := range 10 {
			paras = append(paras, item.Paragraph{Text: strings.TrimSpace(strings.Repeat("The kettle boils water for tea. ", 20+p+n))})
		}
		src := []byte{byte(n)}
		it := &item.Item{ID: library.ItemID(src), Title: "Kettles", Kind: item.KindText, Paragraphs: paras}
		if err := w.Add(it, src); err != nil {
			t.Fatal(err)
		}
		hits = append(hits, &jsonl.Hit{ItemID: it.ID, Title: it.Title, Score: float64(5 - n), Rank: n + 1})
	}
	// One paragraph longer than the whole budget.
	long := strings.TrimSpace(strings.Repeat("A very long sentence about the kettle and its water. ", 400))
	src := []byte("long")
	it := &item.Item{ID: library.ItemID(src), Title: "Long", Kind: item.KindText, Paragraphs: []item.Paragraph{{Text: long}}}
	w.Add(it, src)
	w.Close()
	lib, _ := library.Open(dir)

	ps, err := Rank(lib, "kettle water", hits)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	total := 0
	for i, p := range ps {
		if p.Number != i+1 {
			t.Errorf("passage %d is numbered %d", i+1, p.Number)
		}
		per[p.ItemID]++
		total += utf8.RuneCountInString(p.Text)
		if !strings.HasSuffix(p.Text, ".") {
			t.Errorf("passage %d is cut mid-sentence: …%q", p.Number, p.Text[len(p.Text)-20:])
		}
	}
	for id, n := range per {
		if n > PerItem {
			t.Errorf("item %s has %d passages", item.Short(id), n)
		}
	}
	if total > BudgetChars || len(ps) < 4 {
		t.Errorf("%d passages of %d characters in all", len(ps), total)
	}

	// The long paragraph alone: cut at a sentence end within the budget.
	ps, _ = Rank(lib, "kettle water", []*jsonl.Hit{{ItemID: it.ID, Title: "Long", Score: 1, Rank: 1}})
	if len(ps) != 1 || utf8.RuneCountInString(ps[0].Text) > BudgetChars || !strings.HasSuffix(ps[0].Text, "water.") || !strings.HasPrefix(long, ps[0].Text) {
		t.Errorf("long paragraph gave %d passages", len(ps))
	}
}

// TestOneItemGivesMore: when one item alone gives passages, room left in
// the budget goes to more of its paragraphs, up to MaxPerItem; with another
// item giving passages, PerItem holds (TestBudget).
func TestOneItemGivesMore(t *testing.T) {
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var paras []item.Paragraph
	for p := range 12 {
		paras = append(paras, item.Paragraph{Text: fmt.Sprintf("Step %d: oil the chain roller %d and wipe it.", p, p)})
	}
	src := []byte("chain")
	it := &item.Item{ID: library.ItemID(src), Title: "Chain care", Kind: item.KindText, Paragraphs: paras}
	if err := w.Add(it, src); err != nil {
		t.Fatal(err)
	}
	w.Close()
	lib, _ := library.Open(dir)
	ps, err := Rank(lib, "oil chain roller", []*jsonl.Hit{{ItemID: it.ID, Title: it.Title, Score: 1, Rank: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != MaxPerItem {
		t.Errorf("one item gave %d passages, want %d", len(ps), MaxPerItem)
	}
	for i, p := range ps {
		if p.Number != i+1 {
			t.Errorf("passage %d is numbered %d", i+1, p.Number)
		}
	}
}

// TestLongItemGivesMore: an item of LongItem paragraphs or more (a book)
// gives up to MaxPerItem passages beside another item; an item shorter by
// one, PerItem.
func TestLongItemGivesMore(t *testing.T) {
	for _, long := range []int{LongItem, LongItem - 1} {
		dir := t.TempDir()
		w, err := ingest.OpenWriter(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		var hits []*jsonl.Hit
		for n, size := range []int{long, 12} {
			var paras []item.Paragraph
			for p := range size {
				text := fmt.Sprintf("Chapter %d is about the weather in spring, summer and autumn.", p)
				if p%10 == 0 {
					text = fmt.Sprintf("Step %d: oil the chain roller %d and wipe it.", p, p)
				}
				paras = append(paras, item.Paragraph{Text: text})
			}
			src := []byte{byte(n)}
			it := &item.Item{ID: library.ItemID(src), Title: fmt.Sprint("Book ", n), Kind: item.KindText, Paragraphs: paras}
			if err := w.Add(it, src); err != nil {
				t.Fatal(err)
			}
			hits = append(hits, &jsonl.Hit{ItemID: it.ID, Title: it.Title, Score: float64(2 - n), Rank: n + 1})
		}
		w.Close()
		lib, _ := library.Open(dir)
		ps, err := Rank(lib, "oil chain roller", hits)
		if err != nil {
			t.Fatal(err)
		}
		per := map[string]int{}
		for _, p := range ps {
			per[p.ItemID]++
		}
		want := PerItem
		if long >= LongItem {
			want = MaxPerItem
		}
		if got := per[hits[0].ItemID]; got != want {
			t.Errorf("an item of %d paragraphs gave %d passages beside another, want %d", long, got, want)
		}
		if got := per[hits[1].ItemID]; got != 2 {
			t.Errorf("the short item gave %d passages, want its 2", got)
		}
	}
}

// TestMeaningParagraph checks that the paragraph meaning search matched is
// a passage even when it shares no word with the question.
func TestMeaningParagraph(t *testing.T) {
	lib := t.TempDir()
	if _, err := stagetest.Build(lib); err != nil {
		t.Fatal(err)
	}
	l, _ := library.Open(lib)
	para := 2
	ps, err := Rank(l, "storing leaves", []*jsonl.Hit{{ItemID: stagetest.TeaNotes, Title: "Tea notes", Score: 1, Rank: 1, FoundBy: []string{jsonl.FoundByMeaning}, Paragraph: &para}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range ps {
		found = found || p.Paragraph == para
	}
	if !found {
		var b bytes.Buffer
		for _, p := range ps {
			b.WriteString(p.Text + "\n")
		}
		t.Errorf("the meaning-matched paragraph is not a passage; passages:\n%s", b.String())
	}
}

// countTerms counts the question terms in text as RankWith does, by name.
func countTerms(text string, qterms []string) (map[string]int, int) {
	tf, n := newTermScanner(qterms).count("", text)
	if tf == nil {
		return nil, n
	}
	m := map[string]int{}
	for k, c := range tf {
		if c > 0 {
			m[qterms[k]] = c
		}
	}
	return m, n
}

// TestCountTerms checks the scan against the analyzer itself: on real
// text, every question term is counted as often as the analyzer finds it.
func TestCountTerms(t *testing.T) {
	texts := []string{
		"Berries, berry's juice and the berries' colour; boxes of knives, shoes and caches. The buses' spies ate pies.",
		"Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter.",
		"Naïve Ärzte drink TEAS; John’s teas and Mary's TEA. Status: dress, gas, axes, heroes — 3.5 teas.",
		"ABI symbols: /sys/kernel/debug/testing-symbols, abi_testing, ABI's testing of symbols.",
		"Brewing, brewed and brews; stored, storing, steeped; hoping, hopping, studied, agreed and ＴＥＡ.",
		"绿茶的水温应该是八十度。緑茶はお湯の温度が大切です。ชาเขียวควรชงด้วยน้ำร้อน green 茶",
	}
	for _, text := range texts {
		all := keywords.Terms(text)
		want := map[string]int{}
		for _, term := range all {
			want[term]++
		}
		var qterms []string
		for term := range want {
			qterms = append(qterms, term)
		}
		got, _ := countTerms(text, qterms)
		for _, term := range qterms {
			if got[term] != want[term] {
				t.Errorf("%q: term %q counted %d times, the analyzer finds it %d times", text, term, got[term], want[term])
			}
		}
	}
}

// A run of Chinese, Japanese or Thai is many words: a question's word in the
// middle of one is counted, and the run's length is its number of terms.
func TestCountTermsWithoutSpaces(t *testing.T) {
	text := "绿茶的水温应该是八十度。お湯の温度が大切です"
	got, n := countTerms(text, []string{"水温", "八十", "温度"})
	want := map[string]int{"水温": 1, "八十": 1, "温度": 1}
	if !cmp.Equal(got, want) || n != len(keywords.Terms(text)) {
		t.Errorf("countTerms = %v, %d words; want %v, %d", got, n, want, len(keywords.Terms(text)))
	}
}

// A passage of an item with a generic title names its file too, so that an
// answer's source line says which "Introduction" it quotes.
func TestGenericTitlePassage(t *testing.T) {
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("intro")
	it := &item.Item{ID: library.ItemID(src), Title: "Introduction", Source: "/papers/kettle-safety.pdf", Kind: item.KindText,
		Paragraphs: []item.Paragraph{{Text: "The kettle boils water for tea."}}}
	if err := w.Add(it, src); err != nil {
		t.Fatal(err)
	}
	w.Close()
	lib, _ := library.Open(dir)
	ps, err := Rank(lib, "kettle water", []*jsonl.Hit{{ItemID: it.ID, Title: it.Title, Score: 1, Rank: 1}})
	if err != nil || len(ps) != 1 {
		t.Fatalf("%v, %d passages", err, len(ps))
	}
	if ps[0].Title != "Introduction (kettle-safety.pdf)" {
		t.Errorf("passage title %q", ps[0].Title)
	}
}

// postingsLibrary saves items of many paragraphs (words in some of them
// only) and returns the library and a hit for each item.
func postingsLibrary(t *testing.T) (*library.Library, []*jsonl.Hit) {
	t.Helper()
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{
		"Berries, berry's juice and the berries' colour; boxes of knives, shoes and caches.",
		"Green tea is steeped at a lower temperature than black tea, usually around eighty degrees.",
		"The kettle boils water for tea; the water's temperature is what matters.",
		"Naïve Ärzte drink TEAS; John’s teas and Mary's TEA. Status: dress, gas, axes, heroes — 3.5 teas.",
		"ABI symbols: /sys/kernel/debug/testing-symbols, abi_testing, ABI's testing of symbols.",
		"Memory limits of a cgroup: memory.max caps the memory a cgroup's processes use.",
	}
	var hits []*jsonl.Hit
	for n := range 6 {
		var paras []item.Paragraph
		for p := range 100 + 30*n {
			paras = append(paras, item.Paragraph{Heading: texts[(p/7+n)%len(texts)][:12], Text: strings.Repeat(texts[(p*p+n)%len(texts)]+" ", 2+p%3)})
		}
		if n == 5 {
			paras = paras[:20] // too small for postings: read whole
		}
		src := []byte{byte(n), 'p'}
		it := &item.Item{ID: library.ItemID(src), Title: "Notes " + string(rune('A'+n)), Kind: item.KindText, Paragraphs: paras}
		if err := w.Add(it, src); err != nil {
			t.Fatal(err)
		}
		hits = append(hits, &jsonl.Hit{ItemID: it.ID, Title: it.Title, Score: float64(9 - n), Rank: n + 1})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Library, hits
}

var postingsQuestions = []string{
	"kettle water temperature", "green tea", "berries juice", "cgroup memory limits", "abi testing symbols",
	"teas of John", "what is it", "dress gas heroes 3.5",
}

// TestPostingsRankAsReading checks that ranking from the paragraph postings
// gives the passages that reading every paragraph gives, meaning-matched
// paragraph included.
func TestPostingsRankAsReading(t *testing.T) {
	lib, hits := postingsLibrary(t)
	para := 5
	hits[2].Paragraph = &para
	var with [][]*jsonl.Passage
	for _, q := range postingsQuestions {
		ps, err := Rank(lib, q, hits)
		if err != nil {
			t.Fatal(err)
		}
		with = append(with, ps)
	}
	if err := os.RemoveAll(filepath.Join(lib.IndexDir(), "postings")); err != nil {
		t.Fatal(err)
	}
	for i, q := range postingsQuestions {
		ps, err := Rank(lib, q, hits)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == 0 {
			t.Errorf("%q: no passages", q)
		}
		if !slices.EqualFunc(ps, with[i], func(a, b *jsonl.Passage) bool { return *a == *b }) {
			t.Errorf("%q: %d passages from the postings, %d from reading the paragraphs, or they differ", q, len(with[i]), len(ps))
		}
	}
}

// TestPostingsRead checks that rank takes the paragraphs from the postings:
// postings that say a word stands in another paragraph move the passage.
func TestPostingsRead(t *testing.T) {
	lib, hits := postingsLibrary(t)
	it, err := lib.Item(hits[0].ItemID)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Rank(lib, "zanzibar", hits[:1])
	if err != nil || len(ps) != 0 {
		t.Fatalf("a word no paragraph has gave %d passages (%v)", len(ps), err)
	}
	// Postings made from another text of the same paragraphs.
	other := *it
	other.Paragraphs = slices.Clone(it.Paragraphs)
	other.Paragraphs[3].Text = "Zanzibar"
	x, err := index.Create(lib.IndexDir())
	if err != nil {
		t.Fatal(err)
	}
	b := x.NewBatch()
	if err := b.Add(&other); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	x.Close()
	ps, err = Rank(lib, "zanzibar", hits[:1])
	if err != nil || len(ps) != 1 || ps[0].Paragraph != 3 || ps[0].Text != it.Paragraphs[3].Text {
		t.Fatalf("postings that put the word in paragraph 3 gave %+v (%v)", ps, err)
	}
}

// TestCountTermsSplitWords checks words the analyzer splits: a term inside
// a word of Chinese and Latin letters is counted (not "a.kasan": one word).
func TestCountTermsSplitWords(t *testing.T) {
	// Words: 概述 (1), 通用|kasan (2), 基于|kasan|模式 (3), and, KASAN, a.kasan:
	// a run holding Chinese counts its terms.
	got, n := countTerms("概述 通用KASAN 基于KASAN模式 and KASAN; a.kasan", []string{"kasan"})
	if got["kasan"] != 3 || n != 9 {
		t.Errorf("kasan counted %d times in %d words, want 3 in 9", got["kasan"], n)
	}
}

// A word weighs by the question record's idf (the whole library's count)
// as well as by the few hit items' paragraphs: the geometric mean of the
// two; a word without an idf weighs by the paragraphs.
func TestLibraryWeights(t *testing.T) {
	cands := func() []*candidate {
		return []*candidate{
			{terms: []int{1, 0}, n: 10}, // hot
			{terms: []int{0, 1}, n: 10}, // tea
		}
	}
	// Among the hit items' 10 paragraphs "hot" is rare and "tea" common.
	df := []int{1, 8} // hot, tea
	local := cands()
	scoreBM25(local, []string{"hot", "tea"}, 10, 100, df, nil)
	if local[0].score <= local[1].score {
		t.Fatalf("by the paragraphs alone, hot %.3f should weigh more than tea %.3f", local[0].score, local[1].score)
	}
	// In the library "tea" is by far the rarer word.
	lib := cands()
	weight, _ := scoreBM25(lib, []string{"hot", "tea"}, 10, 100, df, map[string]float64{"hot": 0.05, "tea": 3})
	if lib[1].score <= lib[0].score {
		t.Errorf("with the library's idf, tea %.3f should weigh more than hot %.3f", lib[1].score, lib[0].score)
	}
	idf := func(n, df float64) float64 { return math.Log(1 + (n-df+0.5)/(df+0.5)) }
	if want := math.Sqrt(0.05 * idf(10, 1)); math.Abs(weight[0]-want) > 1e-12 {
		t.Errorf("hot weighs %v, want %v", weight[0], want)
	}
	// "green" has no idf in the record: it weighs by the paragraphs.
	weight, _ = scoreBM25(cands(), []string{"hot", "green"}, 10, 100, []int{1, 3}, map[string]float64{"hot": 0.5})
	if math.Abs(weight[1]-idf(10, 3)) > 1e-12 {
		t.Errorf("green weighs %v, want %v", weight[1], idf(10, 3))
	}
}

// Of two paragraphs alike in their words, the one with the question's words
// side by side ("green tea") comes first, though it is the longer.
func TestPairCredit(t *testing.T) {
	if got := questionPairs("how hot should green tea be", keywords.QuestionTerms("how hot should green tea be")); !slices.Equal(got, [][2]string{{"green", "tea"}}) {
		t.Errorf("pairs of \"how hot should green tea be\": %v", got)
	}
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("pairs")
	it := &item.Item{ID: library.ItemID(src), Title: "Notes", Kind: item.KindText, Paragraphs: []item.Paragraph{
		{Text: "Tea from the shop, with green leaves in it, is what we drink."},
		{Text: "We drink green tea from the shop, with all the leaves in it, daily."},
	}}
	if err := w.Add(it, src); err != nil {
		t.Fatal(err)
	}
	w.Close()
	lib, _ := library.Open(dir)
	ps, err := Rank(lib, "green tea", []*jsonl.Hit{{ItemID: it.ID, Title: "Notes", Score: 1, Rank: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Paragraph != 1 {
		t.Errorf("passages %+v, want paragraph 1 (\"green tea\") first", ps)
	}
}

// Counting a paragraph allocates only its counts: words in capitals are
// lowered in the scanner's buffer, and what the analyzer made of a word is
// kept from the first time.
func TestCountAllocations(t *testing.T) {
	s := newTermScanner([]string{"tea", "green"})
	text := "Green TEA, Teas and GREENS: The Tea Of The Day. Brewed Green Tea."
	tf, n := s.count("Heading Tea", text)
	if tf[0] != 5 || tf[1] != 3 || n != 15 {
		t.Errorf("counted %v in %d words, want [5 3] in 15", tf, n)
	}
	if a := testing.AllocsPerRun(50, func() { s.count("Heading Tea", text) }); a > 1 {
		t.Errorf("counting a paragraph allocates %v times, want 1", a)
	}
}

// A paragraph that asks is followed by the paragraph after it, which
// answers it in a talk and holds none of the question's words; a paragraph
// that asks again is not brought along.
func TestAnswerAfterQuestion(t *testing.T) {
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("volcano lecture")
	it := &item.Item{ID: library.ItemID(src), Title: "volcano-lecture", Source: "/talks/volcano-lecture.srt", Kind: item.KindSRT,
		Paragraphs: []item.Paragraph{
			{Heading: "PROFESSOR", Text: "Today we look at how volcanoes erupt."},
			{Heading: "STUDENT", Text: "Is that what happened at Mount St. Helens?"},
			{Heading: "PROFESSOR", Text: "Yes. In May 1980 a landslide removed the north flank, and the magma exploded sideways."},
			{Heading: "STUDENT", Text: "Did Mount St. Helens erupt again?"},
			{Heading: "STUDENT", Text: "Or was that all?"},
		}}
	if err := w.Add(it, src); err != nil {
		t.Fatal(err)
	}
	w.Close()
	lib, _ := library.Open(dir)
	ps, err := Rank(lib, "What happened at Mount St. Helens?", []*jsonl.Hit{{ItemID: it.ID, Title: it.Title, Score: 1, Rank: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var paras []int
	for _, p := range ps {
		paras = append(paras, p.Paragraph)
	}
	at := slices.Index(paras, 1)
	if at < 0 || at+1 >= len(paras) || paras[at+1] != 2 {
		t.Errorf("passages of paragraphs %v: want the answer (2) right after its question (1)", paras)
	}
	if slices.Contains(paras, 4) {
		t.Errorf("passages of paragraphs %v: a question (4) brought along after a question (3)", paras)
	}
	if len(ps) > 1 && ps[at+1].Score != ps[at].Score {
		t.Errorf("the answer scores %v, its question %v: want the question's score", ps[at+1].Score, ps[at].Score)
	}
}

// A paragraph that documents an option the question names is a passage,
// first, though it shares no other word with the question, before an
// example that writes the option and the question's words.
func TestOptionParagraph(t *testing.T) {
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("ssh manual")
	paras := []item.Paragraph{{Heading: "NAME", Text: "ssh - OpenSSH remote login client"}}
	for i := range 40 {
		paras = append(paras, item.Paragraph{Heading: "DESCRIPTION", Text: fmt.Sprintf("ssh connects and logs into the given host, part %d.", i)})
	}
	paras = append(paras,
		item.Paragraph{Heading: "EXAMPLES", Text: "To reach a web server behind ssh, run ssh -L 8080:localhost:80 ssh.example.com and ssh does the rest."},
		item.Paragraph{Heading: "OPTIONS", Text: "-l login_name Specifies the user to log in as on the remote machine."},
		item.Paragraph{Heading: "OPTIONS", Text: "-L [bind_address:]port:host:hostport Specifies that connections to the given TCP port on the local host are to be forwarded."})
	it := &item.Item{ID: library.ItemID(src), Title: "SSH(1)", Kind: item.KindMan, Paragraphs: paras}
	if err := w.Add(it, src); err != nil {
		t.Fatal(err)
	}
	w.Close()
	lib, _ := library.Open(dir)
	hits := []*jsonl.Hit{{ItemID: it.ID, Title: it.Title, Score: 1, Rank: 1}}
	ps, err := Rank(lib, "What does ssh -L do?", hits)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 || ps[0].Paragraph != len(paras)-1 {
		t.Fatalf("passages %+v: want the -L paragraph (%d) first", ps, len(paras)-1)
	}
	// Without the option, the question ranks the paragraphs that say ssh.
	ps, err = Rank(lib, "What does ssh do?", hits)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Paragraph == len(paras)-1 {
			t.Errorf("the -L paragraph is a passage for a question without the option")
		}
	}
}

// TestDuplicateHits: an item hit many times is ranked once: the same
// passages as for one hit, and the item loaded once (100 copies of a hit
// took 2.9 GB).
func TestDuplicateHits(t *testing.T) {
	lib := t.TempDir()
	if _, err := stagetest.Build(lib); err != nil {
		t.Fatal(err)
	}
	q := `{"v":1,"type":"question","text":"how hot should green tea be"}` + "\n"
	hit := `{"v":1,"type":"hit","itemId":"` + stagetest.TeaNotes + `","title":"Tea notes","score":1,"rank":1}` + "\n"
	once := stagetest.Run(Main, []string{"--library", lib}, []byte(q+hit), "whole")
	many := stagetest.Run(Main, []string{"--library", lib}, []byte(q+strings.Repeat(hit, 100)), "whole")
	if once.Code != 0 || many.Code != 0 {
		t.Fatalf("exit %d, %d: %s %s", once.Code, many.Code, once.Stderr, many.Stderr)
	}
	passages := func(out string) string {
		var ps []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, `"type":"passage"`) {
				ps = append(ps, l)
			}
		}
		return strings.Join(ps, "\n")
	}
	if p := passages(once.Stdout); p == "" || p != passages(many.Stdout) {
		t.Errorf("one hit gave passages:\n%s\n100 copies gave:\n%s", p, passages(many.Stdout))
	}
}

// A "What is …?" question gets the paragraph that says what its subject is
// among the passages, though a manual's short entries say the name more
// often in fewer words (issue 40: "What is sftp?" and sftp(1)'s "sftp is a
// file transfer program …", outscored by "bye Quit sftp." and the like).
// Fails without bonusDefinition.
func TestDefinitionParagraph(t *testing.T) {
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	definition := "sftp is a file transfer program, similar to ftp, which performs all operations over an encrypted transport. It may also use many features of the secure shell, such as public key authentication and compression, and it connects and logs into the specified host."
	paras := []item.Paragraph{{Text: definition}}
	for _, cmd := range []string{"bye", "exit", "quit", "help", "version", "pwd", "lpwd", "progress"} {
		paras = append(paras, item.Paragraph{Text: cmd + " Quit or query sftp."})
	}
	for p := range 20 {
		paras = append(paras, item.Paragraph{Text: fmt.Sprintf("Line %d of the manual says nothing of the program's name.", p)})
	}
	src := []byte("sftp")
	it := &item.Item{ID: library.ItemID(src), Title: "sftp(1)", Kind: item.KindText, Paragraphs: paras}
	if err := w.Add(it, src); err != nil {
		t.Fatal(err)
	}
	w.Close()
	lib, _ := library.Open(dir)
	hits := []*jsonl.Hit{{ItemID: it.ID, Title: it.Title, Score: 1, Rank: 1}}
	ps, err := Rank(lib, "What is sftp?", hits)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 || ps[0].Paragraph != 0 {
		for _, p := range ps {
			t.Logf("%d %q", p.Paragraph, p.Text)
		}
		t.Fatal("the paragraph that says what sftp is is not the first passage")
	}
	// Another kind of question reads no definition.
	ps, err = Rank(lib, "How do I quit sftp?", hits)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) > 0 && ps[0].Paragraph == 0 {
		t.Error("the definition comes first for a question that asks no definition: the test proves nothing")
	}
}

// The index's words keep "of" and "in" as terms: the definitions rule
// reads them as stop words, so "fork" is a head of "fork in free software"
// (it read "A fork … means" as no definition).
func TestIndexWordsDropStopWords(t *testing.T) {
	s := definitions.Of("What is a fork in free software?", indexWords)
	if !s.DefinedBy("A “fork”, in the software field, means a new project that starts as a clone of an existing project.") {
		t.Error("the fork's definition is not read as one")
	}
}

// TestNameCountedOnce: a manual page's synopsis lines and "info tar" say
// the command the question names, the entry that answers does not; the
// command's word, the page's name, is counted once for the page, so the
// entry is a passage.
func TestNameCountedOnce(t *testing.T) {
	dir := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var hits []*jsonl.Hit
	for n, doc := range []struct {
		title, kind string
		paras       []string
	}{
		{"TAR(1)", item.KindMan, []string{
			"tar {--extract|--get} [-f ARCHIVE] [OPTIONS] [MEMBER...]",
			"tar --create [--file ARCHIVE] [OPTIONS] [FILE...]",
			"tar --update [--file ARCHIVE] [OPTIONS] [FILE...]",
			"info tar",
			"tar --help",
			"tar --usage",
			"tar --version",
			"tar {-A|--catenate|--concatenate} [OPTIONS] ARCHIVE ARCHIVE...",
			"Keywords applicable for tar --extract:",
			"-x, --extract, --get Extract files from an archive.",
			"-k, --keep-old-files Don't replace existing files when extracting.",
			"-v, --verbose Verbosely list the members processed.",
			"-z, --gzip Filter the archive through gzip.",
		}},
		{"Debian Reference", item.KindText, []string{
			"GNU tar is the standard archiver of the system.",
			"Most archives are compressed with gzip or xz.",
		}},
	} {
		var paras []item.Paragraph
		for _, p := range doc.paras {
			paras = append(paras, item.Paragraph{Text: p})
		}
		src := []byte(doc.title)
		it := &item.Item{ID: library.ItemID(src), Title: doc.title, Kind: doc.kind, Paragraphs: paras}
		if err := w.Add(it, src); err != nil {
			t.Fatal(err)
		}
		hits = append(hits, &jsonl.Hit{ItemID: it.ID, Title: it.Title, Score: float64(2 - n), Rank: n + 1})
	}
	w.Close()
	lib, _ := library.Open(dir)
	// As the library weighs them: "tar" is rare in a library of other
	// documents, "file" is not.
	q := "How do I stop tar from overwriting files I already have when extracting?"
	idf := map[string]float64{}
	for _, term := range keywords.QuestionTerms(q) {
		idf[term] = 1.5
	}
	idf["tar"] = 6
	ps, err := RankWith(lib, q, idf, hits)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, p := range ps {
		texts = append(texts, p.Text)
	}
	if !slices.Contains(texts, "-k, --keep-old-files Don't replace existing files when extracting.") {
		t.Errorf("the -k entry is no passage: %q", texts)
	}
}
