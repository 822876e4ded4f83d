package cli

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel send the serving child SIGTERM when sponge
// serve is gone, however it ended.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
