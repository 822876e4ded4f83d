package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sponge-library/sponge/internal/library/extract"
)

// endless is stdin without end, like `yes |`; a reader that goes on past
// twice the limit fails, rather than the test running out of memory.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	if r.n > 2*extract.MaxBytes {
		return 0, errors.New("read on far past the limit")
	}
	for i := range p {
		p[i] = 'y'
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestPrepareRefusesUnending: an input without end or over the limit is
// refused, naming the limit, without reading it until memory runs out.
func TestPrepareRefusesUnending(t *testing.T) {
	dir := t.TempDir()
	w, err := OpenWriter(filepath.Join(dir, "lib"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	big := filepath.Join(dir, "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(300 << 20) // sparse: no disk, and nothing should read it
	f.Close()
	for _, tc := range []struct {
		in   Input
		want string
	}{
		{Input{Name: "stdin", Stdin: true}, "too large (more than the limit of 256 MiB)"},
		{Input{Name: big, Path: big}, "too large (300 MiB; the limit is 256 MiB)"},
		{Input{Name: "/dev/zero", Path: "/dev/zero"}, "a character device, not a file: sponge reads files, folders, URLs and stdin (-)"},
	} {
		if _, err := os.Stat(tc.in.Path); tc.in.Path != "" && err != nil {
			t.Logf("%s: %v", tc.in.Path, err)
			continue
		}
		r := prepare(context.Background(), w, tc.in, AddOptions{Stdin: &endless{}})
		if r.Err == nil || r.Err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.in.Name, r.Err, tc.want)
		}
	}
}
