package termtext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestWriteJSON: what a terminal would act on is escaped, nothing else
// changes, and the document decodes to the same value.
func TestWriteJSON(t *testing.T) {
	in := map[string]string{"title": "Tea\x1b]0;x\x07 \u009b2J \u202egnp.exe & <b>\x7f é\tok\n"}
	var b bytes.Buffer
	if err := WriteJSON(&b, in); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	for _, raw := range []string{"\x1b", "\u009b", "\u202e", "\x7f", "\x07"} {
		if strings.Contains(doc, raw) {
			t.Errorf("%q stands raw in %s", raw, doc)
		}
	}
	if !strings.Contains(doc, "& <b>") || !strings.Contains(doc, "é") {
		t.Errorf("safe text changed: %s", doc)
	}
	var out map[string]string
	if err := json.Unmarshal(b.Bytes(), &out); err != nil || out["title"] != in["title"] {
		t.Errorf("decodes to %q, %v", out["title"], err)
	}
}

// FuzzEscapeJSON: whatever a string holds, its encoding escaped has no
// character a terminal acts on and decodes to the same string.
func FuzzEscapeJSON(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]0;t\x07", "\u009b\u202e\u2069\x7f", "é—“x”\u2028", "a\nb\tc"} {
		f.Add(s)
	}
	// Each place in an eight-byte word, and across two.
	for k := range 17 {
		f.Add(strings.Repeat("a", k) + "\u009b" + strings.Repeat("é", k) + "\u202e")
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // encoding/json writes U+FFFD for it
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		out := EscapeJSON(b.Bytes())
		for _, r := range string(out) {
			if r != '\n' && unsafe(r) {
				t.Fatalf("EscapeJSON(%q) keeps %U", b.String(), r)
			}
		}
		var back string
		if err := json.Unmarshal(out, &back); err != nil || back != s {
			t.Fatalf("EscapeJSON(%q) = %q decodes to %q, %v", b.String(), out, back, err)
		}
	})
}

// BenchmarkEscapeJSONPlain: the scan every stream record pays, on a record
// of about 2,000 characters with nothing to escape.
func BenchmarkEscapeJSONPlain(b *testing.B) {
	doc, _ := json.Marshal(map[string]string{"text": strings.Repeat("Green tea is steeped at a lower temperature than black tea, usually around eighty degrees. ", 22)})
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		EscapeJSON(doc)
	}
}
