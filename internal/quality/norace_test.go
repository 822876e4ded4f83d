//go:build !race

package quality_test

// raceEnabled: the test binary was built with -race.
const raceEnabled = false
