// Command sponge-rank ranks the paragraphs of the hit items into numbered passages.
package main

import (
	"os"

	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/stages/rank"
)

func main() { os.Exit(rank.MainIn(settings.FromOS(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
