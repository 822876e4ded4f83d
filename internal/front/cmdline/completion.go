package cmdline

import (
	"fmt"
	"io"
	"strings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
)

func init() {
	register("completion", "print a shell completion script (bash, zsh or fish)", "bash|zsh|fish", completionAbout, runCompletion)
}

const completionAbout = "Print a script that completes sponge's commands, their options, and the item\n" +
	"ids of show and rm (with their titles, in zsh and fish). The script asks sponge\n" +
	"itself ('sponge __complete WORDS...'), so it stays right as the library changes.\n\n" +
	"Examples:\n\n" +
	"  source <(sponge completion bash)      # in ~/.bashrc\n" +
	"  sponge completion zsh > \"${fpath[1]}/_sponge\"\n" +
	"  sponge completion fish > ~/.config/fish/completions/sponge.fish"

type completionOptions struct{}

// completionScripts call back into 'sponge __complete' with the words after
// "sponge" up to the one being completed, and read "candidate\tdescription"
// lines.
var completionScripts = map[string]string{
	"bash": `# bash completion for sponge: source <(sponge completion bash)
_sponge() {
	local IFS=$'\n'
	COMPREPLY=($(sponge __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null | cut -f1))
}
complete -o default -F _sponge sponge
`,
	"zsh": `#compdef sponge
# zsh completion for sponge: sponge completion zsh > "${fpath[1]}/_sponge"
_sponge() {
	local line
	local -a cands
	for line in "${(@f)$(sponge __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
		[[ -n $line ]] && cands+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}")
	done
	if (( ${#cands} )); then
		_describe 'sponge' cands
	else
		_files
	fi
}
if [[ $zsh_eval_context[-1] == loadautoload ]]; then
	_sponge "$@"
else
	compdef _sponge sponge
fi
`,
	"fish": `# fish completion for sponge: sponge completion fish > ~/.config/fish/completions/sponge.fish
function __sponge_complete
	set -l words (commandline -opc)
	set -e words[1]
	sponge __complete $words (commandline -ct) 2>/dev/null
end
complete -c sponge -f -a '(__sponge_complete)'
complete -c sponge -n '__fish_seen_subcommand_from add setup' -F
`,
}

func runCompletion(env *Env, _ *completionOptions, rest []string) int {
	if len(rest) != 1 || completionScripts[rest[0]] == "" {
		return console.Report(env.Stderr, Prog, console.Usage("completion takes one shell: bash, zsh or fish").
			WithHint("source <(sponge completion bash)"))
	}
	fmt.Fprint(env.Stdout, completionScripts[rest[0]])
	return console.ExitOK
}

// complete prints the candidates for the last of words (the words after
// "sponge", the last one being completed, maybe empty), one a line as
// "candidate\tdescription". It is quiet on errors: a completion that fails
// offers nothing.
func complete(w io.Writer, words []string) {
	if len(words) == 0 {
		words = []string{""}
	}
	cur := words[len(words)-1]
	words = words[:len(words)-1]
	library := ""
	// The options before the command: --library DIR.
	for len(words) > 0 && strings.HasPrefix(words[0], "-") {
		if words[0] == "--library" {
			if len(words) == 1 {
				return // its value: the shell's own completion (folders)
			}
			library = words[1]
			words = words[2:]
			continue
		}
		if v, ok := strings.CutPrefix(words[0], "--library="); ok {
			library = v
		}
		words = words[1:]
	}
	offer := func(c, desc string) {
		if strings.HasPrefix(c, cur) {
			fmt.Fprintf(w, "%s\t%s\n", c, OneLine(desc))
		}
	}
	if len(words) == 0 {
		if strings.HasPrefix(cur, "-") {
			offer("--library", "the library folder")
			offer("--help", "the list of commands")
			offer("--version", "which sponge this is")
			return
		}
		for _, n := range names() {
			offer(n, commands[n].summary)
		}
		return
	}
	c, ok := commands[words[0]]
	if !ok {
		return
	}
	fs, err := console.Flags(c.options())
	if err != nil {
		return
	}
	// The arguments so far, apart from the options and their values.
	takesValue := map[string]bool{}
	for _, f := range fs {
		if f.Value != "" {
			takesValue["--"+f.Long] = true
			if f.Short != 0 {
				takesValue["-"+string(f.Short)] = true
			}
		}
	}
	var args []string
	for i := 1; i < len(words); i++ {
		a := words[i]
		switch {
		case takesValue[a] && i+1 == len(words):
			return // cur is the option's value: the shell's own completion (files)
		case takesValue[a]:
			if a == "--library" {
				library = words[i+1]
			}
			i++
		case strings.HasPrefix(a, "--library="):
			library = strings.TrimPrefix(a, "--library=")
		case !strings.HasPrefix(a, "-"):
			args = append(args, a)
		}
	}
	if strings.HasPrefix(cur, "-") {
		for _, f := range fs {
			offer("--"+f.Long, f.Description)
		}
		offer("--help", "show this command's help")
		return
	}
	switch c.name {
	case "help":
		if len(args) == 0 {
			for _, n := range names() {
				offer(n, commands[n].summary)
			}
		}
	case "completion":
		if len(args) == 0 {
			for _, sh := range []string{"bash", "fish", "zsh"} {
				offer(sh, "")
			}
		}
	case "show", "rm", "summarize":
		if c.name != "show" || len(args) == 0 {
			completeIDs(library, offer)
		}
	}
}

// completeIDs offers the short id of each item, with its title, as sponge
// list shows them.
func completeIDs(dir string, offer func(c, desc string)) {
	lib, err := library.Open(dir)
	if err != nil {
		return
	}
	ids, err := lib.IDs()
	if err != nil {
		return
	}
	for _, id := range ids {
		title := ""
		if m, err := lib.Meta(id); err == nil {
			title = m.Title
		}
		offer(strings.TrimSuffix(item.Short(id), "…"), title)
	}
}
