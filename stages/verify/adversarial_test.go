package verify

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/jsonl"
)

// stored is a saved item read back from a library, ready for searching.
type stored struct {
	it  *item.Item
	doc *quote.Doc
}

// scifactDir is the benchmark data beside the repository; tests use its
// abstracts as real text when it is there.
var scifactDir = filepath.Join("..", "..", "..", "shared", "bench", "scifact")

// storedItems reads back every item of the fixture library and, when the
// SciFact abstracts are there, the first 300 of them saved into a library of
// their own: real text, read from a real store.
var storedItems = sync.OnceValues(func() ([]stored, error) {
	dirs := []string{testLibrary()}
	if f, err := os.Open(filepath.Join(scifactDir, "corpus.jsonl")); err == nil {
		defer f.Close()
		dir, err := os.MkdirTemp("", "sponge-verify-scifact-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		lib, err := library.Create(dir)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 0; n < 300 && sc.Scan(); n++ {
			var a struct{ Title, Text string }
			if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
				return nil, err
			}
			it := &item.Item{ID: library.ItemID(sc.Bytes()), Title: a.Title, Kind: item.KindText,
				Paragraphs: []item.Paragraph{{Text: a.Title}, {Text: a.Text}}}
			if err := lib.Put(it, sc.Bytes()); err != nil {
				return nil, err
			}
		}
		dirs = append(dirs, dir)
		return readStored(dirs)
	}
	return readStored(dirs)
})

func readStored(dirs []string) ([]stored, error) {
	var out []stored
	for _, dir := range dirs {
		lib, err := library.Open(dir)
		if err != nil {
			return nil, err
		}
		ids, err := lib.IDs()
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			it, err := lib.Item(id)
			if err != nil {
				return nil, err
			}
			texts := make([]string, len(it.Paragraphs))
			for i, p := range it.Paragraphs {
				texts[i] = p.Text
			}
			out = append(out, stored{it, quote.NewDoc(texts)})
		}
	}
	return out, nil
}

func items(t *testing.T) []stored {
	s, err := storedItems()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// wordSeq is the oracle for "these words are not in the item": the
// lowercased runs of letters and digits, joined by single spaces. It ignores
// punctuation, so when a quote's wordSeq is not in any paragraph's wordSeq,
// the quote cannot be the saved words.
func wordSeq(s string) string {
	s = norm.NFC.String(s)
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	})
	return " " + strings.Join(f, " ") + " "
}

func inItem(st stored, q string) bool {
	w := wordSeq(q)
	for _, p := range st.it.Paragraphs {
		if strings.Contains(wordSeq(p.Text), w) {
			return true
		}
	}
	return false
}

// absentWords are words that are in none of the items.
func absentWord(st stored, rng *rand.Rand) string {
	for {
		w := []string{"zebra", "quasar", "marmalade", "xylophone", "glacier", "velvet", "kumquat", "sonnet"}[rng.Intn(8)]
		if !inItem(st, w) {
			return w
		}
	}
}

// tokens are the whitespace-separated words of a saved paragraph. A span of
// tokens is a word-aligned quote, unless it cuts a word broken at a line end.
func spanOK(toks []string, i, j int) bool {
	brokenAfter := func(k int) bool {
		return k >= 0 && k < len(toks) && strings.ContainsAny(toks[k][len(toks[k])-1:], "-\u00ad") ||
			k >= 0 && k < len(toks) && strings.HasSuffix(toks[k], "\u2010")
	}
	return !brokenAfter(i-1) && !brokenAfter(j-1)
}

// realQuotes picks quotes from the stored items: word-aligned spans of 6 to
// 12 words.
func realQuotes(t *testing.T, rng *rand.Rand, n int) []struct {
	st    stored
	para  int
	quote string
} {
	all := items(t)
	var out []struct {
		st    stored
		para  int
		quote string
	}
	for len(out) < n {
		st := all[rng.Intn(len(all))]
		pi := rng.Intn(len(st.it.Paragraphs))
		toks := strings.Fields(st.it.Paragraphs[pi].Text)
		if len(toks) < 6 {
			continue
		}
		k := min(len(toks), 6+rng.Intn(7))
		i := rng.Intn(len(toks) - k + 1)
		if !spanOK(toks, i, i+k) {
			continue
		}
		out = append(out, struct {
			st    stored
			para  int
			quote string
		}{st, pi, strings.Join(toks[i:i+k], " ")})
	}
	return out
}

func found(st stored, q string, prefer int) bool {
	_, _, ok := st.doc.Find(quote.NewQuote(q), prefer)
	return ok
}

// TestAdversarialQuotes: every single-word change, insertion, deletion and
// swap of a real quote, invisible characters and look-alike letters are all
// left out, and the quote itself is found.
func TestAdversarialQuotes(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	checked := 0
	for _, rq := range realQuotes(t, rng, 120) {
		st, q := rq.st, rq.quote
		if !found(st, q, rq.para) {
			t.Fatalf("the real quote %q is not found in %s", q, st.it.Title)
		}
		w := strings.Fields(q)
		var bad []string
		// Changes: an absent word, and a word of the same paragraph.
		paraWords := strings.Fields(st.it.Paragraphs[rq.para].Text)
		for i := range w {
			for _, nw := range []string{absentWord(st, rng), paraWords[rng.Intn(len(paraWords))]} {
				v := append(append(append([]string{}, w[:i]...), nw), w[i+1:]...)
				bad = append(bad, strings.Join(v, " "))
			}
		}
		// Insertions at every place, ends included.
		for i := 0; i <= len(w); i++ {
			v := append(append(append([]string{}, w[:i]...), absentWord(st, rng)), w[i:]...)
			bad = append(bad, strings.Join(v, " "))
		}
		// Deletions inside the quote (dropping an end word leaves saved words).
		for i := 1; i < len(w)-1; i++ {
			v := append(append([]string{}, w[:i]...), w[i+1:]...)
			bad = append(bad, strings.Join(v, " "))
		}
		// Swaps of neighbours.
		for i := 0; i+1 < len(w); i++ {
			v := append([]string{}, w...)
			v[i], v[i+1] = v[i+1], v[i]
			bad = append(bad, strings.Join(v, " "))
		}
		// Invisible characters inside a word and between words.
		mid := len(w) / 2
		for _, z := range []string{"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"} {
			v := append([]string{}, w...)
			r := []rune(v[mid])
			if len(r) >= 2 {
				v[mid] = string(r[:1]) + z + string(r[1:])
				bad = append(bad, strings.Join(v, " "))
			}
			v = append([]string{}, w...)
			v[mid] = z + v[mid]
			bad = append(bad, strings.Join(v, " "))
		}
		// Look-alike letters: Cyrillic and Greek for Latin.
		for latin, other := range map[rune]rune{'a': 'а', 'e': 'е', 'o': 'о', 'p': 'р', 'c': 'с', 'x': 'х', 'y': 'у', 'i': 'і', 'A': 'Α', 'T': 'Τ'} {
			if i := strings.IndexRune(q, latin); i >= 0 {
				bad = append(bad, q[:i]+string(other)+q[i+1:])
			}
		}
		for _, b := range bad {
			if b == q {
				continue
			}
			// A change may by chance give other words of the item (a swap of
			// two equal words, a deletion that matches another sentence):
			// those are saved words and are skipped.
			if !strings.ContainsAny(b, "\u200b\u200c\u200d\u2060\ufeff\u00adаеорсхуіΑΤ") && inItem(st, b) {
				continue
			}
			checked++
			if found(st, b, rq.para) {
				t.Errorf("%s: %q is found, but it is not the saved words (real quote %q)", st.it.Title, b, q)
			}
		}
	}
	t.Logf("%d changed quotes checked", checked)
}

// TestStitchedQuotes: fragments of two paragraphs, or of two items, joined
// into one quote are left out even though each fragment is saved.
func TestStitchedQuotes(t *testing.T) {
	all := items(t)
	tail := func(p string, n int) string { f := strings.Fields(p); return strings.Join(f[max(0, len(f)-n):], " ") }
	head := func(p string, n int) string { f := strings.Fields(p); return strings.Join(f[:min(n, len(f))], " ") }
	checked := 0
	for i, a := range all {
		// Within an item: the end of each paragraph and the start of the next.
		for pi := 0; pi+1 < len(a.it.Paragraphs); pi++ {
			for _, q := range []string{
				tail(a.it.Paragraphs[pi].Text, 4) + " " + head(a.it.Paragraphs[pi+1].Text, 4),
				head(a.it.Paragraphs[pi].Text, 4) + " " + head(a.it.Paragraphs[pi+1].Text, 4),
			} {
				if inItem(a, q) {
					continue
				}
				checked++
				if found(a, q, pi) {
					t.Errorf("%s: %q, stitched from paragraphs %d and %d, is found", a.it.Title, q, pi, pi+1)
				}
			}
		}
		// Across an item boundary: the end of this item and the start of the next.
		b := all[(i+1)%len(all)]
		q := tail(a.it.Paragraphs[len(a.it.Paragraphs)-1].Text, 4) + " " + head(b.it.Paragraphs[0].Text, 4)
		checked++
		if found(a, q, -1) || found(b, q, -1) {
			t.Errorf("%q, across the items %s and %s, is found", q, a.it.Title, b.it.Title)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d stitched quotes checked", checked)
	}
}

// vary changes the formatting of a quote only in ways the matching rule
// forgives.
func vary(q string, rng *rand.Rand) string {
	var b strings.Builder
	r := []rune(q)
	letterRun := 0
	for i, c := range r {
		switch {
		case c == ' ':
			b.WriteString([]string{" ", "  ", "\n", " \n ", "\t", "\u00a0", "\r\n"}[rng.Intn(7)])
			letterRun = 0
			continue
		case c == '\'' || c == '’':
			b.WriteString([]string{"'", "’"}[rng.Intn(2)])
		case c == '"' || c == '“' || c == '”':
			b.WriteString([]string{`"`, "“", "”"}[rng.Intn(3)])
		case strings.ContainsRune("-‐‑‒–—―−", c) && !(c == '-' && i > 0 && unicode.IsLetter(r[i-1]) && i+1 < len(r) && r[i+1] == ' '):
			// (A hyphen after a letter and before a space, as in "pre- and
			// post-war", reads as a line-end hyphen and stays a hyphen.)
			b.WriteString([]string{"-", "–", "—", "−", "--"}[rng.Intn(5)])
		case c == '…':
			b.WriteString("...")
		case c == '.' && i+2 < len(r) && r[i+1] == '.' && r[i+2] == '.':
			b.WriteString("…")
			r[i+1], r[i+2] = 0, 0
		case c == 0:
		default:
			// Break a long word at a line end, as a PDF would.
			if letterRun >= 3 && unicode.IsLetter(c) && i+3 < len(r) && unicode.IsLetter(r[i+1]) && unicode.IsLetter(r[i+2]) && rng.Intn(12) == 0 {
				b.WriteString([]string{"- ", "-\n", "\u2010\n"}[rng.Intn(3)])
			}
			if rng.Intn(2) == 0 {
				b.WriteString(norm.NFD.String(string(c)))
			} else {
				b.WriteRune(c)
			}
		}
		if unicode.IsLetter(c) {
			letterRun++
		} else {
			letterRun = 0
		}
	}
	s := b.String()
	// The case of the first letter.
	if f := []rune(s); len(f) > 0 && unicode.IsLetter(f[0]) && rng.Intn(2) == 0 {
		if unicode.IsUpper(f[0]) {
			f[0] = unicode.ToLower(f[0])
		} else {
			f[0] = unicode.ToUpper(f[0])
		}
		s = string(f)
	}
	return [...]string{"", " ", "\n"}[rng.Intn(3)] + s + [...]string{"", " ", "\n"}[rng.Intn(3)]
}

// TestPropertyRandomSpans: random word-aligned spans of stored items, with
// their formatting varied, always verify, at offsets that give back the
// saved words; with one word changed, they never do.
func TestPropertyRandomSpans(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewSource(1))
	all := items(t)
	tried, changed := 0, 0
	for tried < n {
		st := all[rng.Intn(len(all))]
		pi := rng.Intn(len(st.it.Paragraphs))
		text := st.it.Paragraphs[pi].Text
		toks := strings.Fields(text)
		if len(toks) < 3 {
			continue
		}
		k := 3 + rng.Intn(min(len(toks)-2, 25))
		i := rng.Intn(len(toks) - k + 1)
		if !spanOK(toks, i, i+k) {
			continue
		}
		tried++
		span := strings.Join(toks[i:i+k], " ")
		v := vary(span, rng)
		para, m, ok := st.doc.Find(quote.NewQuote(v), pi)
		if !ok {
			t.Fatalf("%s ¶%d: the span %q varied as %q is not found", st.it.Title, pi, span, v)
		}
		saved := string([]rune(st.it.Paragraphs[para].Text)[m.Start:m.End])
		if saved != m.Saved || wordSeq(saved) != wordSeq(span) {
			t.Fatalf("%s ¶%d: %q found at [%d,%d) of ¶%d, which holds %q", st.it.Title, pi, v, m.Start, m.End, para, saved)
		}

		// One word changed: for an absent word, or a word of the item that
		// makes words found nowhere in it.
		w := append([]string{}, toks[i:i+k]...)
		j := rng.Intn(len(w))
		if rng.Intn(2) == 0 {
			w[j] = absentWord(st, rng)
		} else {
			w[j] = toks[rng.Intn(len(toks))]
		}
		bad := strings.Join(w, " ")
		if inItem(st, bad) {
			continue
		}
		changed++
		if _, _, ok := st.doc.Find(quote.NewQuote(vary(bad, rng)), pi); ok {
			t.Fatalf("%s ¶%d: %q (one word of %q changed) is found", st.it.Title, pi, bad, span)
		}
	}
	t.Logf("%d spans verified, %d changed spans left out, over %d items", tried, changed, len(all))
}

// TestAdversarialThroughStage runs changed quotes through sponge-verify
// itself: each comes out left out as quote-not-found.
func TestAdversarialThroughStage(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var sb strings.Builder
	tea := items(t)[0]
	for _, st := range items(t) {
		if st.it.ID == "0a57a26ade13c4f1b2e8d9a07f6b5c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b" {
			tea = st
		}
	}
	p := tea.it.Paragraphs[0]
	fmt.Fprintf(&sb, `{"v":1,"type":"passage","number":1,"itemId":%q,"title":%q,"paragraph":0,"text":%q,"score":1}`+"\n", tea.it.ID, tea.it.Title, p.Text)
	w := strings.Fields(p.Text)[:10]
	n := 0
	statement := func(q string) {
		n++
		b, _ := json.Marshal(map[string]any{"v": 1, "type": "statement", "text": "A statement.", "passage": 1, "quote": q})
		sb.Write(b)
		sb.WriteByte('\n')
	}
	for i := range w {
		v := append([]string{}, w...)
		v[i] = absentWord(tea, rng)
		statement(strings.Join(v, " "))
		v = append([]string{}, w...)
		if i+1 < len(w) && v[i] != v[i+1] {
			v[i], v[i+1] = v[i+1], v[i]
			statement(strings.Join(v, " "))
		}
	}
	statement(strings.Join(w, " \u200b"))
	statement(strings.Replace(strings.Join(w, " "), "a", "а", 1))
	r := runWhole(testLibrary(), []byte(sb.String()))
	recs := decodeAll(t, r.Stdout)
	if r.Code != 0 || len(recs) != n+1 {
		t.Fatalf("code %d, %d records for %d statements; stderr %q", r.Code, len(recs), n, r.Stderr)
	}
	for _, rec := range recs[1:] {
		lo, ok := rec.(*jsonl.LeftOut)
		if !ok || lo.Reason != jsonl.ReasonNotFound {
			t.Errorf("got %#v, want left out as %s", rec, jsonl.ReasonNotFound)
		}
	}
}
