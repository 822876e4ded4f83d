// Command sponge is a local-first personal library: save what you read, ask it questions.
package main

import (
	"os"

	"github.com/sponge-library/sponge/internal/front/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
