package library

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
)

// savedParagraphs saves it, with source as its original, in a new library
// and opens it for reading its paragraphs.
func savedParagraphs(t *testing.T, it *item.Item, source string) *Paragraphs {
	t.Helper()
	l, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := []byte(source)
	it.ID = ItemID(src)
	if err := l.Put(it, src); err != nil {
		t.Fatal(err)
	}
	ps, err := l.Paragraphs(it.ID)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestParagraphs checks that paragraphs read one at a time are the item's,
// whatever their text holds, and the item's fields with them.
func TestParagraphs(t *testing.T) {
	start := int64(4500)
	it := &item.Item{
		Title: `A "paragraphs":[ title \ with [braces] {and} quotes`, Source: "/x/y.md", Kind: item.KindVTT,
		Added: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), TitleGiven: true,
		Paragraphs: []item.Paragraph{
			{Text: `plain`},
			{Text: "quotes \" and \\ back\\\"slashes ]}, \"paragraphs\":[1]", Heading: "h ]"},
			{Text: "unicode ☕ \u2028 and <html> & tabs\t", StartMs: &start, Cues: []item.Cue{{Offset: 0, StartMs: 4500}}},
			{Text: "page", Page: 3, Pages: []item.PageStart{{Offset: 2, Page: 4}}},
		},
	}
	ps := savedParagraphs(t, it, "source")
	if ps.all != nil {
		t.Error("the item was decoded whole")
	}
	head := *it
	head.Paragraphs = nil
	if !reflect.DeepEqual(ps.Item, head) {
		t.Errorf("item fields: got %+v, want %+v", ps.Item, head)
	}
	if ps.Len() != len(it.Paragraphs) {
		t.Fatalf("%d paragraphs, want %d", ps.Len(), len(it.Paragraphs))
	}
	for i := range it.Paragraphs {
		p, err := ps.At(i)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*p, it.Paragraphs[i]) {
			t.Errorf("paragraph %d: got %+v, want %+v", i, *p, it.Paragraphs[i])
		}
	}
}

// TestSplitParagraphs checks the split against JSON laid out otherwise:
// keys in another order, spaces, and JSON it cannot follow.
func TestSplitParagraphs(t *testing.T) {
	raw := []byte(` { "paragraphs" : [ {"text":"a"} , {"text":"b]"} ] , "title" : "t" } `)
	head, spans, ok := splitParagraphs(raw)
	if !ok || len(spans) != 2 {
		t.Fatalf("ok %v, %d spans", ok, len(spans))
	}
	var it item.Item
	if err := json.Unmarshal(head, &it); err != nil || it.Title != "t" {
		t.Errorf("head %s: %v", head, err)
	}
	if got := string(raw[spans[1][0]:spans[1][1]]); got != `{"text":"b]"}` {
		t.Errorf("second paragraph %s", got)
	}
	for _, bad := range []string{``, `[]`, `{"title":"t"}`, `{"paragraphs":{}}`, `{"paragraphs":[{"text":"a}]}`} {
		if _, _, ok := splitParagraphs([]byte(bad)); ok {
			t.Errorf("%s: split", bad)
		}
	}
}

// TestParagraphText checks that the heading and text read straight from
// an item's JSON are what decoding the paragraph gives, whatever they hold,
// and that a text without escapes is not copied.
func TestParagraphText(t *testing.T) {
	start := int64(10)
	it := &item.Item{Title: "t", Source: "/x.md", Kind: item.KindMarkdown, Paragraphs: []item.Paragraph{
		{Text: "plain words, nothing to escape", Heading: "Plain"},
		{Text: "quotes \" and \\ back\\\"slashes ]}, \"text\":\"no\"", Heading: "h \"heading\":\"no\""},
		{Text: "<html> & \u2028 \u2029 ☕ 😀 \t\n\r\b\f \x01 end", StartMs: &start, Cues: []item.Cue{{Offset: 0, StartMs: 10}}},
		{Text: "bad utf-8 \xff\xfe and a lone half \xed\xa0\x80"},
		{Text: "", Heading: ""},
		{Text: "page", Page: 3, Pages: []item.PageStart{{Offset: 2, Page: 4}}},
	}}
	ps := savedParagraphs(t, it, "text source")
	for i := range ps.Len() {
		p, err := ps.At(i)
		if err != nil {
			t.Fatal(err)
		}
		h, text, err := ps.Text(i)
		if err != nil || h != p.Heading || text != p.Text {
			t.Errorf("paragraph %d: Text = %q, %q, %v; At %q, %q", i, h, text, err, p.Heading, p.Text)
		}
	}
	if n := testing.AllocsPerRun(100, func() { ps.Text(0) }); n != 0 {
		t.Errorf("reading a text without escapes allocates %v times", n)
	}
}

// TestParagraphTextLayouts checks paragraphs that encoding/json reads but
// Put does not write: keys in another case or escaped, other types, a
// surrogate pair, duplicate keys, spaces; each gives what decoding gives.
func TestParagraphTextLayouts(t *testing.T) {
	for _, raw := range []string{
		`{}`, ` { "text" : "a" , "heading" : "b" } `, `{"Text":"upper"}`, `{"HEADING":"x","text":"y"}`,
		`{"te\u0078t":"escaped key"}`, `{"text":null}`, `{"text":"a","text":"b"}`, `{"text":"\ud83d\ude00 pair"}`,
		`{"text":"\ud83d lone"}`, `{"text":"\u00e9\u00E9 \/"}`, `{"page":2,"pages":[{"offset":1,"page":3}],"text":"t"}`,
		`{"text":"tab	raw"}`, `{"text":"\x"}`, `{"text":"\u12"}`, `{"text":1}`,
	} {
		var want item.Paragraph
		werr := json.Unmarshal([]byte(raw), &want)
		pt, ok := readParagraph([]byte(raw), false)
		h, text := pt.Heading, pt.Text
		if ok && (werr != nil || h != want.Heading || text != want.Text) {
			t.Errorf("%s: got %q, %q; encoding/json %q, %q, %v", raw, h, text, want.Heading, want.Text, werr)
		}
	}
	if _, ok := readParagraph([]byte(`{"Text":"upper"}`), false); ok {
		t.Error(`a key "Text" is left to encoding/json`)
	}
}

// FuzzParagraphText checks readParagraph against encoding/json: its
// heading and text, and with full the whole paragraph.
func FuzzParagraphText(f *testing.F) {
	for _, s := range []string{`{"text":"a \" b","heading":"h"}`, `{"text":"\ud83d\ude00"}`, `{"text":"\u003chtml\u003e"}`,
		`{"page":1}`, `{"text":"t","page":12,"startMs":-4500}`, `{"startMs":0,"startMs":7}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var want item.Paragraph
		if json.Unmarshal([]byte(raw), &want) != nil {
			return
		}
		if p, ok := readParagraph([]byte(raw), false); ok && (p.Heading != want.Heading || p.Text != want.Text) {
			t.Errorf("%q: got %q, %q; encoding/json %q, %q", raw, p.Heading, p.Text, want.Heading, want.Text)
		}
		if p, ok := readParagraph([]byte(raw), true); ok && !reflect.DeepEqual(p, want) {
			t.Errorf("%q whole: got %+v; encoding/json %+v", raw, p, want)
		}
	})
}

// TestParagraphWhole checks the paragraphs At reads without encoding/json,
// and those it leaves to it.
func TestParagraphWhole(t *testing.T) {
	start := int64(-4500)
	for raw, want := range map[string]item.Paragraph{
		`{"text":"t","heading":"h","page":12,"startMs":-4500}`: {Text: "t", Heading: "h", Page: 12, StartMs: &start},
		`{"text":"t","heading":"h","page":9,"headingPage":8}`:  {Text: "t", Heading: "h", Page: 9, HeadingPage: 8},
		` { "page" : 0 , "text" : "a\nb" } `:                   {Text: "a\nb"},
		`{}`:                                                   {},
	} {
		p, ok := readParagraph([]byte(raw), true)
		if !ok || !reflect.DeepEqual(p, want) {
			t.Errorf("%s: got %+v, %v; want %+v", raw, p, ok, want)
		}
	}
	for _, raw := range []string{`{"text":"t","cues":[]}`, `{"pages":[{"offset":1,"page":2}]}`, `{"page":1.0}`, `{"page":1e2}`,
		`{"page":01}`, `{"startMs":null}`, `{"page":"1"}`, `{"startMs":1234567890123456789}`, `{"Page":1}`, `{"headingPage":1.5}`} {
		if _, ok := readParagraph([]byte(raw), true); ok {
			t.Errorf("%s: read, not left to encoding/json", raw)
		}
	}
}

// TestSkipString checks where a string ends: at the first quote after an
// even run of backslashes.
func TestSkipString(t *testing.T) {
	for raw, end := range map[string]int{
		`"abc",`: 5, `"a\"b",`: 6, `"a\\",`: 5, `"a\\\"b",`: 8, `"\\\\"`: 6, `""`: 2, `"\"`: -1, `"abc`: -1, `"a\\\\\"",`: 9,
	} {
		if got := skipValue([]byte(raw), 0); got != end {
			t.Errorf("%s: ends at %d, want %d", raw, got, end)
		}
	}
}

// TestPlainString checks the eight-bytes-at-a-time test against a byte at
// a time, a backslash or a control character at each place.
func TestPlainString(t *testing.T) {
	slow := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 || c == '\\' {
				return false
			}
		}
		return true
	}
	base := []byte("plain text, ünïcode ☕ and ~\x7f\xff bytes [] {} \"")
	for n := 0; n <= len(base); n++ {
		for _, c := range []byte{'\\', 0, 0x1f, '\n', 0x20, ']', 0x5b, 0x5d, 0xdc, 0x9f} {
			for at := 0; at < n; at++ {
				b := append([]byte(nil), base[:n]...)
				b[at] = c
				if got, want := plainString(b), slow(b); got != want {
					t.Errorf("%q: %v, want %v", b, got, want)
				}
			}
		}
		if !plainString(base[:n]) {
			t.Errorf("%q is plain", base[:n])
		}
	}
}
