package cli

import "testing"

// TestUnfinishedHint: the hint after an index that could not be finished
// says items are saved only when this add saved some.
func TestUnfinishedHint(t *testing.T) {
	for added, want := range map[int]string{
		0: "nothing was saved; fix the cause, run 'sponge reindex', and add again",
		1: "the item added is saved; run 'sponge reindex' to put it in the index",
		7: "the 7 items added are saved; run 'sponge reindex' to put them in the index",
	} {
		if got := unfinishedHint(added); got != want {
			t.Errorf("%d added: %q, want %q", added, got, want)
		}
	}
}
