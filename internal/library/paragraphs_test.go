package library

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
)

// TestParagraphs checks that paragraphs read one at a time are the item's,
// whatever their text holds, and the item's fields with them.
func TestParagraphs(t *testing.T) {
	l, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
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
	src := []byte("source")
	it.ID = ItemID(src)
	if err := l.Put(it, src); err != nil {
		t.Fatal(err)
	}
	ps, err := l.Paragraphs(it.ID)
	if err != nil {
		t.Fatal(err)
	}
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
	l, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	start := int64(10)
	it := &item.Item{Title: "t", Source: "/x.md", Kind: item.KindMarkdown, Paragraphs: []item.Paragraph{
		{Text: "plain words, nothing to escape", Heading: "Plain"},
		{Text: "quotes \" and \\ back\\\"slashes ]}, \"text\":\"no\"", Heading: "h \"heading\":\"no\""},
		{Text: "<html> & \u2028 \u2029 ☕ 😀 \t\n\r\b\f \x01 end", StartMs: &start, Cues: []item.Cue{{Offset: 0, StartMs: 10}}},
		{Text: "bad utf-8 \xff\xfe and a lone half \xed\xa0\x80"},
		{Text: "", Heading: ""},
		{Text: "page", Page: 3, Pages: []item.PageStart{{Offset: 2, Page: 4}}},
	}}
	src := []byte("text source")
	it.ID = ItemID(src)
	if err := l.Put(it, src); err != nil {
		t.Fatal(err)
	}
	ps, err := l.Paragraphs(it.ID)
	if err != nil {
		t.Fatal(err)
	}
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
		h, text, ok := paragraphText([]byte(raw))
		if ok && (werr != nil || h != want.Heading || text != want.Text) {
			t.Errorf("%s: got %q, %q; encoding/json %q, %q, %v", raw, h, text, want.Heading, want.Text, werr)
		}
	}
	if _, _, ok := paragraphText([]byte(`{"Text":"upper"}`)); ok {
		t.Error(`a key "Text" is left to encoding/json`)
	}
}

// FuzzParagraphText checks paragraphText against encoding/json.
func FuzzParagraphText(f *testing.F) {
	for _, s := range []string{`{"text":"a \" b","heading":"h"}`, `{"text":"\ud83d\ude00"}`, `{"text":"\u003chtml\u003e"}`, `{"page":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		h, text, ok := paragraphText([]byte(raw))
		var want item.Paragraph
		if !ok || json.Unmarshal([]byte(raw), &want) != nil {
			return
		}
		if h != want.Heading || text != want.Text {
			t.Errorf("%q: got %q, %q; encoding/json %q, %q", raw, h, text, want.Heading, want.Text)
		}
	})
}
