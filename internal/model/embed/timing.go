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
// the same moment.
const TimingEnv = "SPONGE_TIMING"

var timingOrigin, timingOn = func() (time.Time, bool) {
	v, ok := os.LookupEnv(TimingEnv)
	if !ok {
		return time.Time{}, false
	}
	if ns, err := strconv.ParseInt(v, 10, 64); err == nil && ns > 0 {
		return time.Unix(0, ns), true
	}
	return time.Now(), true
}()

// Mark prints "PROG: timing: +12.3 ms what" on stderr when TimingEnv is set;
// otherwise it does nothing.
func Mark(format string, args ...any) {
	if !timingOn {
		return
	}
	fmt.Fprintf(os.Stderr, "%s: timing: %+7.1f ms %s\n", filepath.Base(os.Args[0]),
		float64(time.Since(timingOrigin).Microseconds())/1000, fmt.Sprintf(format, args...))
}
