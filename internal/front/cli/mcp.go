package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/base/tty"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/front/mcp"
)

func init() {
	cmdline.Implement(runs, "mcp", runMCP)
}

func runMCP(env *Env, opts *cmdline.MCPOptions, rest []string) int {
	if len(rest) > 0 {
		return console.Report(env.Stderr, Prog, console.Usage("mcp takes no arguments (got %q)", rest[0]).
			WithHint("an MCP client starts 'sponge mcp' and talks to it on stdin and stdout"))
	}
	endpoint, model, from, err := cmdline.DrafterSettings(env.Settings, "", "")
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	s := mcp.New(mcp.Options{Library: opts.Library, Models: env.Settings.ModelsDir(), Endpoint: endpoint, Model: model, EndpointFrom: from,
		FormatItem: cmdline.FormatItem, FindStage: pipeline.FindProgram, Stderr: env.Stderr})
	if f, ok := env.Stdin.(*os.File); ok && tty.IsTerminal(f) {
		fmt.Fprintf(env.Stderr, "sponge mcp: serving the library at %s on stdin and stdout (Model Context Protocol)\n"+
			"sponge mcp: an MCP client starts this; see 'sponge mcp --help' (Ctrl-C stops it)\n", s.Dir())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	t := &mcp.Transport{Reader: readCloser(env), Writer: writeCloser(env)}
	err = s.Run(ctx, t)
	if err != nil && ctx.Err() == nil {
		return console.Report(env.Stderr, Prog, console.Errorf("mcp: %v", err))
	}
	return console.ExitOK
}

// readCloser and writeCloser give the transport the command's streams; the
// server closes them when the client goes.
func readCloser(env *Env) io.ReadCloser {
	if rc, ok := env.Stdin.(io.ReadCloser); ok {
		return rc
	}
	return io.NopCloser(env.Stdin)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func writeCloser(env *Env) io.WriteCloser { return nopWriteCloser{env.Stdout} }
