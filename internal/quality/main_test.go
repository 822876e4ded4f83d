package quality_test

import (
	"testing"

	"github.com/sponge-library/sponge/internal/testsupport"
)

// TestMain runs the tests in an environment of their own (testsupport);
// each floor's libraries are its own (t.TempDir).
func TestMain(m *testing.M) { testsupport.Main(m) }
