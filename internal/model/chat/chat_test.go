package chat

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Templates as the real models' GGUF files carry them (shortened where the
// rest does not change the format: tool calls).
const (
	qwen25 = `{%- if tools %}…{%- else %}{%- if messages[0]['role'] == 'system' %}{{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}{%- else %}{{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}{%- endif %}{%- endif %}{%- for message in messages %}{%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}{{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}{%- endif %}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- endif %}`
	smollm = `{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system
You are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>
' }}{% endif %}{{'<|im_start|>' + message['role'] + '
' + message['content'] + '<|im_end|>' + '
'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant
' }}{% endif %}`
	llama32 = `{{- bos_token }}{%- if not date_string is defined %}{%- if strftime_now is defined %}{%- set date_string = strftime_now("%d %b %Y") %}{%- else %}{%- set date_string = "26 Jul 2024" %}{%- endif %}{%- endif %}{{- "<|start_header_id|>system<|end_header_id|>\n\n" }}{{- "Cutting Knowledge Date: December 2023\n" }}{{- "Today Date: " + date_string + "\n\n" }}{{- system_message }}{{- "<|eot_id|>" }}{%- for message in messages %}{{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{%- endif %}`
	llama3  = `{% set loop_messages = messages %}{% for message in loop_messages %}{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}`
	gemma2  = `{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{% for message in messages %}{% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}{{ '<start_of_turn>' + role + '\n' + message['content'] | trim + '<end_of_turn>\n' }}{% endfor %}{% if add_generation_prompt %}{{'<start_of_turn>model\n'}}{% endif %}`
	phi35   = `{% for message in messages %}{% if message['role'] == 'system' and message['content'] %}{{'<|system|>\n' + message['content'] + '<|end|>\n'}}{% elif message['role'] == 'user' %}{{'<|user|>\n' + message['content'] + '<|end|>\n'}}{% elif message['role'] == 'assistant' %}{{'<|assistant|>\n' + message['content'] + '<|end|>\n'}}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|assistant|>\n' }}{% else %}{{ eos_token }}{% endif %}`
	phi4    = `{% for message in messages %}{% if (message['role'] == 'system') %}{{'<|im_start|>system<|im_sep|>' + message['content'] + '<|im_end|>'}}{% elif (message['role'] == 'user') %}{{'<|im_start|>user<|im_sep|>' + message['content'] + '<|im_end|>'}}{% elif (message['role'] == 'assistant') %}{{'<|im_start|>assistant<|im_sep|>' + message['content'] + '<|im_end|>'}}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant<|im_sep|>' }}{% endif %}`
	mistral = `{{ bos_token }}{% for message in messages %}{% if message['role'] == 'user' %}{{ '[INST] ' + message['content'] + ' [/INST]' }}{% elif message['role'] == 'assistant' %}{{ message['content'] + eos_token}}{% endif %}{% endfor %}`
)

var (
	sysUser = []Message{{"system", "Quote the passages."}, {"user", "Why is tea bitter?"}}
	user    = []Message{{"user", "Why is tea bitter?"}}
	turns   = []Message{{"system", "Be brief."}, {"user", "Hi"}, {"assistant", "Hello."}, {"user", "Tea?"}}
)

func TestFormat(t *testing.T) {
	tests := []struct {
		name  string
		tmpl  string
		msgs  []Message
		style Style
		stop  string
		want  string
	}{
		{"qwen2.5 with system", qwen25, sysUser, ChatML, "<|im_end|>",
			"<|im_start|>system\nQuote the passages.<|im_end|>\n<|im_start|>user\nWhy is tea bitter?<|im_end|>\n<|im_start|>assistant\n"},
		{"qwen2.5 default system", qwen25, user, ChatML, "<|im_end|>",
			"<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\nWhy is tea bitter?<|im_end|>\n<|im_start|>assistant\n"},
		{"chatml turns", smollm, turns, ChatML, "<|im_end|>",
			"<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello.<|im_end|>\n<|im_start|>user\nTea?<|im_end|>\n<|im_start|>assistant\n"},
		{"no template is chatml", "", user, ChatML, "<|im_end|>",
			"<|im_start|>user\nWhy is tea bitter?<|im_end|>\n<|im_start|>assistant\n"},
		{"llama 3.2", llama32, sysUser, Llama3, "<|eot_id|>",
			"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\nQuote the passages.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nWhy is tea bitter?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"},
		{"llama 3.2 no system", llama32, user, Llama3, "<|eot_id|>",
			"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nWhy is tea bitter?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"},
		{"llama 3", llama3, sysUser, Llama3, "<|eot_id|>",
			"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nQuote the passages.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nWhy is tea bitter?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"},
		{"gemma folds system into user", gemma2, sysUser, Gemma, "<end_of_turn>",
			"<bos><start_of_turn>user\nQuote the passages.\n\nWhy is tea bitter?<end_of_turn>\n<start_of_turn>model\n"},
		{"gemma turns", gemma2, turns, Gemma, "<end_of_turn>",
			"<bos><start_of_turn>user\nBe brief.\n\nHi<end_of_turn>\n<start_of_turn>model\nHello.<end_of_turn>\n<start_of_turn>user\nTea?<end_of_turn>\n<start_of_turn>model\n"},
		{"phi 3.5", phi35, sysUser, Phi3, "<|end|>",
			"<|system|>\nQuote the passages.<|end|>\n<|user|>\nWhy is tea bitter?<|end|>\n<|assistant|>\n"},
		{"phi 4", phi4, sysUser, Phi4, "<|im_end|>",
			"<|im_start|>system<|im_sep|>Quote the passages.<|im_end|><|im_start|>user<|im_sep|>Why is tea bitter?<|im_end|><|im_start|>assistant<|im_sep|>"},
		{"mistral", mistral, turns, Llama2, "</s>",
			"<s>[INST] <<SYS>>\nBe brief.\n<</SYS>>\n\nHi [/INST] Hello. </s><s>[INST] Tea? [/INST]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := Detect(tt.tmpl)
			if tm.Style != tt.style {
				t.Fatalf("Detect = %v, want %v", tm.Style, tt.style)
			}
			if got := tm.Stop(); got != tt.stop {
				t.Errorf("Stop = %q, want %q", got, tt.stop)
			}
			if diff := cmp.Diff(tt.want, tm.Format(tt.msgs, true)); diff != "" {
				t.Errorf("Format (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFormatWithoutGenerationPrompt(t *testing.T) {
	got := Detect(smollm).Format([]Message{{"user", "Hi"}, {"assistant", "Hello."}}, false)
	want := "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello.<|im_end|>\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestUnknownTemplate: a template of no known family, or none at all, gives
// ChatML as a guess, and says so.
func TestUnknownTemplate(t *testing.T) {
	for _, tmpl := range []string{"", "{% for m in messages %}### {{ m.role }}: {{ m.content }}\n{% endfor %}"} {
		if d := Detect(tmpl); d.Known || d.Style != ChatML {
			t.Errorf("Detect(%q) = %+v, want an unknown ChatML", tmpl, d)
		}
	}
	if d := Detect(qwen25); !d.Known {
		t.Errorf("Qwen2.5's template is not known: %+v", d)
	}
}
