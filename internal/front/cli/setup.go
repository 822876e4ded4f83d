package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/model/catalog"
	"github.com/sponge-library/sponge/internal/model/catalog/install"
	"github.com/sponge-library/sponge/internal/model/gguf"
	"github.com/sponge-library/sponge/internal/model/openai"
)

func init() {
	cmdline.Implement(runs, "setup", runSetup)
}

// modelLabels name the kinds of model for people, with the command that
// installs each.
var modelLabels = []struct {
	kind    catalog.Kind
	label   string
	install string
	use     string
}{
	{catalog.Digest, "writing model", "sponge setup --digest", "writes the statements of sponge ask"},
	{catalog.Embedding, "embedding model", "sponge setup --embedding", "finds passages by meaning"},
}

func runSetup(env *Env, opts *cmdline.SetupOptions, rest []string) int {
	if len(rest) > 0 {
		return console.Report(env.Stderr, Prog, console.Usage("setup takes no arguments (got %q)", rest[0]).WithHint("to install a file: sponge setup --from FILE"))
	}
	if opts.Embedding {
		return runSetupEmbedding(env, *opts)
	}
	if opts.Digest && opts.From != "" {
		return console.Report(env.Stderr, Prog, console.Usage("--digest and --from do not go together: --digest installs the default model, --from another one"))
	}
	if opts.Force && !opts.Digest {
		return console.Report(env.Stderr, Prog, console.Usage("--force goes with --digest"))
	}
	dir := opts.Library
	modelsDir := env.Settings.ModelsDir()
	left, err := shareModels(env, dir)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	if !opts.Digest && opts.From == "" {
		return console.Report(env.Stderr, Prog, showModels(env.Stdout, modelsDir, dir, left))
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	inst := installOptions(env)
	var m *catalog.Manifest
	if opts.Digest {
		spec, ok := catalog.Known[catalog.Digest]
		if !ok {
			return console.Report(env.Stderr, Prog, console.Errorf("this build knows no default writing model").WithHint("install one with: sponge setup --from FILE|URL"))
		}
		if _, cur, _ := catalog.Find(modelsDir, dir, catalog.Digest); cur != nil && strings.EqualFold(cur.SHA256, spec.SHA256) && !opts.Force {
			fmt.Fprintf(env.Stdout, "The writing model is installed already: %s, %s.\n", cmdline.OneLine(cur.Name), catalog.Bytes(cur.Size))
			return console.ExitOK
		}
		fmt.Fprintf(env.Stderr, "%s: downloading %s (%s, %s licence) from %s\n", Prog, spec.Name, catalog.Bytes(spec.Size), spec.License, hostOf(spec.URL))
		m, err = install.Download(ctx, modelsDir, spec, inst)
	} else {
		m, err = install.From(ctx, modelsDir, catalog.Digest, opts.From, inst)
	}
	if err != nil {
		if ctx.Err() != nil {
			console.Report(env.Stderr, Prog, err)
			return console.ExitInterrupted
		}
		return console.Report(env.Stderr, Prog, err)
	}
	fmt.Fprintf(env.Stdout, "Installed the writing model: %s, %s, sha256 %s\n", cmdline.OneLine(m.Name), catalog.Bytes(m.Size), m.SHA256)
	fmt.Fprintf(env.Stdout, "sponge ask now writes its statements with it; 'sponge serve' keeps it loaded between questions.\n")
	if info := openai.FindServe(context.Background(), dir); info != nil {
		fmt.Fprintf(env.Stdout, "The running sponge serve (pid %d) still has the old model: restart it to use this one.\n", info.PID)
	}
	return console.ExitOK
}

func hostOf(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		rest := u[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			return rest[:j]
		}
		return rest
	}
	return u
}

// installOptions are the checks every install runs.
func installOptions(env *Env) install.Options {
	return install.Options{
		Progress: env.Stderr,
		Retries:  3,
		Inspect:  inspectModel,
		Check: func(path string) error {
			err := checkModelLoads(path)
			if errors.Is(err, errNoRuntime) {
				console.PrintWarning(env.Stderr, Prog, "sponge-draft is not built, so whether the model loads was not checked")
				return nil
			}
			return err
		},
	}
}

var errNoRuntime = errors.New("no model runtime")

// inspectModel reads a GGUF header in pure Go, before the file is copied or
// handed to llama.cpp: a truncated file, an architecture the runtime lacks or
// one that cannot write text is refused here with a clear reason.
func inspectModel(path string) (name, arch string, err error) {
	info, err := gguf.ReadInfo(path)
	if err == nil {
		err = info.Check()
	}
	if err != nil {
		// The message names the file the person gave, not this path.
		var ge *gguf.Error
		if errors.As(err, &ge) {
			return "", "", errors.New(ge.Msg)
		}
		return "", "", err
	}
	return info.Name, info.Architecture, nil
}

// checkModelLoads runs `sponge-draft --check-model FILE`, which loads the
// model with llama.cpp: the sponge binary itself has no cgo. A variable so
// tests can stand in for the runtime.
var checkModelLoads = func(path string) error {
	exe, err := pipeline.FindProgram("sponge-draft")
	if err != nil {
		return errNoRuntime
	}
	cmd := exec.Command(exe, "--check-model", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil {
		// sponge-draft says why on stderr: "sponge-draft: error: …".
		msg := ""
		for _, line := range strings.Split(stderr.String(), "\n") {
			if m, ok := strings.CutPrefix(line, "sponge-draft: error: "); ok {
				msg = m
				break
			}
		}
		if msg == "" {
			msg = strings.TrimSpace(stderr.String())
		}
		if msg == "" {
			msg = err.Error()
		}
		return errors.New(msg)
	}
	return nil
}

// shareModels moves the models of the library's own folder to the shared
// one (catalog.Share), saying so, and returns those that stay.
func shareModels(env *Env, libDir string) ([]catalog.Left, error) {
	moved, left, err := catalog.Share(env.Settings.ModelsDir(), libDir)
	for _, mv := range moved {
		fmt.Fprintf(env.Stdout, "Moved the %s from %s to %s, where every library finds it.\n", labelOf(mv.Kind), mv.From, mv.To)
	}
	if err != nil {
		return nil, console.Errorf("cannot read the library's own models folder: %v", err)
	}
	return left, nil
}

func labelOf(k catalog.Kind) string {
	for _, ml := range modelLabels {
		if ml.kind == k {
			return ml.label
		}
	}
	return string(k) + " model"
}

// showModels prints what is installed, where and how big, and how to
// install what is not. left are the models of the library's own folder that
// were not moved to the shared one.
func showModels(w io.Writer, shared, libDir string, left []catalog.Left) error {
	var total int64
	for _, ml := range modelLabels {
		if m, err := catalog.Installed(shared, ml.kind); err == nil && m != nil {
			total += m.Size
		}
	}
	fmt.Fprintf(w, "Models folder: %s (shared by every library; %s)\n", shared, catalog.Bytes(total))
	for _, ml := range modelLabels {
		modelsDir, m, err := catalog.Find(shared, libDir, ml.kind)
		if err != nil {
			return console.Errorf("cannot read the %s: %v", ml.label, err)
		}
		fmt.Fprintln(w)
		if m == nil {
			fmt.Fprintf(w, "%s (%s): not installed\n", capitalize(ml.label), ml.kind.File())
			if spec, ok := catalog.Known[ml.kind]; ok {
				if spec.Size > 0 {
					fmt.Fprintf(w, "  install with: %s   (%s, %s)\n", ml.install, spec.Name, catalog.Bytes(spec.Size))
				} else {
					fmt.Fprintf(w, "  install with: %s   (%s)\n", ml.install, spec.Name)
				}
			} else if ml.kind == catalog.Digest {
				fmt.Fprintf(w, "  install with: sponge setup --from FILE|URL\n")
			} else {
				fmt.Fprintf(w, "  (this version has no %s to install; it %s)\n", ml.label, ml.use)
			}
			continue
		}
		fmt.Fprintf(w, "%s (%s): installed\n", capitalize(ml.label), ml.kind.File())
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		name := m.Name
		if name == "" {
			name = "(unknown: installed by hand)"
		}
		fmt.Fprintf(tw, "  model\t%s\n", cmdline.OneLine(name))
		if m.Architecture != "" {
			fmt.Fprintf(tw, "  architecture\t%s\n", cmdline.OneLine(m.Architecture))
		}
		fmt.Fprintf(tw, "  size\t%s (%d bytes)\n", catalog.Bytes(m.Size), m.Size)
		if m.SHA256 != "" {
			fmt.Fprintf(tw, "  sha256\t%s\n", m.SHA256)
		}
		if m.Source != "" {
			fmt.Fprintf(tw, "  source\t%s\n", cmdline.OneLine(m.Source))
		}
		fmt.Fprintf(tw, "  installed\t%s\n", m.Installed.Local().Format("2006-01-02 15:04"))
		if modelsDir != shared {
			fmt.Fprintf(tw, "  folder\t%s (this library's own)\n", modelsDir)
		}
		tw.Flush()
		if spec, ok := catalog.Known[ml.kind]; ok && m.SHA256 != "" && !strings.EqualFold(m.SHA256, spec.SHA256) {
			fmt.Fprintf(w, "  (not the default %s; '%s' installs %s)\n", ml.label, ml.install, spec.Name)
		}
	}
	for _, l := range left {
		fmt.Fprintln(w)
		if l.Used {
			fmt.Fprintf(w, "This library's own %s (%s) stays in %s and is used from there: it could not be moved (%s).\n", l.Kind.File(), catalog.Bytes(l.Size), l.Dir, l.Reason)
		} else {
			fmt.Fprintf(w, "This library's own %s (%s) in %s is not used: the shared models folder has a %s. Delete it to free the space.\n", l.Kind.File(), catalog.Bytes(l.Size), l.Dir, labelOf(l.Kind))
		}
	}
	fmt.Fprintln(w)
	if info := openai.FindServe(context.Background(), libDir); info != nil {
		fmt.Fprintf(w, "sponge serve: running at %s with %s (pid %d)\n", cmdline.OneLine(info.Endpoint), cmdline.OneLine(info.Model), info.PID)
	} else {
		fmt.Fprintf(w, "sponge serve: not running (start it to keep the writing model loaded between questions)\n")
	}
	return nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
