//go:build unix

package cmdline

import (
	"os"
	"syscall"
)

// execProgram runs the program at path with args in this process's place;
// it returns only if that fails.
func execProgram(path string, args []string) error {
	return syscall.Exec(path, append([]string{path}, args...), os.Environ())
}
