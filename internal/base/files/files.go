// Package files opens files for reading with fewer system calls than
// os.Open, and lends buffers to read them into. A question reads a few
// dozen small files (the hit items, their paragraph postings); on a
// virtual machine each system call costs microseconds.
package files

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// Open opens a file for reading. os.Open also registers the file with the
// runtime's poller, which a regular file cannot use: four fcntl calls and
// an epoll_ctl that fails. A file made with os.NewFile from a blocking
// descriptor is not registered (one fcntl). Errors are os.Open's.
func Open(path string) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// CreateTemp makes a new file in dir for writing, named prefix and a random
// number (as os.CreateTemp names it for prefix+"*"), readable and writable by
// its owner only, and not registered with the runtime's poller (see Open):
// sponge add writes a file for each item through one. Errors are os.Open's,
// so a missing dir is fs.ErrNotExist.
func CreateTemp(dir, prefix string) (*os.File, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		fd, err := unix.Open(name, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o600)
		switch {
		case err == unix.EINTR || err == unix.EEXIST && try < 10000:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}

// A Buffer is lent by Borrow and given back by Return.
type Buffer struct {
	B []byte
}

var pool = sync.Pool{New: func() any { return new(Buffer) }}

// Borrow lends a buffer of n bytes: a question's reads reuse the same
// memory instead of each taking fresh pages of the heap.
func Borrow(n int) *Buffer {
	b := pool.Get().(*Buffer)
	if cap(b.B) < n {
		b.B = make([]byte, n)
	}
	b.B = b.B[:n]
	return b
}

// Return gives a buffer back; nothing may use its bytes after.
func (b *Buffer) Return() {
	if b != nil {
		pool.Put(b)
	}
}
