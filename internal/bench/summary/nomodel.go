//go:build !cgo

package main

import (
	"fmt"
	"os"

	"github.com/sponge-library/sponge/internal/library"
)

// modelRows needs the model runtime (cgo): without it there is no model row.
func modelRows(_ *library.Library, _ []*result, _ string, _ int) ([][]string, error) {
	fmt.Fprintln(os.Stderr, "bench-summary: built without cgo, so no row for the model")
	return nil, nil
}
