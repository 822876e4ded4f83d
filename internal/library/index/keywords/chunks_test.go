package keywords

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
