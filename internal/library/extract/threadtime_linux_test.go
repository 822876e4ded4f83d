package extract

import (
	"syscall"
	"time"
	"unsafe"
)

// threadTime is the CPU time used so far by the calling thread, to the
// nanosecond (getrusage's thread times are counted in scheduler ticks).
func threadTime() time.Duration {
	const clockThreadCPUTimeID = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic(errno)
	}
	return time.Duration(ts.Nano())
}
