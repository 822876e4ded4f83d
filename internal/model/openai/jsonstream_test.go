package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func scanAll(text string, chunk int) ([]string, string, bool) {
	s := NewArrayScanner()
	var got []string
	for i := 0; i < len(text); i += chunk {
		j := min(i+chunk, len(text))
		for _, e := range s.Write(text[i:j]) {
			got = append(got, string(e))
		}
	}
	v, ok := s.Value()
	return got, string(v), ok
}

func TestArrayScanner(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		value    string // "" when the value is not complete
	}{
		{"object", `{"statements":[{"text":"a","passage":1,"quote":"q"},{"text":"b]}","passage":2,"quote":"\"x\" {"}]}`,
			[]string{`{"text":"a","passage":1,"quote":"q"}`, `{"text":"b]}","passage":2,"quote":"\"x\" {"}`},
			`{"statements":[{"text":"a","passage":1,"quote":"q"},{"text":"b]}","passage":2,"quote":"\"x\" {"}]}`},
		{"bare array", " [ {\"a\":[1,2]} ,\n {\"b\":{\"c\":[]}} ] ", []string{`{"a":[1,2]}`, `{"b":{"c":[]}}`}, "[ {\"a\":[1,2]} ,\n {\"b\":{\"c\":[]}} ]"},
		{"fenced", "```json\n{\"statements\": []}\n```", nil, `{"statements": []}`},
		{"scalars", `[1, "two,", true]`, []string{`1`, `"two,"`, `true`}, `[1, "two,", true]`},
		{"cut", `{"statements":[{"text":"a"},{"text":"b`, []string{`{"text":"a"}`}, ""},
		{"prose", `I cannot answer that.`, nil, ""},
		{"only the first array", `{"s":[{"a":1}],"t":[{"b":2}]}`, []string{`{"a":1}`}, `{"s":[{"a":1}],"t":[{"b":2}]}`},
		{"escaped backslash", `[{"q":"a\\"},{"q":"b"}]`, []string{`{"q":"a\\"}`, `{"q":"b"}`}, `[{"q":"a\\"},{"q":"b"}]`},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 2, 3, 7, 1 << 20} {
			got, value, ok := scanAll(tt.in, chunk)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s, chunks of %d: elements (-want +got):\n%s", tt.name, chunk, diff)
			}
			if ok != (tt.value != "") || value != tt.value {
				t.Errorf("%s, chunks of %d: value %q %v, want %q", tt.name, chunk, value, ok, tt.value)
			}
		}
	}
}

// FuzzArrayScanner checks that, on any input, each element the scanner
// yields for valid JSON is one of the array's elements, in order.
func FuzzArrayScanner(f *testing.F) {
	f.Add(`{"statements":[{"text":"a","passage":1,"quote":"q"}]}`, 3)
	f.Add(`[1,[2,3],{"a":"]"}]`, 1)
	f.Fuzz(func(t *testing.T, in string, chunk int) {
		if chunk <= 0 || chunk > 64 {
			chunk = 5
		}
		got, value, ok := scanAll(in, chunk)
		if !ok || !json.Valid([]byte(value)) {
			return
		}
		var arr []json.RawMessage
		if strings.HasPrefix(value, "[") {
			json.Unmarshal([]byte(value), &arr)
		} else {
			return
		}
		if len(arr) != len(got) {
			t.Fatalf("%q: %d elements, scanner found %d", in, len(arr), len(got))
		}
		for i := range arr {
			if strings.TrimSpace(string(arr[i])) != got[i] {
				t.Fatalf("%q: element %d is %q, scanner found %q", in, i, arr[i], got[i])
			}
		}
	})
}
