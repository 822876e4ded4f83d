// Package files opens files for reading with fewer system calls than
// os.Open, and lends buffers to read them into. A question reads a few
// dozen small files (the hit items, their paragraph postings); on a
// virtual machine each system call costs microseconds.
package files

import (
	"os"
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
