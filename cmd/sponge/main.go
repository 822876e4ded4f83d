// Command sponge is a local-first personal library: save what you read, ask
// it questions. It links what ask and search need; the commands that save or
// serve (add, update, setup, serve, mcp, …) run in sponge-full, beside it.
package main

import (
	"os"

	"github.com/sponge-library/sponge/internal/front/cmdline"
)

func main() { os.Exit(cmdline.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
