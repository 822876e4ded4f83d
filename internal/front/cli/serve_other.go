//go:build !linux

package cli

import "os/exec"

// dieWithParent does nothing where the kernel has no signal for a parent's
// end: the child stops at the end of its stdin (--until-eof) instead.
func dieWithParent(*exec.Cmd) {}
