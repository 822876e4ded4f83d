//go:build race

package extract

// raceEnabled: the race detector is on, and times say more about it than
// about the code.
const raceEnabled = true
