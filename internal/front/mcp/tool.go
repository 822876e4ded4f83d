package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/fault"
)

// reply is what a tool answers: the text the agent reads (Content) and the
// structured result, a value or JSON already made.
type reply struct {
	text       string
	structured any
}

// addTool adds a tool whose input is decoded into In and whose structured
// output has the schema of Out.
//
// It does not use the SDK's generic AddTool: that one checks arguments
// against the schema before the handler runs, and its messages ("maximum:
// 50/1 is greater than 20.000000") do not tell an agent what to do. Here the
// schema still says the ranges (clients and models read it), and the handler
// says what is wrong in words.
func addTool[In, Out any](s *sdk.Server, t *sdk.Tool, tune func(in, out *jsonschema.Schema), h func(ctx context.Context, in *In) (*reply, error)) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %s: %v", t.Name, err))
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema of %s: %v", t.Name, err))
	}
	if tune != nil {
		tune(in, out)
	}
	t.InputSchema, t.OutputSchema = in, out
	names := argNames(reflect.TypeFor[In]())
	s.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var args In
		if err := decodeArgs(req.Params.Arguments, &args, t.Name, names); err != nil {
			return toolError(err), nil
		}
		r, err := h(ctx, &args)
		if err != nil {
			return toolError(err), nil
		}
		structured, ok := r.structured.(json.RawMessage)
		if !ok {
			if structured, err = marshal(r.structured); err != nil {
				return nil, err
			}
		}
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: r.text}},
			StructuredContent: structured,
		}, nil
	})
}

// marshal is JSON as sponge writes it: <, > and & kept as saved.
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// toolError is a failed call: the message, and the hint on its own line. An
// agent reads it and can try again; the server goes on.
func toolError(err error) *sdk.CallToolResult {
	msg := err.Error()
	if hint := agentHint(err); hint != "" {
		msg += "\nhint: " + hint
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: msg}}, IsError: true}
}

// argNames lists the JSON names of a struct's fields, in order.
func argNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// decodeArgs decodes a call's arguments strictly, with messages in words.
func decodeArgs(raw json.RawMessage, v any, tool string, names []string) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Errorf("the arguments must be a JSON object, not %s", te.Value)
		}
		return fmt.Errorf("%s must be %s, not %s", te.Field, kindOf(te.Type), te.Value)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Errorf("%s takes no argument %s (its arguments: %s)", tool, name, strings.Join(names, ", "))
	}
	return fmt.Errorf("the arguments are not valid JSON: %v", err)
}

func kindOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	}
	return t.String()
}

// describe sets the descriptions of a schema's properties; a missing
// property is a mistake in this package, so it panics at start.
func describe(s *jsonschema.Schema, descs map[string]string) {
	for name, d := range descs {
		p := s
		for part := range strings.SplitSeq(name, ".") {
			if p.Items != nil {
				p = p.Items
			}
			q, ok := p.Properties[part]
			if !ok {
				panic("mcp: schema has no property " + name)
			}
			p = q
		}
		p.Description = d
	}
}

// agentHints are the hints for an agent, who has this server's tools and
// not a shell, by the kind of a library's error.
var agentHints = map[fault.Kind]string{
	fault.NoLibrary:   "the library is empty: ask the user to save something with 'sponge add FILE|FOLDER|URL'",
	fault.BadID:       "take ids from the results of search or find_passages",
	fault.NoItem:      "take ids from the results of search or find_passages",
	fault.Ambiguous:   "give more digits of the id, as search or find_passages gave it",
	fault.Damaged:     "ask the user to run 'sponge reindex', which sets damaged items aside",
	fault.SetAside:    "the item is damaged: ask the user to add its file again",
	fault.IndexBroken: "ask the user to run 'sponge reindex', which rebuilds the index from the saved items",
}

// agentHint is the hint for an agent on err: the server's own wording of a
// library's error, else the hint a stage or command gave (a person's).
func agentHint(err error) string {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return agentHints[fe.Kind]
	}
	var ce *console.Error
	if errors.As(err, &ce) {
		return ce.Hint
	}
	return ""
}
