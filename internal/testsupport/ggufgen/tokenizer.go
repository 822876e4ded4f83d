package ggufgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// Tokenizer is a real model's tokenizer, read from the tokenizer.json and
// tokenizer_config.json its publisher ships (internal/testsupport/ggufgen
// gets them with make tokenizers). Spec.Tokenizer writes it into a GGUF file
// the way llama.cpp's convert_hf_to_gguf.py does, so llama.cpp tokenizes
// text with it as it would for the real model.
type Tokenizer struct {
	// Model is tokenizer.ggml.model: "gpt2" for a byte-level BPE (Qwen,
	// Llama 3), "llama" for a SentencePiece BPE with byte fallback (Gemma).
	Model string
	// Pre is tokenizer.ggml.pre, the name llama.cpp chooses its
	// pre-tokenizer's split pattern by ("qwen2", "llama-bpe"; "default" for
	// SentencePiece).
	Pre    string
	Tokens []string
	Types  []int32
	// Scores are the SentencePiece merge priorities (Model "llama" only).
	Scores []float32
	// Merges are the BPE merges, "left right", best first (Model "gpt2" only).
	Merges []string
	// ChatTemplate is tokenizer_config.json's chat_template.
	ChatTemplate string
	// Config is the rest of tokenizer_config.json.
	Config map[string]any
}

// hfTokenizer is the part of a Hugging Face tokenizer.json ReadTokenizer uses.
type hfTokenizer struct {
	Model struct {
		Type         string         `json:"type"`
		Vocab        map[string]int `json:"vocab"`
		Merges       []merge        `json:"merges"`
		ByteFallback bool           `json:"byte_fallback"`
	} `json:"model"`
	AddedTokens []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
		Special bool   `json:"special"`
	} `json:"added_tokens"`
}

// merge is one BPE merge, "left right": older files write it so, newer ones
// as ["left", "right"]. Without escapes (nearly all) it is read here, not
// by encoding/json: Gemma's 514,906 merges took 15 s under -race.
type merge string

func (m *merge) UnmarshalJSON(b []byte) error {
	p := jsonPlain{b: b}
	if s, ok := p.str(); ok && p.end() {
		*m = merge(s)
		return nil
	}
	p = jsonPlain{b: b}
	if p.is('[') {
		if l, ok := p.str(); ok && p.is(',') {
			if r, ok := p.str(); ok && p.is(']') && p.end() {
				*m = merge(l + " " + r)
				return nil
			}
		}
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		*m = merge(s)
		return nil
	}
	var pair []string
	if err := json.Unmarshal(b, &pair); err != nil || len(pair) != 2 {
		return fmt.Errorf("a merge is %s", b)
	}
	*m = merge(pair[0] + " " + pair[1])
	return nil
}

// jsonPlain reads valid JSON (encoding/json checked it) whose strings hold
// no escapes; a reader meeting one says no, and the caller asks
// encoding/json.
type jsonPlain struct {
	b []byte
	i int
}

// space skips white space.
func (p *jsonPlain) space() {
	for p.i < len(p.b) && strings.IndexByte(" \t\r\n", p.b[p.i]) >= 0 {
		p.i++
	}
}

// is skips white space and c.
func (p *jsonPlain) is(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string without escapes, of valid UTF-8 (encoding/json would
// write U+FFFD for the bytes of an invalid one).
func (p *jsonPlain) str() (string, bool) {
	if !p.is('"') {
		return "", false
	}
	n := bytes.IndexByte(p.b[p.i:], '"')
	if n < 0 {
		return "", false
	}
	s := p.b[p.i : p.i+n]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return "", false
	}
	p.i += n + 1
	return string(s), true
}

// end says whether only white space is left.
func (p *jsonPlain) end() bool {
	p.space()
	return p.i == len(p.b)
}

// ReadTokenizer reads dir/tokenizer.json and dir/tokenizer_config.json. pre is
// the llama.cpp pre-tokenizer name for a byte-level BPE (convert_hf_to_gguf.py
// finds it by hashing the tokenization of a test text; the caller knows the
// family). size pads the vocabulary with unused tokens up to the real model's
// embedding rows (Qwen 2.5 has 151,936 rows for 151,665 tokens), or cuts
// off the tokens past them (Gemma 3 1B leaves out the image token); 0 leaves
// it as it is.
func ReadTokenizer(dir, pre string, size int) (*Tokenizer, error) {
	data, err := os.ReadFile(dir + "/tokenizer.json")
	if err != nil {
		return nil, err
	}
	var hf hfTokenizer
	if err := json.Unmarshal(data, &hf); err != nil {
		return nil, fmt.Errorf("%s/tokenizer.json: %v", dir, err)
	}
	if hf.Model.Type != "BPE" {
		return nil, fmt.Errorf("%s/tokenizer.json: a %q model, not BPE", dir, hf.Model.Type)
	}
	cfgData, err := os.ReadFile(dir + "/tokenizer_config.json")
	if err != nil {
		return nil, err
	}
	t := &Tokenizer{}
	if err := json.Unmarshal(cfgData, &t.Config); err != nil {
		return nil, fmt.Errorf("%s/tokenizer_config.json: %v", dir, err)
	}
	t.ChatTemplate, _ = t.Config["chat_template"].(string)

	n := 0
	for _, id := range hf.Model.Vocab {
		n = max(n, id+1)
	}
	for _, a := range hf.AddedTokens {
		n = max(n, a.ID+1)
	}
	if size > 0 {
		n = size
	}
	t.Tokens = make([]string, n)
	t.Types = make([]int32, n)
	for tok, id := range hf.Model.Vocab {
		if id >= n {
			continue
		}
		t.Tokens[id] = tok
		t.Types[id] = tokenNormal
	}
	merges := make([]string, len(hf.Model.Merges))
	for i, m := range hf.Model.Merges {
		merges[i] = string(m)
	}
	if hf.Model.ByteFallback {
		// A SentencePiece model: llama.cpp merges the adjacent pair whose
		// joined piece scores highest, where the Hugging Face file lists
		// the pairs best first. Scoring each piece by its first merge makes
		// the two agree.
		t.Model, t.Pre = "llama", "default"
		t.Scores = make([]float32, n)
		for i := range t.Scores {
			t.Scores[i] = -1e9
		}
		for rank, m := range merges {
			l, r, _ := strings.Cut(m, " ")
			if id, ok := hf.Model.Vocab[l+r]; ok && id < n && t.Scores[id] == -1e9 {
				t.Scores[id] = -float32(rank)
			}
		}
		for id, tok := range t.Tokens {
			if len(tok) == 6 && strings.HasPrefix(tok, "<0x") && strings.HasSuffix(tok, ">") {
				t.Types[id] = tokenByte
			}
		}
		if id, ok := hf.Model.Vocab["<unk>"]; ok && id < n {
			t.Types[id] = tokenUnknown
		}
	} else {
		t.Model, t.Pre = "gpt2", pre
		t.Merges = merges
	}
	for _, a := range hf.AddedTokens {
		if a.ID >= n {
			continue
		}
		t.Tokens[a.ID] = a.Content
		switch {
		case a.Content == "<unk>":
			t.Types[a.ID] = tokenUnknown
		case a.Special || looksSpecial(a.Content):
			t.Types[a.ID] = tokenControl
		default:
			t.Types[a.ID] = tokenUserDefined
			if t.Model == "llama" {
				// llama.cpp writes a user-defined piece as it is, so
				// convert_hf_to_gguf.py writes its spaces as spaces.
				t.Tokens[a.ID] = strings.ReplaceAll(a.Content, "▁", " ")
			}
		}
	}
	for id, tok := range t.Tokens {
		if tok == "" {
			t.Tokens[id] = fmt.Sprintf("[PAD%d]", id)
			t.Types[id] = tokenUnused
		}
	}
	return t, nil
}

// looksSpecial is convert_hf_to_gguf.py's does_token_look_special: added
// tokens like <|fim_prefix|> are control tokens even when not marked special.
func looksSpecial(s string) bool {
	return (strings.HasPrefix(s, "<|") && strings.HasSuffix(s, "|>")) ||
		slices.Contains([]string{"<pad>", "<mask>", "<2mass>", "[@BOS@]"}, s)
}

// id is the token whose text is s, or -1.
func (t *Tokenizer) id(s string) int {
	return slices.Index(t.Tokens, s)
}
