package jsonl

import (
	"strings"
	"testing"
)

// A line is parsed twice, not three times: the version and type of a
// common line are read from its keys, which the strict check of field
// names needs anyway. Decoding a passage of 2,000 characters takes 50
// allocations with Go 1.26's encoding/json, 57 with a header parse first
// (and one more pass over all of its bytes).
func TestDecodeParsesTwice(t *testing.T) {
	line := []byte(`{"v":1,"type":"passage","number":1,"itemId":"` + strings.Repeat("a", 64) +
		`","title":"t","heading":"h","paragraph":3,"text":"` + strings.Repeat("word ", 400) + `","score":0.5}`)
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := Decode(line); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 53 {
		t.Errorf("decoding a passage takes %.0f allocations, want at most 53 (57 with a third parse)", allocs)
	}
}
