// Command sponge-search picks the items of the library that best answer a question.
package main

import (
	"os"

	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/model/embed"
	"github.com/sponge-library/sponge/stages/search"
)

func main() {
	env := settings.FromOS()
	embed.StartTiming(env.Get(embed.TimingEnv))
	os.Exit(search.MainIn(env, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
