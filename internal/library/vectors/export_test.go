package vectors

// What the outside tests (update_test.go) use.
var (
	NewDir = newDir
	Unit   = unit
	Exists = exists
)
