package cmdline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/testsupport/home"
)

// TestLibraryDefaultSaidAsResolved: every place that says where the library
// is without --library (the list of commands, each command's --library, the
// man page) says it in the order settings resolves it, $XDG_DATA_HOME before
// ~/.local/share/sponge and the config file before both (issue 43); and the
// list of commands names the library this environment resolves.
func TestLibraryDefaultSaidAsResolved(t *testing.T) {
	home.Isolate(t)
	data := os.Getenv("XDG_DATA_HOME")
	t.Setenv("SPONGE_HOME", "")
	environ := settings.FromOS()
	if lib, err := environ.Library(""); err != nil || lib != filepath.Join(data, "sponge") {
		t.Fatalf("the library resolves to %q, %v: the order below is not the settings' any more", lib, err)
	}
	order := "$SPONGE_HOME, else the config file's library, else $XDG_DATA_HOME/sponge, else ~/.local/share/sponge"

	out, _, code := runSponge(t, "help")
	if code != console.ExitOK || !strings.Contains(strings.Join(strings.Fields(out), " "), order) {
		t.Errorf("sponge help does not say %q:\n%s", order, out)
	}
	if !strings.Contains(out, "here it is "+filepath.Join(data, "sponge")+".") {
		t.Errorf("sponge help does not name this environment's library %s:\n%s", filepath.Join(data, "sponge"), out)
	}
	for _, n := range names() {
		if !takesLibrary(commands[n]) {
			continue
		}
		out, _, _ := runSponge(t, "help", n)
		if !strings.Contains(strings.Join(strings.Fields(out), " "), order) {
			t.Errorf("sponge help %s does not say %q:\n%s", n, order, out)
		}
	}
	man, _, _ := runSponge(t, "help", "--man")
	man = strings.ReplaceAll(man, `\-`, "-")
	if !strings.Contains(man, order) {
		t.Errorf("the man page does not say %q", order)
	}
	for _, v := range []string{"SPONGE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"} {
		if !strings.Contains(man, ".B "+v+"\n") {
			t.Errorf("the man page's ENVIRONMENT has no %s", v)
		}
	}
}
