package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/testsupport"

	"github.com/google/go-cmp/cmp"

	"github.com/sponge-library/sponge/internal/testsupport/stagetest"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/verify"
)

var update = flag.Bool("update", false, "write the golden files instead of comparing")

func testLibrary() string { return stagetest.Library() }

func TestMain(m *testing.M) {
	os.Unsetenv("COLUMNS")
	code := testsupport.Isolated(m).Run()
	stagetest.Cleanup()
	os.Exit(code)
}

// throughVerify runs a case's input through sponge-verify when the case has
// a "verify" file, so the verified records rendered are real ones.
func throughVerify(t *testing.T, dir string, in []byte) []byte {
	if _, err := os.Stat(filepath.Join(dir, "verify")); err != nil {
		return in
	}
	r := stagetest.Run(verify.Main, []string{"--library", testLibrary()}, in, "whole")
	if r.Code != 0 {
		t.Fatalf("sponge-verify failed: %d %s", r.Code, r.Stderr)
	}
	return []byte(r.Stdout)
}

func TestGolden(t *testing.T) {
	stagetest.Golden(t, filepath.Join("..", "..", "golden", "render"), Main, testLibrary(), *update, "want.txt", throughVerify)
}

// issue4 is the answer exactly as issue 4 shows it.
const issue4 = `Green tea is steeped at about eighty degrees, cooler than black tea. [1]
The lower temperature keeps the leaves from turning bitter. [1]

[1] Tea notes
    0a57a26ade13…
    “Green tea is steeped at a lower temperature than black tea, usually around eighty degrees”
    “so the leaves do not turn bitter”
`

// TestIssue4 renders a statement stream written by hand, through
// sponge-verify and the test library, exactly as issue 4 shows the answer.
func TestIssue4(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "render", "issue4")
	in, err := os.ReadFile(filepath.Join(dir, "in.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r := stagetest.Run(Main, nil, throughVerify(t, dir, in), "whole")
	if d := cmp.Diff(issue4, r.Stdout); d != "" || r.Code != 0 || r.Stderr != "" {
		t.Errorf("the answer differs from issue 4 (-want +got):\n%s\nstderr %q", d, r.Stderr)
	}
}

// TestJSONKeys checks the promised keys of the --json answer, in order.
func TestJSONKeys(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "render", "answer")
	in, err := os.ReadFile(filepath.Join(dir, "in.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r := stagetest.Run(Main, []string{"--json"}, throughVerify(t, dir, in), "whole")
	dec := json.NewDecoder(strings.NewReader(r.Stdout))
	var keys []string
	dec.Token() // {
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"question", "answered", "claims", "passages", "dropped", "warnings", "model"}
	if len(keys) < len(want) || !cmp.Equal(keys[:len(want)], want) {
		t.Errorf("keys %v, want %v first", keys, want)
	}
	var a struct {
		Claims []map[string]any `json:"claims"`
	}
	json.Unmarshal([]byte(r.Stdout), &a)
	for _, c := range a.Claims {
		for _, k := range []string{"text", "quote", "itemId", "passage"} {
			if _, ok := c[k]; !ok {
				t.Errorf("claim %v lacks %q", c, k)
			}
		}
	}
	if len(a.Claims) != 5 || a.Claims[2]["page"] != 4.0 || a.Claims[3]["startMs"] != 759500.0 {
		t.Errorf("claims: %v", a.Claims)
	}
}

func answerStream(t *testing.T) *Stream {
	dir := filepath.Join("..", "..", "golden", "render", "answer")
	in, err := os.ReadFile(filepath.Join(dir, "in.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Read(jsonl.NewReader(bytes.NewReader(throughVerify(t, dir, in)), "<stdin>"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWrapAndColour: on a terminal, lines fit the width, words are never
// split, continuation lines keep their indent, and markers are coloured.
func TestWrapAndColour(t *testing.T) {
	s := answerStream(t)
	var plain, wrapped, coloured bytes.Buffer
	WriteText(&plain, s, Style{})
	WriteText(&wrapped, s, Style{Width: 40})
	WriteText(&coloured, s, Style{Width: 40, Colour: true})
	for _, l := range strings.Split(wrapped.String(), "\n") {
		if n := len([]rune(l)); n > 40 {
			t.Errorf("line of %d characters: %q", n, l)
		}
	}
	if strings.Join(strings.Fields(plain.String()), " ") != strings.Join(strings.Fields(wrapped.String()), " ") {
		t.Errorf("wrapping changed the words:\n%s", wrapped.String())
	}
	if !strings.Contains(wrapped.String(), "    “Green tea is steeped at a lower\n     temperature than black tea, usually\n") {
		t.Errorf("a wrapped quote does not keep its indent:\n%s", wrapped.String())
	}
	if strings.Contains(plain.String(), "\x1b[") || strings.Contains(wrapped.String(), "\x1b[") {
		t.Errorf("colour without a terminal")
	}
	if !strings.Contains(coloured.String(), "\x1b[1;36m[1]\x1b[0m Tea notes") && !strings.Contains(coloured.String(), "\x1b[1;36m[1]\x1b[0m \x1b[1mTea notes") {
		t.Errorf("the source number is not coloured:\n%q", coloured.String())
	}
	stripped := strings.NewReplacer(cNumber, "", cTitle, "", cDim, "", cWarn, "", cReset, "").Replace(coloured.String())
	if stripped != wrapped.String() {
		t.Errorf("colour changed the text:\n%s", cmp.Diff(wrapped.String(), stripped))
	}
}

func TestStyleOffTerminal(t *testing.T) {
	t.Setenv("COLUMNS", "50")
	if st := StyleFor(&bytes.Buffer{}, settings.Environ{}); st != (Style{}) {
		t.Errorf("style for a buffer: %+v", st)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if st := StyleFor(f, settings.Environ{}); st != (Style{}) {
		t.Errorf("style for a file: %+v", st)
	}
}

func TestHelp(t *testing.T) {
	r := stagetest.Run(Main, []string{"--help"}, nil, "whole")
	if r.Code != 0 || !strings.Contains(r.Stdout, "--json") || !strings.Contains(r.Stdout, "Exit codes:") {
		t.Errorf("--help: code %d, stdout %q", r.Code, r.Stdout)
	}
}

// TestHostileText: escape sequences and bidi overrides in a model's words,
// saved text, titles, headings and warnings reach the terminal only as
// visible escapes, in every view, wrapped and coloured or not; the colours
// render adds itself are the only escape sequences written.
func TestHostileText(t *testing.T) {
	bad := "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b31m\u202e\u2066\r\x7f"
	id := "7e3f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7"
	hit := &jsonl.Hit{ItemID: id, Title: "Notes" + bad}
	passage := &jsonl.Passage{Number: 1, ItemID: id, Title: "Notes" + bad, Heading: "Brewing" + bad, Text: "Steep it." + bad}
	warning := &jsonl.Warning{Code: "semantic-unavailable", Message: "off" + bad, Hint: "run it" + bad}
	streams := map[string]*Stream{
		"answer": {Warnings: []*jsonl.Warning{warning}, Passages: []*jsonl.Passage{passage}, Done: &jsonl.Done{Statements: 2},
			Verified: []*jsonl.Verified{
				{Text: "Green tea" + bad, Quote: "Steep it.", ItemID: id, Title: "Notes" + bad, Saved: "Steep it." + bad},
				{Text: "Steep it.", Quote: "Steep it.", ItemID: id, Title: "Notes" + bad, Saved: "Steep it." + bad},
			}},
		"closest":  {Warnings: []*jsonl.Warning{warning}, Hits: []*jsonl.Hit{hit}, Done: &jsonl.Done{}},
		"passages": {Warnings: []*jsonl.Warning{warning}, Hits: []*jsonl.Hit{hit}, Passages: []*jsonl.Passage{passage}},
	}
	colours := strings.NewReplacer(cNumber, "", cTitle, "", cDim, "", cWarn, "", cReset, "")
	for name, s := range streams {
		for _, st := range []Style{{}, {Width: 30}, {Width: 30, Colour: true}} {
			var b bytes.Buffer
			if err := WriteText(&b, s, st); err != nil {
				t.Fatal(err)
			}
			out := colours.Replace(b.String())
			for _, r := range out {
				if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
					t.Errorf("%s %+v: %U written raw:\n%q", name, st, r, b.String())
					break
				}
			}
			if !strings.Contains(out, `\x1b]0;pwned\x07`) || !strings.Contains(out, `\u202e`) {
				t.Errorf("%s %+v: the escapes are not shown:\n%s", name, st, out)
			}
		}
	}
}

// TestClosest: a refusal lists the best hit and those near it, at most
// MaxClosest, never an item far below the best (the demo's bicycle chain,
// found only by «water», under a question about coffee). The JSON document
// and the text list the same items.
func TestClosest(t *testing.T) {
	hit := func(title string, score float64) *jsonl.Hit {
		return &jsonl.Hit{ItemID: strings.Repeat("a", 64), Title: title, Score: score}
	}
	titles := func(hits []*jsonl.Hit) []string {
		out := []string{}
		for _, h := range hits {
			out = append(out, h.Title)
		}
		return out
	}
	cases := []struct {
		hits []*jsonl.Hit
		want []string
	}{
		// The demo's "How hot should the water be for coffee?" (BM25 scores).
		{[]*jsonl.Hit{hit("compost", 2.907), hit("tea", 1.728), hit("sleep", 1.119), hit("sourdough", 0.905), hit("chain", 0.733)},
			[]string{"compost", "tea", "sleep"}},
		// Fused scores (keyword and meaning) stay close together: all five, not six.
		{[]*jsonl.Hit{hit("a", 1.97), hit("b", 1.9), hit("c", 0.98), hit("d", 0.95), hit("e", 0.94), hit("f", 0.93)},
			[]string{"a", "b", "c", "d", "e"}},
		{[]*jsonl.Hit{hit("only", 0.2)}, []string{"only"}},
		{nil, []string{}},
	}
	for _, c := range cases {
		if got := titles(Closest(c.hits)); !cmp.Equal(got, c.want) {
			t.Errorf("Closest(%v) = %v, want %v", titles(c.hits), got, c.want)
		}
		s := &Stream{Hits: c.hits, Done: &jsonl.Done{}}
		var doc []string
		for _, h := range Answer(s).Closest {
			doc = append(doc, h.Title)
		}
		if len(c.want) > 0 && !cmp.Equal(doc, c.want) {
			t.Errorf("the JSON document lists %v, want %v", doc, c.want)
		}
		var b bytes.Buffer
		if err := WriteText(&b, s, Style{}); err != nil {
			t.Fatal(err)
		}
		for _, h := range c.hits {
			if listed, want := strings.Contains(b.String(), "  "+h.Title+"\n"), slices.Contains(c.want, h.Title); listed != want {
				t.Errorf("the text lists %q: %v, want %v:\n%s", h.Title, listed, want, b.String())
			}
		}
	}
}

// TestQuotedCodeKeepsLines: a quote that holds a block of code (a
// sentence with the <pre> it announces, item.CodeOf) shows the code's
// lines, each on a line of its own indented under the quote, its
// indentation kept, never wrapped; the JSON keeps the "\n".
func TestQuotedCodeKeepsLines(t *testing.T) {
	id := strings.Repeat("b", 64)
	saved := "Syntax errors are the most common kind of complaint:\n\n>>> while True print('Hello world')\n  File \"<stdin>\", line 1\nSyntaxError: invalid syntax"
	s := &Stream{Done: &jsonl.Done{Statements: 1}, Verified: []*jsonl.Verified{
		{Text: saved, Quote: saved, ItemID: id, Title: "Errors", Saved: saved},
	}}
	var b bytes.Buffer
	if err := WriteText(&b, s, Style{Width: 40}); err != nil {
		t.Fatal(err)
	}
	want := "“Syntax errors are the most common kind\nof complaint:\n" +
		"    >>> while True print('Hello world')\n" +
		"      File \"<stdin>\", line 1\n" +
		"    SyntaxError: invalid syntax” [1]\n"
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("text:\n%s\nwant it to open with:\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `invalid syntax`) || !strings.Contains(b.String(), `complaint:\n\n\u003e\u003e\u003e`) && !strings.Contains(b.String(), `complaint:\n\n>>>`) {
		t.Errorf("json lost the lines:\n%s", b.String())
	}
}
