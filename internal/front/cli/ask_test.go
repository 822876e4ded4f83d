package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/console"
)

// draftArgs parses a sponge ask command line as runAsk does and returns
// the arguments it gives sponge-draft (nil when there is no such stage).
func draftArgs(t *testing.T, args ...string) []string {
	t.Helper()
	var opts askOptions
	var out, errb strings.Builder
	rest, done, _ := console.Parse(&opts, "sponge ask", "", "", args, &out, &errb)
	if done {
		t.Fatalf("%v: %s", args, errb.String())
	}
	for _, s := range askSteps(&opts, strings.Join(rest, " ")) {
		if s.Name == "sponge-draft" {
			return s.Args
		}
	}
	return nil
}

// TestAskTimeout: sponge ask passes --timeout on to sponge-draft, which
// waits that long for a server's statements; 5 minutes unless told.
func TestAskTimeout(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // the --timeout sponge-draft gets; "" for none
	}{
		{[]string{"q"}, "5m0s"},
		{[]string{"--timeout", "2s", "q"}, "2s"},
		{[]string{"--endpoint", "http://127.0.0.1:8080", "--timeout", "10m", "q"}, "10m0s"},
		{[]string{"--extractive", "q"}, ""},
	} {
		args := draftArgs(t, tt.args...)
		i := slices.Index(args, "--timeout")
		switch {
		case tt.want == "" && i >= 0:
			t.Errorf("%v: sponge-draft gets %v", tt.args, args)
		case tt.want != "" && (i < 0 || i+1 >= len(args) || args[i+1] != tt.want):
			t.Errorf("%v: sponge-draft gets %v, want --timeout %s", tt.args, args, tt.want)
		}
	}
	if args := draftArgs(t, "--passages", "q"); args != nil {
		t.Errorf("--passages runs sponge-draft %v", args)
	}
	for _, bad := range []string{"0", "-3s"} {
		_, errs, code := runSponge(t, "ask", "--timeout", bad, "q")
		if code != console.ExitUsage || !strings.HasPrefix(errs, "sponge: error: --timeout must be more than 0") {
			t.Errorf("--timeout %s: exit %d: %s", bad, code, errs)
		}
	}
}
