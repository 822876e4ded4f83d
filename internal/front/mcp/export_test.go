package mcp

// Used only by the tests.

// held reports whether an index is kept open, and how many opens there were.
func (h *indexes) held() (bool, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cur != nil, h.opens
}
