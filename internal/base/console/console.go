// Package console holds what every sponge command shares: exit codes, how errors
// and hints are printed for people, and flag parsing.
package console

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	flags "github.com/jessevdk/go-flags"
	"github.com/sponge-library/sponge/internal/base/fault"

	"github.com/sponge-library/sponge/internal/base/termtext"
)

// Exit codes, the same for every command.
const (
	ExitOK       = 0 // done
	ExitFailure  = 1 // something failed: a missing library, a dead endpoint, an input that could not be saved
	ExitUsage    = 2 // the command line is wrong
	ExitBadInput = 3 // the JSONL stream on stdin is not valid
	// ExitNothing: the library was asked and nothing in it answers (sponge
	// ask's refusal, sponge search with no hit). Not 1, as grep and rg have
	// it: 1 has always meant failed here, and scripts test for it.
	ExitNothing     = 4
	ExitInterrupted = 130
)

// ExitCodesHelp is printed at the end of every command's --help.
const ExitCodesHelp = `Exit codes: 0 done, 1 failed, 2 usage error, 3 malformed input stream, 4 nothing in the library answers (or matches).`

// Error is an error for a person: a message, an optional hint, and the exit
// code it should end the command with.
type Error struct {
	Msg  string
	Hint string
	Code int
}

func (e *Error) Error() string { return e.Msg }

// Errorf makes an *Error with ExitFailure.
func Errorf(format string, a ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, a...), Code: ExitFailure}
}

// WithHint returns e with a hint.
func (e *Error) WithHint(format string, a ...any) *Error {
	e.Hint = fmt.Sprintf(format, a...)
	return e
}

// Usage makes a usage error (exit 2).
func Usage(format string, a ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, a...), Code: ExitUsage}
}

// Hinted is an error that carries a hint for the person.
type Hinted interface {
	error
	Hint() string
}

// Report prints err as "prog: error: …" (and "prog: hint: …") and returns
// the exit code it calls for. A nil error is ExitOK.
func Report(stderr io.Writer, prog string, err error) int {
	if err == nil {
		return ExitOK
	}
	code, hint := Explain(err)
	PrintError(stderr, prog, err.Error())
	if hint != "" {
		PrintHint(stderr, prog, hint)
	}
	return code
}

// Explain is the exit code err calls for and the hint a person at a shell
// gets with it ("" for none): what Report prints, for a front end that
// shows it otherwise (sponge ui's pages).
func Explain(err error) (code int, hint string) {
	code = ExitFailure
	var ce *Error
	var fe *fault.Error
	switch {
	case errors.As(err, &ce):
		code = ce.Code
		hint = ce.Hint
	case errors.As(err, &fe):
		if fe.Kind == fault.BadID {
			code = ExitUsage
		}
		hint = shellHints[fe.Kind]
		if fe.Library != "" {
			// The library may not be the default one: the command
			// shown is for the library the error is about.
			hint = strings.Replace(hint, "'sponge reindex'", "'sponge reindex --library "+shellWord(fe.Library)+"'", 1)
		}
	}
	var he Hinted
	if hint == "" && errors.As(err, &he) {
		hint = he.Hint()
	}
	return code, hint
}

// shellHints are the hints for a person at a shell, by the kind of a
// library's or model's error (the MCP server has its own, for agents).
var shellHints = map[fault.Kind]string{
	fault.NoLibrary:   "save something first: sponge add FILE|FOLDER|URL (or pass --library DIR)",
	fault.NoItem:      "run 'sponge list' (a file or URL saved again with other bytes is a new item, with a new id, and the old one is gone)",
	fault.Ambiguous:   "give more digits of the id",
	fault.Damaged:     "run 'sponge reindex', which sets damaged items aside",
	fault.SetAside:    "add the file again if you have it; 'sponge rm ID' removes the damaged copy",
	fault.IndexBroken: "run 'sponge reindex' to rebuild it from the saved items",
	fault.Resumable:   "run the same command again: it goes on from where it stopped",
	fault.Redownload:  "run the command again to download it afresh",
	fault.DiskFull:    "free some space (or use another --library) and run the command again",
	fault.NotAModel:   "sponge runs models in the GGUF format (llama.cpp); look for a .gguf file",
	fault.Changed:     "the file on the server changed; install another model with sponge setup --from FILE|URL",
}

// shellWord is s as one word of a shell's command line: as it is when it
// holds only characters a shell leaves alone, else in double quotes (the
// hints put commands in single ones), else in single quotes.
func shellWord(s string) string {
	switch {
	case s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "":
		return s
	case !strings.ContainsAny(s, "\"$`\\!"):
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// PrintError prints one "prog: error: msg" line.
func PrintError(w io.Writer, prog, msg string) {
	fmt.Fprintf(w, "%s: error: %s\n", prog, oneLine(msg))
}

// PrintHint prints one "prog: hint: msg" line.
func PrintHint(w io.Writer, prog, msg string) {
	fmt.Fprintf(w, "%s: hint: %s\n", prog, oneLine(msg))
}

// PrintWarning prints one "prog: warning: msg" line.
func PrintWarning(w io.Writer, prog, msg string) {
	fmt.Fprintf(w, "%s: warning: %s\n", prog, oneLine(msg))
}

// oneLine makes a message one line; a file name or title in it could hold
// control characters, which are shown inert.
func oneLine(s string) string {
	return termtext.Safe(strings.TrimRight(strings.ReplaceAll(s, "\n", " "), " ."))
}

// Parse parses args into opts (a go-flags struct). usage is the text after
// the program name in the help, and about a few lines describing the command.
// It returns the positional arguments; done is true when the command should
// stop (help was printed, or the line was wrong) with the returned code.
func Parse(opts any, prog, usage, about string, args []string, stdout, stderr io.Writer) (rest []string, done bool, code int) {
	p := flags.NewNamedParser(prog, flags.HelpFlag|flags.PassDoubleDash)
	p.Usage = usage
	if _, err := p.AddGroup("Options", "", opts); err != nil {
		PrintError(stderr, prog, err.Error())
		return nil, true, ExitFailure
	}
	rest, err := p.ParseArgs(args)
	if err != nil {
		var fe *flags.Error
		if errors.As(err, &fe) && fe.Type == flags.ErrHelp {
			// only the help shows it: unwrapping it for every run of a
			// stage was a tenth of parsing its command line
			p.LongDescription = unwrap(about)
			p.WriteHelp(stdout)
			fmt.Fprintf(stdout, "\n%s\n", ExitCodesHelp)
			return nil, true, ExitOK
		}
		PrintError(stderr, prog, err.Error())
		PrintHint(stderr, prog, fmt.Sprintf("run '%s --help'", prog))
		return nil, true, ExitUsage
	}
	return rest, false, ExitOK
}

// unwrap joins the lines of each paragraph of s, so that go-flags, which
// wraps the help to the terminal, does not break lines a second time. A
// paragraph whose lines start with two spaces or "- " is a list (of tools,
// of examples) and keeps one entry a line.
func unwrap(s string) string {
	paras := strings.Split(s, "\n\n")
	for i, p := range paras {
		if IsList(p) {
			continue
		}
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n\n")
}

// IsList says whether paragraph p of a help text is a list, kept one entry a
// line: each of its lines starts with two spaces or "- ".
func IsList(p string) bool {
	for _, l := range strings.Split(strings.Trim(p, "\n"), "\n") {
		if !strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "- ") {
			return false
		}
	}
	return true
}

// Version is the version the build was given, by the Makefile's
// -ldflags "-X …/console.Version=$(git describe --tags --always --dirty)":
// the tag, or the tag and the commits since it, or the commit. Empty in a
// plain go build or go install, where Go's own stamp is read (VersionOf).
var Version string

// WriteVersion prints which build prog is: its version (VersionOf), the
// commit it was built from (with "modified" when the checkout had changes),
// and the Go that built it, from what the build stamped in the binary.
func WriteVersion(w io.Writer, prog string) {
	commit, when, modified := "", "", false
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	} else {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	fmt.Fprintf(w, "%s %s\n", prog, VersionOf(Version, bi))
	switch {
	case commit == "":
		fmt.Fprintln(w, "commit: unknown (not stamped: built outside a git clone, or with -buildvcs=false)")
	case modified:
		fmt.Fprintf(w, "commit: %s %s, with uncommitted changes\n", commit, when)
	default:
		fmt.Fprintf(w, "commit: %s %s\n", commit, when)
	}
	fmt.Fprintf(w, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// VersionOf is the version a person is told: the one given at build time
// (given), else the module's version when it is a release (go install of a
// tag: "v1.2.0"), else the commit Go stamped, as git describe --always
// --dirty writes it ("8feab8d" or "8feab8d-dirty"), never the made-up
// pseudo-version Go gives a build from a checkout ("v0.0.0-2026…-8feab8d…").
func VersionOf(given string, bi *debug.BuildInfo) string {
	if given != "" {
		return given
	}
	if bi == nil {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v != "" && v != "(devel)" && !pseudoVersion(v) {
		return v
	}
	commit, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if commit == "" {
		return "(devel)"
	}
	commit = commit[:min(len(commit), 7)]
	if dirty {
		commit += "-dirty"
	}
	return commit
}

// pseudoVersion reports whether v is a Go pseudo-version, which names a
// commit by its time and hash ("v0.0.0-20261207035128-8feab8d0a1b2", or
// "v1.2.1-0.20261207035128-8feab8d0a1b2" after a tag), with "+dirty" when
// the checkout had changes.
func pseudoVersion(v string) bool {
	v, _, _ = strings.Cut(v, "+")
	i := strings.LastIndexByte(v, '-')
	if i < 0 || len(v)-i-1 != 12 {
		return false
	}
	rest := v[:i]
	j := strings.LastIndexAny(rest, "-.")
	if j < 0 || len(rest)-j-1 != 14 {
		return false
	}
	for _, c := range rest[j+1:] + v[i+1:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Flag is one option of a command, as its help shows it.
type Flag struct {
	Long, Value, Description, Default string
	Short                             rune // 0: none
}

// Flags lists the options of opts (a go-flags struct, as Parse takes), but
// the hidden ones: what completions and the man page offer.
func Flags(opts any) ([]Flag, error) {
	p := flags.NewParser(nil, flags.None)
	g, err := p.AddGroup("Options", "", opts)
	if err != nil {
		return nil, err
	}
	var fs []Flag
	for _, o := range g.Options() {
		if o.Hidden {
			continue
		}
		fs = append(fs, Flag{Long: o.LongName, Short: o.ShortName, Value: o.ValueName,
			Description: o.Description, Default: strings.Join(o.Default, ",")})
	}
	return fs, nil
}
