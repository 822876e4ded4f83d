package keywords

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/thai"
)

func postingsItem() *item.Item {
	return &item.Item{ID: "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789", Title: "T",
		Paragraphs: []item.Paragraph{
			{Heading: "Green tea", Text: "Green teas are steeped cooler than the black ones."},
			{Text: "The kettle's water boils; the kettles boil."},
			{Heading: "Storage", Text: "Keep tea away from light."},
		}}
}

// TestPostings checks the postings against the analyzer: every term's
// paragraphs and counts, the words of each paragraph, and stop words left
// out.
func TestPostings(t *testing.T) {
	it := postingsItem()
	terms := []string{"green", "tea", "kettle", "boil", "the", "absent"}
	p, err := decodePostings(encodePostings(it, map[string]wordTerms{}), terms)
	if err != nil {
		t.Fatal(err)
	}
	words := 0
	for i := range it.Paragraphs {
		// The words as a person counts them, each put through the analyzer.
		text := strings.Fields(strings.NewReplacer(".", " ", ";", " ", ",", " ").Replace(it.Paragraphs[i].Heading + " " + it.Paragraphs[i].Text))
		var ws []string
		for _, w := range text {
			ws = append(ws, Terms(w)...)
		}
		words += len(text)
		if p.Lengths[i] != len(text) {
			t.Errorf("paragraph %d: %d words, want %d", i, p.Lengths[i], len(text))
		}
		for _, term := range terms {
			n := 0
			for _, w := range ws {
				if w == term {
					n++
				}
			}
			var got int
			for _, ps := range p.Terms[term] {
				if ps.Paragraph == i {
					got = ps.TF
				}
			}
			if want := n; HasPostings(term) && got != want {
				t.Errorf("paragraph %d, %q: %d, want %d", i, term, got, want)
			}
		}
	}
	if p.Paragraphs != 3 || p.Words != words {
		t.Errorf("%d paragraphs, %d words; want 3, %d", p.Paragraphs, p.Words, words)
	}
	if HasPostings("the") || p.Terms["the"] != nil {
		t.Error("a stop word has postings")
	}
	if len(p.Terms["tea"]) != 2 || len(p.Terms["kettle"]) != 1 || p.Terms["kettle"][0].TF != 2 {
		t.Errorf("tea %v, kettle %v", p.Terms["tea"], p.Terms["kettle"])
	}
}

// TestPostingsOtherAnalyzer checks that postings of another analyzer, or
// cut short, are not used.
func TestPostingsOtherAnalyzer(t *testing.T) {
	data := encodePostings(postingsItem(), map[string]wordTerms{})
	other := append([]byte{}, data...)
	binary.LittleEndian.PutUint64(other[4:], analyzerFingerprint()+1)
	if _, err := decodePostings(other, []string{"tea"}); err == nil {
		t.Error("postings of another analyzer were read")
	}
	for n := 0; n < len(data); n += 7 {
		if p, err := decodePostings(data[:n], []string{"zzz"}); err == nil {
			t.Errorf("postings cut at %d of %d bytes were read: %+v", n, len(data), p)
		}
	}
}

// TestFingerprintWithoutThaiList checks that the fingerprint of the word
// rules cuts no Thai (or Lao, Khmer, Myanmar): that would read the whole Thai
// word list in every sponge-rank, for every question.
func TestFingerprintWithoutThaiList(t *testing.T) {
	for _, r := range fingerprintProbe {
		if thai.Letter(r) {
			t.Fatalf("the fingerprint's probe holds %q, which reads the Thai word list", r)
		}
	}
}
