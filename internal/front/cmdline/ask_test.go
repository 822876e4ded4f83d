package cmdline

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/settings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/testsupport/home"
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
	steps, err := askSteps(&Env{Settings: settings.FromOS()}, &opts, strings.Join(rest, " "))
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	for _, s := range steps {
		if s.Name == "sponge-draft" {
			return s.Args
		}
	}
	return nil
}

// checkDraftFlag checks that the sponge ask command line args gives
// sponge-draft flag with the value want, or not at all when want is "".
func checkDraftFlag(t *testing.T, args []string, flag, want string) {
	t.Helper()
	got := draftArgs(t, args...)
	i := slices.Index(got, flag)
	switch {
	case want == "" && i >= 0:
		t.Errorf("%v: sponge-draft gets %v", args, got)
	case want != "" && (i < 0 || i+1 >= len(got) || got[i+1] != want):
		t.Errorf("%v: sponge-draft gets %v, want %s %s", args, got, flag, want)
	}
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
		checkDraftFlag(t, tt.args, "--timeout", tt.want)
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

// TestAskPassesThePassageBudget: sponge ask passes --passage-tokens on to
// sponge-draft, sponge-draft's default (draft.DefaultPassageTokens, which
// its own test checks against its flag) unless told; not to the extractive
// drafter, which reads every passage whole.
func TestAskPassesThePassageBudget(t *testing.T) {
	const def = "320"
	for _, tt := range []struct {
		args []string
		want string // the --passage-tokens sponge-draft gets; "" for none
	}{
		{[]string{"q"}, def},
		{[]string{"--passage-tokens", "1200", "q"}, "1200"},
		{[]string{"--passage-tokens", "0", "q"}, "0"},
		{[]string{"--extractive", "q"}, ""},
	} {
		checkDraftFlag(t, tt.args, "--passage-tokens", tt.want)
	}
	_, errs, code := runSponge(t, "ask", "--passage-tokens", "-1", "q")
	if code != console.ExitUsage || !strings.HasPrefix(errs, "sponge: error: --passage-tokens must be 0 (no limit) or more") {
		t.Errorf("--passage-tokens -1: exit %d: %s", code, errs)
	}
}

// TestAskSettings: the endpoint and model sponge-draft gets are the flag,
// else the environment, else the config file, else none.
func TestAskSettings(t *testing.T) {
	config := home.Isolate(t)
	drafted := func(args ...string) (endpoint, model string) {
		t.Helper()
		a := draftArgs(t, append(args, "q")...)
		if i := slices.Index(a, "--endpoint"); i >= 0 {
			endpoint = a[i+1]
		}
		if i := slices.Index(a, "--model"); i >= 0 {
			model = a[i+1]
		}
		return endpoint, model
	}
	check := func(what, wantEndpoint, wantModel string, args ...string) {
		t.Helper()
		if e, m := drafted(args...); e != wantEndpoint || m != wantModel {
			t.Errorf("%s %v: sponge-draft gets --endpoint %q --model %q, want %q %q", what, args, e, m, wantEndpoint, wantModel)
		}
	}
	check("default", "", "")
	if _, errs, code := runSponge(t, "config", "set", "endpoint", "http://file:1"); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := runSponge(t, "config", "set", "model", "file-model"); code != 0 {
		t.Fatal(errs)
	}
	check("file", "http://file:1", "file-model")
	t.Setenv("SPONGE_ENDPOINT", "http://env:2")
	check("env over file", "http://env:2", "file-model")
	t.Setenv("SPONGE_MODEL", "env-model")
	check("env over file", "http://env:2", "env-model")
	check("flag over env", "http://flag:3", "env-model", "--endpoint", "http://flag:3")
	check("flag over env", "http://flag:3", "flag-model", "--endpoint", "http://flag:3", "--model", "flag-model")
	check("--extractive uses no endpoint", "", "", "--extractive")
	if a := draftArgs(t, "--extractive", "q"); slices.Contains(a, "--endpoint") {
		t.Errorf("--extractive: sponge-draft gets %v", a)
	}

	// A model without an endpoint says where the model comes from.
	t.Setenv("SPONGE_ENDPOINT", "")
	os.WriteFile(config, []byte("model = file-model\n"), 0o644)
	_, errs, code := runSponge(t, "ask", "q")
	want := "sponge: error: the model \"env-model\" (from SPONGE_MODEL) goes with an endpoint, and none is set\n" +
		"sponge: hint: set one with --endpoint URL, SPONGE_ENDPOINT or 'sponge config set endpoint URL'\n"
	if code != console.ExitUsage || errs != want {
		t.Errorf("exit %d:\n%s\nwant:\n%s", code, errs, want)
	}
	// A damaged config file stops every command but config, naming the line.
	os.WriteFile(config, []byte("# mine\nendpont = http://x\n"), 0o644)
	_, errs, code = runSponge(t, "ask", "q")
	if code != 1 || !strings.HasPrefix(errs, "sponge: error: "+config+`:2: unknown setting "endpont"; the settings are library, endpoint, model, hints`+"\n") {
		t.Errorf("damaged file: exit %d: %s", code, errs)
	}
	// config unset mends it.
	if _, errs, code := runSponge(t, "config", "unset", "endpont"); code != 0 {
		t.Fatalf("unset of a misspelt key: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(config); string(b) != "# mine\n" {
		t.Errorf("after unset: %q", b)
	}
	if _, errs, code := runSponge(t, "config", "unset", "endpont"); code != console.ExitUsage || !strings.Contains(errs, `unknown setting "endpont"`) {
		t.Errorf("unset of an unknown key: exit %d: %s", code, errs)
	}
}

// runSponge runs sponge's Main in this process.
func runSponge(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}
