package ingest

import (
	"path/filepath"

	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/library"
)

// RemoveNoted removes an item as a person asks it removed (sponge rm, the
// remove button of sponge ui): the item and all that is derived from it
// (Remove), then its files noted as removed (Library.NoteRemoved), so that
// sponge update does not add them back from their folder. A damaged item
// (its meta unreadable, or set aside) is removed all the same, with no file
// to note: meta is then nil. meta is the item's as it was, for the caller
// to say what it removed; removed says it was (an error after it is the
// noting's).
func (w *Writer) RemoveNoted(id string) (meta *library.Meta, removed bool, err error) {
	meta, err = w.Meta(id)
	if err != nil {
		if !fault.Is(err, fault.SetAside, fault.Damaged) {
			return nil, false, err
		}
		meta = nil
	}
	if err := w.Remove(id); err != nil {
		return meta, false, err
	}
	if meta == nil {
		return nil, true, nil
	}
	var files []string
	for _, s := range append([]string{meta.Source}, meta.Also...) {
		if filepath.IsAbs(s) {
			files = append(files, s)
		}
	}
	return meta, true, w.NoteRemoved(files, nil)
}
