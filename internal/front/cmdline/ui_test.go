package cmdline

import (
	"strconv"
	"testing"

	"github.com/sponge-library/sponge/internal/model/openai"
)

func TestUIPortAgrees(t *testing.T) {
	if uiPort != strconv.Itoa(openai.DefaultPort+1) {
		t.Errorf("sponge ui's help says port %s; it uses %d", uiPort, openai.DefaultPort+1)
	}
}
