package mcp_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/search"
)

var update = flag.Bool("update", false, "write jsonl/schema/*.json from the Go types instead of comparing")

var schemaDir = filepath.Join("..", "..", "..", "jsonl", "schema")

// documents are the --json outputs, each with its schema file and the Go
// type it is made from.
var documents = []struct {
	file, title string
	typ         reflect.Type
}{
	{"list.json", "sponge list --json", reflect.TypeFor[[]cmdline.ListItemJSON]()},
	{"show.json", "sponge show --json", reflect.TypeFor[cmdline.ItemJSON]()},
	{"search.json", "sponge search --json", reflect.TypeFor[search.ResultJSON]()},
	{"ask.json", "sponge ask --json", reflect.TypeFor[render.AnswerJSON]()},
	{"passages.json", "sponge ask --passages --json", reflect.TypeFor[render.PassagesJSON]()},
}

// The schema files are inferred from the Go types (keys without omitempty
// are required, no others allowed); -update writes them, else they must
// match, so a renamed key shows in the files' diff.
func TestSchemaFiles(t *testing.T) {
	for _, d := range documents {
		s, err := jsonschema.ForType(d.typ, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Schema = "https://json-schema.org/draft/2020-12/schema"
		s.Title = d.title
		want, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		path := filepath.Join(schemaDir, d.file)
		if *update {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s is not the schema of %s; run go test ./internal/front/mcp -update (-want +got):\n%s", path, d.title, diff)
		}
	}
}

func loadSchema(t *testing.T, file string) *jsonschema.Resolved {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(schemaDir, file))
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return r
}

// Each command's --json output on the test library is valid by its schema
// file, and a document with a key renamed, missing or added is not.
func TestJSONOutputsMatchSchemas(t *testing.T) {
	t.Parallel()
	needDraft(t)
	list, _, _ := command(t, "sponge", "list", "--library", docsLib, "--json")
	var items []struct {
		ItemID string `json:"itemId"`
	}
	if err := json.Unmarshal([]byte(list), &items); err != nil || len(items) == 0 {
		t.Fatalf("sponge list --json: %v\n%s", err, list)
	}
	type run struct {
		args []string
		exit int
	}
	runs := map[string][]run{
		"list.json":   {{[]string{"list"}, 0}},
		"search.json": {{[]string{"search", "green tea temperature"}, 0}, {[]string{"search", "xylophone zeppelin"}, 4}},
		"ask.json": {{[]string{"ask", "how hot should green tea be"}, 0}, {[]string{"ask", "xylophone zeppelin"}, 4},
			{[]string{"ask", "what decides whether an eruption is explosive"}, 0}},
		"passages.json": {{[]string{"ask", "--passages", "compost thermometer temperature of the heap"}, 0},
			{[]string{"ask", "--passages", "xylophone zeppelin"}, 4}},
	}
	for _, it := range items {
		runs["show.json"] = append(runs["show.json"], run{[]string{"show", it.ItemID}, 0})
	}
	docs := map[string]any{} // the first output of each, for the mutations below
	for _, d := range documents {
		schema := loadSchema(t, d.file)
		for _, r := range runs[d.file] {
			args := append([]string{r.args[0], "--library", docsLib, "--json"}, r.args[1:]...)
			out, stderr, code := command(t, "sponge", args...)
			if code != r.exit {
				t.Fatalf("sponge %s: exit %d, want %d\n%s", strings.Join(args, " "), code, r.exit, stderr)
			}
			var doc any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("sponge %s: %v", strings.Join(args, " "), err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Errorf("sponge %s does not match %s: %v\n%s", strings.Join(args, " "), d.file, err, out)
			}
			if docs[d.file] == nil {
				docs[d.file] = doc
			}
		}
	}

	// at finds the object at a path of keys and indexes.
	at := func(v any, path ...any) map[string]any {
		for _, p := range path {
			switch p := p.(type) {
			case string:
				v = v.(map[string]any)[p]
			case int:
				v = v.([]any)[p]
			}
		}
		return v.(map[string]any)
	}
	rename := func(from, to string, path ...any) func(any) {
		return func(doc any) {
			o := at(doc, path...)
			o[to] = o[from]
			delete(o, from)
		}
	}
	cases := []struct {
		name, file string
		mutate     func(doc any)
	}{
		{"list itemId renamed id", "list.json", rename("itemId", "id", 0)},
		{"list source missing", "list.json", func(doc any) { delete(at(doc, 0), "source") }},
		{"list paragraphCount renamed paragraphs", "list.json", rename("paragraphCount", "paragraphs", 0)},
		{"show itemId renamed id", "show.json", rename("itemId", "id")},
		{"show paragraph text renamed", "show.json", rename("text", "body", "paragraphs", 0)},
		{"search hit itemId renamed id", "search.json", rename("itemId", "id", "hits", 0)},
		{"search question renamed query", "search.json", rename("question", "query")},
		{"ask sourceNumber renamed source", "ask.json", rename("sourceNumber", "source", "claims", 0)},
		{"ask key added", "ask.json", func(doc any) { at(doc)["answer"] = "yes" }},
		{"ask source itemId renamed id", "ask.json", rename("itemId", "id", "sources", 0)},
		{"passages itemId renamed id", "passages.json", rename("itemId", "id", "passages", 0)},
		{"passages number is a string", "passages.json", func(doc any) { at(doc, "passages", 0)["number"] = "1" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var doc any
			b, _ := json.Marshal(docs[c.file])
			json.Unmarshal(b, &doc) // a copy, so each case mutates its own
			c.mutate(doc)
			if err := loadSchema(t, c.file).Validate(doc); err == nil {
				t.Errorf("%s accepts the mutated document", c.file)
			}
		})
	}
}
