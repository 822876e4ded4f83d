package extract

import (
	"fmt"
	"io"
)

// MaxBytes is the most sponge reads of one input: a file, stdin or a URL.
// 256 MiB is more than nearly any document a person reads (the largest
// illustrated PDF books run to 100–200 MB), while the input, which is held
// whole, and what is extracted from it still fit in a laptop's memory (the
// text of a plain-text file takes several times its size while it is read).
// A larger input, or one without end (/dev/zero, `yes |`), is refused after
// at most this much, not read until memory runs out.
const MaxBytes = 256 << 20

// TooLargeError is an input of more than Limit bytes. Size is its size
// when that was known beforehand (a file's, a declared Content-Length), else 0.
type TooLargeError struct {
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("too large (%s; the limit is %s)", size(e.Size), size(e.Limit))
	}
	return fmt.Sprintf("too large (more than the limit of %s)", size(e.Limit))
}

// ReadAll reads r to its end, and refuses it with a *TooLargeError once it
// gives more than limit bytes. known is how many bytes r holds when that is
// known (a regular file's size), else 0: a known size over the limit is
// refused without reading, and one within it is read into a single buffer.
// Otherwise r is read in chunks joined at the end, so that an input without
// end costs at most limit bytes of memory, not the copies of a buffer that
// doubles as it grows.
func ReadAll(r io.Reader, limit, known int64) ([]byte, error) {
	return ReadInto(nil, r, limit, known)
}

// ReadInto is ReadAll with the first read into buf when buf holds known+1
// bytes or more: an input that fits, nearly all, is returned in buf's
// memory, neither cleared before nor garbage after when buf is lent
// (files.Borrow). Whether the result is in buf or not, the caller may
// reuse buf only once it is done with the result.
func ReadInto(buf []byte, r io.Reader, limit, known int64) ([]byte, error) {
	if known > limit {
		return nil, &TooLargeError{Size: known, Limit: limit}
	}
	const first, largest = 64 << 10, 16 << 20
	next := int64(first)
	if known > 0 {
		next = known + 1 // one more, to see the end without another chunk
	}
	var chunks [][]byte
	total := int64(0)
	for {
		size := min(next, limit+1-total)
		var chunk []byte
		if total == 0 && known > 0 && int64(len(buf)) >= size {
			chunk = buf[:size]
		} else {
			chunk = make([]byte, size)
		}
		n, err := io.ReadFull(r, chunk)
		chunks = append(chunks, chunk[:n])
		total += int64(n)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if total > limit {
			return nil, &TooLargeError{Limit: limit}
		}
		next = min(max(next*2, first), largest)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	data := make([]byte, 0, total)
	for _, c := range chunks {
		data = append(data, c...)
	}
	return data, nil
}
