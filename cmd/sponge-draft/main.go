// Command sponge-draft writes the statements of an answer from the passages
// on stdin: with a model, or by quoting the passages' best sentences.
package main

import (
	"os"

	"github.com/sponge-library/sponge/stages/draft"
)

func main() { os.Exit(draft.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
