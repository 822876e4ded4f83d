// Package cli is the sponge command: a set of subcommands (add, list, show,
// ask, setup, …). Each subcommand lives in its own file and registers itself.
package cli

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

// Prog is how the command names itself in messages.
const Prog = "sponge"

// Env is what a subcommand runs with.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

type command struct {
	name    string
	summary string // one line, in the list of commands
	usage   string // what follows "sponge NAME" in the help
	about   string // what it does, then its Examples
	options func() any
	run     func(env *Env, opts any, args []string) int
}

var commands = map[string]command{}

// register adds a subcommand; called from init in each subcommand's file.
// Main parses the command line into a new O and passes it to run with the
// positional arguments; help, the man page and completions read the same
// usage, about and options.
func register[O any](name, summary, usage, about string, run func(env *Env, opts *O, args []string) int) {
	if _, dup := commands[name]; dup {
		panic("sponge: two commands named " + name)
	}
	commands[name] = command{name, summary, usage, about,
		func() any { return new(O) },
		func(env *Env, opts any, args []string) int { return run(env, opts.(*O), args) }}
}

// order is the order subcommands are listed in the help; others follow.
var order = []string{"add", "update", "list", "show", "summarize", "rm", "reindex", "search", "ask", "setup", "serve", "mcp"}

// Main runs the sponge command and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	args = globalsAfterCommand(args)
	if len(args) == 0 {
		usage(stderr)
		return console.ExitUsage
	}
	switch args[0] {
	case "-h", "--help":
		usage(stdout)
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
		// The library's setting is read without a word where it is used
		// (library.DefaultDir): a damaged config file is reported here.
		if _, err := settings.Read(); err != nil {
			return console.Report(env.Stderr, Prog, console.Errorf("%v", err).WithHint("fix the file, or remove a setting with 'sponge config unset KEY'"))
		}
	}
	opts := c.options()
	rest, done, code := console.Parse(opts, Prog+" "+c.name, c.usage, c.about, args[1:], stdout, stderr)
	if done {
		return code
	}
	return c.run(env, opts, rest)
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

func usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: sponge COMMAND [OPTIONS] [ARGS]\n\nA local-first personal library: save what you read, ask it questions,\nget answers whose every quote is checked against what you saved.\n\nCommands:\n")
	for _, n := range names() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	home := func(p string) string {
		if h := os.Getenv("HOME"); h != "" {
			return strings.Replace(p, h, "~", 1)
		}
		return p
	}
	fmt.Fprintf(w, "\nRun 'sponge help COMMAND' (or 'sponge COMMAND --help') for a command's options and examples.\n"+
		"'sponge --version' says which sponge this is, and 'sponge completion bash|zsh|fish' prints\n"+
		"a shell completion script. The library is --library DIR (before or after the command),\n"+
		"else $SPONGE_HOME, else the library of the config file %s, else %s (see 'sponge config').\n%s\n",
		home(settings.File()), home(settings.DataDir()), console.ExitCodesHelp)
}

// LibraryOpt is the --library flag every subcommand takes.
type LibraryOpt struct {
	Library string `long:"library" value-name:"DIR" description:"the library folder (default $SPONGE_HOME, else the config file's library, else ~/.local/share/sponge)"`
}

// progressFor is a progress bar on stderr when it is a terminal.
func progressFor(env *Env, total int, what string) *progress.Bar {
	return progress.New(env.Stderr, int64(total), what, false)
}

// count says "1 paragraph" or "3 paragraphs".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// openWriter opens the library for changes, telling the person when another
// sponge command has it and this one waits its turn.
func openWriter(env *Env, dir string) (*ingest.Writer, error) {
	w, err := ingest.OpenWriter(dir, func() {
		fmt.Fprintln(env.Stderr, "sponge: waiting for another sponge command to finish with the library…")
	})
	if err == nil {
		tellSetAside(env, w)
	}
	return w, err
}

// tellSetAside warns of each damaged item a rebuild of the index set aside.
func tellSetAside(env *Env, w *ingest.Writer) {
	for _, s := range w.TakeSetAside() {
		console.PrintWarning(env.Stderr, Prog, fmt.Sprintf("%s; it is set aside in %s, and the library works without it", s.Reason, s.Path))
		console.PrintHint(env.Stderr, Prog, fmt.Sprintf("add the file again if you have it, and 'sponge rm %s' removes the damaged copy", item.Short(s.ID)))
	}
}

// openExistingWriter is openWriter for commands that change a library that
// must be there already (rm, reindex): a missing one is an error, not made.
func openExistingWriter(env *Env, dir string) (*ingest.Writer, error) {
	if _, err := library.Open(dir); err != nil {
		return nil, err
	}
	return openWriter(env, dir)
}
