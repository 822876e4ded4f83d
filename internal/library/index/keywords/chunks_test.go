package keywords

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"
)

// ChunkAnalyzer gives the terms of the index's analyzer, in order, for
// text of every script the analyzer treats apart, and for the same words
// again (from its memo).
func TestChunkAnalyzerAsAnalyzer(t *testing.T) {
	texts := chunkTexts(t)
	a := ChunkAnalyzer()
	for round := range 2 {
		for i, text := range texts {
			var want, got []string
			for _, tok := range analyzer.Analyze([]byte(text)) {
				want = append(want, string(tok.Term))
			}
			for _, tok := range a.Analyze([]byte(text)) {
				got = append(got, string(tok.Term))
			}
			if !slices.Equal(want, got) {
				t.Errorf("round %d, text %d (%.40q):\nanalyzer: %s\nchunks:   %s", round, i, text,
					strings.Join(want, " "), strings.Join(got, " "))
			}
		}
	}
}

// chunkTexts are texts of every script the analyzer treats apart, and the
// demo documents and the language bench's: many words, repeated.
func chunkTexts(t *testing.T) []string {
	texts := []string{
		fingerprintProbe,
		"Ｆｕｌｌ－ｗｉｄｔｈ ＴＥＡ brewed, steeped; agreed hoping creating\nStored kettles boil, the kettle's lid",
		"東京都の人口は多い\n北京 カタカナ ｶﾀｶﾅ mixed with English words",
		"ชาเขียวชงที่อุณหภูมิต่ำ green tea ສະບາຍດີ",
		"cgroup memory.max io.weight /sys/fs/cgroup CONFIG_MEMCG=y don't won’t ÉCOLE Straße",
		"Tea's kettles BREWED 3.5 litres, e.g. 1,000 boxes; x86_64 abi_v2 the THE a 42 _ __init__ agreed",
		"",
	}
	files, _ := filepath.Glob("../../../../testdata/docs/*")
	more, _ := filepath.Glob("../../../bench/languages/testdata/*")
	files = append(files, more...)
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil {
			texts = append(texts, string(data))
		}
	}
	if len(texts) < 8 {
		t.Fatalf("only %d texts", len(texts))
	}
	return texts
}

// What plainWord passes, the word filters leave as it is.
func TestPlainWord(t *testing.T) {
	a := ChunkAnalyzer().(*chunkAnalyzer)
	words := strings.Fields("tea kettle boil box 3 x86_64 abi_v2 the an a i e8 zz_ " +
		"teas kettles brewed boxes brewing bring red rs sing go news axes 3s ok_d")
	passed := 0
	for _, w := range words {
		for _, typ := range []analysis.TokenType{analysis.AlphaNumeric, analysis.Numeric} {
			tok := &analysis.Token{Term: []byte(w), Start: 0, End: len(w), Type: typ}
			if !plainWord(tok.Term) {
				continue
			}
			passed++
			if got := a.filterWord(tok); string(got) != w {
				t.Errorf("%q (type %d) is plain but the filters make %q of it", w, typ, got)
			}
		}
	}
	for _, w := range []string{"teas", "brewed", "brewing", "Tea", "été", "e.g", ""} {
		if plainWord([]byte(w)) {
			t.Errorf("%q is plain", w)
		}
	}
	if passed < 10 {
		t.Errorf("only %d words passed", passed)
	}
}

// ChunkFrequencies counts what bleve's text field counts of the analyzer's
// tokens (analysis.TokenFrequency): the same number of terms and the same
// frequency of each, for texts of every script and random ASCII text with
// the marks that join or end words; ASCII words seen again come from the
// memo.
func TestChunkFrequencies(t *testing.T) {
	ChunkAnalyzer() // defines analyzer
	rnd := rand.New(rand.NewPCG(3, 20))
	alphabet := "aeiostdgnrz0189_ABSED'.:,;-/ \n"
	var texts []string
	for range 300 {
		b := make([]byte, rnd.IntN(600))
		for i := range b {
			b[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	// Han, kana (full and half width), Hangul, Thai and Latin touching or
	// apart: the units the CJK bigram filter pairs or leaves alone.
	mixed := []rune("東京都の人口カタｶﾀﾞ한국어ชาเขียวชง่ aéÉsＦＴ1１.,'\n 、。AdB")
	for range 300 {
		r := make([]rune, rnd.IntN(80))
		for i := range r {
			r[i] = mixed[rnd.IntN(len(mixed))]
		}
		texts = append(texts, string(r))
	}
	// Lines of both kinds in one text: runs of ASCII lines are counted
	// without tokens, the others through the tokenizer.
	for range 300 {
		var b strings.Builder
		for range 1 + rnd.IntN(6) {
			if rnd.IntN(2) == 0 {
				for range rnd.IntN(60) {
					b.WriteByte(alphabet[rnd.IntN(len(alphabet)-1)]) // not "\n"
				}
			} else {
				for range rnd.IntN(30) {
					if r := mixed[rnd.IntN(len(mixed))]; r != '\n' {
						b.WriteRune(r)
					}
				}
			}
			b.WriteByte('\n')
		}
		texts = append(texts, b.String())
	}
	texts = append(texts, chunkTexts(t)...)
	// More terms than a counter keeps room for, then a short text again.
	var long strings.Builder
	for i := range 3 * counterKeeps {
		fmt.Fprintf(&long, "w%d Word%d ", i, i%700)
	}
	texts = append(texts, long.String(), "after the long text")
	ascii, paired := 0, 0
	check := func(round, i int, text string, n int, counts TermCounts) {
		t.Helper()
		toks := analyzer.Analyze([]byte(text))
		want := analysis.TokenFrequency(toks, nil, index.IndexField)
		got := counts.Frequencies()
		if len(counts.Terms) != len(got) || len(counts.Freqs) != len(got) {
			t.Fatalf("round %d, text %d (%.40q): %d terms, %d frequencies, %d distinct", round, i, text, len(counts.Terms), len(counts.Freqs), len(got))
		}
		if size := counts.Size(); size != got.Size() {
			t.Fatalf("round %d, text %d (%.40q): size %d, bleve counts %d", round, i, text, size, got.Size())
		}
		if n != len(toks) || len(got) != len(want) {
			t.Fatalf("round %d, text %d (%.40q): %d terms, %d distinct; want %d, %d", round, i, text, n, len(got), len(toks), len(want))
		}
		for term, w := range want {
			g := got[term]
			if g == nil || string(g.Term) != term || g.Frequency() != w.Frequency() || len(g.Locations) != 0 {
				t.Fatalf("round %d, text %d (%.40q): term %q: %+v, want frequency %d", round, i, text, term, g, w.Frequency())
			}
		}
		if round > 0 {
			return
		}
		if plainASCII([]byte(text)) && len(toks) > 0 {
			ascii++
		}
		for _, tok := range toks {
			if tok.Type == analysis.Double {
				paired++
				break
			}
		}
	}
	// The counts of each text stay as they were while the texts after it
	// are counted (the counter is used again, its made terms kept).
	var first []TermCounts
	var firstN []int
	for round := range 2 {
		for i, text := range texts {
			n, counts := ChunkFrequencies([]byte(text))
			check(round, i, text, n, counts)
			if round == 0 {
				first, firstN = append(first, counts), append(firstN, n)
			}
		}
	}
	for i, text := range texts {
		check(2, i, text, firstN[i], first[i])
	}
	if ascii < 250 || paired < 150 {
		t.Errorf("only %d ASCII texts with words, %d with pairs of characters", ascii, paired)
	}
}

// BenchmarkChunkFrequencies counts the words of kernel-docs ×1
// (benchPages), cut into chunks of about 4,000 bytes at line ends as the
// index cuts an item's paragraphs.
func BenchmarkChunkFrequencies(b *testing.B) {
	var chunks [][]byte
	size := 0
	for _, data := range benchPages(b) {
		size += len(data)
		for len(data) > 0 {
			end := len(data)
			if end > 4000 {
				end = 4000
				if i := bytes.LastIndexByte(data[:end], '\n'); i > 0 {
					end = i + 1
				}
			}
			chunks = append(chunks, data[:end])
			data = data[end:]
		}
	}
	ChunkAnalyzer()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range chunks {
			ChunkFrequencies(c)
		}
	}
}

// benchPages reads the Markdown pages of kernel-docs ×1 (the issue-20 add
// bench's, 24 MB, in .bench/inputs, made by make bench-latency, or in
// $SPONGE_BENCH_MARKDOWN), in the order of their paths; it skips the
// benchmark when there are none.
func benchPages(b *testing.B) [][]byte {
	dir := os.Getenv("SPONGE_BENCH_MARKDOWN")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", ".bench", "inputs", "kernel-docs-x1")
	}
	var pages [][]byte
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			pages = append(pages, data)
		}
		return nil
	})
	if len(pages) == 0 {
		b.Skipf("no Markdown pages under %s", dir)
	}
	return pages
}

// HeldTerms counts the question terms Terms gives of a text, each once: for
// texts of every script, with question terms the text holds (a sample of its
// own terms), words it does not, and stop words, asked again and again so
// that the memo and the counter are used again.
func TestHeldTerms(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 43))
	mixed := []rune("東京都の人口カタｶﾀﾞ한국어ชาเขียวชง่ aéÉsＦＴ1１.,'\n 、。AdBkettles brewed")
	texts := chunkTexts(t)
	for range 200 {
		r := make([]rune, rnd.IntN(120))
		for i := range r {
			r[i] = mixed[rnd.IntN(len(mixed))]
		}
		texts = append(texts, string(r))
	}
	for round := range 2 {
		for i, text := range texts {
			terms := Terms(text)
			want := map[string]bool{"the": true, "absent": true, "kettle": true, "東京": true}
			for range 6 {
				if len(terms) > 0 {
					want[terms[rnd.IntN(len(terms))]] = true
				}
			}
			seen := map[string]bool{}
			for _, term := range terms {
				if want[term] {
					seen[term] = true
				}
			}
			if got := HeldTerms(text, want); got != len(seen) {
				t.Fatalf("round %d, text %d (%.40q): HeldTerms %d, Terms holds %d of %v", round, i, text, got, len(seen), want)
			}
		}
	}
	if HeldTerms("tea", nil) != 0 || HeldTerms("", map[string]bool{"tea": true}) != 0 {
		t.Error("no terms wanted, or no text, holds none")
	}
}

// Terms gives the analyzer's terms in order, an ASCII text's without a
// token per word (asciiTerms): for the test texts and random ASCII text with
// the marks that join or end words, and while AgeNouns changes.
func TestTermsAsAnalyzer(t *testing.T) {
	defineAnalyzer()
	rnd := rand.New(rand.NewPCG(5, 17))
	alphabet := "aeiostdgnrz0189_ABSED'.:,;-/ \n"
	texts := append(chunkTexts(t), "Storage and the storages' package; a cottage's STORAGE", "Kettles' lids, boxes: 3,000.5 e.g. x86_64")
	for range 500 {
		b := make([]byte, rnd.IntN(300))
		for i := range b {
			b[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	check := func(what string) {
		t.Helper()
		ascii := 0
		for i, text := range texts {
			var want []string
			for _, tok := range analyzer.Analyze([]byte(text)) {
				want = append(want, string(tok.Term))
			}
			if _, ok := asciiTerms(text); ok && len(want) > 0 {
				ascii++
			}
			if got := Terms(text); !slices.Equal(got, want) {
				t.Fatalf("%s, text %d (%.40q): Terms gives %q, the analyzer %q", what, i, text, got, want)
			}
		}
		if ascii < 400 {
			t.Errorf("%s: only %d texts with words went the ASCII way", what, ascii)
		}
	}
	check("AgeNouns")
	saved := AgeNouns
	defer func() { AgeNouns = saved }()
	AgeNouns = nil
	check("without AgeNouns")
	if got := Terms("storage"); !slices.Equal(got, []string{"storage"}) {
		t.Errorf("without AgeNouns, storage is %q", got)
	}
}
