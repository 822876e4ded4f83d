package thai

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func words(d *thaiDict, s string) []string {
	var out []string
	for _, p := range d.cut([]byte(s)) {
		w := s[p.Start:p.End]
		if !p.Known {
			w = "?" + w
		}
		out = append(out, w)
	}
	return out
}

// The cut covers as much of the run with words as it can, then uses the
// fewest words; characters no word covers are kept together.
func TestCut(t *testing.T) {
	d := newThaiDict([]string{"ชา", "เขียว", "ชาเขียว", "ควร", "ชง", "ด้วย", "น้ำ", "ร้อน", "น้ำร้อน", "ก", "english"})
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"ชาเขียวควรชงด้วยน้ำร้อน", []string{"ชาเขียว", "ควร", "ชง", "ด้วย", "น้ำร้อน"}},
		// An unknown name between words, and a mark never split from its letter.
		{"ชาสมศักดิ์ชง", []string{"ชา", "?สมศักดิ์", "ชง"}},
		{"น้ำ", []string{"น้ำ"}},
		{"ร้", []string{"?ร้"}},
	} {
		if diff := cmp.Diff(tc.want, words(d, tc.in)); diff != "" {
			t.Errorf("cut(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
	if d.words["ก"] || d.words["english"] {
		t.Error("one-letter and non-Thai entries are kept")
	}
}

func TestLoadHunspellList(t *testing.T) {
	path := t.TempDir() + "/th_TH.dic"
	list := "3\nชา/A\nเขียว\n\nชาเขียว/B\n"
	if err := writeFile(path, list); err != nil {
		t.Fatal(err)
	}
	d := loadThaiDict(path)
	if d == nil || len(d.words) != 3 || !d.words["ชาเขียว"] || d.maxLen != len("ชาเขียว") {
		t.Fatalf("loaded %+v", d)
	}
	if loadThaiDict(path+".none") != nil {
		t.Error("a missing list loads")
	}
}

func TestLetter(t *testing.T) {
	for _, r := range "ชาเขียว້ລາວខ្មែរမြန်" {
		if !Letter(r) {
			t.Errorf("%q is not a letter", r)
		}
	}
	for _, r := range "a1 。绿๑" {
		if Letter(r) {
			t.Errorf("%q is a letter", r)
		}
	}
	if got := NextCluster([]byte("น้ำ"), 0); got != len("น้") {
		t.Errorf("NextCluster = %d", got)
	}
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

// BenchmarkLoadList reads the installed Thai word list, what the first Thai
// text of a process (or the index's fingerprint of its word rules) pays.
func BenchmarkLoadList(b *testing.B) {
	path, _ := List()
	if path == "" {
		b.Skip("no Thai word list installed")
	}
	b.ReportAllocs()
	for b.Loop() {
		if loadThaiDict(path) == nil {
			b.Fatal("no words")
		}
	}
}
