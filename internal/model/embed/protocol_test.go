package embed

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type fixed struct{}

func (fixed) Embed(texts []string) ([][]float32, error) {
	if len(texts) > 0 && texts[0] == "fail" {
		return nil, errors.New("cannot embed that")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t)), -1.5, 0.25}
	}
	return out, nil
}
func (fixed) Info() Info   { return Info{Name: "fixed", Dims: 3, Pooling: "cls"} }
func (fixed) Close() error { return nil }

// TestServe checks the helper's protocol: info first, then one answer per
// request, errors as answers, vectors exact.
func TestServe(t *testing.T) {
	in := strings.NewReader(`{"texts":["ab","abcd"]}` + "\n" + `{"texts":["fail"]}` + "\nnot json\n" + `{"texts":[]}`)
	var out bytes.Buffer
	if err := Serve(fixed{}, in, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	var r [5]response
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &r[i]); err != nil {
			t.Fatal(err)
		}
	}
	if r[0].Info == nil || r[0].Info.Name != "fixed" || r[0].Info.Dims != 3 {
		t.Errorf("first line: %s", lines[0])
	}
	v, err := decodeVector(r[1].Vectors[1])
	if err != nil || len(v) != 3 || v[0] != 4 || v[1] != -1.5 || v[2] != 0.25 {
		t.Errorf("vector: %v, %v", v, err)
	}
	if r[2].Error != "cannot embed that" || !strings.HasPrefix(r[3].Error, "bad request") || r[4].Error != "" || len(r[4].Vectors) != 0 {
		t.Errorf("answers: %+v", r)
	}
}

func TestConventions(t *testing.T) {
	for name, want := range map[string]Conventions{
		"bge-small-en-v1.5 Q8_0":  {QueryPrefix: "Represent this sentence for searching relevant passages: "},
		"nomic-embed-text-v1.5":   {QueryPrefix: "search_query: ", DocumentPrefix: "search_document: "},
		"all-MiniLM-L6-v2":        {},
		"multilingual-e5-small":   {QueryPrefix: "query: ", DocumentPrefix: "passage: "},
		"sponge-bert-tiny-random": {},
	} {
		if got := ConventionsFor(name); got != want {
			t.Errorf("ConventionsFor(%q) = %+v, want %+v", name, got, want)
		}
	}
	v := []float32{3, 4}
	Normalize(v)
	if v[0] != 0.6 || v[1] != 0.8 {
		t.Errorf("Normalize = %v", v)
	}
}
