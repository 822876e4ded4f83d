//go:build cgo

package main

// libstdc++ and libgcc are linked in: sponge-search starts sponge-embed for
// every question, and resolving their symbols at each start costs about
// half a millisecond.

// #cgo LDFLAGS: -static-libstdc++ -static-libgcc
import "C"
