// Package jsonl is the protocol the sponge stages speak: one JSON object per
// line, each with a protocol version "v" and a "type". PROTOCOL.md beside this
// file documents every record; the structs here are the single definition.
package jsonl

import "fmt"

// Version is the protocol version every record carries in "v".
const Version = 1

// MaxLimit is the most items a question may ask sponge-search for.
const MaxLimit = 20

// MaxStatements is the most statements an answer shows: a drafter writes
// no more, and sponge-verify leaves out those past it (reason "too-many"),
// so a model that writes a wall of text still gives a short answer.
const MaxStatements = 6

// Record types, as they appear in "type".
const (
	TypeQuestion  = "question"
	TypeWarning   = "warning"
	TypeHit       = "hit"
	TypePassage   = "passage"
	TypeModel     = "model"
	TypeStatement = "statement"
	TypeVerified  = "verified"
	TypeLeftOut   = "left-out"
	TypeDone      = "done"
)

// Header is the part every record shares. Writer always fills it in; it is
// left out of JSON documents that hold records outside a stream (such as
// `sponge search --json`), where it is zero.
type Header struct {
	V    int    `json:"v,omitempty"`
	Type string `json:"type,omitempty"`
}

// Question starts a stream: what the person asked and how many items to pick.
type Question struct {
	Header
	Text  string `json:"text"`
	Limit int    `json:"limit,omitempty"`
	// Summary: the question is what one item says (sponge-rank --item), and
	// sponge-draft writes a summary of the passages rather than an answer.
	Summary bool `json:"summary,omitempty"`
	// IDF is how much each of the question's words (as the index analyses
	// them, stop words left out) weighs in the whole library: BM25's inverse
	// document frequency over the index's chunks, written by sponge-search.
	// sponge-rank weighs a word by the geometric mean of this and its idf
	// over the paragraphs of the hit items, and by the latter alone for a
	// word not here (or when the record has none, as a question typed by
	// hand).
	IDF map[string]float64 `json:"idf,omitempty"`
}

// SummaryQuestion is the question of a summary.
const SummaryQuestion = "What does this item say?"

// Warning codes.
const (
	WarnSemanticUnavailable = "semantic-unavailable"
	WarnModelUnavailable    = "model-unavailable"
	WarnNoItems             = "no-items"
	// WarnModelNothingChecked: the model began statements and finished
	// none, so the answer is empty without being the model's refusal.
	WarnModelNothingChecked = "model-nothing-checked"
)

// Warning tells the person that the answer is weaker than it could be.
type Warning struct {
	Header
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	// Setup: what the warning says is missing is a part the person has not
	// set up (no embedding model, no writing model), a choice rather than a
	// fault, so a front end may stop showing it once they have seen it
	// (sponge ask: three times, or never after 'sponge config set hints off').
	Setup bool `json:"setup,omitempty"`
}

// How a hit was found, in Hit.FoundBy.
const (
	FoundByKeyword = "keyword"
	FoundByMeaning = "meaning"
)

// Hit is an item that search picked, best first.
type Hit struct {
	Header
	ItemID  string   `json:"itemId"`
	Title   string   `json:"title"`
	Source  string   `json:"source,omitempty"`
	Kind    string   `json:"kind,omitempty"`
	Score   float64  `json:"score"`
	Rank    int      `json:"rank"`
	FoundBy []string `json:"foundBy"`
	// Paragraph is the index of the paragraph that meaning search matched.
	Paragraph *int `json:"paragraph,omitempty"`
	// Snippet is a short piece of the item around the words that matched.
	Snippet string `json:"snippet,omitempty"`
}

// Passage is a ranked paragraph of a hit item, numbered 1..N in rank order.
// The model reads passages and names them by number.
type Passage struct {
	Header
	Number    int     `json:"number"`
	ItemID    string  `json:"itemId"`
	Title     string  `json:"title"`
	Heading   string  `json:"heading,omitempty"`
	Page      int     `json:"page,omitempty"`
	StartMs   *int64  `json:"startMs,omitempty"`
	Paragraph int     `json:"paragraph"`
	Text      string  `json:"text"`
	Score     float64 `json:"score"`
}

// Model names what wrote the statements: a model's name, or "extractive".
type Model struct {
	Header
	Name string `json:"name"`
}

// ModelExtractive is the Model.Name of the drafter that quotes sentences.
const ModelExtractive = "extractive"

// Statement is one short statement, naming the passage its quote is copied from.
type Statement struct {
	Header
	Text    string `json:"text"`
	Passage int    `json:"passage"`
	Quote   string `json:"quote"`
}

// Verified is a statement whose quote was found, word for word, in the saved item.
type Verified struct {
	Header
	Text    string `json:"text"`
	Passage int    `json:"passage"`
	Quote   string `json:"quote"`
	ItemID  string `json:"itemId"`
	Title   string `json:"title"`
	// Where the quote stands in the item: the paragraph index and the
	// character (Unicode code point) offsets of its start and end in that
	// paragraph's text.
	Paragraph int    `json:"paragraph"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Page      int    `json:"page,omitempty"`
	StartMs   *int64 `json:"startMs,omitempty"`
	// Saved is the quote as it stands in the item, which may differ from
	// Quote only in the ways the matching rule forgives.
	Saved string `json:"saved"`
}

// Reasons a statement is left out.
const (
	ReasonNotFound    = "quote-not-found"
	ReasonBadPassage  = "no-such-passage"
	ReasonEmpty       = "empty"
	ReasonTooShort    = "quote-too-short"
	ReasonDuplicate   = "duplicate-quote"
	ReasonTooMany     = "too-many-statements"
	ReasonItemMissing = "item-missing"
)

// LeftOut is a statement that is not shown, with the reason.
type LeftOut struct {
	Header
	Text    string `json:"text"`
	Passage int    `json:"passage"`
	Quote   string `json:"quote"`
	Reason  string `json:"reason"`
}

// Done closes the output of a stage that writes statements, so later stages
// can tell a finished answer from a cut one.
type Done struct {
	Header
	Stage      string `json:"stage"`
	Statements int    `json:"statements"`
}

// checker is a record with rules beyond its JSON shape, checked as it is
// decoded: an id names a file in the library, so only a real id may pass.
type checker interface{ check() error }

func (q *Question) check() error {
	if q.Limit < 0 || q.Limit > MaxLimit {
		return fmt.Errorf("limit must be from 1 to %d (or left out), not %d", MaxLimit, q.Limit)
	}
	for t, w := range q.IDF {
		if w < 0 {
			return fmt.Errorf("the idf of %q must be 0 or more, not %v", t, w)
		}
	}
	return nil
}

func (h *Hit) check() error      { return checkID(h.ItemID) }
func (p *Passage) check() error  { return checkID(p.ItemID) }
func (v *Verified) check() error { return checkID(v.ItemID) }

// ItemIDLen is how many hex digits an item id has (a SHA-256).
const ItemIDLen = 64

// IsItemID reports whether s is an item id as the stream carries it: 64
// lowercase hex digits, and so nothing that could name a path outside the
// library. It is the one definition: item.IsID is this.
func IsItemID(s string) bool {
	if len(s) != ItemIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func checkID(id string) error {
	if !IsItemID(id) {
		return fmt.Errorf("itemId %q is not an item id (64 lowercase hex digits)", id)
	}
	return nil
}
