//go:build !unix

package cmdline

import "errors"

// execProgram: no exec here; runFull runs the program as a child.
func execProgram(string, []string) error { return errors.ErrUnsupported }
