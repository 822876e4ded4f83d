//go:build cgo

package llamaembed

// libstdc++ and libgcc are linked into sponge-embed: sponge-search starts it for
// every question, and resolving their symbols at each start costs about
// half a millisecond.

// #cgo LDFLAGS: -static-libstdc++ -static-libgcc
import "C"
