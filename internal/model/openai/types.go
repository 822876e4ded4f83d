// Package openai speaks the OpenAI-compatible chat completions protocol that
// local model servers share (llama.cpp's llama-server, ollama, vLLM, and
// `sponge serve`): a streaming client for `sponge-draft --endpoint`, and the
// HTTP handler `sponge serve` runs.
package openai

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Message is one turn of a chat.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// UnmarshalJSON accepts content as a string or as the list of parts
// ({"type":"text","text":…}) that newer clients send, keeping only text.
func (m *Message) UnmarshalJSON(data []byte) error {
	var raw struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	m.Role = raw.Role
	m.Content = ""
	c := bytes.TrimSpace(raw.Content)
	if len(c) == 0 || bytes.Equal(c, []byte("null")) {
		return nil
	}
	if c[0] == '"' {
		return json.Unmarshal(c, &m.Content)
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(c, &parts); err != nil {
		return errors.New("message content is neither a string nor a list of parts")
	}
	for _, p := range parts {
		if p.Type == "text" {
			m.Content += p.Text
		}
	}
	return nil
}

// ResponseFormat asks for JSON output, optionally following a JSON schema.
type ResponseFormat struct {
	Type       string      `json:"type"` // "text", "json_object" or "json_schema"
	JSONSchema *JSONSchema `json:"json_schema,omitempty"`
}

// JSONSchema names a schema the reply must follow.
type JSONSchema struct {
	Name   string          `json:"name"`
	Strict bool            `json:"strict,omitempty"`
	Schema json.RawMessage `json:"schema"`
}

// Stop is the "stop" field, which OpenAI allows as a string or a list.
type Stop []string

// UnmarshalJSON accepts a string or a list of strings.
func (s *Stop) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if bytes.Equal(data, []byte("null")) {
		*s = nil
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var one string
		if err := json.Unmarshal(data, &one); err != nil {
			return err
		}
		*s = Stop{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return errors.New("stop is neither a string nor a list of strings")
	}
	*s = many
	return nil
}

// ChatRequest is the body of POST /v1/chat/completions. Fields other
// clients send and this package does not use are ignored when decoding.
type ChatRequest struct {
	Model          string          `json:"model,omitempty"`
	Messages       []Message       `json:"messages"`
	Stream         bool            `json:"stream,omitempty"`
	Temperature    *float64        `json:"temperature,omitempty"`
	TopP           *float64        `json:"top_p,omitempty"`
	MaxTokens      int             `json:"max_tokens,omitempty"`
	Stop           Stop            `json:"stop,omitempty"`
	Seed           *int64          `json:"seed,omitempty"`
	ResponseFormat *ResponseFormat `json:"response_format,omitempty"`
	// SpongeDraft is sponge's own addition, sent only to a server that says
	// it is `sponge serve` (OwnedBy in its model list): the question and
	// passages as records, so it can write statements with quotes copied by
	// construction rather than read them back out of the prompt. Other
	// servers never see it.
	SpongeDraft json.RawMessage `json:"sponge_draft,omitempty"`
}

// Usage counts the tokens of a completion.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// PromptTokensDetails says how many prompt tokens the server had in
	// memory from the request before (sponge serve: the system prompt).
	PromptTokensDetails *PromptTokensDetails `json:"prompt_tokens_details,omitempty"`
}

// PromptTokensDetails is OpenAI's breakdown of the prompt tokens.
type PromptTokensDetails struct {
	CachedTokens int `json:"cached_tokens"`
}

// Choice is one choice of a reply; Message in a whole reply, Delta in a
// streamed chunk.
type Choice struct {
	Index        int      `json:"index"`
	Message      *Message `json:"message,omitempty"`
	Delta        *Delta   `json:"delta,omitempty"`
	FinishReason *string  `json:"finish_reason"`
}

// Delta is the part of a message a streamed chunk adds.
type Delta struct {
	Role    string `json:"role,omitempty"`
	Content string `json:"content,omitempty"`
}

// ChatResponse is a whole reply ("chat.completion") or one streamed chunk
// ("chat.completion.chunk").
type ChatResponse struct {
	ID      string     `json:"id"`
	Object  string     `json:"object"`
	Created int64      `json:"created"`
	Model   string     `json:"model"`
	Choices []Choice   `json:"choices"`
	Usage   *Usage     `json:"usage,omitempty"`
	Error   *ErrorBody `json:"error,omitempty"`
}

// ErrorBody is the "error" object servers reply with.
type ErrorBody struct {
	Message string `json:"message"`
	Type    string `json:"type,omitempty"`
	Code    any    `json:"code,omitempty"`
}

// ModelList is the reply of GET /v1/models.
type ModelList struct {
	Object string      `json:"object"`
	Data   []ModelInfo `json:"data"`
}

// ModelInfo is one model a server offers.
type ModelInfo struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created,omitempty"`
	OwnedBy string `json:"owned_by,omitempty"`
}

// OwnedBy is what `sponge serve` puts in its model list.
const OwnedBy = "sponge"

// Finish reasons.
const (
	FinishStop   = "stop"
	FinishLength = "length"
)
