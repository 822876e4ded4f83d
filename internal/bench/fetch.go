package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
)

// Fetch downloads a Debian package with apt-get and unpacks it with dpkg-deb.
func Fetch(work, pkg, dir string) error {
	debs := filepath.Join(work, "debs")
	if err := os.MkdirAll(debs, 0o755); err != nil {
		return err
	}
	abs, err := filepath.Abs(debs)
	if err != nil {
		return err
	}
	// apt-cache knows nothing of the package until `apt-get update` has run once.
	pol, _ := exec.Command("apt-cache", "policy", pkg).Output()
	if !regexp.MustCompile(`Candidate: [^(]`).Match(pol) {
		fmt.Fprintf(os.Stderr, "apt-cache has no %s: running apt-get update\n", pkg)
		if err := runCmd("", "apt-get", "update", "-qq"); err != nil {
			return fmt.Errorf("apt-get update: %v (run it as root once)", err)
		}
	}
	if err := runCmd(abs, "apt-get", "download", "-q", pkg); err != nil {
		return fmt.Errorf("apt-get download %s: %v", pkg, err)
	}
	matches, _ := filepath.Glob(filepath.Join(abs, pkg+"_*.deb"))
	if len(matches) == 0 {
		return fmt.Errorf("apt-get download %s left no .deb in %s", pkg, debs)
	}
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	if err := runCmd("", "dpkg-deb", "-x", matches[len(matches)-1], tmp); err != nil {
		return fmt.Errorf("dpkg-deb -x: %v", err)
	}
	os.RemoveAll(dir)
	return os.Rename(tmp, dir)
}

func runCmd(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	return cmd.Run()
}
