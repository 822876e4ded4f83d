package install

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/fault"
	"github.com/sponge-library/sponge/internal/model/catalog"
)

// fakeModel returns bytes that start like a GGUF file; the rest is random,
// which is all a download needs.
func fakeModel(n int, seed uint64) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	copy(b, "GGUF\x03\x00\x00\x00")
	return b
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// fileServer serves data with Range support, recording each request's
// Range header. cut, when > 0, makes the first request end after that many
// bytes by closing the connection.
type fileServer struct {
	data   []byte
	cut    int
	stall  time.Duration // with cut: stall instead of closing
	mu     sync.Mutex
	ranges []string
}

func (f *fileServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.ranges = append(f.ranges, r.Header.Get("Range"))
	first := len(f.ranges) == 1
	f.mu.Unlock()
	if first && f.cut > 0 {
		w.Header().Set("Content-Length", strconv.Itoa(len(f.data)))
		w.WriteHeader(200)
		w.Write(f.data[:f.cut])
		w.(http.Flusher).Flush()
		if f.stall > 0 {
			select {
			case <-r.Context().Done():
			case <-time.After(f.stall):
			}
			return
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	http.ServeContent(w, r, "model.gguf", time.Time{}, bytes.NewReader(f.data))
}

func (f *fileServer) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.ranges...)
}

func serveFile(t *testing.T, f *fileServer) string {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return srv.URL + "/model.gguf"
}

func specFor(url string, data []byte) catalog.Spec {
	return catalog.Spec{Kind: catalog.Digest, Name: "test model", URL: url, Size: int64(len(data)), SHA256: sum(data)}
}

// installOld puts an "old" model in place, to check failures leave it be.
func installOld(t *testing.T, dir string) []byte {
	t.Helper()
	old := fakeModel(1000, 99)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "digest.gguf"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteManifest(dir, &catalog.Manifest{Kind: catalog.Digest, File: "digest.gguf", Source: "old", SHA256: sum(old), Size: 1000}); err != nil {
		t.Fatal(err)
	}
	return old
}

func assertOld(t *testing.T, dir string, old []byte) {
	t.Helper()
	got, err := os.ReadFile(filepath.Join(dir, "digest.gguf"))
	if err != nil || !bytes.Equal(got, old) {
		t.Fatalf("the old model was not kept (%v)", err)
	}
	m, err := catalog.Installed(dir, catalog.Digest)
	if err != nil || m == nil || m.Source != "old" {
		t.Fatalf("the old manifest was not kept: %+v %v", m, err)
	}
}

func assertNoPart(t *testing.T, dir string) {
	t.Helper()
	parts, _ := filepath.Glob(filepath.Join(dir, ".*.part"))
	if len(parts) != 0 {
		t.Errorf("left behind %v", parts)
	}
}

func TestDownload(t *testing.T) {
	data := fakeModel(300_000, 1)
	f := &fileServer{data: data}
	url := serveFile(t, f)
	dir := t.TempDir()
	m, err := Download(context.Background(), dir, specFor(url, data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "digest.gguf"))
	if !bytes.Equal(got, data) {
		t.Fatal("installed file differs from the download")
	}
	if m.SHA256 != sum(data) || m.Size != int64(len(data)) || m.Source != url || m.Name != "test model" || m.File != "digest.gguf" {
		t.Errorf("manifest %+v", m)
	}
	again, err := catalog.Installed(dir, catalog.Digest)
	if err != nil || *again != *m {
		t.Errorf("Installed = %+v, %v; want %+v", again, err, m)
	}
	assertNoPart(t, dir)
}

func TestDownloadResumesByItself(t *testing.T) {
	data := fakeModel(200_000, 2)
	f := &fileServer{data: data, cut: 70_000}
	dir := t.TempDir()
	_, err := Download(context.Background(), dir, specFor(serveFile(t, f), data), Options{Retries: 2, RetryWait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "digest.gguf"))
	if !bytes.Equal(got, data) {
		t.Fatal("resumed download differs")
	}
	if seen := f.seen(); len(seen) != 2 || seen[0] != "" || seen[1] != "bytes=70000-" {
		t.Errorf("requests had ranges %q, want the second to resume at 70000", seen)
	}
}

func TestDownloadResumesNextRun(t *testing.T) {
	data := fakeModel(200_000, 3)
	f := &fileServer{data: data, cut: 50_000}
	url := serveFile(t, f)
	dir := t.TempDir()
	_, err := Download(context.Background(), dir, specFor(url, data), Options{})
	var fe *fault.Error
	if !errors.As(err, &fe) || !strings.Contains(fe.Msg, "stopped at 50 kB of 200 kB") || fe.Kind != fault.Resumable {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "digest.gguf")); err == nil {
		t.Fatal("a cut download was installed")
	}
	if _, err := Download(context.Background(), dir, specFor(url, data), Options{}); err != nil {
		t.Fatal(err)
	}
	if seen := f.seen(); len(seen) != 2 || seen[1] != "bytes=50000-" {
		t.Errorf("requests had ranges %q", seen)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "digest.gguf"))
	if !bytes.Equal(got, data) {
		t.Fatal("resumed download differs")
	}
	assertNoPart(t, dir)
}

func TestDownloadStallResumes(t *testing.T) {
	data := fakeModel(100_000, 4)
	f := &fileServer{data: data, cut: 30_000, stall: 5 * time.Second}
	dir := t.TempDir()
	start := time.Now()
	_, err := Download(context.Background(), dir, specFor(serveFile(t, f), data),
		Options{Retries: 1, RetryWait: time.Millisecond, StallTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v: the stall was not noticed", d)
	}
	if seen := f.seen(); len(seen) != 2 || seen[1] != "bytes=30000-" {
		t.Errorf("requests had ranges %q", seen)
	}
}

func TestDownloadWrongChecksum(t *testing.T) {
	data := fakeModel(50_000, 5)
	dir := t.TempDir()
	old := installOld(t, dir)
	spec := specFor(serveFile(t, &fileServer{data: data}), data)
	spec.SHA256 = sum([]byte("something else"))
	_, err := Download(context.Background(), dir, spec, Options{})
	if err == nil || !strings.Contains(err.Error(), "is damaged: its SHA-256 is "+sum(data)) {
		t.Fatalf("got %v", err)
	}
	assertOld(t, dir, old)
	assertNoPart(t, dir)
}

func TestDownloadWrongSize(t *testing.T) {
	data := fakeModel(50_000, 6)
	dir := t.TempDir()
	old := installOld(t, dir)
	spec := specFor(serveFile(t, &fileServer{data: data}), data)
	spec.Size++
	_, err := Download(context.Background(), dir, spec, Options{})
	if err == nil || !strings.Contains(err.Error(), "not 50 kB as published") {
		t.Fatalf("got %v", err)
	}
	assertOld(t, dir, old)
}

func TestDownloadNotFound(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	dir := t.TempDir()
	_, err := Download(context.Background(), dir, catalog.Spec{Kind: catalog.Digest, URL: srv.URL + "/x.gguf", Size: 10, SHA256: "00"}, Options{Retries: 3, RetryWait: time.Hour})
	if err == nil || !strings.Contains(err.Error(), "the server answered 404 Not Found") {
		t.Fatalf("got %v", err)
	}
}

func TestDiskFull(t *testing.T) {
	data := fakeModel(50_000, 7)
	f := &fileServer{data: data}
	saved := freeSpace
	freeSpace = func(string) (int64, error) { return 10 << 20, nil }
	defer func() { freeSpace = saved }()
	_, err := Download(context.Background(), t.TempDir(), specFor(serveFile(t, f), data), Options{})
	if err == nil || !strings.Contains(err.Error(), "not enough disk space") {
		t.Fatalf("got %v", err)
	}
	if len(f.seen()) != 0 {
		t.Error("downloaded before checking the space")
	}
}

func TestFromURLNotGGUF(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>Sign in to download</html>"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	old := installOld(t, dir)
	_, err := From(context.Background(), dir, catalog.Digest, srv.URL+"/model.gguf", Options{})
	var fe *fault.Error
	if !errors.As(err, &fe) || !strings.Contains(fe.Msg, "is not a GGUF model file") || fe.Kind != fault.NotAModel {
		t.Fatalf("got %v", err)
	}
	assertOld(t, dir, old)
	assertNoPart(t, dir)
}

func TestFromURL(t *testing.T) {
	data := fakeModel(20_000, 8)
	url := serveFile(t, &fileServer{data: data})
	dir := t.TempDir()
	installOld(t, dir)
	m, err := From(context.Background(), dir, catalog.Digest, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Source != url || m.SHA256 != sum(data) || m.Name != "model" {
		t.Errorf("manifest %+v", m)
	}
}

func TestFromFile(t *testing.T) {
	data := fakeModel(20_000, 9)
	src := filepath.Join(t.TempDir(), "my-model.gguf")
	os.WriteFile(src, data, 0o644)
	dir := t.TempDir()
	var inspected, checked []string
	opt := Options{
		Inspect: func(p string) (string, string, error) {
			inspected = append(inspected, p)
			return "My Model", "llama", nil
		},
		Check: func(p string) error { checked = append(checked, p); return nil },
	}
	m, err := From(context.Background(), dir, catalog.Digest, src, opt)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "My Model" || m.Architecture != "llama" || m.Source != src || m.SHA256 != sum(data) {
		t.Errorf("manifest %+v", m)
	}
	// The source is inspected before copying; the copy before installing.
	if len(inspected) != 2 || inspected[0] != src || len(checked) != 1 || !strings.HasSuffix(checked[0], ".part") {
		t.Errorf("inspected %v, checked %v", inspected, checked)
	}
	if _, err := From(context.Background(), dir, catalog.Digest, filepath.Join(dir, "digest.gguf"), opt); err == nil ||
		!strings.Contains(err.Error(), "is the installed digest model already") {
		t.Errorf("installing the installed file: %v", err)
	}
}

func TestFromFileFailures(t *testing.T) {
	tmp := t.TempDir()
	notGGUF := filepath.Join(tmp, "notes.txt")
	os.WriteFile(notGGUF, []byte("just some notes"), 0o644)
	tiny := filepath.Join(tmp, "tiny.gguf")
	os.WriteFile(tiny, []byte("GG"), 0o644)
	model := filepath.Join(tmp, "model.gguf")
	os.WriteFile(model, fakeModel(5000, 10), 0o644)
	tests := []struct {
		name, src string
		opt       Options
		want      string
	}{
		{"missing", filepath.Join(tmp, "nope.gguf"), Options{}, "no file "},
		{"folder", tmp, Options{}, "is a folder"},
		{"not gguf", notGGUF, Options{}, `is not a GGUF model file: it does not start with the GGUF signature (it starts with "just")`},
		{"too short", tiny, Options{}, "too short to be a model"},
		{"inspect", model, Options{Inspect: func(string) (string, string, error) {
			return "", "", errors.New(`architecture "mamba9" is not supported`)
		}}, `is not a model sponge can run: architecture "mamba9" is not supported`},
		{"check", model, Options{Check: func(string) error { return errors.New("llama.cpp could not load it") }}, "does not load: llama.cpp could not load it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			old := installOld(t, dir)
			_, err := From(context.Background(), dir, catalog.Digest, tt.src, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			assertOld(t, dir, old)
			assertNoPart(t, dir)
		})
	}
}

func TestVerifiedDownloadKeptWhenCheckFails(t *testing.T) {
	data := fakeModel(40_000, 11)
	f := &fileServer{data: data}
	spec := specFor(serveFile(t, f), data)
	dir := t.TempDir()
	_, err := Download(context.Background(), dir, spec, Options{Check: func(string) error { return errors.New("no runtime") }})
	if err == nil {
		t.Fatal("no error")
	}
	// The next run uses the verified .part instead of downloading again.
	if _, err := Download(context.Background(), dir, spec, Options{}); err != nil {
		t.Fatal(err)
	}
	if n := len(f.seen()); n != 1 {
		t.Errorf("downloaded %d times, want once", n)
	}
}

func TestInstalledWithoutManifest(t *testing.T) {
	dir := t.TempDir()
	if m, err := catalog.Installed(dir, catalog.Digest); m != nil || err != nil {
		t.Fatalf("empty folder: %+v %v", m, err)
	}
	os.WriteFile(filepath.Join(dir, "digest.gguf"), fakeModel(1234, 12), 0o644)
	m, err := catalog.Installed(dir, catalog.Digest)
	if err != nil || m == nil || m.Size != 1234 || m.SHA256 != "" || m.Source != "" {
		t.Fatalf("got %+v %v", m, err)
	}
}

func TestContentRange(t *testing.T) {
	for h, want := range map[string][4]int64{
		"bytes 100-199/200": {100, 199, 200, 1},
		"bytes */200":       {0, 0, 200, 1},
		"bytes 1-2/*":       {1, 2, -1, 1},
		"items 1-2/3":       {0, 0, 0, 0},
	} {
		s, e, n, ok := contentRange(h)
		if got := [4]int64{s, e, n, map[bool]int64{true: 1}[ok]}; got != want {
			t.Errorf("%q: got %v, want %v", h, got, want)
		}
	}
}
