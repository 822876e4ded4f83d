package item

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Summary is what an item says, in a few short statements, each with a
// quote from the item that was checked word for word (sponge-verify) before
// the summary was saved. It belongs to one item id: ids are hashes of the
// saved bytes, so a new version of a file, a new item, never shows the old
// one's summary.
type Summary struct {
	ItemID string `json:"itemId"`
	// Model is the model that wrote the statements, or "extractive".
	Model string    `json:"model"`
	Made  time.Time `json:"made"`
	// Fingerprint is that of the paragraphs the summary was made from:
	// when the item is read again and its paragraphs change (sponge reindex
	// --extract), the quotes' places no longer hold and the summary is stale.
	Fingerprint string             `json:"fingerprint"`
	Statements  []SummaryStatement `json:"statements"`
	// LeftOut counts the statements whose quote did not stand in the item.
	LeftOut int `json:"leftOut,omitempty"`
}

// SummaryStatement is one checked statement of a summary: where its quote
// stands in the item, and the page or time it starts at.
type SummaryStatement struct {
	Text      string `json:"text"`
	Quote     string `json:"quote"`
	Paragraph int    `json:"paragraph"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Page      int    `json:"page,omitempty"`
	StartMs   *int64 `json:"startMs,omitempty"`
}

// Fingerprint is a hash of the item's paragraph texts, in order.
func Fingerprint(it *Item) string {
	// The texts go to the hash through one buffer: h.Write([]byte(text))
	// copied each paragraph to a new slice (the hash is an interface, so
	// the conversion escapes), garbage for every item saved.
	h := sha256.New()
	buf := make([]byte, 0, 4096)
	for _, p := range it.Paragraphs {
		for t := p.Text; ; {
			k := min(len(t), cap(buf)-len(buf))
			buf = append(buf, t[:k]...)
			t = t[k:]
			if len(buf) == cap(buf) {
				h.Write(buf)
				buf = buf[:0]
			}
			if t == "" {
				break
			}
		}
		buf = append(buf, 0) // never full here: a full buffer was written
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Current reports whether s was made from the paragraphs it has now.
func (s *Summary) Current(it *Item) bool {
	return s != nil && s.ItemID == it.ID && s.Fingerprint == Fingerprint(it)
}
