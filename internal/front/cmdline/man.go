package cmdline

import (
	"fmt"
	"io"
	"strings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/settings"
)

// writeManPage writes sponge(1) in roff from the same text as the help:
// the list of commands, then each command's usage, about and options.
func writeManPage(w io.Writer) {
	fmt.Fprintf(w, ".TH SPONGE 1 \"\" \"sponge\" \"User Commands\"\n")
	fmt.Fprintf(w, ".SH NAME\nsponge \\- a local-first personal library\n")
	fmt.Fprintf(w, ".SH SYNOPSIS\n.B sponge\n.I COMMAND\n[OPTIONS] [ARGS]\n")
	fmt.Fprintf(w, ".SH DESCRIPTION\n%s\n", roff("Save what you read, ask it questions, get answers whose every quote is checked against what you saved. "+
		"The library is --library DIR (before or after the command), else "+libraryDefault+"."))
	fmt.Fprintf(w, ".SH COMMANDS\n")
	for _, n := range names() {
		c := commands[n]
		fmt.Fprintf(w, ".SS \"%s\"\n", roff(strings.TrimSpace(Prog+" "+c.name+" "+c.usage)))
		for _, p := range strings.Split(c.about, "\n\n") {
			if console.IsList(p) {
				fmt.Fprintf(w, ".PP\n.nf\n.RS 4\n")
				for _, l := range strings.Split(strings.Trim(p, "\n"), "\n") {
					fmt.Fprintf(w, "%s\n", roff(strings.TrimSpace(l)))
				}
				fmt.Fprintf(w, ".RE\n.fi\n")
				continue
			}
			fmt.Fprintf(w, ".PP\n%s\n", roff(strings.Join(strings.Fields(p), " ")))
		}
		fs, _ := console.Flags(c.options())
		for _, f := range fs {
			name := "\\fB\\-\\-" + roff(f.Long) + "\\fR"
			if f.Short != 0 {
				name = "\\fB\\-" + string(f.Short) + "\\fR, " + name
			}
			if f.Value != "" {
				name += "=\\fI" + roff(f.Value) + "\\fR"
			}
			desc := f.Description
			if f.Default != "" {
				desc += " (default: " + f.Default + ")"
			}
			fmt.Fprintf(w, ".TP\n%s\n%s\n", name, roff(desc))
		}
	}
	fmt.Fprintf(w, ".SH ENVIRONMENT\n")
	for _, k := range settings.Keys {
		fmt.Fprintf(w, ".TP\n.B %s\n%s; before the config file's\n", k.Env, roff(k.About))
	}
	fmt.Fprintf(w, ".TP\n.B XDG_DATA_HOME\n%s\n", roff("$XDG_DATA_HOME/sponge (else ~/.local/share/sponge) holds the models every library shares, and is the library when neither --library, $SPONGE_HOME nor the config file gives one"))
	fmt.Fprintf(w, ".TP\n.B XDG_CONFIG_HOME\n%s\n", roff("the config file is $XDG_CONFIG_HOME/sponge/config, else ~/.config/sponge/config (see sponge config)"))
	fmt.Fprintf(w, ".SH EXIT STATUS\n%s\n", roff(console.ExitCodesHelp))
	fmt.Fprintf(w, ".SH SEE ALSO\n.BR sponge-search (1),\n.BR sponge-rank (1),\n.BR sponge-draft (1),\n.BR sponge-verify (1),\n.BR sponge-render (1)\n")
}

// roff makes s text of a roff line: backslashes and hyphens escaped, and a
// line that would start with a control character made plain.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
