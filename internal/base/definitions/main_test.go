package definitions

import (
	"testing"

	"github.com/sponge-library/sponge/internal/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }
