package cli

import (
	"testing"

	"github.com/sponge-library/sponge/internal/front/cmdline"
)

// TestEveryCommandHasCode: sponge-full has the code of every command the
// front hands to it.
func TestEveryCommandHasCode(t *testing.T) {
	if missing := cmdline.Missing(runs); len(missing) > 0 {
		t.Errorf("sponge-full has no code for %v", missing)
	}
}
