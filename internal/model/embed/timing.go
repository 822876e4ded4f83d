package embed

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// TimingEnv names the environment variable that makes meaning search print
// where its time goes (for the benchmark and for people who wonder). Its
// value is the Unix time in nanoseconds when the process was started (the
// benchmark sets it just before exec), or anything else to count from this
// program's start. Children inherit it, so sponge-embed's lines count from
// the same moment. A program's main reads it (settings.Environ) and calls
// StartTiming.
const TimingEnv = "SPONGE_TIMING"

var (
	timingOrigin time.Time
	timingOn     bool
)

// StartTiming turns the timing lines on when v, TimingEnv's value, is not
// empty; the program's main calls it once, before anything is timed.
func StartTiming(v string) {
	if v == "" {
		return
	}
	timingOn = true
	timingOrigin = time.Now()
	if ns, err := strconv.ParseInt(v, 10, 64); err == nil && ns > 0 {
		timingOrigin = time.Unix(0, ns)
	}
}

// Mark prints "PROG: timing: +12.3 ms what" on stderr when TimingEnv is set;
// otherwise it does nothing.
func Mark(format string, args ...any) {
	if !timingOn {
		return
	}
	fmt.Fprintf(os.Stderr, "%s: timing: %+7.1f ms %s\n", filepath.Base(os.Args[0]),
		float64(time.Since(timingOrigin).Microseconds())/1000, fmt.Sprintf(format, args...))
}
