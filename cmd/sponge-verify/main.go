// Command sponge-verify keeps only the statements whose quote is found, word for word, in the saved item.
package main

import (
	"os"

	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/stages/verify"
)

func main() { os.Exit(verify.MainIn(settings.FromOS(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
