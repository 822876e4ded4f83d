package verify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/jsonl"
)

// TestMarksThroughStage runs the quotes of issue 42 through sponge-verify: a
// quote that drops a combining mark is left out, and a verified record
// carries the item's own words as its quote, not the statement's.
func TestMarksThroughStage(t *testing.T) {
	dir := t.TempDir()
	lib, err := library.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	// U+0338 makes x "not x"; the Yoruba is in NFD (o, dot below, grave), and
	// its decomposed "café" makes the first paragraph not NFC.
	paragraphs := []string{
		"The value is x\u0338. Le cafe\u0301 est ouvert.",
		"Mo ra o\u0323ko\u0323\u0300 lana.",
	}
	src := []byte(strings.Join(paragraphs, "\n\n"))
	it := &item.Item{ID: library.ItemID(src), Title: "Marks", Kind: item.KindText,
		Paragraphs: []item.Paragraph{{Text: paragraphs[0]}, {Text: paragraphs[1]}}}
	if err := lib.Put(it, src); err != nil {
		t.Fatal(err)
	}

	var in strings.Builder
	for i, p := range paragraphs {
		b, _ := json.Marshal(map[string]any{"v": 1, "type": "passage", "number": i + 1, "itemId": it.ID, "title": "Marks", "paragraph": i, "text": p, "score": 1})
		in.Write(b)
		in.WriteByte('\n')
	}
	statements := []struct {
		passage    int
		quote      string
		verified   bool
		savedWords string // the item's words a verified record must carry
	}{
		{1, "The value is x", false, ""},
		{2, "Mo ra \u1ecdk\u1ecd", false, ""}, // NFC, last tone mark dropped
		{2, "Mo ra o\u0323ko\u0323", false, ""},
		{1, "the value is x\u0338", true, "The value is x\u0338"},
		{2, "mo ra \u1ecdk\u1ecd\u0300  lana", true, "Mo ra o\u0323ko\u0323\u0300 lana"},
	}
	for _, s := range statements {
		b, _ := json.Marshal(map[string]any{"v": 1, "type": "statement", "text": "A statement.", "passage": s.passage, "quote": s.quote})
		in.Write(b)
		in.WriteByte('\n')
	}
	r := runWhole(dir, []byte(in.String()))
	recs := decodeAll(t, r.Stdout)
	if r.Code != 0 || len(recs) != len(paragraphs)+len(statements) {
		t.Fatalf("code %d, %d records; stderr %q", r.Code, len(recs), r.Stderr)
	}
	for i, s := range statements {
		switch rec := recs[len(paragraphs)+i].(type) {
		case *jsonl.LeftOut:
			if s.verified || rec.Reason != jsonl.ReasonNotFound {
				t.Errorf("quote %+q: left out as %s", s.quote, rec.Reason)
			}
		case *jsonl.Verified:
			if !s.verified {
				t.Errorf("quote %+q: verified as %+q, but it is not the item's words", s.quote, rec.Saved)
				continue
			}
			inItem := string([]rune(paragraphs[rec.Paragraph])[rec.Start:rec.End])
			if rec.Saved != s.savedWords || inItem != s.savedWords {
				t.Errorf("quote %+q: saved %+q, offsets give %+q, want %+q", s.quote, rec.Saved, inItem, s.savedWords)
			}
			if rec.Quote != s.savedWords {
				t.Errorf("quote %+q: the verified record's quote is %+q, not the item's words %+q", s.quote, rec.Quote, s.savedWords)
			}
		default:
			t.Errorf("quote %+q: got %#v", s.quote, rec)
		}
	}
}
