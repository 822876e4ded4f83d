package cmdline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/pipeline"
)

func init() {
	register("version", "say which sponge this is, and whether it can run a model",
		"", versionAbout, runVersion)
}

const versionAbout = "Print sponge's version, the commit it was built from, the Go that built it, and\n" +
	"whether the model runtime is there: sponge itself is pure Go, and only sponge-draft\n" +
	"(beside sponge, else on PATH) links llama.cpp, when it is built with cgo.\n\n" +
	"Examples:\n\n" +
	"  sponge --version\n" +
	"  sponge-draft --version"

type versionOptions struct{}

func runVersion(env *Env, _ *versionOptions, rest []string) int {
	if len(rest) > 0 {
		return console.Report(env.Stderr, Prog, console.Usage("version takes no arguments (got %q)", rest[0]))
	}
	console.WriteVersion(env.Stdout, Prog)
	fmt.Fprintf(env.Stdout, "model runtime: %s\n", modelRuntime())
	return console.ExitOK
}

// modelRuntime asks the sponge-draft that sponge ask would run whether it
// links the model runtime.
func modelRuntime() string {
	path, err := pipeline.FindProgram("sponge-draft")
	if err != nil {
		return "none (no sponge-draft beside sponge or on PATH)"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return fmt.Sprintf("unknown (%s --version: %v)", path, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if r, ok := strings.CutPrefix(sc.Text(), "model runtime: "); ok {
			return fmt.Sprintf("%s, in %s", r, path)
		}
	}
	return fmt.Sprintf("unknown (%s --version does not say)", path)
}
