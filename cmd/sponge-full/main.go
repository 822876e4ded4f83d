// Command sponge-full is sponge with the code of every command: sponge runs
// it for add, update, rm, reindex, summarize, setup, serve and mcp, whose
// code it does not link so that it starts fast for ask and search.
package main

import (
	"os"

	"github.com/sponge-library/sponge/internal/front/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
