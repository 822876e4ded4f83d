package extract

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/testsupport"
	"github.com/sponge-library/sponge/internal/testsupport/zlibfast"
)

// A few KB of PDF must not cost gigabytes: each bomb is refused whole, with
// a message that says why (not "scanned images are not read"), by a child
// process that stays under a memory ceiling.

// bombPDF is a PDF of pages whose content streams are given (deflated),
// Helvetica as /F1, and forms: form i is /X<i>, which each page and form
// may draw; a form draws the next with /X.
func bombPDF(pages []string, forms []string) []byte {
	var b bytes.Buffer
	var offs []int
	obj := func(dict string, stream []byte) {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s", len(offs), dict)
		if stream != nil {
			fmt.Fprintf(&b, "\nstream\n%s\nendstream", stream)
		}
		b.WriteString("\nendobj\n")
	}
	// Deflated in chunks, each repeat of one written again, not deflated
	// again: compress/zlib took most of a minute for the zeros under -race.
	deflate := func(s string) []byte { return zlibfast.Compress([]byte(s)) }
	// 1 catalog, 2 page tree, 3 font, 4… forms, then a page and its content per page.
	firstPage := 4 + len(forms)
	var kids []string
	for i := range pages {
		kids = append(kids, fmt.Sprintf("%d 0 R", firstPage+2*i))
	}
	b.WriteString("%PDF-1.4\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>", nil)
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)), nil)
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", nil)
	for i, f := range forms {
		z := deflate(f)
		obj(fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Filter /FlateDecode /Length %d "+
			"/Resources << /Font << /F1 3 0 R >> /XObject << /X %d 0 R >> >> >>", len(z), 5+i), z)
	}
	for i, p := range pages {
		z := deflate(p)
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "+
			"/Resources << /Font << /F1 3 0 R >> /XObject << /X 4 0 R >> >> >>", firstPage+2*i+1), nil)
		obj(fmt.Sprintf("<< /Filter /FlateDecode /Length %d >>", len(z)), z)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, xref)
	return b.Bytes()
}

// nestedForms is levels forms, each drawing the next fan times; the last
// one's content is leaf.
func nestedForms(levels, fan int, leaf string) []string {
	forms := make([]string, levels)
	for i := range forms {
		forms[i] = strings.Repeat("/X Do ", fan)
	}
	forms[levels-1] = leaf
	return forms
}

const someText = "BT /F1 12 Tf 72 720 Td (Some text on the page.) Tj ET\n"

// bombs are the files of issue 19 (a few KB each, but zeros: 100 KB) and
// the start of the message each must be refused with. The slowest come
// first: they run side by side, and the others fill in beside them.
var bombs = []struct {
	name string
	pdf  func() []byte
	want string
}{
	{"pages of text", func() []byte {
		leaf := "BT /F1 12 Tf 72 700 Td (" + strings.Repeat("A", 1000) + ") Tj ET"
		page := someText + strings.Repeat("/X Do ", 990)
		return bombPDF(slices.Repeat([]string{page}, 25), []string{leaf})
	}, "p.21: the document shows more than 20 million characters (a damaged or hostile file); stopped"},
	{"forms inflating", func() []byte {
		// An inline image's data is skipped in one search, not lexed.
		image := "BI /W 1 /H 1 ID " + strings.Repeat("x", 60<<20) + " EI"
		return bombPDF([]string{someText + strings.Repeat("/X Do ", 20)}, []string{image})
	}, "p.1: the document's streams inflate to more than 1024 MiB (a damaged or hostile file); stopped"},
	{"zeros", func() []byte { return bombPDF([]string{strings.Repeat("\x00", 100<<20)}, nil) },
		"p.1: a content stream inflates to more than 64 MiB (a damaged or hostile file); stopped"},
	{"forms drawing forms", func() []byte {
		return bombPDF([]string{someText + "/X Do"}, nestedForms(9, 10, "0 0 m"))
	}, "p.1: the page draws more than 2 million objects (a damaged or hostile file); stopped"},
	{"forms showing text", func() []byte {
		leaf := "BT /F1 12 Tf 72 700 Td (" + strings.Repeat("A", 1000) + ") Tj ET"
		return bombPDF([]string{someText + "/X Do"}, nestedForms(8, 10, leaf))
	}, "p.1: the page shows more than 1 million characters (a damaged or hostile file); stopped"},
	{"operators", func() []byte { return bombPDF([]string{strings.Repeat("q Q ", 3_000_000)}, nil) },
		"p.1: the page draws more than 2 million objects (a damaged or hostile file); stopped"},
}

// bombCeiling is the most memory a child reading a bomb may hold: the Go
// runtime's, less what it has given back. Today's code takes gigabytes.
const bombCeiling = 600 << 20

const bombEnv = "SPONGE_TEST_PDF_BOMB"

func TestMain(m *testing.M) {
	if name := os.Getenv(bombEnv); name != "" {
		os.Exit(readBomb(name))
	}
	testsupport.Main(m)
}

// readBomb is the child: it reads one bomb, watching its own memory, and
// prints the error and its peak. It exits 3 at the ceiling, before it can
// take the machine down.
func readBomb(name string) int {
	for _, b := range bombs {
		if b.name != name {
			continue
		}
		data := b.pdf()
		// What must stop a bomb here is its own budget, not the clock: under
		// -race on a busy machine "forms inflating" alone takes two minutes.
		pdfTimeBudget = 20 * time.Minute
		debug.FreeOSMemory() // what making the bomb took
		// The collector keeps garbage down to near the limit: what is
		// measured is what the reader holds, not the collector's pace.
		debug.SetMemoryLimit(bombCeiling / 2)
		peak := make(chan uint64)
		stop := make(chan bool)
		go func() {
			s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
			var most uint64
			for {
				metrics.Read(s)
				most = max(most, s[0].Value.Uint64()-s[1].Value.Uint64())
				if most > bombCeiling {
					fmt.Printf("over the ceiling: %d MiB\n", most>>20)
					os.Exit(3)
				}
				select {
				case <-stop:
					peak <- most
					return
				case <-time.After(2 * time.Millisecond):
				}
			}
		}()
		_, err := Bytes(data, "bomb.pdf", "")
		close(stop)
		fmt.Printf("%d\n%v\n", <-peak, err)
		return 0
	}
	fmt.Printf("no bomb %q\n", name)
	return 2
}

func TestPDFBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("each bomb runs in a child process")
	}
	t.Parallel() // the children, minutes of CPU under -race, beside the other tests
	for _, b := range bombs {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel() // each in a process of its own, watched on its own
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), bombEnv+"="+b.name)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			peak, msg, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
			if !strings.HasPrefix(msg, b.want) {
				t.Errorf("error %q, want %q", msg, b.want)
			}
			n, err := strconv.ParseUint(peak, 10, 64)
			if err != nil {
				t.Fatalf("child said %q", out)
			}
			// Memory the Go runtime does not see (a C or WebAssembly
			// library's) counts in the child's resident size; the race
			// detector's shadow memory too, hence the slack.
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
			if rss > 4*bombCeiling {
				t.Errorf("the child's resident size reached %d MiB", rss>>20)
			}
			t.Logf("peak %d MiB, resident %d MiB", n>>20, rss>>20)
		})
	}
}
