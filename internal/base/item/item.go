// Package item defines what the library saves: an item, its paragraphs and
// where each paragraph came from (heading, PDF page, transcript time).
package item

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/internal/base/thai"
	"github.com/sponge-library/sponge/jsonl"
)

// Kinds of item, by the format they were saved from.
const (
	KindMarkdown = "markdown"
	KindText     = "text"
	KindHTML     = "html"
	KindPDF      = "pdf"
	KindVTT      = "vtt"
	KindSRT      = "srt"
	KindEPUB     = "epub"
	KindDOCX     = "docx"
	KindODT      = "odt"
	KindRST      = "rst"
	KindOrg      = "org"
	KindMan      = "man"
)

// ShortLen is how many hex digits of an id people see.
const ShortLen = 12

// MinPrefix is the shortest id prefix commands accept.
const MinPrefix = 4

// IDLen is how many hex digits a full id has (a SHA-256).
const IDLen = jsonl.ItemIDLen

// IsID reports whether s is a full item id: 64 lowercase hex digits, and
// so nothing that could name a path outside the library. The protocol,
// which checks every id a stage reads, holds the definition.
func IsID(s string) bool { return jsonl.IsItemID(s) }

// Item is one saved thing: a note, a web page, a PDF, a transcript.
type Item struct {
	// ID is the hex SHA-256 of the saved source bytes (see library.ItemID).
	ID    string `json:"id"`
	Title string `json:"title"`
	// TitleGiven says the title was given when the item was saved (sponge
	// add --title), so reading the item again keeps it.
	TitleGiven bool `json:"titleGiven,omitempty"`
	// Linked says the original bytes are not in the store (sponge add
	// --link): Source is the file, and the id tells whether it has changed.
	Linked bool `json:"linked,omitempty"`
	// AllText says it was read with every word its page shows (sponge add
	// --all-text), and is read so again (sponge update, reindex --extract).
	AllText bool   `json:"allText,omitempty"`
	Source  string `json:"source"`
	// Also are other sources saved with these same bytes (the same file
	// under another path): one item, every source noted.
	Also  []string  `json:"also,omitempty"`
	Kind  string    `json:"kind"`
	Added time.Time `json:"added"`
	// Author and Published are who wrote the item and when it was
	// published, as its source says of itself (a web page's metadata: its
	// byline and dateline are left out of its text); empty where unknown.
	Author    string `json:"author,omitempty"`
	Published string `json:"published,omitempty"`
	// Paragraphs in reading order; a paragraph's index in this slice is how
	// passages and quotes name it.
	Paragraphs []Paragraph `json:"paragraphs"`
}

// Paragraph is a run of text with where it came from.
type Paragraph struct {
	Text string `json:"text"`
	// Heading is the nearest heading above the paragraph, if any.
	Heading string `json:"heading,omitempty"`
	// Page is the 1-based PDF page the paragraph starts on; 0 when not a PDF.
	Page int `json:"page,omitempty"`
	// HeadingPage is, on the first paragraph under a heading (where
	// Heading changes), the PDF page that heading (the last of its path)
	// is on when that is not Page: a section's heading at the foot of a
	// page, its first paragraph on the next. 0 when it is Page, on the
	// paragraphs after the first, and in items saved before it was kept
	// (HeadingOn).
	HeadingPage int `json:"headingPage,omitempty"`
	// StartMs is the start time of a transcript paragraph.
	StartMs *int64 `json:"startMs,omitempty"`
	// Cues are the transcript cues joined into this paragraph, so that a
	// quote starting mid-paragraph can name the time of its own cue.
	Cues []Cue `json:"cues,omitempty"`
	// Pages marks where later pages start inside a paragraph that runs
	// across a page break.
	Pages []PageStart `json:"pages,omitempty"`
}

// CodeOf splits a paragraph's text into its prose and the block of code it
// holds. Text is one line, but a block of code (HTML's <pre>, Markdown's
// fences, a manual page's no-fill displays, reStructuredText's literal
// blocks, Org's source blocks) keeps its lines, "\n" between
// them and never a blank line; a short one saved with the sentence that
// announces it ("… while you are still learning Python:") follows that
// sentence after a blank line ("\n\n"). Text with no line break is all
// prose. Whoever shows a paragraph shows the code's lines; whoever reads
// its words reads a line break as a space.
func CodeOf(text string) (prose, code string) {
	if !strings.Contains(text, "\n") {
		return text, ""
	}
	if p, c, ok := strings.Cut(text, "\n\n"); ok {
		return p, c
	}
	return "", text
}

// Cue is a transcript cue inside a paragraph.
type Cue struct {
	// Offset is where the cue's text starts in Paragraph.Text, in characters (code points).
	Offset  int   `json:"offset"`
	StartMs int64 `json:"startMs"`
}

// PageStart is where a page starts inside a paragraph's text.
type PageStart struct {
	// Offset in characters (code points) into Paragraph.Text.
	Offset int `json:"offset"`
	Page   int `json:"page"`
}

// Sources are the item's sources: Source, then Also.
func (it *Item) Sources() []string {
	return append([]string{it.Source}, it.Also...)
}

// Short returns the id as people see it: 12 hex digits and "…".
func Short(id string) string {
	if len(id) <= ShortLen {
		return id
	}
	return id[:ShortLen] + "…"
}

// At returns the page and transcript time at character offset off of the
// paragraph: where a quote starting there comes from.
func (p *Paragraph) At(off int) (page int, startMs *int64) {
	page = p.Page
	for _, ps := range p.Pages {
		if ps.Offset <= off {
			page = ps.Page
		}
	}
	startMs = p.StartMs
	for _, c := range p.Cues {
		if c.Offset <= off {
			ms := c.StartMs
			startMs = &ms
		}
	}
	return page, startMs
}

// HeadingOn is the page the paragraph's heading is on where the heading
// starts (the first paragraph under it): HeadingPage, or Page where that
// is 0.
func (p *Paragraph) HeadingOn() int {
	if p.HeadingPage > 0 {
		return p.HeadingPage
	}
	return p.Page
}

// FormatTime formats milliseconds as a person reads a transcript time:
// 12:34, or 1:02:03 past an hour.
func FormatTime(ms int64) string {
	s := ms / 1000
	h, m, sec := s/3600, (s/60)%60, s%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("%d:%02d", m, sec)
}

// Where formats a page or a time for people: "p. 12", "12:34", or "".
func Where(page int, startMs *int64) string {
	switch {
	case page > 0:
		return fmt.Sprintf("p. %d", page)
	case startMs != nil:
		return FormatTime(*startMs)
	}
	return ""
}

// Asks reports whether a text (a sentence or a paragraph) asks rather than
// tells: it ends in a question mark of any script (Latin's, the full-width
// one of Chinese and Japanese, Arabic's ؟, Ethiopic's ፧, the Greek ;),
// before any closing quotes or brackets; or it is Thai, which writes no
// question mark, and ends in a word that asks (lang.Questions of Thai's
// lexicon: "…คืออะไร", "…ไหม"; "กี่" with its classifier: "…กี่นาที").
// A question is never quoted as an answer, and in a talk or an interview
// the paragraph after one is where its answer is.
func Asks(text string) bool {
	text = strings.TrimRight(text, " \t\n\"'’”)]»")
	r, _ := utf8.DecodeLastRuneInString(text)
	switch r {
	case '?', '？', '؟', '፧', '\u037e', '⸮':
		return true
	}
	return thaiAsks(text)
}

// thaiAsks reports whether a text of Thai ends in a word that asks: one of
// the Thai lexicon's lang.Questions, or "กี่" (how many) and its classifier,
// not after "ไม่มี" ("ไม่มีใคร", no one; "ไม่มีอะไร", nothing).
func thaiAsks(text string) bool {
	if r, _ := utf8.DecodeLastRuneInString(text); !thai.Letter(r) {
		return false
	}
	for _, w := range lang.For("th").Words(lang.Questions) {
		before, ok := strings.CutSuffix(text, w)
		if !ok && w == "กี่" {
			// the classifier after it: "กี่นาที", "กี่คน", "กี่ปี"
			i := strings.LastIndex(text, w)
			ok = i >= 0 && utf8.RuneCountInString(text[i+len(w):]) <= maxClassifier
			before = text[:max(i, 0)]
		}
		if ok && !strings.HasSuffix(before, "ไม่มี") {
			return true
		}
	}
	return false
}

// maxClassifier is the longest Thai classifier after "กี่", in characters.
const maxClassifier = 6
