// Package fault is how the library and model packages say what went wrong
// without wording it for a reader: an error with a Kind. They never write a
// hint or an exit code; each front end chooses those by the kind, for its
// own reader: internal/base/console for a person at a shell (the sponge
// commands and the stages), internal/front/mcp for an agent.
package fault

import (
	"errors"
	"fmt"
)

// Kind is what went wrong, in terms a front end can act on.
type Kind int

const (
	// Failed: something failed, and there is nothing particular to do.
	Failed Kind = iota
	// BadID: what was given as an item id is no id (too short, not hex).
	BadID
	// NoLibrary: there is no library in the folder.
	NoLibrary
	// NoItem: no saved item has that id, or an id that starts so.
	NoItem
	// Ambiguous: an id prefix matches several items.
	Ambiguous
	// Damaged: a saved item's file is damaged.
	Damaged
	// SetAside: the item is damaged and was set aside, out of the store.
	SetAside
	// IndexBroken: the index cannot be opened; it can be rebuilt from the
	// saved items.
	IndexBroken
	// Resumable: work stopped halfway; running the same command again goes
	// on from where it stopped.
	Resumable
	// Redownload: a download came out wrong; running again downloads it
	// afresh.
	Redownload
	// DiskFull: there is not enough room on the disk.
	DiskFull
	// NotAModel: a file given as a model is not a GGUF model file.
	NotAModel
	// Changed: what a source publishes is not what sponge knows of it.
	Changed
)

// Error is an error of some Kind, with a message for any reader.
type Error struct {
	Kind Kind
	Msg  string
	// Library is the folder of the library the error is about, when the
	// hint should name it (a command the person can run as it is shown).
	Library string
}

func (e *Error) Error() string { return e.Msg }

// New makes an *Error of kind k.
func New(k Kind, format string, a ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, a...)}
}

// Is reports whether err is an *Error of one of the kinds.
func Is(err error, kinds ...Kind) bool {
	var fe *Error
	if !errors.As(err, &fe) {
		return false
	}
	for _, k := range kinds {
		if fe.Kind == k {
			return true
		}
	}
	return false
}
