// Command sponge-search picks the items of the library that best answer a question.
package main

import (
	"os"

	"github.com/sponge-library/sponge/stages/search"
)

func main() { os.Exit(search.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
