// Package install downloads and installs the models of the catalog.
//
// Installing is careful: disk space is checked first, a download goes to a
// .part file that a later run resumes (HTTP Range), the checksum is verified,
// the file is checked to be a model that loads, and only then does it replace
// the installed one, by rename. Whatever fails, the old model stays.
package install

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/base/progress"
	"github.com/sponge-library/sponge/internal/model/catalog"
)

// Options tune an install.
type Options struct {
	// Progress is where the progress bar is drawn (stderr); it shows only
	// when this is a terminal.
	Progress io.Writer
	// Inspect reads a candidate file's header and returns the model's name
	// and architecture, or an error for a file that is not a model sponge
	// can run (not GGUF, truncated, an unsupported architecture).
	Inspect func(path string) (name, arch string, err error)
	// Check loads the candidate file with the model runtime; an error means
	// it does not load.
	Check func(path string) error
	// HTTP is the client downloads use; nil means one made for downloads.
	HTTP *http.Client
	// Retries is how many times an interrupted download resumes by itself
	// before giving up (the .part file stays for the next run).
	Retries int
	// RetryWait is the pause before resuming; zero means a second.
	RetryWait time.Duration
	// StallTimeout aborts (and resumes) a download that receives nothing for
	// this long; zero means a minute.
	StallTimeout time.Duration
}

// freeSpace returns the bytes free to this user on dir's file system; a
// variable so tests can pretend the disk is full.
var freeSpace = func(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// spareBytes is kept free beyond the model itself.
const spareBytes = 64 << 20

func checkSpace(dir string, need int64) error {
	if need <= 0 {
		return nil
	}
	free, err := freeSpace(dir)
	if err != nil {
		return nil // cannot tell: let the write fail if it must
	}
	if free < need+spareBytes {
		return fault.New(fault.DiskFull, "not enough disk space in %s: the model needs %s more, %s is free", dir, catalog.Bytes(need), catalog.Bytes(free))
	}
	return nil
}

func partPath(dir string, kind catalog.Kind, key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(dir, "."+string(kind)+"-"+hex.EncodeToString(sum[:6])+".part")
}

// Download fetches spec.URL into dir and installs it as spec.Kind. A .part
// file left by an earlier, interrupted run is resumed.
func Download(ctx context.Context, dir string, spec catalog.Spec, opt Options) (*catalog.Manifest, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fault.New(fault.Failed, "cannot make the models folder: %v", err)
	}
	key := spec.SHA256
	if key == "" {
		key = spec.URL
	}
	part := partPath(dir, spec.Kind, key)
	size, err := fetch(ctx, part, spec, opt)
	if err != nil {
		return nil, err
	}
	sum, err := fileSHA256(part)
	if err != nil {
		return nil, fault.New(fault.Failed, "cannot read the download: %v", err)
	}
	if spec.Size > 0 && size != spec.Size {
		os.Remove(part)
		return nil, fault.New(fault.Redownload, "the download of %s is %d bytes, not %d as published", spec.URL, size, spec.Size)
	}
	if spec.SHA256 != "" && !strings.EqualFold(sum, spec.SHA256) {
		os.Remove(part)
		return nil, fault.New(fault.Redownload, "the download of %s is damaged: its SHA-256 is %s, not %s as published", spec.URL, sum, spec.SHA256)
	}
	m := &catalog.Manifest{Kind: spec.Kind, Name: spec.Name, Source: spec.URL, SHA256: sum, Size: size}
	return install(dir, part, m, opt, spec.SHA256 != "")
}

// From installs a model of the given kind from a local file or an
// http(s) URL, after checking it is a model that loads.
func From(ctx context.Context, dir string, kind catalog.Kind, src string, opt Options) (*catalog.Manifest, error) {
	if u, err := url.Parse(src); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return Download(ctx, dir, catalog.Spec{Kind: kind, URL: src}, opt)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, fault.New(fault.Failed, "cannot use %s: %v", src, err)
	}
	st, err := os.Stat(abs)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fault.New(fault.Failed, "no file %s", src)
	}
	if err != nil {
		return nil, fault.New(fault.Failed, "cannot read %s: %v", src, err)
	}
	if st.IsDir() {
		return nil, fault.New(fault.NotAModel, "%s is a folder, not a model file", src)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fault.New(fault.Failed, "cannot make the models folder: %v", err)
	}
	if installed, err := os.Stat(filepath.Join(dir, kind.File())); err == nil && os.SameFile(st, installed) {
		return nil, fault.New(fault.Failed, "%s is the installed %s model already", src, kind)
	}
	// Check the header before copying gigabytes that are not a model.
	if err := checkMagic(abs); err != nil {
		return nil, renameErr(err, src, src)
	}
	if opt.Inspect != nil {
		if _, _, err := opt.Inspect(abs); err != nil {
			return nil, notAModel(src, err)
		}
	}
	if err := checkSpace(dir, st.Size()); err != nil {
		return nil, err
	}
	part := partPath(dir, kind, abs)
	sum, err := copyFile(ctx, abs, part, st.Size(), opt)
	if err != nil {
		os.Remove(part)
		return nil, err
	}
	m := &catalog.Manifest{Kind: kind, Source: abs, SHA256: sum, Size: st.Size()}
	return install(dir, part, m, opt, false)
}

// install checks the file at part and moves it into place.
func install(dir, part string, m *catalog.Manifest, opt Options, verified bool) (*catalog.Manifest, error) {
	fail := func(err error) (*catalog.Manifest, error) {
		// A file whose checksum matched the published one is kept, so a
		// later run (with a fixed runtime) does not download it again.
		if !verified {
			os.Remove(part)
		}
		return nil, err
	}
	if err := checkMagic(part); err != nil {
		return fail(renameErr(err, part, m.Source))
	}
	if opt.Inspect != nil {
		name, arch, err := opt.Inspect(part)
		if err != nil {
			return fail(notAModel(m.Source, err))
		}
		m.Architecture = arch
		if m.Name == "" {
			m.Name = name
		}
	}
	if opt.Check != nil {
		if err := opt.Check(part); err != nil {
			return fail(fault.New(fault.Failed, "%s does not load: %v", m.Source, err))
		}
	}
	if m.Name == "" {
		m.Name = strings.TrimSuffix(filepath.Base(m.Source), ".gguf")
	}
	m.File = m.Kind.File()
	m.Installed = time.Now().UTC().Truncate(time.Second)
	final := filepath.Join(dir, m.File)
	if err := os.Rename(part, final); err != nil {
		return fail(fault.New(fault.Failed, "cannot install %s: %v", final, err))
	}
	if err := catalog.WriteManifest(dir, m); err != nil {
		return nil, fault.New(fault.Failed, "installed %s but cannot write %s: %v", final, m.Kind.ManifestFile(), err)
	}
	return m, nil
}

func notAModel(src string, err error) error {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return err
	}
	return fault.New(fault.Failed, "%s is not a model sponge can run: %v", src, err)
}

// errNotGGUF is the header check's error; renameErr names the source in it.
type errNotGGUF struct{ got []byte }

func (e *errNotGGUF) Error() string {
	if len(e.got) < 4 {
		return "the file is too short to be a model"
	}
	return fmt.Sprintf("it does not start with the GGUF signature (it starts with %q)", e.got)
}

func renameErr(err error, path, src string) error {
	var ng *errNotGGUF
	if errors.As(err, &ng) {
		return fault.New(fault.NotAModel, "%s is not a GGUF model file: %v", src, err)
	}
	return fault.New(fault.Failed, "cannot read %s: %v", path, err)
}

// checkMagic reads the first four bytes: every GGUF file starts "GGUF".
func checkMagic(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var b [4]byte
	n, _ := io.ReadFull(f, b[:])
	if n < 4 || !bytes.Equal(b[:], []byte("GGUF")) {
		return &errNotGGUF{got: b[:n]}
	}
	return nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// copyFile copies src to dst while hashing, showing progress.
func copyFile(ctx context.Context, src, dst string, size int64, opt Options) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", fault.New(fault.Failed, "cannot read %s: %v", src, err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return "", fault.New(fault.Failed, "cannot write in the models folder: %v", err)
	}
	bar := progress.New(opt.Progress, size, "copying "+filepath.Base(src), true)
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(out, h), &ctxReader{ctx: ctx, r: in, bar: bar})
	bar.Finish()
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", fault.New(fault.Failed, "copying %s was interrupted", src)
		}
		return "", fault.New(fault.Failed, "cannot copy %s: %v", src, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
	bar *progress.Bar
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	c.bar.Add(int64(n))
	return n, err
}

// fetch brings the .part file to the whole download and returns its size.
func fetch(ctx context.Context, part string, spec catalog.Spec, opt Options) (int64, error) {
	client := opt.HTTP
	if client == nil {
		client = &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   30 * time.Second,
			ResponseHeaderTimeout: time.Minute,
		}}
	}
	wait := opt.RetryWait
	if wait <= 0 {
		wait = time.Second
	}
	var bar *progress.Bar
	defer func() { bar.Finish() }()
	var last error
	for attempt := 0; ; attempt++ {
		have := fileSize(part)
		if spec.Size > 0 && have > spec.Size {
			os.Remove(part)
			have = 0
		}
		if spec.Size > 0 && have == spec.Size {
			return have, nil
		}
		if spec.Size > 0 {
			if err := checkSpace(filepath.Dir(part), spec.Size-have); err != nil {
				return 0, err
			}
		}
		total, err := get(ctx, client, part, have, spec, opt, &bar)
		if err == nil {
			return total, nil
		}
		last = err
		var fatal *fatalError
		if errors.As(err, &fatal) {
			return 0, fatal.err
		}
		if ctx.Err() != nil || attempt >= opt.Retries {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
	got := fileSize(part)
	of := ""
	if spec.Size > 0 {
		of = " of " + catalog.Bytes(spec.Size)
	}
	msg := fmt.Sprintf("the download of %s stopped at %s%s: %v", spec.URL, catalog.Bytes(got), of, last)
	if ctx.Err() != nil {
		msg = fmt.Sprintf("the download of %s was interrupted at %s%s", spec.URL, catalog.Bytes(got), of)
	}
	return 0, fault.New(fault.Resumable, "%s", msg)
}

// fatalError is a download failure that retrying will not mend.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

var errStalled = errors.New("nothing was received for too long")

// get makes one request, resuming from have, and appends to part.
func get(ctx context.Context, client *http.Client, part string, have int64, spec catalog.Spec, opt Options, bar **progress.Bar) (int64, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, spec.URL, nil)
	if err != nil {
		return 0, &fatalError{fault.New(fault.Failed, "cannot download %s: %v", spec.URL, err)}
	}
	if have > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", have))
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	var total int64 = -1
	switch resp.StatusCode {
	case http.StatusOK:
		have = 0
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		total = resp.ContentLength
	case http.StatusPartialContent:
		start, end, size, ok := contentRange(resp.Header.Get("Content-Range"))
		if !ok || start != have {
			// Not the part asked for: start afresh.
			os.Remove(part)
			return 0, fmt.Errorf("the server sent bytes %d-%d, not from %d", start, end, have)
		}
		total = size
	case http.StatusRequestedRangeNotSatisfiable:
		if _, _, size, ok := contentRange(resp.Header.Get("Content-Range")); ok && size == have {
			return have, nil // the .part file is whole already
		}
		os.Remove(part)
		return 0, errors.New("the partly downloaded file does not match the one on the server")
	default:
		return 0, &fatalError{fault.New(fault.Failed, "cannot download %s: the server answered %s", spec.URL, resp.Status)}
	}
	if total < 0 && spec.Size > 0 {
		total = spec.Size
	}
	if spec.Size > 0 && total >= 0 && total != spec.Size {
		return 0, &fatalError{fault.New(fault.Changed, "%s is %s, not %s as published", spec.URL, catalog.Bytes(total), catalog.Bytes(spec.Size))}
	}
	if total >= 0 {
		if err := checkSpace(filepath.Dir(part), total-have); err != nil {
			return 0, &fatalError{err}
		}
	}
	f, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return 0, &fatalError{fault.New(fault.Failed, "cannot write in the models folder: %v", err)}
	}
	if *bar == nil {
		*bar = progress.New(opt.Progress, max(total, 0), "downloading "+spec.Kind.File(), true)
	}
	(*bar).Set(have)
	stall := opt.StallTimeout
	if stall <= 0 {
		stall = time.Minute
	}
	timer := time.AfterFunc(stall, func() { cancel(errStalled) })
	defer timer.Stop()
	n, err := io.Copy(f, &progressReader{r: resp.Body, bar: *bar, alive: func() { timer.Reset(stall) }})
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if errors.Is(context.Cause(ctx), errStalled) {
		err = errStalled
	}
	if err != nil {
		return 0, err
	}
	got := have + n
	if total >= 0 && got < total {
		return 0, io.ErrUnexpectedEOF
	}
	return got, nil
}

type progressReader struct {
	r     io.Reader
	bar   *progress.Bar
	alive func()
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.bar.Add(int64(n))
		p.alive()
	}
	return n, err
}

// contentRange parses "bytes START-END/SIZE" or "bytes */SIZE".
func contentRange(h string) (start, end, size int64, ok bool) {
	rest, found := strings.CutPrefix(h, "bytes ")
	if !found {
		return 0, 0, 0, false
	}
	rng, total, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, 0, false
	}
	size, err := strconv.ParseInt(total, 10, 64)
	if err != nil {
		size = -1
	}
	if rng == "*" {
		return 0, 0, size, size >= 0
	}
	a, b, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, 0, false
	}
	start, err1 := strconv.ParseInt(a, 10, 64)
	end, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, 0, false
	}
	return start, end, size, true
}
