package vectors

import (
	"errors"
	"io/fs"
	"os"
)

// What the outside tests (update_test.go) use.
var (
	NewDir = newDir
	Unit   = unit
	Exists = exists
)

func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
