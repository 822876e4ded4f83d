package index

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// killChildEnv names, in a child process of TestKilledWhileMade, the index
// folder the child makes.
const killChildEnv = "INDEX_TEST_KILL_CHILD" // not SPONGE_: testsupport clears those

// TestKilledWhileMadeChild is the child: it makes the index, and waits to
// be killed.
func TestKilledWhileMadeChild(t *testing.T) {
	dir := os.Getenv(killChildEnv)
	if dir == "" {
		t.Skip("the child of TestKilledWhileMade")
	}
	if _, err := Create(dir); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Minute)
}

// A writer killed while it makes a new index (a first sponge add, killed
// before its first batch went in) leaves no index or a whole one: the next
// Create works, where it said the index was made by an older sponge (issue
// 42), and removes what the kill left beside it. The child is killed the
// moment the index's folder, or the folder it is made in, appears; five
// times each, since the kill may land a little later than that moment
// (before the fix, one round in five missed the folder half made).
func TestKilledWhileMade(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a child process")
	}
	for _, watch := range []string{"", "", "", "", "", makingSuffix, makingSuffix, makingSuffix, makingSuffix, makingSuffix} {
		t.Run("killed when index"+watch+" appears", func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "index")
			cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWhileMadeChild$")
			cmd.Env = append(os.Environ(), killChildEnv+"="+dir)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			killed := false
			for deadline := time.Now().Add(10 * time.Second); !killed && time.Now().Before(deadline); {
				// (on a busy machine the index may be made whole before
				// index.making is seen: the kill then comes after)
				if exists(dir+watch) || exists(dir) {
					cmd.Process.Signal(syscall.SIGKILL)
					killed = true
				}
				select {
				case err := <-exited:
					if !killed {
						t.Fatalf("the child ended before it was killed: %v", err)
					}
					exited <- err
				default:
				}
			}
			if !killed {
				cmd.Process.Signal(syscall.SIGKILL)
				t.Fatalf("%s did not appear in 10 s", dir+watch)
			}
			<-exited

			x, err := Create(dir)
			if err != nil {
				t.Fatalf("after the kill: %v", err)
			}
			defer x.Close()
			if n, err := x.Count(); err != nil || n != 0 {
				t.Errorf("after the kill: %d documents, %v", n, err)
			}
			if _, err := os.Stat(dir + makingSuffix); !os.IsNotExist(err) {
				t.Errorf("%s is left after the next Create: %v", dir+makingSuffix, err)
			}
		})
	}
}

// What a kill left beside an index that was made since (sponge add made it
// from the items, through index.new) is removed by the next writer.
func TestMakingLeftover(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	x, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	if err := os.MkdirAll(filepath.Join(dir+makingSuffix, "store"), 0o700); err != nil {
		t.Fatal(err)
	}
	if x, err = Create(dir); err != nil {
		t.Fatal(err)
	}
	x.Close()
	if _, err := os.Stat(dir + makingSuffix); !os.IsNotExist(err) {
		t.Errorf("%s is left after Create: %v", dir+makingSuffix, err)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
