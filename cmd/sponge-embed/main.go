// Command sponge-embed runs the embedding model for meaning search; sponge
// (built without cgo) runs it as a helper. See internal/model/embed.
package main

import (
	"os"

	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/model/embed"
	"github.com/sponge-library/sponge/internal/model/embed/llamaembed"
	"github.com/sponge-library/sponge/internal/model/llama"
)

func main() {
	env := settings.FromOS()
	embed.StartTiming(env.Get(embed.TimingEnv))
	llama.Log = env.Get(llama.LogEnv) != ""
	os.Exit(llamaembed.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
