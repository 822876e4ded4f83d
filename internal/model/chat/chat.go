// Package chat turns a conversation into the prompt text a model was trained
// on. A GGUF model carries its chat template as Jinja (tokenizer.chat_template);
// rather than run Jinja, Detect recognises the template's family by its
// markers and Format writes that family's format in Go.
package chat

import (
	"strings"
)

// Message is one turn of a conversation.
type Message struct {
	Role    string // "system", "user" or "assistant"
	Content string
}

// Style is a family of chat formats.
type Style int

// The chat formats Format writes.
const (
	ChatML Style = iota // Qwen, SmolLM, Hermes…: <|im_start|>role … <|im_end|>
	Llama3              // <|start_header_id|>role<|end_header_id|> … <|eot_id|>
	Gemma               // <start_of_turn>user … <end_of_turn>, no system role
	Phi3                // <|user|> … <|end|>
	Phi4                // <|im_start|>role<|im_sep|> … <|im_end|>
	Llama2              // [INST] … [/INST], Mistral
)

var styleNames = map[Style]string{ChatML: "chatml", Llama3: "llama3", Gemma: "gemma", Phi3: "phi3", Phi4: "phi4", Llama2: "llama2"}

func (s Style) String() string { return styleNames[s] }

// Template is a model's chat format, chosen from its template text.
type Template struct {
	Style Style
	// BOS is the begin-of-text token's text, written first when the template
	// writes it (e.g. "<|begin_of_text|>", "<bos>"), else "".
	BOS string
	// DefaultSystem is the system message the template adds when the
	// conversation has none (Qwen 2.5 does), else "".
	DefaultSystem string
	// KnowledgeDate: Llama 3.1+ templates open the system message with
	// "Cutting Knowledge Date: …\nToday Date: …".
	KnowledgeDate bool
	// Known tells that the template's family was recognised; when not, the
	// format is ChatML, a guess the caller should warn about.
	Known bool
}

// Detect chooses the format for a GGUF tokenizer.chat_template. An empty or
// unknown template gives ChatML, as llama.cpp does, with Known false.
func Detect(tmpl string) Template {
	has := func(s string) bool { return strings.Contains(tmpl, s) }
	t := Template{Style: ChatML, Known: true}
	switch {
	case has("<|im_sep|>"):
		t.Style = Phi4
	case has("<|im_start|>"):
		t.Style = ChatML
		if qwen := "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."; has(qwen) {
			t.DefaultSystem = qwen
		}
	case has("<|start_header_id|>"):
		t.Style = Llama3
		t.BOS = "<|begin_of_text|>"
		t.KnowledgeDate = has("Cutting Knowledge Date")
	case has("<start_of_turn>"):
		t.Style = Gemma
		t.BOS = "<bos>"
	case has("<|assistant|>") && has("<|end|>"):
		t.Style = Phi3
	case has("[INST]"):
		t.Style = Llama2
		t.BOS = "<s>"
	default:
		t.Known = false
	}
	return t
}

// Stop is the text that ends an assistant turn in this format: generation
// stops there even when the model does not treat it as an end token.
func (t Template) Stop() string {
	switch t.Style {
	case Llama3:
		return "<|eot_id|>"
	case Gemma:
		return "<end_of_turn>"
	case Phi3:
		return "<|end|>"
	case Llama2:
		return "</s>"
	}
	return "<|im_end|>"
}

// Format writes msgs as prompt text. With generate, it ends with the opening
// of an assistant turn, for the model to write.
func (t Template) Format(msgs []Message, generate bool) string {
	var b strings.Builder
	b.WriteString(t.BOS)
	if t.DefaultSystem != "" && (len(msgs) == 0 || msgs[0].Role != "system") {
		msgs = append([]Message{{Role: "system", Content: t.DefaultSystem}}, msgs...)
	}
	switch t.Style {
	case ChatML, Phi4:
		sep := "\n"
		if t.Style == Phi4 {
			sep = "<|im_sep|>"
		}
		for _, m := range msgs {
			b.WriteString("<|im_start|>" + m.Role + sep + m.Content + "<|im_end|>")
			if t.Style == ChatML {
				b.WriteString("\n")
			}
		}
		if generate {
			b.WriteString("<|im_start|>assistant" + sep)
		}
	case Llama3:
		if t.KnowledgeDate {
			// The template's own text; "26 Jul 2024" is its date when it is
			// not told today's, which keeps prompts the same every day.
			sys := "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n"
			if len(msgs) > 0 && msgs[0].Role == "system" {
				sys += strings.TrimSpace(msgs[0].Content)
				msgs = msgs[1:]
			}
			b.WriteString("<|start_header_id|>system<|end_header_id|>\n\n" + sys + "<|eot_id|>")
		}
		for _, m := range msgs {
			b.WriteString("<|start_header_id|>" + m.Role + "<|end_header_id|>\n\n" + strings.TrimSpace(m.Content) + "<|eot_id|>")
		}
		if generate {
			b.WriteString("<|start_header_id|>assistant<|end_header_id|>\n\n")
		}
	case Gemma:
		// Gemma has no system role: the system message opens the first user
		// turn, untrimmed (Gemma 3's template trims only the turns' text).
		system := ""
		if len(msgs) > 0 && msgs[0].Role == "system" {
			system = msgs[0].Content + "\n\n"
			msgs = msgs[1:]
		}
		for i, m := range msgs {
			role := m.Role
			if role == "assistant" {
				role = "model"
			}
			content := strings.TrimSpace(m.Content)
			if i == 0 {
				content = system + content
			}
			b.WriteString("<start_of_turn>" + role + "\n" + content + "<end_of_turn>\n")
		}
		if len(msgs) == 0 && system != "" {
			b.WriteString("<start_of_turn>user\n" + system + "<end_of_turn>\n")
		}
		if generate {
			b.WriteString("<start_of_turn>model\n")
		}
	case Phi3:
		for _, m := range msgs {
			if m.Role == "system" && m.Content == "" {
				continue
			}
			b.WriteString("<|" + m.Role + "|>\n" + m.Content + "<|end|>\n")
		}
		if generate {
			b.WriteString("<|assistant|>\n")
		}
	case Llama2:
		system := ""
		if len(msgs) > 0 && msgs[0].Role == "system" {
			system = "<<SYS>>\n" + msgs[0].Content + "\n<</SYS>>\n\n"
			msgs = msgs[1:]
		}
		for i, m := range msgs {
			switch m.Role {
			case "user":
				if i > 0 {
					b.WriteString("<s>")
				}
				content := m.Content
				if i == 0 {
					content = system + content
				}
				b.WriteString("[INST] " + strings.TrimSpace(content) + " [/INST]")
			case "assistant":
				b.WriteString(" " + strings.TrimSpace(m.Content) + " </s>")
			}
		}
	}
	return b.String()
}
