// Command sponge-draft writes the statements of an answer from the passages
// on stdin: with a model, or by quoting the passages' best sentences.
package main

import (
	"os"

	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/model/llama"
	"github.com/sponge-library/sponge/stages/draft"
)

func main() {
	env := settings.FromOS()
	llama.Log = env.Get(llama.LogEnv) != ""
	os.Exit(draft.MainIn(env, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
