package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/front/ui"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/model/openai"
)

func init() {
	cmdline.Implement(runs, "ui", runUI)
}

func runUI(env *Env, opts *cmdline.UIOptions, rest []string) int {
	if len(rest) > 0 {
		return console.Report(env.Stderr, Prog, console.Usage("ui takes no arguments (got %q)", rest[0]).
			WithHint("ask from the page it serves; --library DIR names another library"))
	}
	if opts.Port == 0 {
		opts.Port = openai.DefaultPort + 1
	}
	if opts.Port < 1 || opts.Port > 65535 {
		return console.Report(env.Stderr, Prog, console.Usage("--port must be from 1 to 65535, not %d", opts.Port))
	}
	if _, err := library.Open(opts.Library); err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	endpoint, model, from, err := cmdline.DrafterSettings(env.Settings, "", "")
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	s, err := ui.New(ui.Options{Library: opts.Library, Models: env.Settings.ModelsDir(), Endpoint: endpoint, Model: model, EndpointFrom: from,
		FindStage: pipeline.FindProgram, Write: opts.Write, Home: env.Settings.Home, Stderr: env.Stderr})
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(opts.Port)))
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return console.Report(env.Stderr, Prog, console.Errorf("port %d on 127.0.0.1 is in use", opts.Port).
				WithHint("is sponge ui running already? else choose another port with --port"))
		}
		return console.Report(env.Stderr, Prog, console.Errorf("cannot listen on 127.0.0.1:%d: %v", opts.Port, err))
	}
	addr := "http://" + ln.Addr().String() + "/"
	mode := "reading"
	if opts.Write {
		mode = "reading and changing (--write)"
	}
	fmt.Fprintf(env.Stdout, "sponge ui: %s\n", addr)
	fmt.Fprintf(env.Stderr, "sponge ui: %s the library at %s; Ctrl-C stops it\n", mode, cmdline.OneLine(s.Dir()))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if opts.Open {
		if err := openBrowser(addr); err != nil {
			console.PrintWarning(env.Stderr, Prog, fmt.Sprintf("cannot open the web browser: %v", err))
			console.PrintHint(env.Stderr, Prog, "open "+addr+" in it yourself")
		}
	}
	if err := s.Serve(ctx, ln); err != nil {
		return console.Report(env.Stderr, Prog, console.Errorf("the server stopped: %v", err))
	}
	fmt.Fprintln(env.Stderr, "sponge ui: stopped")
	return console.ExitOK
}

// openBrowser opens addr in the person's web browser, and does not wait
// for it.
func openBrowser(addr string) error {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return fmt.Errorf("%s is not on PATH", name)
	}
	cmd := exec.Command(path, addr)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
