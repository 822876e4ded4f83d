package termtext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
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
