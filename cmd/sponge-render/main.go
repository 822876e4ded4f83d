// Command sponge-render shows a sponge stream to a person: an answer with its sources, or the ranked passages.
package main

import (
	"os"

	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/stages/render"
)

func main() { os.Exit(render.MainIn(settings.FromOS(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
