package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrepareAllInOrder: however far the workers read ahead, and whatever
// the sizes of the inputs, the writer gets the results in input order, one
// per input, and an input bigger than the whole read-ahead still passes.
func TestPrepareAllInOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := OpenWriter(filepath.Join(dir, "lib"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var inputs []Input
	for i := range 3 * aheadItems {
		body := fmt.Sprintf("# Note %d\n\nThe kettle number %d whistles.\n", i, i)
		if i%50 == 7 {
			body += strings.Repeat("Steam rises from the spout. ", 20000) // ~0.5 MB
		}
		p := filepath.Join(dir, fmt.Sprintf("note%04d.md", i))
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, Input{Name: p, Path: p})
	}
	big := filepath.Join(dir, "big.md")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("# Big\n\nA note bigger than the read-ahead.\n")
	f.Truncate(aheadBytes + 1) // the rest reads as NUL bytes
	f.Close()
	inputs = append(inputs[:10], append([]Input{{Name: big, Path: big}}, inputs[10:]...)...)

	out := make(chan Added, 4)
	go prepareAll(context.Background(), w, inputs, AddOptions{}, out)
	n := 0
	for r := range out {
		if r.Input != inputs[n] {
			t.Fatalf("result %d is for %s, want %s", n, r.Input.Name, inputs[n].Name)
		}
		n++
	}
	if n != len(inputs) {
		t.Fatalf("%d results for %d inputs", n, len(inputs))
	}
}
