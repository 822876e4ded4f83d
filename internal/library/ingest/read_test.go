package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/extract"
)

// endless is stdin without end, like `yes |`; a reader that goes on past
// twice the limit fails, rather than the test running out of memory.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	if r.n > 2*extract.MaxBytes {
		return 0, errors.New("read on far past the limit")
	}
	// One byte, then copies of what is written (byte by byte, 256 MiB took
	// 25 s under -race).
	if len(p) > 0 {
		p[0] = 'y'
	}
	for n := 1; n < len(p); n *= 2 {
		copy(p[n:], p[:n])
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestPrepareRefusesUnending: an input without end or over the limit is
// refused, naming the limit, without reading it until memory runs out.
func TestPrepareRefusesUnending(t *testing.T) {
	t.Parallel()
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

// TestAddLentBuffers: files read into lent buffers, big and small in turn
// on every core, and one read again (the library has it), are each saved
// with their own bytes and text: no buffer is lent again while its bytes
// are in use, and none shows a bigger file's bytes past a smaller one's end.
func TestAddLentBuffers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var paths []string
	want := map[string]string{}
	words, heads := map[string]int{}, map[string]string{}
	for i, n := range []int{5000, 10, 3000, 70000, 1, 40000, 7, 20000, 2} {
		p := filepath.Join(dir, "in", fmt.Sprintf("%02d.md", i))
		words[p] = n/7 + 1
		heads[p] = fmt.Sprintf("File %d.", i)
		text := heads[p] + "\n\n" + strings.Repeat(fmt.Sprintf("word%d ", i), words[p])
		write(t, p, text)
		paths = append(paths, p)
		want[p] = text
	}
	paths = append(paths, paths[3]) // the library has it by then
	lib := filepath.Join(dir, "lib")
	out := addFiles(t, lib, AddOptions{}, paths...)
	l, err := library.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range out {
		src, err := l.Source(r.ID)
		if err != nil || string(src) != want[r.Input.Path] {
			t.Errorf("%s: source of %d bytes saved (%v), want %d", r.Input.Name, len(src), err, len(want[r.Input.Path]))
		}
		it, err := l.Item(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		var text []string
		for _, p := range it.Paragraphs[1:] {
			text = append(text, strings.Fields(p.Text)...)
		}
		if it.Paragraphs[0].Text != heads[r.Input.Path] || len(text) != words[r.Input.Path] || slices.ContainsFunc(text, func(w string) bool { return w != text[0] }) {
			t.Errorf("%s: item of %d words, %q first", r.Input.Name, len(text), it.Paragraphs[0].Text)
		}
	}
}
