package rank

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sponge-library/sponge/internal/base/item"
)

// longItem is a 20-page item: three paragraphs a page, those of the first
// two pages the most central (they repeat the words every page uses), and a
// table of contents first.
func longItem() *item.Item {
	it := &item.Item{ID: strings.Repeat("a", 64), Title: "Long"}
	it.Paragraphs = append(it.Paragraphs, item.Paragraph{Page: 1,
		Text: "1 Introduction . . . . . . . 3 2 Usage . . . . . . . 5 3 Options . . . . . . 9 4 Index . . . 20"})
	for page := 1; page <= 20; page++ {
		for k := 0; k < 3; k++ {
			text := fmt.Sprintf("Chapter %d part %d speaks of topic%d and subject%d with detail%d words.", page, k, page, page, page*10+k)
			if page <= 2 {
				text = fmt.Sprintf("Volcanoes erupt when magma and gas rise; volcanoes, magma and gas shape chapter %d part %d.", page, k)
			} else {
				text += " Magma is mentioned once."
			}
			it.Paragraphs = append(it.Paragraphs, item.Paragraph{Page: page, Text: text})
		}
	}
	return it
}

// TestItemPassagesSpread: a summary's passages come from all of the item,
// not from its most central start only, and the table of contents is none.
func TestItemPassagesSpread(t *testing.T) {
	it := longItem()
	ps := ItemPassages(it)
	if len(ps) != SummaryPassages {
		t.Fatalf("%d passages, want %d", len(ps), SummaryPassages)
	}
	pages := map[int]bool{}
	last := -1
	for i, p := range ps {
		if p.Number != i+1 || p.Paragraph <= last {
			t.Errorf("passage %d (paragraph %d) is out of reading order", p.Number, p.Paragraph)
		}
		last = p.Paragraph
		if p.Paragraph == 0 {
			t.Errorf("the table of contents is a passage: %q", p.Text)
		}
		pages[p.Page] = true
	}
	if len(pages) < 6 || !pages[20] && !pages[19] && !pages[18] {
		t.Errorf("the passages touch pages %v: not spread over the 20 pages", pages)
	}
}

// TestItemPassagesSame: an item's passages are the same every time. Its
// paragraphs of pages 3–20 are alike, so their scores tie but for the last
// bits of the sums, which came out differently from run to run when they
// were summed in a map's order.
func TestItemPassagesSame(t *testing.T) {
	want := ItemPassages(longItem())
	for range 30 {
		if diff := cmp.Diff(want, ItemPassages(longItem())); diff != "" {
			t.Fatalf("passages differ from one run to the next (-first +later):\n%s", diff)
		}
	}
}

// TestItemPassagesShort: an item of one paragraph is one passage, whole.
func TestItemPassagesShort(t *testing.T) {
	it := &item.Item{ID: strings.Repeat("b", 64), Title: "Abstract", Paragraphs: []item.Paragraph{
		{Text: "Alterations of the architecture of cerebral white matter can affect cortical development. We measured it."}}}
	ps := ItemPassages(it)
	if len(ps) != 1 || ps[0].Text != it.Paragraphs[0].Text {
		t.Fatalf("passages %+v, want the one paragraph", ps)
	}
}

// TestItemPassagesLead: the item's first paragraph of prose is its first
// passage, though the next one is a little more central.
func TestItemPassagesLead(t *testing.T) {
	it := &item.Item{ID: strings.Repeat("c", 64), Title: "Lead"}
	it.Paragraphs = append(it.Paragraphs,
		item.Paragraph{Text: "This small tool adds hyper links to documentation, for careful readers everywhere who print manuals."},
		item.Paragraph{Text: "The package documentation has macros, links and bookmarks: package documentation macros."})
	for i := 0; i < 30; i++ {
		it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: fmt.Sprintf("Section %d on package documentation, macros, links and bookmarks, with word%d.", i, i)})
	}
	ps := ItemPassages(it)
	if len(ps) == 0 || ps[0].Paragraph != 0 {
		t.Errorf("first passage is paragraph %d, want 0", ps[0].Paragraph)
	}
}

// TestItemPassagesNameLine: a manual page's NAME line, shorter than a
// paragraph of prose, is its first passage (it says what the item is), in
// any language; another item's short first line is not.
func TestItemPassagesNameLine(t *testing.T) {
	for _, name := range []string{"ssh — OpenSSH remote login client", "uname - Systeminformationen ausgeben", "ls — список файлов"} {
		for _, kind := range []string{item.KindMan, item.KindMarkdown} {
			it := &item.Item{ID: strings.Repeat("d", 64), Title: "page", Kind: kind}
			it.Paragraphs = append(it.Paragraphs, item.Paragraph{Heading: "NAME", Text: name})
			for i := 0; i < 12; i++ {
				it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: fmt.Sprintf("The program reads its options and prints what it was asked for, as section %d says.", i)})
			}
			ps := ItemPassages(it)
			got := len(ps) > 0 && ps[0].Paragraph == 0
			if want := kind == item.KindMan; got != want {
				t.Errorf("%s %q: first passage is the NAME line %v, want %v", kind, name, got, want)
			}
		}
	}
}

// TestItemPassagesScripts: an item written without spaces (Chinese) or
// with spacing vowel signs (Bengali) has paragraphs of prose as any other:
// its first passage is its first paragraph of prose, not the short heading
// above it. Its words were counted as runs between punctuation (a Chinese
// paragraph was four "words", under minProseWords) and a Bengali vowel sign
// as no letter (under prose's share), so every paragraph fell to the
// short-lines fallback and the heading came first.
func TestItemPassagesScripts(t *testing.T) {
	for _, tc := range []struct {
		name, heading string
		para          func(i int) string
	}{
		{"zh", "第一章", func(i int) string {
			return fmt.Sprintf("堆肥是把厨房和花园里的有机废物变成肥沃土壤的过程，第%d段说明温度、水分和空气如何共同影响分解的速度。", i)
		}},
		{"bn", "অধ্যায় এক", func(i int) string {
			return fmt.Sprintf("কম্পোস্ট হলো রান্নাঘর ও বাগানের জৈব বর্জ্যকে উর্বর মাটিতে পরিণত করার প্রক্রিয়া, এবং অংশ %d বলে তাপমাত্রা ও আর্দ্রতা কীভাবে পচনের গতি বদলায়।", i)
		}},
	} {
		it := &item.Item{ID: strings.Repeat("e", 64), Title: tc.name}
		it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: tc.heading})
		for i := 1; i <= 12; i++ {
			it.Paragraphs = append(it.Paragraphs, item.Paragraph{Text: tc.para(i)})
		}
		ps := ItemPassages(it)
		if len(ps) == 0 || ps[0].Paragraph != 1 {
			var got []int
			for _, p := range ps {
				got = append(got, p.Paragraph)
			}
			t.Errorf("%s: passages of paragraphs %v, want paragraph 1 (the first of prose) first", tc.name, got)
		}
		for _, p := range ps {
			if p.Paragraph == 0 {
				t.Errorf("%s: the heading %q is a passage", tc.name, tc.heading)
			}
		}
	}
}
