// Package cli is the code of the sponge commands that the front (package
// cmdline, the sponge program) does not link: add, update, rm, reindex,
// summarize, setup, serve, ui and mcp. The sponge-full program runs them, and
// every other command, in its own process; their options and help are
// declared in cmdline.
package cli

import (
	"fmt"
	"io"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

// Prog is how the command names itself in messages: the person typed
// 'sponge add', whichever program runs it.
const Prog = cmdline.Prog

// Env is what a subcommand runs with.
type Env = cmdline.Env

// runs is the code of the commands here; each file's init adds its own.
var runs = cmdline.Runs{}

// Main runs the sponge command with every subcommand in this process (the
// sponge-full program) and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cmdline.MainWith(runs, args, stdin, stdout, stderr)
}

// progressFor is a progress bar on stderr when it is a terminal.
func progressFor(env *Env, total int, what string) *progress.Bar {
	return progress.New(env.Stderr, int64(total), what, false)
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
