// Package stagetest holds what the stages' tests share: a golden-file runner
// that replays inputs whole, line by line and in tiny chunks, and a small,
// realistic library: a markdown note, a PDF with pages, a transcript with
// cues and a plain text note.
package stagetest

import (
	"os"
	"sync"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

// Entry is a saved item with the source bytes it was made from.
type Entry struct {
	Item   *item.Item
	Source []byte
}

// Ids of the items, as golden files name them. They are set rather than
// hashed from the sources, so that golden files stay readable when a source
// changes, and so that TeaNotes has the id the answer in issue 4 shows
// (0a57a26ade13…).
const (
	TeaNotes = "0a57a26ade13c4f1b2e8d9a07f6b5c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b"
	Handbook = "5b1f0c2d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c"
	Podcast  = "9c4e3d2a1b0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d"
	Coffee   = "d2a7c1e5b9f3a8d4c6e0b2f7a9c3d5e1f8b4a6c0d2e9f1a3b5c7d9e0f2a4b6c8"
)

func ms(v int64) *int64 { return &v }

var added = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// Items returns the items of the library, fresh each call.
func Items() []Entry {
	tea := &item.Item{ID: TeaNotes, Title: "Tea notes", Source: "/home/ana/notes/tea.md", Kind: item.KindMarkdown, Added: added,
		Paragraphs: []item.Paragraph{
			{Heading: "Green tea", Text: "Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter."},
			{Heading: "Green tea", Text: "Sencha and gyokuro are Japanese green teas; gyokuro is shaded for about three weeks before the harvest, which makes it sweeter."},
			{Heading: "Black tea", Text: "Black tea is brewed with water just off the boil and steeped for three to five minutes. Milk softens its tannins."},
			{Heading: "Storage", Text: "Keep tea in an airtight tin, away from light, heat and strong smells — tea absorbs odours easily. Green tea keeps for about six months."},
		}}
	handbook := &item.Item{ID: Handbook, Title: "The Brewing Handbook", Source: "/home/ana/papers/brewing-handbook.pdf", Kind: item.KindPDF, Added: added,
		Paragraphs: []item.Paragraph{
			{Heading: "1 Water", Page: 1, Text: "Water quality matters as much as the leaf. Soft water with a neutral pH brings out the sweetness of the tea; hard water leaves a dull film on the surface of the cup."},
			{Heading: "2 Temperature", Page: 2, Text: "The inter-\nnational standard ISO 3103 specifies water at boiling point for a six-minute infusion of black tea, a method designed for tasting rather than for pleasure."},
			{Heading: "3 Oolong", Page: 3, Pages: []item.PageStart{{Offset: 62, Page: 4}},
				Text: "Oolong teas are partly oxidised, between green and black tea. They are best brewed several times in a small pot, each infusion a little longer than the one before; the third infusion is often the finest."},
			{Heading: "4 Serving", Page: 5, Text: "Café owners report that customers rarely notice the difference between 85 and 90 °C, but they do notice over‑steeped tea at once: it tastes “stewed”."},
		}}
	podcast := &item.Item{ID: Podcast, Title: "Tea Talk, episode 12: Matcha", Source: "https://example.org/teatalk/12.vtt", Kind: item.KindVTT, Added: added,
		Paragraphs: []item.Paragraph{
			{StartMs: ms(0), Cues: []item.Cue{{Offset: 0, StartMs: 0}, {Offset: 26, StartMs: 4500}, {Offset: 61, StartMs: 9000}},
				Text: "Welcome back to the show. Today we are talking about matcha. It is a powdered green tea, whisked rather than steeped."},
			{StartMs: ms(754000), Cues: []item.Cue{{Offset: 0, StartMs: 754000}, {Offset: 61, StartMs: 759500}},
				Text: "The whisk is called a chasen, and it has about eighty tines. You whisk in a zigzag until a fine foam forms on top."},
			{StartMs: ms(3723000), Cues: []item.Cue{{Offset: 0, StartMs: 3723000}},
				Text: "That’s all for today… next week: the history of the teapot."},
		}}
	coffee := &item.Item{ID: Coffee, Title: "Coffee notes", Source: "/home/ana/notes/coffee.txt", Kind: item.KindText, Added: added,
		Paragraphs: []item.Paragraph{
			{Text: "Coffee is brewed at ninety to ninety-six degrees, hotter than any tea."},
			{Text: "Espresso is pressed through the grounds at nine bars of pressure."},
		}}
	return []Entry{
		{tea, []byte("# Tea notes\n\n## Green tea\n\n" + tea.Paragraphs[0].Text + "\n")},
		{handbook, []byte("%PDF-1.4 brewing handbook")},
		{podcast, []byte("WEBVTT\n\n00:00.000 --> 00:04.500\nWelcome back to the show.\n")},
		{coffee, []byte(coffee.Paragraphs[0].Text + "\n\n" + coffee.Paragraphs[1].Text + "\n")},
	}
}

// Build makes the library in dir: the store and the index.
func Build(dir string) (*library.Library, error) {
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		return nil, err
	}
	for _, e := range Items() {
		if err := w.Add(e.Item, e.Source); err != nil {
			w.Close()
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return w.Library, nil
}

var (
	sharedMu  sync.Mutex
	sharedDir string
)

// Library returns the fixture library, built once per test binary in a
// temporary folder; TestMain calls Cleanup after the tests.
func Library() string {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sharedDir == "" {
		dir, err := os.MkdirTemp("", "sponge-stage-test-")
		if err != nil {
			panic(err)
		}
		if _, err := Build(dir); err != nil {
			panic(err)
		}
		sharedDir = dir
	}
	return sharedDir
}

// Cleanup removes the library Library made, if it did.
func Cleanup() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sharedDir != "" {
		os.RemoveAll(sharedDir)
		sharedDir = ""
	}
}
