package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ServeFile is the file in the library folder that a running `sponge serve`
// writes, so `sponge ask` and `sponge-draft` find it without flags.
const ServeFile = "serve.json"

// DefaultPort is the port `sponge serve` listens on unless told otherwise.
const DefaultPort = 7701

// ServeInfo is the content of ServeFile.
type ServeInfo struct {
	Endpoint string `json:"endpoint"` // http://127.0.0.1:PORT
	Model    string `json:"model"`    // the name the server offers its model under
	PID      int    `json:"pid"`      // the serving process
}

// WriteServeInfo writes <libDir>/serve.json atomically.
func WriteServeInfo(libDir string, info ServeInfo) error {
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(libDir, ServeFile)
	tmp, err := os.CreateTemp(libDir, ".serve-*.json")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// ReadServeInfo reads <libDir>/serve.json; a missing file is (nil, nil).
func ReadServeInfo(libDir string) (*ServeInfo, error) {
	b, err := os.ReadFile(filepath.Join(libDir, ServeFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var info ServeInfo
	if err := json.Unmarshal(b, &info); err != nil {
		return nil, err
	}
	return &info, nil
}

// RemoveServeInfo removes <libDir>/serve.json if it still names pid, so a
// server that exits does not remove the file of one started after it.
func RemoveServeInfo(libDir string, pid int) error {
	info, err := ReadServeInfo(libDir)
	if err != nil || info == nil || info.PID != pid {
		return err
	}
	err = os.Remove(filepath.Join(libDir, ServeFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// ProcessAlive reports whether a process with this id exists.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// FindServe returns the running `sponge serve` that <libDir>/serve.json
// names, or nil when there is none: no file, a damaged one, or a stale one
// (LookupServe).
func FindServe(ctx context.Context, libDir string) *ServeInfo {
	info, _ := LookupServe(ctx, libDir)
	return info
}

// LookupServe is FindServe that also says why it ignored a serve.json
// ("" when it did not). A file stale beyond doubt is removed, so that it is
// said once: its process is gone (killed with SIGKILL, or the computer
// restarted), or nothing listens at its endpoint (a sponge serve removes
// its file before it stops listening). One whose process lives but whose
// /health does not answer within a second or two is ignored and kept.
func LookupServe(ctx context.Context, libDir string) (info *ServeInfo, ignored string) {
	info, err := ReadServeInfo(libDir)
	if err != nil || info == nil || info.Endpoint == "" {
		return nil, ""
	}
	path := filepath.Join(libDir, ServeFile)
	if !ProcessAlive(info.PID) {
		return nil, removeStale(libDir, info, fmt.Sprintf("the sponge serve it names (pid %d) is gone", info.PID))
	}
	c, err := NewClient(info.Endpoint)
	if err != nil {
		return nil, ""
	}
	c.ConnectTimeout = time.Second
	c.FirstByteTimeout = 0
	c.TotalTimeout = 2 * time.Second
	if err := c.Health(ctx); err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			return nil, removeStale(libDir, info, fmt.Sprintf("nothing listens at %s, where the sponge serve it names (pid %d) was", info.Endpoint, info.PID))
		}
		return nil, fmt.Sprintf("ignored %s: the sponge serve it names (pid %d) does not answer: %v", path, info.PID, err)
	}
	return info, ""
}

// removeStale removes a stale serve.json and says so.
func removeStale(libDir string, info *ServeInfo, why string) string {
	path := filepath.Join(libDir, ServeFile)
	if err := RemoveServeInfo(libDir, info.PID); err != nil {
		return fmt.Sprintf("ignored %s (%s), and could not remove it: %v", path, why, err)
	}
	return fmt.Sprintf("ignored and removed %s: %s", path, why)
}
