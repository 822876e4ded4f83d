package keywords

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
)

// ChunkAnalyzer gives the terms of the index's analyzer, in order, for
// text of every script the analyzer treats apart, and for the same words
// again (from its memo).
func TestChunkAnalyzerAsAnalyzer(t *testing.T) {
	texts := []string{
		fingerprintProbe,
		"Ｆｕｌｌ－ｗｉｄｔｈ ＴＥＡ brewed, steeped; agreed hoping creating\nStored kettles boil, the kettle's lid",
		"東京都の人口は多い\n北京 カタカナ ｶﾀｶﾅ mixed with English words",
		"ชาเขียวชงที่อุณหภูมิต่ำ green tea ສະບາຍດີ",
		"cgroup memory.max io.weight /sys/fs/cgroup CONFIG_MEMCG=y don't won’t ÉCOLE Straße",
		"",
	}
	// And the demo documents and the language bench's: many words, repeated.
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
