package cmdline

import (
	"github.com/sponge-library/sponge/internal/base/console"
)

func init() {
	register("help", "show the help of a command, or this list", "[COMMAND]", helpAbout, runHelp)
}

const helpAbout = "Show COMMAND's help: what it does, its options and examples; without COMMAND,\n" +
	"the list of commands. 'sponge COMMAND --help' shows the same.\n\n" +
	"Examples:\n\n" +
	"  sponge help ask\n" +
	"  sponge help\n" +
	"  sponge help --man > sponge.1 && man -l sponge.1"

type helpOptions struct {
	Man bool `long:"man" description:"print the help of every command as a man page (roff): what 'make man' writes to bin/sponge.1"`
}

func runHelp(env *Env, opts *helpOptions, rest []string) int {
	if opts.Man {
		if len(rest) > 0 {
			return console.Report(env.Stderr, Prog, console.Usage("--man takes no command"))
		}
		writeManPage(env.Stdout)
		return console.ExitOK
	}
	switch len(rest) {
	case 0:
		usage(env, env.Stdout)
		return console.ExitOK
	case 1:
	default:
		return console.Report(env.Stderr, Prog, console.Usage("help takes one command, not %d", len(rest)))
	}
	c, ok := commands[rest[0]]
	if !ok {
		return console.Report(env.Stderr, Prog, console.Usage("no command is named %q", rest[0]).
			WithHint("run 'sponge help' for the list of commands"))
	}
	_, _, code := console.Parse(c.options(), Prog+" "+c.name, c.usage, c.about, []string{"--help"}, env.Stdout, env.Stderr)
	return code
}
