package extract

import (
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/ulikunitz/xz"
)

// Budgets of a zip container (EPUB, DOCX, ODT): a small file can declare
// entries that unpack to gigabytes (a zip bomb) or hold a million of them.
// What sponge reads out of one container is capped at maxUnzipped bytes in
// all, whatever the entries declare, and a container of more than
// maxZipEntries entries is refused before any is read.
const (
	maxZipEntries = 10_000
)

// maxUnzipped is a variable so that a test can lower it.
var maxUnzipped int64 = MaxBytes

// container is a zip file being read within its budget.
type container struct {
	format string // "EPUB", "DOCX", "ODT": for errors
	files  map[string]*zip.File
	left   int64 // bytes that may still be unpacked
}

func openContainer(data []byte, format string) (*container, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("corrupt %s: not a zip file (%v)", format, err)
	}
	if len(zr.File) > maxZipEntries {
		return nil, fmt.Errorf("cannot read this %s: it holds %d files, more than the limit of %d", format, len(zr.File), maxZipEntries)
	}
	c := &container{format: format, files: map[string]*zip.File{}, left: maxUnzipped}
	for _, f := range zr.File {
		c.files[strings.TrimPrefix(f.Name, "/")] = f
	}
	return c, nil
}

// has says whether the container holds a file of that name.
func (c *container) has(name string) bool {
	_, ok := c.files[name]
	return ok
}

// read unpacks one file of the container, counting what it unpacks
// against the container's budget rather than trusting declared sizes.
func (c *container) read(name string) ([]byte, error) {
	f, ok := c.files[strings.TrimPrefix(path.Clean("/"+name), "/")]
	if !ok {
		return nil, fmt.Errorf("corrupt %s: %s is missing", c.format, name)
	}
	if f.Flags&0x1 != 0 {
		// Encrypted (zip -P, or a document saved with a password): its
		// bytes read as garbage, "flate: corrupt input" before this check.
		return nil, fmt.Errorf("encrypted %s: sponge cannot read it", c.format)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("corrupt %s: %s: %v", c.format, name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, c.left+1))
	if err != nil {
		return nil, fmt.Errorf("corrupt %s: %s: %v", c.format, name, err)
	}
	if int64(len(data)) > c.left {
		return nil, fmt.Errorf("cannot read this %s: it unpacks to more than the limit of %s", c.format, size(maxUnzipped))
	}
	c.left -= int64(len(data))
	return data, nil
}

// compressed names the compression of data by its first bytes: "gzip",
// "bzip2", "xz", or "" when it is none of them.
func compressed(data []byte) string {
	switch {
	case len(data) >= 3 && data[0] == 0x1f && data[1] == 0x8b && data[2] == 8:
		return "gzip"
	case len(data) >= 4 && data[0] == 'B' && data[1] == 'Z' && data[2] == 'h' && data[3] >= '1' && data[3] <= '9':
		return "bzip2"
	case bytes.HasPrefix(data, []byte("\xfd7zXZ\x00")):
		return "xz"
	}
	return ""
}

// compressedExts are the extensions of the compressions sponge unpacks.
var compressedExts = []string{".gz", ".bz2", ".xz"}

// trimCompressedExt is a compressed file's name without its compression's
// extension: grep_NEWS.gz is grep_NEWS, ls.1.xz is ls.1.
func trimCompressedExt(name string) string {
	for _, e := range compressedExts {
		if len(name) > len(e) && strings.EqualFold(name[len(name)-len(e):], e) {
			return name[:len(name)-len(e)]
		}
	}
	return name
}

// Bounds of unpacking a compressed file: a small file can unpack to
// gigabytes (a decompression bomb). Text compresses ten times or so, and
// a log of repeated lines a few hundred, so what a file unpacks to is held
// to maxUnpackRatio times its size, and at least minUnpackBound (a small
// file of a few repeated lines is fine), and never past maxUnzipped.
const maxUnpackRatio = 1000

// minUnpackBound is a variable so that a test can lower it.
var minUnpackBound int64 = 16 << 20

// unpackBound is the most a compressed file of n bytes may unpack to.
func unpackBound(n int) int64 {
	return min(max(int64(n)*maxUnpackRatio, minUnpackBound), maxUnzipped)
}

// unpackReader reads what a compressed file holds.
func unpackReader(data []byte, format string) (io.Reader, error) {
	r := bytes.NewReader(data)
	switch format {
	case "gzip":
		return gzip.NewReader(r)
	case "bzip2":
		return bzip2.NewReader(r), nil
	case "xz":
		return xz.NewReader(r)
	}
	return nil, fmt.Errorf("not a compressed file")
}

// unpack is what a compressed file (gzip, bzip2 or xz: a manual page
// ls.1.gz, a grep_NEWS.gz) holds, within its bound (unpackBound): one that
// unpacks to more is refused, and the error says so.
func unpack(data []byte, format string) ([]byte, error) {
	zr, err := unpackReader(data, format)
	if err != nil {
		return nil, fmt.Errorf("corrupt %s file: %v", format, err)
	}
	bound := unpackBound(len(data))
	out, err := io.ReadAll(io.LimitReader(zr, bound+1))
	if err != nil {
		return nil, fmt.Errorf("corrupt %s file: %v", format, err)
	}
	if int64(len(out)) > bound {
		if bound == maxUnzipped {
			return nil, fmt.Errorf("cannot read this %s file: it unpacks to more than the limit of %s", format, size(maxUnzipped))
		}
		return nil, fmt.Errorf("cannot read this %s file: it unpacks to more than %s, %d times its size (a decompression bomb?)",
			format, size(bound), bound/int64(len(data)))
	}
	return out, nil
}

// unpackHead is the first n bytes a compressed file holds, or fewer if it
// holds fewer or is corrupt after them: enough to sniff what it is. corrupt
// is set when not one byte can be unpacked from a file that is not empty.
func unpackHead(data []byte, format string, n int) (head []byte, corrupt bool) {
	zr, err := unpackReader(data, format)
	if err != nil {
		return nil, true
	}
	head = make([]byte, n)
	got, err := io.ReadFull(zr, head)
	return head[:got], got == 0 && err != io.EOF
}
