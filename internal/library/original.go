package library

import (
	"errors"
	"fmt"
	"os"

	"github.com/sponge-library/sponge/internal/base/item"
)

// ErrLinked is an item saved with --link whose file is gone or changed.
var ErrLinked = errors.New("it was saved with --link and")

// Original is an item's original bytes: from the store, or for an item
// saved with --link from its file, if that is still what was saved (its
// bytes still hash to the item's id).
func (l *Library) Original(it *item.Item) ([]byte, error) {
	if !it.Linked {
		return l.Source(it.ID)
	}
	data, err := os.ReadFile(it.Source)
	if err != nil {
		return nil, fmt.Errorf("%w its file cannot be read: %v", ErrLinked, errors.Unwrap(err))
	}
	if ItemID(data) != it.ID {
		return nil, fmt.Errorf("%w %s has changed since", ErrLinked, it.Source)
	}
	return data, nil
}
