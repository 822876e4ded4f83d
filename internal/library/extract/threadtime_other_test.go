//go:build !linux

package extract

import "time"

var timeStart = time.Now()

// threadTime is the time since the tests started: elsewhere than on Linux,
// a thread's own CPU time is not at hand.
func threadTime() time.Duration { return time.Since(timeStart) }
