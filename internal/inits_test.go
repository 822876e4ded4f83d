package internal_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// initCost is what one package's initialisation allocated, from
// GODEBUG=inittrace=1.
type initCost struct {
	bytes, allocs int
}

// inits runs prog (a command of cmd/, built here without cgo) with args and
// returns each package's init cost.
func inits(t *testing.T, prog string, args ...string) map[string]initCost {
	t.Helper()
	bin := filepath.Join(t.TempDir(), prog)
	build := exec.Command("go", "build", "-o", bin, "./cmd/"+prog)
	build.Dir = ".."
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", prog, err, out)
	}
	run := exec.Command(bin, args...)
	run.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	run.Stderr = &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", prog, args, err, stderr.String())
	}
	costs := map[string]initCost{}
	sc := bufio.NewScanner(bytes.NewReader(stderr.Bytes()))
	for sc.Scan() {
		// init PKG @0.5 ms, 0.01 ms clock, 72 bytes, 2 allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot read %q", sc.Text())
		}
		costs[f[1]] = initCost{b, a}
	}
	if len(costs) < 20 {
		t.Fatalf("inittrace gave %d packages:\n%s", len(costs), stderr.String())
	}
	return costs
}

// ownInitBytes is the most a package of ours may allocate in its
// initialisation: a table it needs is made on first use (sync.OnceValue) or
// laid out by the compiler (an array), since sponge and sponge-search start
// for every question, and most of their tables serve other commands.
const ownInitBytes = 1024

// ownInitNeeded are the packages of ours allowed more, and why.
var ownInitNeeded = map[string]string{
	module + "internal/front/cmdline":          "the commands and their options: parsing any command line reads them",
	module + "internal/library/index/keywords": "the stop words and bleve's registry of the analyzer: every question reads them",
}

// TestInitsCheap: the programs a question starts (sponge, sponge-search)
// allocate little before main, and none of our packages builds a table in
// its init that a question does not read.
func TestInitsCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sponge and sponge-search")
	}
	t.Parallel()
	for _, prog := range perQuestion {
		name := filepath.Base(prog)
		costs := inits(t, name, "--version")
		total := 0
		for pkg, c := range costs {
			total += c.bytes
			if strings.HasPrefix(pkg, module) && c.bytes > ownInitBytes && ownInitNeeded[pkg] == "" {
				t.Errorf("%s: the init of %s allocates %d bytes (%d allocations): make its tables on first use", name, pkg, c.bytes, c.allocs)
			}
		}
		t.Logf("%s: package initialisation allocates %d bytes", name, total)
		// main at 1323fba (--version): sponge 178 KB in 180 packages,
		// sponge-search 159 KB (bleve's top-level package, net/http, the
		// progress bar); now 72 KB in 104 and 62 KB in 101.
		if total > 100<<10 {
			t.Errorf("%s: package initialisation allocates %d KB, want at most 100", name, total>>10)
		}
	}
}
