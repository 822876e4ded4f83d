package cmdline

import (
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/settings"
)

func init() {
	register("config", "show or change the settings: config list, get KEY, set KEY VALUE, unset KEY",
		"list | get KEY | set KEY VALUE | unset KEY", configAbout(), runConfig)
}

func configAbout() string {
	var b strings.Builder
	b.WriteString("Settings that persist, in the config file $XDG_CONFIG_HOME/sponge/config (by default\n" +
		"~/.config/sponge/config).\n" +
		"Each setting is taken from its flag, else its environment variable, else the file, else its default.\n\n")
	for _, k := range settings.Keys {
		fmt.Fprintf(&b, "%-9s %s (%s)\n", k.Name, k.About, k.Env)
	}
	b.WriteString("\nlist         each setting, its value and where it comes from (flag, env, file or default)\n" +
		"get KEY      the value of a setting\n" +
		"set KEY VAL  write a setting into the config file\n" +
		"unset KEY    remove a setting from the config file")
	return b.String()
}

// configOptions are the flags a setting has elsewhere, so that list and get
// show what a command given them would use.
type configOptions struct {
	LibraryOpt
	Endpoint string `long:"endpoint" value-name:"URL" description:"as sponge ask --endpoint"`
	Model    string `long:"model" value-name:"NAME" description:"as sponge ask --model"`
}

func runConfig(env *Env, opts *configOptions, rest []string) int {
	if len(rest) == 0 {
		rest = []string{"list"}
	}
	want := map[string]int{"list": 0, "get": 1, "set": 2, "unset": 1}
	n, ok := want[rest[0]]
	if !ok {
		return console.Report(env.Stderr, Prog, console.Usage("unknown config command %q", rest[0]).WithHint("sponge config list | get KEY | set KEY VALUE | unset KEY"))
	}
	if len(rest)-1 != n {
		return console.Report(env.Stderr, Prog, console.Usage("config %s takes %s", rest[0], Count(n, "argument")))
	}
	flags := map[string]string{"library": opts.Library, "endpoint": opts.Endpoint, "model": opts.Model}
	if (rest[0] == "set" || rest[0] == "unset") && (opts.Library != "" || opts.Endpoint != "" || opts.Model != "") {
		return console.Report(env.Stderr, Prog, console.Usage("config %s takes no --library, --endpoint or --model: it writes the file", rest[0]))
	}
	if n > 0 && rest[0] != "unset" {
		if _, err := settings.Lookup(rest[1]); err != nil {
			return console.Report(env.Stderr, Prog, console.Usage("%v", err))
		}
	}
	switch rest[0] {
	case "get":
		v, err := env.Settings.Resolve(rest[1], flags[rest[1]])
		if err != nil {
			return console.Report(env.Stderr, Prog, err)
		}
		if v.Value != "" {
			fmt.Fprintln(env.Stdout, v.Value)
		}
		return console.ExitOK
	case "set":
		value := rest[2]
		if rest[1] == "library" {
			abs, err := filepath.Abs(value)
			if err != nil {
				return console.Report(env.Stderr, Prog, err)
			}
			value = abs
		}
		if value == "" {
			return console.Report(env.Stderr, Prog, console.Usage("a setting cannot be empty").WithHint("sponge config unset %s", rest[1]))
		}
		if rest[1] == "hints" && value != "on" && value != "off" {
			return console.Report(env.Stderr, Prog, console.Usage("hints is on or off, not %q", value))
		}
		return console.Report(env.Stderr, Prog, env.Settings.Set(rest[1], value))
	case "unset":
		if err := env.Settings.Set(rest[1], ""); err != nil {
			if _, unknown := settings.Lookup(rest[1]); unknown != nil {
				return console.Report(env.Stderr, Prog, console.Usage("%v", err))
			}
			return console.Report(env.Stderr, Prog, err)
		}
		return console.ExitOK
	}
	vs, err := env.Settings.All(flags)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	for _, v := range vs {
		value, from := v.Value, v.Source
		switch v.Source {
		case settings.FromEnv:
			from = "env " + v.Key.Env
		case settings.FromFile:
			from = "file " + v.File
		}
		if value == "" {
			value = "(none)"
		}
		// A table for a person: a value's control characters inert ('config
		// get' prints the value exact, for scripts).
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Key.Name, OneLine(value), OneLine(from))
	}
	return console.Report(env.Stderr, Prog, tw.Flush())
}
