package zlibfast

import (
	"testing"

	"github.com/sponge-library/sponge/internal/testsupport"
)

// TestMain runs the tests in an environment of their own (testsupport).
func TestMain(m *testing.M) { testsupport.Main(m) }
