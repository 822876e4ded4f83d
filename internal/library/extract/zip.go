package extract

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"path"
	"strings"
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

func isGzip(data []byte) bool {
	return len(data) >= 3 && data[0] == 0x1f && data[1] == 0x8b && data[2] == 8
}

// gunzip unpacks a gzipped file (a manual page, ls.1.gz), within the same
// limit as any input: a small .gz can unpack to gigabytes.
func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("corrupt gzip file: %v", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxUnzipped+1))
	if err != nil {
		return nil, fmt.Errorf("corrupt gzip file: %v", err)
	}
	if int64(len(out)) > maxUnzipped {
		return nil, fmt.Errorf("cannot read this gzip file: it unpacks to more than the limit of %s", size(maxUnzipped))
	}
	return out, nil
}
