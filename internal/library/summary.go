package library

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/item"
)

// Summaries are kept beside the items, one small file per item under
// summaries/ab/<id>.json, written whole through a temporary file and a
// rename like the items. They are keyed by item id, and an id is the hash
// of the saved bytes: a changed file is a new item, with no summary until
// one is made for it.

func (l *Library) summaryPath(id string) string {
	return filepath.Join(l.Dir, "summaries", id[:2], id+".json")
}

// PutSummary saves the summary of its item, replacing any before. Like
// Put, it does not wait for the disk: Sync does.
func (l *Library) PutSummary(s *item.Summary) error {
	if !item.IsID(s.ItemID) {
		return fault.New(fault.BadID, "%q is not a full item id (64 hex digits)", s.ItemID)
	}
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return writeAtomic(l.summaryPath(s.ItemID), append(data, '\n'))
}

// PutSummaryOfItem saves the summary as PutSummary does, unless its item
// was removed meanwhile: sponge summarize does not hold the write lock, so
// a sponge rm may remove the item (and its summary) while the summary is
// written. Removal deletes the item, then its summary; a summary saved after
// that is seen here with its item gone, and removed again. It reports
// whether the summary was kept.
func (l *Library) PutSummaryOfItem(s *item.Summary) (bool, error) {
	if !l.Has(s.ItemID) {
		return false, nil
	}
	if err := l.PutSummary(s); err != nil {
		return false, err
	}
	if !l.Has(s.ItemID) {
		return false, l.deleteSummary(s.ItemID)
	}
	return true, nil
}

// Summary returns the saved summary of the item id, or nil when it has
// none. It does not check that the summary is current (item.Summary.Current).
func (l *Library) Summary(id string) (*item.Summary, error) {
	if !item.IsID(id) {
		return nil, fault.New(fault.BadID, "%q is not a full item id (64 hex digits)", id)
	}
	data, err := os.ReadFile(l.summaryPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.New(fault.Failed, "cannot read the summary of item %s: %v", item.Short(id), err)
	}
	var s item.Summary
	if err := json.Unmarshal(data, &s); err != nil || s.ItemID != id {
		// A damaged summary is no summary: the next sponge summarize makes
		// it again.
		return nil, nil
	}
	return &s, nil
}

// CurrentSummary is the item's summary when it was made from the
// paragraphs the item has now, else nil.
func (l *Library) CurrentSummary(it *item.Item) *item.Summary {
	s, err := l.Summary(it.ID)
	if err != nil || !s.Current(it) {
		return nil
	}
	return s
}

// deleteSummary removes the summary of an item, if it has one.
func (l *Library) deleteSummary(id string) error {
	if err := os.Remove(l.summaryPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Made reports whether sum was made from the paragraphs the item of m has
// now: matched against the Meta's fingerprint, or the item's when the Meta
// has none (an item saved before it was kept).
func (l *Library) Made(m *Meta, sum *item.Summary) bool {
	if sum == nil || sum.ItemID != m.ID {
		return false
	}
	text := m.Fingerprint
	if text == "" {
		it, err := l.Item(m.ID)
		if err != nil {
			return false
		}
		text = item.Fingerprint(it)
	}
	return sum.Fingerprint == text
}

// Gist is the first statement of the item's current summary, or "" when
// it has none: what a list shows on one line.
func (l *Library) Gist(m *Meta) string {
	s, err := l.Summary(m.ID)
	if err != nil || s == nil || len(s.Statements) == 0 || !l.Made(m, s) {
		return ""
	}
	return s.Statements[0].Text
}
