package keywords

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
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
	p, err := decodePostings(newPostingsMaker().encode(it), terms)
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
	data := newPostingsMaker().encode(postingsItem())
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

// referencePostings is what a paragraph's postings say, worked out the
// plain way: every word ScanWords finds put through Terms, no cache, no
// shortcut. postingsMaker.encode must give the same.
func referencePostings(it *item.Item) (lengths []int, lists map[string][][2]int) {
	lists = map[string][][2]int{}
	for i, p := range it.Paragraphs {
		tf := map[string]int{}
		n := 0
		for _, text := range []string{p.Heading, p.Text} {
			ScanWords(text, func(word string) {
				w := strings.ToLower(word)
				terms := Terms(w)
				if Spaceless(w) {
					n += len(terms)
				} else {
					n++
				}
				for _, t := range terms {
					if !StopWords[t] {
						tf[t]++
					}
				}
			})
		}
		lengths = append(lengths, n)
		for t, c := range tf {
			lists[t] = append(lists[t], [2]int{i, c})
		}
	}
	return lengths, lists
}

// TestPostingsAsReference checks postingsMaker.encode (its plain-word
// shortcut, its cache and slices kept across items, its counting on the last
// posting) against
// referencePostings on text touching every rule, and random plain and
// not-plain words.
func TestPostingsAsReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 20))
	alphabet := "aeiostdgnrz0189_ABS'.:-,éÉ東京"
	word := func() string {
		var b strings.Builder
		for range 1 + rnd.IntN(9) {
			r := []rune(alphabet)
			b.WriteRune(r[rnd.IntN(len(r))])
		}
		return b.String()
	}
	m := newPostingsMaker()
	for round := range 30 {
		it := postingsItem()
		it.Paragraphs = append(it.Paragraphs, item.Paragraph{Heading: "Tea's Boxes",
			Text: "The x86_64 boxes brewed 3.5 litres, e.g. 1,000 kettles; naïve ÉCOLE 東京都の人口 한국어 tea tea TEA abi_v2 the a 42. THE The A Écoles"})
		for range 20 {
			var words []string
			for range 1 + rnd.IntN(40) {
				words = append(words, word())
			}
			it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: strings.Join(words, " ")})
		}
		lengths, lists := referencePostings(it)
		var terms []string
		for term := range lists {
			terms = append(terms, term)
		}
		for w := range StopWords { // asked for too: none may be there
			terms = append(terms, w)
		}
		p, err := decodePostings(m.encode(it), terms)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Lengths, lengths) {
			t.Fatalf("round %d: lengths %v, want %v", round, p.Lengths, lengths)
		}
		if len(p.Terms) != len(lists) {
			t.Errorf("round %d: %d terms, want %d", round, len(p.Terms), len(lists))
		}
		for term, want := range lists {
			got := p.Terms[term]
			if len(got) != len(want) {
				t.Fatalf("round %d, %q: %v, want %v", round, term, got, want)
			}
			for k := range want {
				if got[k].Paragraph != want[k][0] || got[k].TF != want[k][1] {
					t.Fatalf("round %d, %q: %v, want %v", round, term, got, want)
				}
			}
		}
	}
}

// TestPlainWordIsItsTerm checks what the postings' shortcut takes for
// granted: the analyzer makes of a plain word one term, the word itself.
func TestPlainWordIsItsTerm(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 7))
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789_"
	checked := 0
	for range 20000 {
		b := make([]byte, 1+rnd.IntN(12))
		for i := range b {
			b[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		w := string(b)
		if !plainWord(w) {
			continue
		}
		checked++
		if got := Terms(w); len(got) != 1 || got[0] != w {
			t.Fatalf("plain word %q: terms %q", w, got)
		}
	}
	if checked < 10000 {
		t.Errorf("only %d plain words checked", checked)
	}
}

// BenchmarkEncodePostings makes the postings of an item of 3,000 paragraphs
// (about 600 KB) of words drawn from a vocabulary of 8,000, with the terms
// cache warm, as sponge add makes them for each big item.
func BenchmarkEncodePostings(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 8000)
	for i := range vocab {
		var w strings.Builder
		for range 2 + rnd.IntN(8) {
			w.WriteByte("etaoinshrdlucmfwypvbgkqjxz"[min(rnd.IntN(26), rnd.IntN(26))])
		}
		if i%7 == 0 {
			w.WriteString("s")
		}
		vocab[i] = w.String()
	}
	it := postingsItem()
	it.Paragraphs = nil
	for range 3000 {
		var words []string
		for range 10 + rnd.IntN(50) {
			words = append(words, vocab[min(rnd.IntN(len(vocab)), rnd.IntN(len(vocab)))])
		}
		it.Paragraphs = append(it.Paragraphs, item.Paragraph{Heading: "Part " + vocab[len(words)], Text: strings.Join(words, " ")})
	}
	m := newPostingsMaker()
	m.encode(it)
	b.ReportAllocs()
	for b.Loop() {
		m.encode(it)
	}
}

// BenchmarkPostingsKernelDocs makes the postings of the pages of kernel-docs
// ×1 (benchPages) big enough to have them, each page an item of its blank-
// line separated blocks, with one terms cache as SavePostings keeps it: the
// words of real text (capitals, stop words, punctuation), where
// BenchmarkEncodePostings draws lower-case words.
func BenchmarkPostingsKernelDocs(b *testing.B) {
	var items []*item.Item
	size := 0
	for _, page := range benchPages(b) {
		it := &item.Item{ID: postingsItem().ID}
		for _, block := range strings.Split(string(page), "\n\n") {
			if block = strings.TrimSpace(block); block != "" {
				it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: block})
			}
		}
		if n := len(page); n >= PostingsFrom {
			items = append(items, it)
			size += n
		}
	}
	m := newPostingsMaker()
	for _, it := range items { // the cache warm, as after the first pages of an add
		m.encode(it)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, it := range items {
			m.encode(it)
		}
	}
}

// TestPostingsMakerLetsGo checks what a postingsMaker keeps after an item:
// none of the item's words (pieces of its paragraphs), and no slice grown
// past keepScratch by a big item.
func TestPostingsMakerLetsGo(t *testing.T) {
	m := newPostingsMaker()
	m.encode(postingsItem())
	if len(m.n.at) != 0 {
		t.Errorf("%d words kept in at", len(m.n.at))
	}
	for i, term := range m.n.terms[:cap(m.n.terms)] {
		if term != "" {
			t.Fatalf("term %d %q kept", i, term)
		}
	}
	m.lists = make([]posting, 0, keepScratch+1)
	m.reset()
	if cap(m.lists) != 0 {
		t.Errorf("a list of %d postings kept", cap(m.lists))
	}
	if got := newPostingsMaker().encode(postingsItem()); !slices.Equal(m.encode(postingsItem()), got) {
		t.Errorf("the maker let go of its slices, then made other postings")
	}
}
