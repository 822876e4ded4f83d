//go:build !cgo

// Command draft measures the embedded model drafter; it needs the model
// runtime, so it builds only with cgo (make bench-draft sets that up).
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "bench-draft: built without cgo, so there is no model runtime to measure; run make bench-draft")
	os.Exit(1)
}
