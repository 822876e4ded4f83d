package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"v":2,"type":"question","text":"x"}`, "protocol version 2 is not supported (this is version 1)"},
		{`{"type":"question","text":"x"}`, `record has no "v" (protocol version)`},
		{`{"v":1,"text":"x"}`, `record has no "type"`},
		{`{"v":1,"type":"clam","text":"x"}`, `unknown record type "clam"`},
		{`{"v":1,"type":"question","text":"x","colour":"red"}`, `bad question record: unknown field "colour"`},
		{`{"v":1,"tYpe":"statement","text":"x"}`, `unknown field "tYpe"`},
		{`{"v":1,"type":"statement","teXt":"x","passage":1,"quote":"q"}`, `bad statement record: unknown field "teXt"`},
		{`{"v":1,"type":"statement","text":"x","passage":"one","quote":"q"}`, "bad statement record: cannot unmarshal"},
		{`0`, "not a JSON object"},
		{`[1,2]`, "not a JSON object"},
		{`{"v":1,"type":"question","text":"x"} {"v":1}`, "not a JSON object"},
		{`{"v":1,"type":"question",`, "not a JSON object"},
	} {
		_, err := Decode([]byte(tc.line))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%s) = %v, want an error with %q", tc.line, err, tc.want)
		}
	}
}

func TestReaderNamesInputAndLine(t *testing.T) {
	in := "{\"v\":1,\"type\":\"question\",\"text\":\"tea\"}\n\n{\"v\":1,\"type\":\"clam\"}\n"
	r := NewReader(strings.NewReader(in), "<stdin>")
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err := r.Next()
	var de *DecodeError
	if !errors.As(err, &de) || err.Error() != `<stdin>:3: unknown record type "clam"` {
		t.Fatalf("got %v", err)
	}
}

// TestRoundTrip writes every record type and reads it back unchanged.
func TestRoundTrip(t *testing.T) {
	ms := int64(754000)
	para := 3
	recs := []Record{
		&Question{Text: "How hot for green tea?", Limit: 8},
		&Warning{Code: WarnSemanticUnavailable, Message: "keyword only", Hint: "run sponge setup --embedding"},
		&Hit{ItemID: strings.Repeat("a", 64), Title: "Tea <notes> & more", Score: 1.5, Rank: 1, FoundBy: []string{FoundByKeyword, FoundByMeaning}, Paragraph: &para},
		&Passage{Number: 1, ItemID: strings.Repeat("b", 64), Title: "Talk", StartMs: &ms, Paragraph: 2, Text: "so the leaves do not turn bitter", Score: 0.9},
		&Model{Name: ModelExtractive},
		&Statement{Text: "Cooler water.", Passage: 1, Quote: "so the leaves do not turn bitter"},
		&Verified{Text: "Cooler water.", Passage: 1, Quote: "q", ItemID: "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc", Title: "t", Paragraph: 2, Start: 4, End: 9, Page: 12, Saved: "q"},
		&LeftOut{Text: "x", Passage: 9, Quote: "y", Reason: ReasonBadPassage},
		&Done{Stage: "sponge-draft", Statements: 2},
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(buf.String(), "Tea <notes> & more") {
		t.Error("HTML characters were escaped")
	}
	r := NewReader(&buf, "buf")
	var got []Record
	for {
		l, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l.Record)
	}
	if d := cmp.Diff(recs, got); d != "" {
		t.Errorf("round trip (-wrote +read):\n%s", d)
	}
}

// TestLongLine reads a record of more than 1 MiB, split across many reads.
func TestLongLine(t *testing.T) {
	text := strings.Repeat("word ", 300000)
	var buf bytes.Buffer
	NewWriter(&buf).Write(&Passage{Number: 1, ItemID: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Title: "t", Text: text})
	NewWriter(&buf).Write(&Done{Stage: "x"})
	r := NewReader(&oneByteAtATime{r: &buf, n: 4096}, "<stdin>")
	l, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if p := l.Record.(*Passage); p.Text != text || len(l.Raw) < 1<<20 {
		t.Fatalf("long passage came back with %d characters", len(p.Text))
	}
	if l, err = r.Next(); err != nil || l.Number != 2 {
		t.Fatalf("line after the long one: %v %v", l, err)
	}
}

type oneByteAtATime struct {
	r io.Reader
	n int
}

func (o *oneByteAtATime) Read(p []byte) (int, error) {
	if len(p) > o.n {
		p = p[:o.n]
	}
	return o.r.Read(p)
}

func checkFuzzID(t *testing.T, id string) {
	t.Helper()
	if !IsItemID(id) {
		t.Fatalf("itemId %q decoded", id)
	}
}

// TestDecodeRefusesBadIDsAndLimits: an id that is not 64 lowercase hex
// digits (one that climbs out of the library above all) and a limit out of
// range (and a question's weight of a word below 0) are refused as the line
// is decoded, in every record that has them.
func TestDecodeRefusesBadIDsAndLimits(t *testing.T) {
	climb := strings.Repeat("../", 21) + "a"
	for _, line := range []string{
		`{"v":1,"type":"hit","itemId":"` + climb + `","title":"t","score":1,"rank":1,"foundBy":["keyword"]}`,
		`{"v":1,"type":"passage","number":1,"itemId":"` + climb + `","title":"t","text":"x"}`,
		`{"v":1,"type":"verified","text":"x","passage":1,"quote":"q","itemId":"` + climb + `","title":"t","paragraph":0,"start":0,"end":1,"saved":"q"}`,
		`{"v":1,"type":"passage","number":1,"itemId":"` + strings.Repeat("A", 64) + `","title":"t","text":"x"}`,
		`{"v":1,"type":"hit","itemId":"","title":"t","score":1,"rank":1,"foundBy":["keyword"]}`,
		`{"v":1,"type":"question","text":"q","limit":-5}`,
		`{"v":1,"type":"question","text":"q","limit":100000000000}`,
		`{"v":1,"type":"question","text":"q","idf":{"tea":1.2,"hot":-0.5}}`,
		`{"v":1,"type":"question","text":"q","idf":{"tea":"1"}}`,
	} {
		if len(climb) != 64 {
			t.Fatal("the climbing id is not 64 characters")
		}
		if rec, err := Decode([]byte(line)); err == nil {
			t.Errorf("decoded %s as %+v", line, rec)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"v":1,"type":"statement","text":"x","passage":1,"quote":"q"}`))
	f.Add([]byte(`{"v":1,"type":"hit","itemId":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","title":"t","score":1,"rank":1,"foundBy":["keyword"],"paragraph":null}`))
	f.Add([]byte(`{"v":1,"type":"passage","number":1,"startMs":-5}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		rec, err := Decode(line)
		if err != nil {
			return
		}
		// What decodes keeps the rules: an id is an id, a limit a limit.
		switch r := rec.(type) {
		case *Hit:
			checkFuzzID(t, r.ItemID)
		case *Passage:
			checkFuzzID(t, r.ItemID)
		case *Verified:
			checkFuzzID(t, r.ItemID)
		case *Question:
			if r.Limit < 0 || r.Limit > MaxLimit {
				t.Fatalf("limit %d decoded", r.Limit)
			}
			for w, idf := range r.IDF {
				if idf < 0 {
					t.Fatalf("idf %v of %q decoded", idf, w)
				}
			}
		}
		// What decodes must write and decode again to the same record.
		var buf bytes.Buffer
		if err := NewWriter(&buf).Write(rec); err != nil {
			t.Fatal(err)
		}
		again, err := Decode(bytes.TrimSpace(buf.Bytes()))
		if err != nil {
			t.Fatalf("re-decoding %s: %v", buf.Bytes(), err)
		}
		if d := cmp.Diff(rec, again); d != "" {
			t.Fatalf("not stable:\n%s", d)
		}
	})
}

// BenchmarkWritePassage: a passage record of about 2,000 characters, the
// size sponge-rank writes (a stage program's terminal escapes on top:
// termtext's BenchmarkEscapeJSONPlain).
func BenchmarkWritePassage(b *testing.B) {
	text := strings.Repeat("Green tea is steeped at a lower temperature than black tea, usually around eighty degrees. ", 22)
	p := &Passage{Number: 1, ItemID: strings.Repeat("ab", 32), Title: "Tea notes", Heading: "Green tea", Text: text}
	w := NewWriter(io.Discard)
	b.ReportAllocs()
	for b.Loop() {
		if err := w.Write(p); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHostileLines: a line over MaxLine is refused at once, without being
// held (exit 3 from a stage: a DecodeError naming the line); a key given
// twice is refused; carriage returns between tokens are taken out of the
// line passed on, which stays valid JSON.
func TestHostileLines(t *testing.T) {
	q := `{"v":1,"type":"question","text":"tea?"}` + "\n"
	long := io.MultiReader(strings.NewReader(q+`{"v":1,"type":"question","text":"`), &endless{})
	r := NewReader(long, "<stdin>")
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	var de *DecodeError
	if _, err := r.Next(); !errors.As(err, &de) || de.Line != 2 || !strings.Contains(err.Error(), "line too long") {
		t.Errorf("a line without end: %v", err)
	}
	for _, line := range []string{
		`{"v":1,"type":"statement","text":"a","passage":1,"quote":"the real words","quote":"forged words"}`,
		`{"v":1,"type":"question","text":"a","type":"question"}`,
	} {
		if _, err := Decode([]byte(line)); err == nil || !strings.Contains(err.Error(), "given twice") {
			t.Errorf("%s: %v", line, err)
		}
	}
	if _, err := Decode([]byte(`{"v":1,"type":"question","text":"\"a\":\"b\"","limit":{"x":1}}`)); err == nil || strings.Contains(err.Error(), "twice") {
		t.Errorf("keys inside strings and nested objects counted: %v", err)
	}
	r = NewReader(strings.NewReader("{\"v\":1,\r\"type\":\"question\",\r\n\"text\":\"tea?\"}\n"), "<stdin>")
	if l, err := r.Next(); err == nil {
		t.Errorf("a record cut by a newline decoded: %s", l.Raw)
	}
	r = NewReader(strings.NewReader("{\"v\":1,\r\"type\":\"question\", \r \"text\":\"tea?\"}\r\n"), "<stdin>")
	l, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.IndexByte(l.Raw, '\r') >= 0 || !json.Valid(l.Raw) {
		t.Errorf("passed on %q", l.Raw)
	}
}

// endless is an input of "a" without end.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	e.n += int64(len(p))
	return len(p), nil
}
