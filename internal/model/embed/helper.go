package embed

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// HelperName is the program that embeds for programs built without cgo.
const HelperName = "sponge-embed"

// The helper's protocol, one JSON object a line: it first writes
// {"info":{…}}, then answers each {"texts":[…]} with {"vectors":[…]} (each
// vector base64 of little-endian float32s) or {"error":"…"}.
type request struct {
	Texts []string `json:"texts"`
}

type response struct {
	Info    *Info    `json:"info,omitempty"`
	Vectors []string `json:"vectors,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// Serve answers embedding requests read from r on w until r ends.
func Serve(e Embedder, r io.Reader, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(bw)
	send := func(resp response) error {
		if err := enc.Encode(resp); err != nil {
			return err
		}
		return bw.Flush()
	}
	info := e.Info()
	if err := send(response{Info: &info}); err != nil {
		return err
	}
	Mark("serve: ready")
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			Mark("serve: request read")
			var req request
			var resp response
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				resp.Error = "bad request: " + jerr.Error()
			} else if vs, eerr := e.Embed(req.Texts); eerr != nil {
				resp.Error = eerr.Error()
			} else {
				resp.Vectors = make([]string, len(vs))
				for i, v := range vs {
					resp.Vectors[i] = encodeVector(v)
				}
			}
			if err := send(resp); err != nil {
				return err
			}
		}
		if err == io.EOF {
			Mark("serve: input ended")
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func encodeVector(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

func decodeVector(s string) ([]float32, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%4 != 0 {
		return nil, errors.New("a malformed vector")
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

// Helper is an embedding model loaded by a `sponge-embed --serve` child
// process. Its methods are safe for concurrent use.
type Helper struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tailBuffer
	info   Info
	mu     sync.Mutex
	dead   error
}

// FindHelper finds sponge-embed beside the running program, else on PATH.
func FindHelper() (string, error) {
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			p := filepath.Join(filepath.Dir(exe), HelperName)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, nil
			}
		}
	}
	return exec.LookPath(HelperName)
}

// StartHelper runs exe (sponge-embed) to load the model at modelPath, and
// waits until it is loaded.
func StartHelper(exe, modelPath string, opt Options) (*Helper, error) {
	h, err := startHelper(exe, modelPath, opt)
	if err != nil {
		return nil, err
	}
	if err := h.wait(); err != nil {
		return nil, err
	}
	return h, nil
}

// startHelper runs exe to load the model, without waiting.
func startHelper(exe, modelPath string, opt Options) (*Helper, error) {
	args := []string{"--serve", "--model", modelPath}
	if opt.Threads > 0 {
		args = append(args, "--threads", strconv.Itoa(opt.Threads))
	}
	if opt.BatchTokens > 0 {
		args = append(args, "--batch-tokens", strconv.Itoa(opt.BatchTokens))
	}
	cmd := exec.Command(exe, args...)
	h := &Helper{cmd: cmd, stderr: &tailBuffer{}}
	cmd.Stderr = h.stderr
	var err error
	if h.in, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	h.out = bufio.NewReaderSize(out, 1<<20)
	Mark("helper: starting %s", exe)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot run %s: %v", exe, err)
	}
	Mark("helper: started")
	return h, nil
}

// wait waits until the helper has loaded the model, or ends it and says
// why it could not.
func (h *Helper) wait() error {
	resp, err := h.read()
	if err != nil {
		h.Close()
		return err
	}
	if resp.Info == nil {
		h.Close()
		return fmt.Errorf("%s did not say which model it loaded", HelperName)
	}
	h.info = *resp.Info
	Mark("helper: model loaded")
	return nil
}

// read reads one response; when the helper has died, the error is what it
// said on stderr.
func (h *Helper) read() (response, error) {
	var resp response
	line, err := h.out.ReadBytes('\n')
	if err != nil {
		h.cmd.Wait()
		if msg := h.stderr.lastError(); msg != "" {
			return resp, errors.New(msg)
		}
		return resp, fmt.Errorf("%s stopped (%v)", HelperName, h.cmd.ProcessState)
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return resp, fmt.Errorf("%s said something that is not JSON: %v", HelperName, err)
	}
	return resp, nil
}

// Info describes the helper's model.
func (h *Helper) Info() Info { return h.info }

// Embed has the helper embed texts.
func (h *Helper) Embed(texts []string) ([][]float32, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.dead != nil {
		return nil, h.dead
	}
	b, err := json.Marshal(request{Texts: texts})
	if err != nil {
		return nil, err
	}
	if _, err := h.in.Write(append(b, '\n')); err != nil {
		h.dead = fmt.Errorf("%s stopped: %v", HelperName, err)
		if msg := h.stderr.lastError(); msg != "" {
			h.dead = errors.New(msg)
		}
		return nil, h.dead
	}
	Mark("helper: request sent")
	resp, err := h.read()
	Mark("helper: answer read")
	if err != nil {
		h.dead = err
		return nil, err
	}
	if resp.Error != "" {
		return nil, errors.New(resp.Error)
	}
	if len(resp.Vectors) != len(texts) {
		return nil, fmt.Errorf("%s gave %d vectors for %d texts", HelperName, len(resp.Vectors), len(texts))
	}
	out := make([][]float32, len(texts))
	for i, s := range resp.Vectors {
		if out[i], err = decodeVector(s); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Close ends the helper.
func (h *Helper) Close() error {
	h.in.Close()
	done := make(chan struct{})
	go func() { h.cmd.Wait(); close(done) }()
	<-done
	return nil
}

// tailBuffer keeps the end of what a helper writes on stderr.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if timingOn {
		os.Stderr.Write(p) // the helper's timing lines
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > 8192 {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-8192:]...)
	}
	return len(p), nil
}

// lastError is the helper's "sponge-embed: error: …" message, or its last line.
func (t *tailBuffer) lastError() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	for _, l := range lines {
		if m, ok := strings.CutPrefix(l, HelperName+": error: "); ok {
			return m
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// InProcess loads a model in this process. It is nil unless the program
// links the model runtime (internal/model/embed/llamaembed sets it, in a
// build with cgo); the pure programs leave it nil and use sponge-embed.
var InProcess func(path string, opt Options) (Embedder, error)

// Start loads the model at path: in this process when the program links
// the model runtime (InProcess), else in a sponge-embed helper found beside
// the program or on PATH.
func Start(path string, opt Options) (Embedder, error) {
	return Begin(path, opt)()
}

// Begin starts loading the model at path as Start does, and returns a
// function that waits until it is loaded; the caller goes on meanwhile,
// then calls it once and closes the Embedder it gives. Without InProcess,
// sponge-embed has been started when Begin returns.
func Begin(path string, opt Options) (wait func() (Embedder, error)) {
	if load := InProcess; load != nil {
		type loaded struct {
			e   Embedder
			err error
		}
		done := make(chan loaded, 1)
		go func() {
			e, err := load(path, opt)
			done <- loaded{e, err}
		}()
		return func() (Embedder, error) {
			l := <-done
			return l.e, l.err
		}
	}
	return beginHelper(path, opt)
}

// beginHelper is Begin without the model runtime in this process.
func beginHelper(path string, opt Options) (wait func() (Embedder, error)) {
	exe, err := FindHelper()
	if err != nil {
		return func() (Embedder, error) {
			if _, ierr := Inspect(path); ierr != nil {
				return nil, ierr
			}
			return nil, ErrNoHelper
		}
	}
	h, err := startHelper(exe, path, opt)
	return func() (Embedder, error) {
		if err != nil {
			return nil, err
		}
		if err := h.wait(); err != nil {
			// The helper checks the file as Inspect does: a file that is not
			// an embedding model is named here as by Start in-process.
			if _, ierr := Inspect(path); ierr != nil {
				return nil, ierr
			}
			return nil, err
		}
		return h, nil
	}
}

// ErrNoHelper is returned by Start in a build without cgo when sponge-embed
// cannot be found.
var ErrNoHelper = errors.New("cannot find sponge-embed (which runs the embedding model) beside this program or on PATH")
