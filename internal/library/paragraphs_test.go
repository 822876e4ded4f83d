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
