package ui

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/library"
)

// segment is a piece of a paragraph's text: marked (the quote's words), or
// the start of a page inside the paragraph.
type segment struct {
	Text     string
	Mark     bool   // the quote the page was opened from
	Page     int    // a page starts before Text (a paragraph across a page break)
	PageLink string // the page's PDF page (PageLink), with the quote when it is on it
}

// block is one paragraph of the item page, with what comes before it.
type block struct {
	Index   int
	Heading string // a heading that starts here
	// HeadingPage is the page that starts with the heading, before it
	// (PDF), and HeadingPageLink its PDF page
	HeadingPage     int
	HeadingPageLink string
	Page            int    // the page that starts here (PDF), after the heading
	PageLink        string // its PDF page (PageLink), with the quote when it is on it
	Time            string // the paragraph's transcript time, "12:34"
	Seconds         int64  // the same, in whole seconds (the media's start)
	Parts           []segment
	Target          bool // the paragraph the page was opened at
}

// summaryLine is a statement of the item's summary.
type summaryLine struct {
	Text, Quote, Where, Link string
	SameAsQuote              bool
}

// itemData is the item page's.
type itemData struct {
	ID, Title, Kind string
	Sources         []string
	Added           time.Time
	Pages           int
	Summary         []summaryLine
	SummaryModel    string
	Blocks          []block
	Target          int    // the paragraph opened at; -1 none
	Quote           string // the quote looked for (q)
	Marked          bool   // its words were found and marked
	Media           string // "audio" or "video": a media file beside the transcript
	MediaStart      int64  // where it starts playing, in seconds
}

// itemPage shows an item: title, sources, kind, summary, then its text
// with headings and page or time markers. ?p=N scrolls to paragraph N and
// ?q=… marks the quote's words in it, found by the quote check sponge-verify
// uses (the same words it verified).
func (s *Server) itemPage(w http.ResponseWriter, r *http.Request) {
	lib, err := s.open()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	id := r.PathValue("id")
	full, err := lib.Resolve(id)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	if full != id {
		u := url.URL{Path: "/item/" + full, RawQuery: r.URL.RawQuery}
		http.Redirect(w, r, u.String(), http.StatusFound)
		return
	}
	it, err := wholeItem(lib, full)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	q := r.URL.Query()
	d := itemData{ID: it.ID, Title: it.Title, Kind: it.Kind, Sources: it.Sources(), Added: it.Added, Target: -1, Quote: q.Get("q")}
	if len(d.Quote) > MaxWords {
		s.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the quote is longer than %d bytes", MaxWords), "")
		return
	}
	if p := q.Get("p"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n >= len(it.Paragraphs) {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("the item has no paragraph %q (it has %d, from 0)", p, len(it.Paragraphs)), "")
			return
		}
		d.Target = n
	}
	if sum := lib.CurrentSummary(it); sum != nil {
		d.SummaryModel = sum.Model
		for _, st := range sum.Statements {
			d.Summary = append(d.Summary, summaryLine{Text: st.Text, Quote: st.Quote, Where: item.Where(st.Page, st.StartMs),
				Link: QuoteLink(it.ID, st.Paragraph, st.Quote), SameAsQuote: quote.Same(st.Text, st.Quote)})
		}
	}
	var at int
	d.Blocks, d.Pages, d.Marked, at = blocks(it, d.Target, d.Quote)
	if kind := mediaKind(s.mediaBeside(it)); kind != "" {
		d.Media = kind
		if d.Target >= 0 {
			// From the time of the quote's own cue, as sponge ask gives it.
			if _, ms := it.Paragraphs[d.Target].At(at); ms != nil {
				d.MediaStart = *ms / 1000
			}
		}
	}
	s.render(w, http.StatusOK, "item.html", &Page{Title: it.Title, Data: d})
}

// wholeItem reads an item with all its paragraphs, each decoded by the
// library's own reader of paragraphs (library.Paragraphs) rather than
// encoding/json: a third of the time of a 300-page PDF's page was its
// decoding.
func wholeItem(lib *library.Library, id string) (*item.Item, error) {
	ps, err := lib.Paragraphs(id)
	if err != nil {
		return nil, err
	}
	it := ps.Item
	it.Paragraphs = make([]item.Paragraph, ps.Len())
	for i := range it.Paragraphs {
		p, err := ps.At(i)
		if err != nil {
			return nil, err
		}
		it.Paragraphs[i] = *p
	}
	return &it, nil
}

// QuoteLink is the address of an item's page opened at a quote: scrolled
// to its paragraph with its words marked.
func QuoteLink(id string, paragraph int, quote string) string {
	v := url.Values{"p": {strconv.Itoa(paragraph)}}
	if quote != "" {
		v.Set("q", quote)
	}
	return "/item/" + id + "?" + v.Encode() + "#p" + strconv.Itoa(paragraph)
}

// blocks are the item's paragraphs as the page shows them; pages is the
// last page, marked whether the quote was found in the target, and at
// where it starts there (0 when not found). The links of the pages the
// quote is on carry its saved words, to be marked on the PDF page too.
func blocks(it *item.Item, target int, q string) (bs []block, pages int, marked bool, at int) {
	start, end := -1, -1
	var saved string    // the quote's words as saved
	qFrom, qTo := 0, -1 // the pages the quote is on
	if target >= 0 && q != "" {
		p := &it.Paragraphs[target]
		if m, ok := quote.NewText(p.Text).Find(quote.NewQuote(q)); ok && m.End > m.Start {
			start, end, marked, at = m.Start, m.End, true, m.Start
			saved = string([]rune(p.Text)[m.Start:m.End])
			qFrom, _ = p.At(m.Start)
			qTo, _ = p.At(m.End - 1)
		}
	}
	link := func(page int) string {
		if page >= qFrom && page <= qTo {
			return PageLink(it.ID, page, saved)
		}
		return PageLink(it.ID, page, "")
	}
	bs = make([]block, len(it.Paragraphs))
	heading, page := "", 0
	var lastMs *int64
	for i := range it.Paragraphs {
		p := &it.Paragraphs[i]
		b := block{Index: i, Target: i == target}
		if p.Heading != "" && p.Heading != heading {
			b.Heading = p.Heading
			// the heading on its own page: a heading at a page's foot
			// (item.Paragraph.HeadingPage) on it, the others on their
			// paragraph's
			if hp := p.HeadingOn(); hp > 0 && hp != page {
				b.HeadingPage, b.HeadingPageLink = hp, link(hp)
				page = hp
			}
		}
		heading = p.Heading
		if p.Page > 0 && p.Page != page {
			b.Page, b.PageLink = p.Page, link(p.Page)
			page = p.Page
		}
		if p.StartMs != nil && (lastMs == nil || *lastMs != *p.StartMs) {
			b.Time, b.Seconds = item.FormatTime(*p.StartMs), *p.StartMs/1000
			lastMs = p.StartMs
		}
		if i == target {
			b.Parts = cut(p, start, end)
		} else {
			b.Parts = cut(p, -1, -1)
		}
		for k := range b.Parts {
			if pg := b.Parts[k].Page; pg > 0 {
				b.Parts[k].PageLink = link(pg)
			}
		}
		for _, ps := range p.Pages {
			page = max(page, ps.Page)
		}
		bs[i] = b
	}
	return bs, page, marked, at
}

// cut splits a paragraph's text at its page starts and around the marked
// characters [start, end) (code points; -1 none).
func cut(p *item.Paragraph, start, end int) []segment {
	if start < 0 && len(p.Pages) == 0 {
		return []segment{{Text: p.Text}}
	}
	type point struct {
		at   int
		page int // a page starts here
		mark int // 1 the mark starts, -1 it ends
	}
	var points []point
	for _, ps := range p.Pages {
		if ps.Offset > 0 {
			points = append(points, point{at: ps.Offset, page: ps.Page})
		}
	}
	if start >= 0 {
		points = append(points, point{at: start, mark: 1}, point{at: end, mark: -1})
	}
	// Points in order of offset; at one offset a mark ends before a page
	// starts, and a page starts before a mark.
	for i := 1; i < len(points); i++ {
		for j := i; j > 0 && less(points[j].at, points[j].mark, points[j-1].at, points[j-1].mark); j-- {
			points[j], points[j-1] = points[j-1], points[j]
		}
	}
	var segs []segment
	runes := []rune(p.Text)
	prev, marking, pendingPage := 0, false, 0
	flush := func(to int) {
		to = min(to, len(runes))
		if to > prev || pendingPage > 0 {
			segs = append(segs, segment{Text: string(runes[prev:to]), Mark: marking, Page: pendingPage})
			pendingPage = 0
		}
		prev = max(prev, to)
	}
	for _, pt := range points {
		flush(pt.at)
		switch {
		case pt.mark == 1:
			marking = true
		case pt.mark == -1:
			marking = false
		default:
			pendingPage = pt.page
		}
	}
	flush(len(runes))
	return segs
}

func less(at, mark, at2, mark2 int) bool {
	if at != at2 {
		return at < at2
	}
	return mark < mark2 // an end (-1) before a page (0) before a start (1)
}
