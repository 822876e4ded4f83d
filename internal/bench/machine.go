package bench

import (
	"os"
	"strings"
)

// LoadAverage is the machine's load over the last 1, 5 and 15 minutes
// (/proc/loadavg), or "unknown": every bench prints it beside its timings.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
