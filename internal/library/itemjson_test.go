package library

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
)

// appendItemJSON writes what json.Marshal writes, for items with every
// field set or left empty and strings of every kind of byte: controls,
// quotes, HTML characters, bytes that are not UTF-8, U+2028 and U+2029.
func TestItemJSON(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 3))
	pieces := []string{"a", "Z", " ", "é", "東", "😀", "\"", "\\", "<", ">", "&", "\n", "\r", "\t", "\b", "\f",
		"\x00", "\x01", "\x1f", "\x7f", "\xff", "\xc3", "\u2028", "\u2029", "\ufffd", "'", "/"}
	str := func() string {
		var b strings.Builder
		for range rnd.IntN(12) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		return b.String()
	}
	for round := range 2000 {
		it := &item.Item{ID: str(), Title: str(), TitleGiven: rnd.IntN(2) == 0, Linked: rnd.IntN(2) == 0, AllText: rnd.IntN(2) == 0,
			Source: str(), Kind: str(), Added: time.Unix(rnd.Int64N(4e9), rnd.Int64N(1e9)).In(time.FixedZone("", 3600*(rnd.IntN(5)-2)))}
		if rnd.IntN(2) == 0 {
			it.Author, it.Published = str(), str()
		}
		switch rnd.IntN(3) {
		case 0:
			it.Also = []string{}
		case 1:
			it.Also = []string{str(), str()}
		}
		switch rnd.IntN(4) {
		case 0: // nil: "null"
		case 1:
			it.Paragraphs = []item.Paragraph{}
		default:
			for range 1 + rnd.IntN(4) {
				p := item.Paragraph{Text: str(), Page: rnd.IntN(3) - 1}
				if rnd.IntN(2) == 0 {
					p.Heading = str()
				}
				if rnd.IntN(3) == 0 {
					p.HeadingPage = rnd.IntN(3) - 1
				}
				if rnd.IntN(3) == 0 {
					ms := rnd.Int64N(3) - 1
					p.StartMs = &ms
				}
				if rnd.IntN(3) == 0 {
					p.Cues = []item.Cue{{Offset: rnd.IntN(9), StartMs: rnd.Int64N(1e6) - 5}, {Offset: -1}}
				}
				if rnd.IntN(3) == 0 {
					p.Pages = []item.PageStart{{Offset: rnd.IntN(9), Page: rnd.IntN(4)}}
				} else if rnd.IntN(2) == 0 {
					p.Pages = []item.PageStart{}
				}
				it.Paragraphs = append(it.Paragraphs, p)
			}
		}
		want, err := json.Marshal(it)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendItemJSON(nil, it)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d:\nhand:    %s\nMarshal: %s", round, got, want)
		}
	}
}

// appendItemJSON knows every field of an item: a field added to item.Item
// (or a paragraph, cue or page start) must be added to it too.
func TestItemJSONFields(t *testing.T) {
	known := map[reflect.Type]string{
		reflect.TypeFor[item.Item]():      `ID:json:"id" Title:json:"title" TitleGiven:json:"titleGiven,omitempty" Linked:json:"linked,omitempty" AllText:json:"allText,omitempty" Source:json:"source" Also:json:"also,omitempty" Kind:json:"kind" Added:json:"added" Author:json:"author,omitempty" Published:json:"published,omitempty" Paragraphs:json:"paragraphs"`,
		reflect.TypeFor[item.Paragraph](): `Text:json:"text" Heading:json:"heading,omitempty" Page:json:"page,omitempty" HeadingPage:json:"headingPage,omitempty" StartMs:json:"startMs,omitempty" Cues:json:"cues,omitempty" Pages:json:"pages,omitempty"`,
		reflect.TypeFor[item.Cue]():       `Offset:json:"offset" StartMs:json:"startMs"`,
		reflect.TypeFor[item.PageStart](): `Offset:json:"offset" Page:json:"page"`,
	}
	for typ, want := range known {
		var fields []string
		for f := range typ.Fields() {
			fields = append(fields, fmt.Sprintf("%s:%s", f.Name, f.Tag))
		}
		if got := strings.Join(fields, " "); got != want {
			t.Errorf("%s has the fields\n%s\nappendItemJSON knows\n%s", typ, got, want)
		}
	}
	if _, ok := reflect.TypeFor[*item.Item]().MethodByName("MarshalJSON"); ok {
		t.Error("item.Item has its own MarshalJSON")
	}
}
