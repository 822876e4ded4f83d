package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrame is the longest line, in bytes, the server reads as a message. A
// longer line is answered with an error and skipped without being held in
// memory; a client's messages are tool calls of a few hundred bytes.
const MaxFrame = 4 << 20

// Transport is the stdio transport of MCP: one JSON-RPC message per line,
// each way. Unlike the SDK's IOTransport, which ends the session on the
// first line it cannot decode, it answers a malformed line with a JSON-RPC
// error (-32700 for a line that is not JSON, -32600 for JSON that is not one
// message) and reads on, and it never buffers more than MaxFrame of a line.
// Batches (a JSON array) are refused: MCP 2025-06-18 dropped them.
//
// At the end of its input it answers every request it has read before it
// reports the end: a client may write its requests and close stdin (the SDK
// would cancel them on the end of input, and answer only the first).
type Transport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
}

// Connect implements sdk.Transport.
func (t *Transport) Connect(context.Context) (sdk.Connection, error) {
	c := &conn{r: t.Reader, w: t.Writer, incoming: make(chan readResult), closed: make(chan struct{}),
		pending: map[jsonrpc.ID]bool{}, answered: make(chan struct{}, 1)}
	go c.readLoop()
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

type conn struct {
	r        io.ReadCloser
	w        io.WriteCloser
	writeMu  sync.Mutex // a message is written whole, by the SDK or by readLoop
	incoming chan readResult

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error

	pendingMu sync.Mutex
	pending   map[jsonrpc.ID]bool // the calls read and not yet answered
	answered  chan struct{}       // a call was answered
}

// readLoop reads lines and hands their messages to Read. It answers a
// malformed line itself; only an error of the stream (its end) stops it.
// Like the SDK's, it runs apart from Read so that Close unblocks a Read even
// when the reader itself does not return.
func (c *conn) readLoop() {
	br := bufio.NewReaderSize(c.r, 64<<10)
	var buf []byte // reused: a message keeps no part of its line
	for {
		line, tooLong, err := readLine(br, buf[:0], MaxFrame)
		buf = line
		msg, werr := c.frame(line, tooLong)
		if werr != nil {
			err = werr // the client is gone
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.pendingMu.Lock()
			c.pending[req.ID] = true
			c.pendingMu.Unlock()
		}
		if msg != nil && !c.send(readResult{msg: msg}) {
			return
		}
		if err != nil {
			if c.drain() {
				c.send(readResult{err: err})
			}
			return
		}
	}
}

// frame returns the message of a line, or nil after answering a line that
// is not one; an empty line is skipped. The error is one of writing.
func (c *conn) frame(line []byte, tooLong bool) (jsonrpc.Message, error) {
	switch {
	case tooLong:
		return nil, c.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the message is longer than %d bytes", MaxFrame))
	case len(bytes.TrimSpace(line)) == 0:
		return nil, nil
	}
	msg, bad := decodeFrame(line)
	if bad != nil {
		return nil, c.reply(bad.id, bad.code, bad.msg)
	}
	return msg, nil
}

// drain waits until every call read has been answered; false when the
// connection was closed first.
func (c *conn) drain() bool {
	for {
		c.pendingMu.Lock()
		n := len(c.pending)
		c.pendingMu.Unlock()
		if n == 0 {
			return true
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return false
		}
	}
}

// send hands Read a result; false when the connection was closed.
func (c *conn) send(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// readLine reads one line into buf, without its line ending. A line
// longer than max is read to its end but not kept: tooLong is true, and
// line empty.
func readLine(br *bufio.Reader, buf []byte, max int) (line []byte, tooLong bool, err error) {
	line = buf
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case tooLong:
		case len(line)+len(chunk) > max+len("\r\n"):
			line, tooLong = line[:0], true
		default:
			line = append(line, chunk...)
			if len(bytes.TrimRight(line, "\r\n")) > max {
				line, tooLong = line[:0], true
			}
		}
		if err != bufio.ErrBufferFull {
			return bytes.TrimRight(line, "\r\n"), tooLong, err
		}
	}
}

// badFrame is why a line is not a message, and the id to answer it with
// (nil: null, when the line has no id that can be read).
type badFrame struct {
	id   json.RawMessage
	code int64
	msg  string
}

// decodeFrame decodes a line as one JSON-RPC message.
func decodeFrame(line []byte) (jsonrpc.Message, *badFrame) {
	if !json.Valid(line) {
		var raw json.RawMessage
		err := json.Unmarshal(line, &raw)
		return nil, &badFrame{code: jsonrpc.CodeParseError, msg: fmt.Sprintf("parse error: the line is not JSON: %v", err)}
	}
	switch bytes.TrimSpace(line)[0] {
	case '{':
	case '[':
		return nil, &badFrame{code: jsonrpc.CodeInvalidRequest, msg: "invalid request: batches are not supported: send one message per line"}
	default:
		return nil, &badFrame{code: jsonrpc.CodeInvalidRequest, msg: "invalid request: a message is a JSON object"}
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, &badFrame{id: idOf(line), code: jsonrpc.CodeInvalidRequest, msg: "invalid request: " + err.Error()}
	}
	if id := idOf(line); id != nil && id[0] != '"' && !exactID(string(id)) {
		return nil, &badFrame{id: id, code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf(
			"invalid request: the id %s cannot be given back as sent: use a string or a whole number from %d to %d", id, -maxExactID, maxExactID)}
	}
	return msg, nil
}

// maxExactID is the largest number id answered: the SDK reads a number id
// as a float64 and keeps it as an int64, so 1e308 came back as
// -9223372036854775808, 1.5 as 1 and 2^53+1 as 2^53. A number id that
// would not come back as sent is refused, with the id as sent.
const maxExactID = 1<<53 - 1

// exactID says whether a number id is written as a whole number the SDK
// gives back as it is written.
func exactID(id string) bool {
	n, err := strconv.ParseInt(id, 10, 64)
	return err == nil && n >= -maxExactID && n <= maxExactID && strconv.FormatInt(n, 10) == id
}

// idOf is the id of a message that could not be decoded, if it is a string
// or a number; nil otherwise.
func idOf(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	if c := m.ID[0]; c == '"' || c == '-' || c >= '0' && c <= '9' {
		return m.ID
	}
	return nil
}

// reply writes a JSON-RPC error response. It is written here rather than
// through jsonrpc.EncodeMessage, which leaves out an id it does not know; a
// response must say "id": null then.
func (c *conn) reply(id json.RawMessage, code int64, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		return err
	}
	return c.write(append(b, '\n'))
}

func (c *conn) write(b []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.w.Write(b)
	return err
}

// Read implements sdk.Connection.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write implements sdk.Connection.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	err = c.write(append(b, '\n'))
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.pendingMu.Lock()
		delete(c.pending, r.ID)
		c.pendingMu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

// Close implements sdk.Connection.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = errors.Join(c.r.Close(), c.w.Close())
		close(c.closed)
	})
	return c.closeErr
}

// SessionID implements sdk.Connection: stdio has one session.
func (c *conn) SessionID() string { return "" }
