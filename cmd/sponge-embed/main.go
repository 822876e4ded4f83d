// Command sponge-embed runs the embedding model for meaning search; sponge
// (built without cgo) runs it as a helper. See internal/model/embed.
package main

import (
	"os"

	"github.com/sponge-library/sponge/internal/model/embed/llamaembed"
)

func main() { os.Exit(llamaembed.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
