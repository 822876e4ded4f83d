// Package cmdline is the sponge command's front: every subcommand's
// options, help, man page and completions, and the code of those that must
// start fast (ask, search, list, show, config, version, help, completion).
// The others (add, update, rm, reindex, summarize, setup, serve, ui, mcp) link
// the extractors, the HTTP downloads and the MCP server, whose package
// initialisation alone would cost every question ~20 ms: their code is in
// package cli, linked by sponge-full, to which the front hands their command
// line (Full). Each subcommand lives in its own file and registers itself.
package cmdline

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/model/embed"
)

// Prog is how the command names itself in messages.
const Prog = "sponge"

// Env is what a subcommand runs with.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Settings is the environment the program was started in, taken once
	// (settings.FromOS): every folder and setting below is resolved from
	// it here, and handed down.
	Settings settings.Environ
}

type command struct {
	name    string
	summary string // one line, in the list of commands
	usage   string // what follows "sponge NAME" in the help
	about   string // what it does, then its Examples
	options func() any
	run     func(env *Env, opts any, args []string) int // nil: it runs in sponge-full
}

var commands = map[string]command{}

// register adds a subcommand that runs in the front; called from init in
// each subcommand's file.
// Main parses the command line into a new O and passes it to run with the
// positional arguments; help, the man page and completions read the same
// usage, about and options.
func register[O any](name, summary, usage, about string, run func(env *Env, opts *O, args []string) int) {
	if _, dup := commands[name]; dup {
		panic("sponge: two commands named " + name)
	}
	c := command{name: name, summary: summary, usage: usage, about: about, options: func() any { return new(O) }}
	if run != nil {
		c.run = func(env *Env, opts any, args []string) int { return run(env, opts.(*O), args) }
	}
	commands[name] = c
}

// declare adds a subcommand whose code is in sponge-full (package cli): the
// front knows its options and help, and hands it the command line.
func declare[O any](name, summary, usage, about string) {
	register[O](name, summary, usage, about, nil)
}

// Full is the program with the code of every command, beside sponge.
const Full = "sponge-full"

// Runs is the code of the commands that the front hands to sponge-full, for
// MainWith; Implement fills it.
type Runs map[string]func(env *Env, opts any, args []string) int

// Implement adds the code of the command name, declared here, to runs.
func Implement[O any](runs Runs, name string, run func(env *Env, opts *O, args []string) int) {
	c, ok := commands[name]
	if !ok || c.run != nil {
		panic("sponge: " + name + " is not a command declared for " + Full)
	}
	if _, ok := c.options().(*O); !ok {
		panic("sponge: the code of " + name + " takes other options than it declares")
	}
	runs[name] = func(env *Env, opts any, args []string) int { return run(env, opts.(*O), args) }
}

// Missing names the declared commands that runs has no code for; sponge-full
// must have none.
func Missing(runs Runs) []string {
	var missing []string
	for _, n := range names() {
		if commands[n].run == nil && runs[n] == nil {
			missing = append(missing, n)
		}
	}
	return missing
}

// order is the order subcommands are listed in the help; others follow.
var order = []string{"add", "update", "list", "show", "summarize", "rm", "reindex", "search", "ask", "setup", "serve", "ui", "mcp"}

// Main runs the sponge command and returns its exit code: the commands
// linked here run in this process, the others in sponge-full.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return MainWith(nil, args, stdin, stdout, stderr)
}

// libraryOption is the options of a command that take --library.
type libraryOption interface{ libraryFlag() *string }

func (o *LibraryOpt) libraryFlag() *string { return &o.Library }

// MainWith is Main with the code of the commands in runs: sponge-full's Main
// gives every one, and hands nothing on.
func MainWith(runs Runs, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Settings: settings.FromOS()}
	embed.StartTiming(env.Settings.Get(embed.TimingEnv))
	given := args
	args = globalsAfterCommand(args)
	if len(args) == 0 {
		usage(env, stderr)
		return console.ExitUsage
	}
	switch args[0] {
	case "-h", "--help":
		usage(env, stdout)
		return console.ExitOK
	case "--version":
		args = append([]string{"version"}, args[1:]...)
	case "__complete": // the completion scripts' call, not a command for people
		complete(stdout, args[1:])
		return console.ExitOK
	}
	c, ok := commands[args[0]]
	if !ok && strings.HasPrefix(args[0], "--library") {
		return console.Report(stderr, Prog, console.Usage("--library DIR needs a command after it").
			WithHint("sponge --library DIR list (run 'sponge --help' for the list of commands)"))
	}
	if !ok {
		console.PrintError(stderr, Prog, fmt.Sprintf("unknown command %q", args[0]))
		console.PrintHint(stderr, Prog, "run 'sponge --help' for the list of commands")
		return console.ExitUsage
	}
	if c.name != "config" {
		// A damaged config file is reported here, once, whatever the
		// command reads of it.
		if _, err := env.Settings.Read(); err != nil {
			return console.Report(env.Stderr, Prog, console.Errorf("%v", err).WithHint("fix the file, or remove a setting with 'sponge config unset KEY'"))
		}
	}
	opts := c.options()
	rest, done, code := console.Parse(opts, Prog+" "+c.name, c.usage, c.about, args[1:], stdout, stderr)
	if done {
		return code
	}
	// The library is resolved here, once (flag, environment, config file,
	// default), and every command and stage below is given it. config
	// shows where each setting comes from, and resolves them itself.
	if lo, ok := opts.(libraryOption); ok && c.name != "config" {
		lib, err := env.Settings.Library(*lo.libraryFlag())
		if err != nil {
			return console.Report(env.Stderr, Prog, err)
		}
		*lo.libraryFlag() = lib
	}
	switch {
	case c.run != nil:
		return c.run(env, opts, rest)
	case runs[c.name] != nil:
		return runs[c.name](env, opts, rest)
	case runs != nil: // sponge-full never hands a command to itself
		return console.Report(stderr, Prog, console.Errorf("%s has no code for 'sponge %s'", Full, c.name))
	}
	return runFull(env, c.name, given)
}

// globalsAfterCommand moves the options every command takes (--library DIR,
// --library=DIR) from before the command name to after it, so that
// 'sponge --library X list' is 'sponge list --library X'.
func globalsAfterCommand(args []string) []string {
	var globals []string
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "--library" && i+1 < len(args):
			globals = append(globals, a, args[i+1])
			i += 2
			continue
		case strings.HasPrefix(a, "--library="):
			globals = append(globals, a)
			i++
			continue
		}
		break
	}
	if len(globals) == 0 || i == len(args) {
		return args
	}
	// help, --help, version, --version, completion: no library to choose.
	if c, ok := commands[strings.TrimPrefix(args[i], "--")]; ok && !takesLibrary(c) {
		return args[i:]
	}
	out := append([]string{args[i]}, globals...)
	return append(out, args[i+1:]...)
}

// takesLibrary says whether c has the --library option.
func takesLibrary(c command) bool {
	fs, _ := console.Flags(c.options())
	for _, f := range fs {
		if f.Long == "library" {
			return true
		}
	}
	return false
}

// names are the commands in the order of the help.
func names() []string {
	seen := map[string]bool{}
	var names []string
	for _, n := range order {
		if _, ok := commands[n]; ok {
			names = append(names, n)
			seen[n] = true
		}
	}
	var rest []string
	for n := range commands {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}

func usage(env *Env, w io.Writer) {
	fmt.Fprintf(w, "Usage: sponge COMMAND [OPTIONS] [ARGS]\n\nA local-first personal library: save what you read, ask it questions,\nget answers whose every quote is checked against what you saved.\n\nCommands:\n")
	for _, n := range names() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	home := func(p string) string {
		if h := env.Settings.Home; h != "" {
			return strings.Replace(p, h, "~", 1)
		}
		return p
	}
	here := "none"
	if lib, err := env.Settings.Library(""); err == nil {
		here = home(lib)
	}
	fmt.Fprintf(w, "\nRun 'sponge help COMMAND' (or 'sponge COMMAND --help') for a command's options and examples.\n"+
		"'sponge --version' says which sponge this is, and 'sponge completion bash|zsh|fish' prints\n"+
		"a shell completion script.\n\n"+
		"The library is --library DIR (before or after the command), else $SPONGE_HOME,\n"+
		"else the config file's library, else $XDG_DATA_HOME/sponge, else ~/.local/share/sponge;\n"+
		"here it is %s. The config file is %s (see 'sponge config').\n\n%s\n",
		here, home(env.Settings.File()), console.ExitCodesHelp)
}

// libraryDefault is where the library is when --library is not given, in
// the order settings.Environ.Library takes them: the help, the man page and
// every --library option say this (TestLibraryDefaultSaidAsResolved).
const libraryDefault = "$SPONGE_HOME, else the config file's library, else $XDG_DATA_HOME/sponge, else ~/.local/share/sponge"

// LibraryOpt is the --library flag every subcommand takes.
type LibraryOpt struct {
	Library string `long:"library" value-name:"DIR" description:"the library folder (default $SPONGE_HOME, else the config file's library, else $XDG_DATA_HOME/sponge, else ~/.local/share/sponge)"`
}

// Count says "1 paragraph" or "3 paragraphs".
func Count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
