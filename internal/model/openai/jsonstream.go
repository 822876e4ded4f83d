package openai

// ArrayScanner finds, in JSON text that arrives in pieces, each element of
// the first array as soon as the element is complete, so a reply such as
// {"statements":[{…},{…}]} can be acted on one object at a time while the
// model is still writing. Text before the first '{' or '[' (a code fence, a
// sentence) is skipped; the caller checks the whole value at the end with
// Value and encoding/json.
type ArrayScanner struct {
	buf       []byte
	pos       int
	started   bool
	ended     bool
	start     int
	end       int
	stack     []byte
	inString  bool
	escaped   bool
	arrDepth  int // stack depth inside the first array; 0 before it, -1 after it
	elemStart int // where the element being read starts, or -1
}

// NewArrayScanner returns an empty scanner.
func NewArrayScanner() *ArrayScanner { return &ArrayScanner{elemStart: -1} }

// Write adds text and returns the array elements it completed, as raw JSON.
func (s *ArrayScanner) Write(text string) [][]byte {
	s.buf = append(s.buf, text...)
	var out [][]byte
	emit := func(from, to int) {
		e := trimSpace(s.buf[from:to])
		if len(e) > 0 {
			out = append(out, append([]byte(nil), e...))
		}
		s.elemStart = -1
	}
	for ; s.pos < len(s.buf) && !s.ended; s.pos++ {
		i, c := s.pos, s.buf[s.pos]
		if !s.started {
			if c == '{' || c == '[' {
				s.started, s.start = true, i
				s.stack = append(s.stack, c)
				if c == '[' {
					s.arrDepth = 1
				}
			}
			continue
		}
		if s.inString {
			switch {
			case s.escaped:
				s.escaped = false
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inString = false
			}
			continue
		}
		depth := len(s.stack)
		switch c {
		case '"':
			if depth == s.arrDepth && s.elemStart < 0 {
				s.elemStart = i
			}
			s.inString = true
		case '{', '[':
			if depth == s.arrDepth && s.elemStart < 0 {
				s.elemStart = i
			}
			s.stack = append(s.stack, c)
			if c == '[' && s.arrDepth == 0 {
				s.arrDepth = len(s.stack)
			}
		case '}', ']':
			s.stack = s.stack[:depth-1]
			switch {
			case s.arrDepth > 0 && len(s.stack) == s.arrDepth && s.elemStart >= 0:
				emit(s.elemStart, i+1) // an object or array element closed
			case s.arrDepth > 0 && len(s.stack) < s.arrDepth:
				if s.elemStart >= 0 {
					emit(s.elemStart, i) // a last scalar element
				}
				s.arrDepth = -1
			}
			if len(s.stack) == 0 {
				s.ended, s.end = true, i+1
			}
		case ',':
			if depth == s.arrDepth && s.elemStart >= 0 {
				emit(s.elemStart, i) // a scalar element
			}
		case ' ', '\t', '\r', '\n':
		default:
			if depth == s.arrDepth && s.elemStart < 0 {
				s.elemStart = i
			}
		}
	}
	return out
}

// Value returns the whole top-level JSON value once it is complete.
func (s *ArrayScanner) Value() ([]byte, bool) {
	if !s.ended {
		return nil, false
	}
	return s.buf[s.start:s.end], true
}

// Text returns all the text written so far.
func (s *ArrayScanner) Text() string { return string(s.buf) }

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}
