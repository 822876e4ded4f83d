package cmdline

import (
	"strconv"
	"testing"

	"github.com/sponge-library/sponge/internal/model/openai"
)

// The help of sponge serve names the port and file that sponge serve uses.
func TestServeHelpAgrees(t *testing.T) {
	if servePort != strconv.Itoa(openai.DefaultPort) || serveFile != openai.ServeFile {
		t.Errorf("sponge serve's help says port %s and %s; it uses %d and %s", servePort, serveFile, openai.DefaultPort, openai.ServeFile)
	}
}
