package item

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// Fingerprint hashes the paragraph texts, each followed by a zero byte,
// through a buffer: the same hash as writing them one by one, for texts
// shorter and longer than the buffer and ending at its edge.
func TestFingerprint(t *testing.T) {
	for _, lengths := range [][]int{nil, {0}, {1, 2, 3}, {4095}, {4096}, {4097}, {4095, 1, 4094, 0, 1}, {10000, 3, 8191, 8192, 12288}} {
		it := &Item{}
		want := sha256.New()
		for i, n := range lengths {
			text := strings.Repeat(string(rune('a'+i%26)), n)
			it.Paragraphs = append(it.Paragraphs, Paragraph{Text: text})
			want.Write([]byte(text))
			want.Write([]byte{0})
		}
		if got := Fingerprint(it); got != hex.EncodeToString(want.Sum(nil)[:16]) {
			t.Errorf("paragraphs of %v bytes: fingerprint %s, want %x", lengths, got, want.Sum(nil)[:16])
		}
	}
}

func BenchmarkFingerprint(b *testing.B) {
	it := &Item{}
	for i := range 2000 {
		it.Paragraphs = append(it.Paragraphs, Paragraph{Text: strings.Repeat("the words of a paragraph ", 4+i%40)})
	}
	b.ReportAllocs()
	for b.Loop() {
		Fingerprint(it)
	}
}
