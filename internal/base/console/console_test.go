package console

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/fault"
)

func TestReport(t *testing.T) {
	for _, tc := range []struct {
		err    error
		code   int
		stderr string
	}{
		{nil, ExitOK, ""},
		{errors.New("disk full."), ExitFailure, "p: error: disk full\n"},
		{Errorf("no item matches %q", "0a57").WithHint("run 'sponge list'"), ExitFailure,
			"p: error: no item matches \"0a57\"\np: hint: run 'sponge list'\n"},
		{Usage("--limit must be from 1 to 20, not %d", 50), ExitUsage, "p: error: --limit must be from 1 to 20, not 50\n"},
		{fmt.Errorf("reading: %w", &Error{Msg: "bad line\nsecond", Code: ExitBadInput}), ExitBadInput, "p: error: reading: bad line second\n"},
		// A broken index names its library in the command to rebuild it.
		{&fault.Error{Kind: fault.IndexBroken, Msg: "the index is old", Library: "/tmp/my tea's lib"}, ExitFailure,
			"p: error: the index is old\np: hint: run 'sponge reindex --library \"/tmp/my tea's lib\"' to rebuild it from the saved items\n"},
		{&fault.Error{Kind: fault.IndexBroken, Msg: "the index is old", Library: `/tmp/$HOME "lib"`}, ExitFailure,
			"p: error: the index is old\np: hint: run 'sponge reindex --library '/tmp/$HOME \"lib\"'' to rebuild it from the saved items\n"},
		{&fault.Error{Kind: fault.IndexBroken, Msg: "the index is old", Library: "/home/ann/.local/share/sponge"}, ExitFailure,
			"p: error: the index is old\np: hint: run 'sponge reindex --library /home/ann/.local/share/sponge' to rebuild it from the saved items\n"},
	} {
		var b bytes.Buffer
		if code := Report(&b, "p", tc.err); code != tc.code || b.String() != tc.stderr {
			t.Errorf("Report(%v) = %d, %q; want %d, %q", tc.err, code, b.String(), tc.code, tc.stderr)
		}
	}
}

func TestParse(t *testing.T) {
	var opts struct {
		Limit int `long:"limit" description:"how many"`
	}
	var out, errb bytes.Buffer
	rest, done, code := Parse(&opts, "p", "[OPTIONS] Q", "First line\nwrapped.\n\nSecond paragraph.", []string{"--limit", "3", "tea"}, &out, &errb)
	if done || code != 0 || opts.Limit != 3 || len(rest) != 1 || rest[0] != "tea" {
		t.Fatalf("parse: %v %v %d %d", rest, done, code, opts.Limit)
	}
	out.Reset()
	_, done, code = Parse(&opts, "p", "[OPTIONS] Q", "First line\nwrapped.\n\nSecond paragraph.", []string{"--help"}, &out, &errb)
	if !done || code != ExitOK || !strings.Contains(out.String(), "First line wrapped.\n\nSecond paragraph.") || !strings.Contains(out.String(), ExitCodesHelp) {
		t.Errorf("help: %v %d %q", done, code, out.String())
	}
	errb.Reset()
	_, done, code = Parse(&opts, "p", "[OPTIONS] Q", "", []string{"--colour"}, &out, &errb)
	if !done || code != ExitUsage || errb.String() != "p: error: unknown flag `colour'\np: hint: run 'p --help'\n" {
		t.Errorf("bad flag: %v %d %q", done, code, errb.String())
	}
}

// TestParseLeavesHelpAlone: a run that shows no help does not prepare it:
// every stage parses its command line on every question, and unwrapping a
// long description was a tenth of that.
func TestParseLeavesHelpAlone(t *testing.T) {
	var opts struct {
		Limit int `long:"limit" description:"how many"`
	}
	about := strings.Repeat("A paragraph of help,\nwrapped in the source.\n\n", 50)
	allocs := func(about string) float64 {
		return testing.AllocsPerRun(20, func() {
			Parse(&opts, "p", "[OPTIONS] Q", about, []string{"--limit", "3", "tea"}, io.Discard, io.Discard)
		})
	}
	if short, long := allocs("Short."), allocs(about); long > short {
		t.Errorf("parsing with a 50-paragraph description allocates %.0f times, with a short one %.0f", long, short)
	}
}

// TestUnwrap: a paragraph's lines are joined for go-flags to wrap again, but
// a list (lines starting with two spaces or "- ") keeps one entry a line.
func TestUnwrap(t *testing.T) {
	in := "Serve the library\nto an agent. Its tools:\n\n  search  items\n  show    an item\n\n- one\n- two\n\nExamples:"
	want := "Serve the library to an agent. Its tools:\n\n  search  items\n  show    an item\n\n- one\n- two\n\nExamples:"
	if got := unwrap(in); got != want {
		t.Errorf("unwrap = %q, want %q", got, want)
	}
}

// TestVersionOf: sponge --version says the tag of a release, what git
// describe said for a build by make, else the commit of a checkout, never
// Go's pseudo-version ("v0.0.0-2026…", issue 43).
func TestVersionOf(t *testing.T) {
	rev := "8feab8d0a1b2c3d4e5f60718293a4b5c6d7e8f90"
	vcs := func(version string, modified bool) *debug.BuildInfo {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/sponge-library/sponge", Version: version}}
		bi.Settings = []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-12-07T03:51:28Z"}, {Key: "vcs.modified", Value: fmt.Sprint(modified)}}
		return bi
	}
	for _, tc := range []struct {
		given string
		bi    *debug.BuildInfo
		want  string
	}{
		{"v0.3.0-2-g8feab8d-dirty", vcs("v0.0.0-20261207035128-8feab8d0a1b2+dirty", true), "v0.3.0-2-g8feab8d-dirty"},
		{"", vcs("v0.0.0-20261207035128-8feab8d0a1b2+dirty", true), "8feab8d-dirty"},
		{"", vcs("v0.0.0-20261207035128-8feab8d0a1b2", false), "8feab8d"},
		{"", vcs("v1.2.1-0.20261207035128-8feab8d0a1b2", false), "8feab8d"},
		{"", vcs("v0.4.0-rc.1.0.20261207035128-8feab8d0a1b2", false), "8feab8d"},
		{"", vcs("(devel)", false), "8feab8d"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0-rc.1"}}, "v1.2.0-rc.1"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
		{"", nil, "(unknown)"},
	} {
		if got := VersionOf(tc.given, tc.bi); got != tc.want {
			t.Errorf("VersionOf(%q, %+v) = %q, want %q", tc.given, tc.bi, got, tc.want)
		}
	}
}
