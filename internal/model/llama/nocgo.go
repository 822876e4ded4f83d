//go:build !cgo

package llama

// openBackend fails in a build without cgo: there is no llama.cpp.
func openBackend(path string, opt LoadOptions) (backend, error) {
	return nil, ErrNoRuntime
}
