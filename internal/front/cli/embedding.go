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
	"sort"
	"strings"
	"syscall"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
	"github.com/sponge-library/sponge/internal/library/vectors"
	"github.com/sponge-library/sponge/internal/model/catalog"
	"github.com/sponge-library/sponge/internal/model/catalog/install"
	"github.com/sponge-library/sponge/internal/model/embed"
)

// Meaning search, the sponge side: `sponge setup --embedding` installs the
// embedding model and embeds every paragraph; `sponge add` embeds the new
// items and `sponge reindex` makes the vectors again. sponge has no cgo: the
// model runs in sponge-embed, a child process (embed.Start, through internal/library/ingest.Embed).

// runSetupEmbedding installs the embedding model (the default one, or
// --from) unless it is installed already, then embeds every paragraph.
func runSetupEmbedding(env *Env, opts cmdline.SetupOptions) int {
	if opts.Digest {
		return console.Report(env.Stderr, Prog, console.Usage("--digest and --embedding do not go together: run them one after the other"))
	}
	dir := opts.Library
	lib, err := library.Create(dir)
	if err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	if _, err := shareModels(env, dir); err != nil {
		return console.Report(env.Stderr, Prog, err)
	}
	modelsDir := env.Settings.ModelsDir()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	inst := install.Options{Progress: env.Stderr, Retries: 3, Inspect: inspectEmbedding, Check: checkEmbeddingLoads}
	_, cur, _ := catalog.Find(modelsDir, dir, catalog.Embedding)
	var m *catalog.Manifest
	switch {
	case opts.From != "":
		m, err = install.From(ctx, modelsDir, catalog.Embedding, opts.From, inst)
	default:
		spec, ok := catalog.Known[catalog.Embedding]
		if !ok {
			return console.Report(env.Stderr, Prog, console.Errorf("this build knows no default embedding model").WithHint("install one with: sponge setup --embedding --from FILE|URL"))
		}
		if cur != nil && strings.EqualFold(cur.SHA256, spec.SHA256) && !opts.Force {
			fmt.Fprintf(env.Stdout, "The embedding model is installed already: %s, %s.\n", cmdline.OneLine(cur.Name), catalog.Bytes(cur.Size))
			break
		}
		size := ""
		if spec.Size > 0 {
			size = catalog.Bytes(spec.Size) + ", "
		}
		fmt.Fprintf(env.Stderr, "%s: downloading %s (%s%s licence) from %s\n", Prog, spec.Name, size, spec.License, hostOf(spec.URL))
		m, err = install.Download(ctx, modelsDir, spec, inst)
	}
	if err != nil {
		console.Report(env.Stderr, Prog, err)
		if ctx.Err() != nil {
			return console.ExitInterrupted
		}
		return console.ExitFailure
	}
	if m != nil {
		fmt.Fprintf(env.Stdout, "Installed the embedding model: %s, %s, sha256 %s\n", cmdline.OneLine(m.Name), catalog.Bytes(m.Size), m.SHA256)
	}
	if _, err := os.Stat(lib.IndexDir()); err != nil {
		fmt.Fprintln(env.Stdout, "The library is empty: 'sponge add' embeds what it saves from now on.")
		return console.ExitOK
	}
	return embedParagraphs(ctx, env, lib, vectors.UpdateOptions{}, true, false)
}

// embedParagraphs runs ingest.Embed with the installed embedding model, with
// a progress bar on a terminal. wait says whether to wait for another
// process that is embedding. quiet: errors and warnings only.
func embedParagraphs(ctx context.Context, env *Env, lib *library.Library, opt vectors.UpdateOptions, wait, quiet bool) int {
	var bar *progress.Bar
	barTotal := -1
	opt.Progress = func(done, total int) {
		if quiet {
			return
		}
		if total != barTotal {
			bar.Finish()
			bar = progress.New(env.Stderr, int64(total), "embedding paragraphs", false)
			barTotal = total
		}
		bar.Set(int64(done))
	}
	st, err := ingest.Embed(ctx, lib, ingest.EmbedOptions{UpdateOptions: opt, Models: env.Settings.ModelsDir(), Wait: wait, Start: startEmbedding,
		Waiting: func() {
			fmt.Fprintln(env.Stderr, "sponge: waiting for another sponge command to finish embedding the library…")
		}})
	bar.Finish()
	if errors.Is(err, ingest.ErrNoEmbeddingModel) {
		return console.ExitOK
	}
	if st.Replaced != nil && err == nil && !quiet {
		fmt.Fprintf(env.Stdout, "The paragraphs were embedded with %s: they are embedded again with %s.\n", cmdline.OneLine(st.Replaced.String()), cmdline.OneLine(st.Model.String()))
	}
	if err != nil {
		var om *vectors.OtherModelError
		if errors.As(err, &om) {
			return console.Report(env.Stderr, Prog, console.Errorf("%v", err).WithHint("run 'sponge setup --embedding' to embed every paragraph with the installed model"))
		}
		if ctx.Err() != nil {
			console.PrintError(env.Stderr, Prog, fmt.Sprintf("stopped after embedding %s of %s; what is done is kept", cmdline.Count(st.Items, "item"), cmdline.Count(st.Paragraphs, "paragraph")))
			console.PrintHint(env.Stderr, Prog, "run the same command again to go on where it stopped")
			return console.ExitInterrupted
		}
		return console.Report(env.Stderr, Prog, embeddingError(err))
	}
	if quiet {
		return console.ExitOK
	}
	if opt.Only == nil && st.Items == 0 {
		fmt.Fprintf(env.Stdout, "Every paragraph is embedded already (%s). Meaning search is on.\n", cmdline.Count(st.Total, "item"))
	} else if opt.Only == nil {
		fmt.Fprintf(env.Stdout, "Embedded %s of %s (%s copied from before); the library has %s with vectors. Meaning search is on.\n",
			cmdline.Count(st.Paragraphs-st.Copied, "paragraph"), cmdline.Count(st.Items, "item"), cmdline.Count(st.Copied, "paragraph"), cmdline.Count(st.Total, "item"))
	}
	return console.ExitOK
}

// embedAdded embeds the items `sponge add` saved, when an embedding model is
// set up. It never fails the add: what it cannot do, setup does later.
func embedAdded(env *Env, lib *library.Library, added map[string]bool) {
	if len(added) == 0 {
		return
	}
	ids := make([]string, 0, len(added))
	for id := range added {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	_, err := ingest.Embed(context.Background(), lib, ingest.EmbedOptions{UpdateOptions: vectors.UpdateOptions{Only: ids}, Models: env.Settings.ModelsDir(), Start: startEmbedding})
	switch {
	case err == nil || errors.Is(err, ingest.ErrNoEmbeddingModel):
	case errors.Is(err, vectors.ErrLocked):
		fmt.Fprintln(env.Stderr, "sponge: the running 'sponge setup --embedding' embeds the new paragraphs too")
	default:
		console.PrintWarning(env.Stderr, Prog, "the new paragraphs are not embedded: "+embeddingError(err).Error())
		console.PrintHint(env.Stderr, Prog, "run 'sponge setup --embedding' to embed them")
	}
}

// rebuildVectors makes the paragraph vectors again after `sponge reindex`,
// when an embedding model is set up.
func rebuildVectors(env *Env, lib *library.Library, changed map[string]bool, quiet bool) int {
	if path, _, err := vectors.Installed(env.Settings.ModelsDir(), lib); err != nil || path == "" {
		return console.ExitOK
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return embedParagraphs(ctx, env, lib, vectors.UpdateOptions{Rebuild: true, Changed: changed}, true, quiet)
}

func embeddingError(err error) error {
	if errors.Is(err, embed.ErrNoHelper) {
		return console.Errorf("%v", err).WithHint("build it with 'make build' and keep it beside sponge")
	}
	return err
}

// startEmbedding starts the embedding model; a variable so tests can stand
// in a model.
var startEmbedding = func(path string) (embed.Embedder, error) {
	return embed.Start(path, embed.Options{})
}

// inspectEmbedding checks, in pure Go, that a file is an embedding model.
func inspectEmbedding(path string) (name, arch string, err error) {
	info, err := embed.Inspect(path)
	if err != nil {
		return "", "", err
	}
	return info.Name, info.Architecture, nil
}

// checkEmbeddingLoads runs `sponge-embed --check-model FILE`, which loads
// the model with llama.cpp and embeds a sentence. A variable so tests can
// stand in for the runtime.
var checkEmbeddingLoads = func(path string) error {
	exe, err := embed.FindHelper()
	if err != nil {
		return embed.ErrNoHelper
	}
	cmd := exec.Command(exe, "--check-model", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil {
		for _, line := range strings.Split(stderr.String(), "\n") {
			if m, ok := strings.CutPrefix(line, embed.HelperName+": error: "); ok {
				return errors.New(m)
			}
		}
		if s := strings.TrimSpace(stderr.String()); s != "" {
			return errors.New(s)
		}
		return err
	}
	return nil
}
