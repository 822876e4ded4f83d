package llama

import (
	"slices"
	"strings"
)

// Vocab indexes the text of a model's tokens, for constrained decoding: a
// trie of every token's piece, built once per model, so that the tokens
// allowed next are found by walking the trie along the text they must match
// rather than by testing each of 150,000 tokens at every step.
type Vocab struct {
	pieces []string
	nodes  []trieNode
	edges  []trieEdge
	toks   []int32
}

type trieNode struct {
	edgeLo, edgeHi int32 // edges[edgeLo:edgeHi], sorted by byte
	tokLo, tokHi   int32 // toks[tokLo:tokHi]: tokens whose piece ends here
}

type trieEdge struct {
	b     byte
	child int32
}

// NewVocab indexes pieces: the text of each token, by token, with "" for
// tokens never allowed in text (control tokens).
func NewVocab(pieces []string) *Vocab {
	v := &Vocab{pieces: pieces}
	order := make([]int32, 0, len(pieces))
	for t, p := range pieces {
		if p != "" {
			order = append(order, int32(t))
		}
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(pieces[a], pieces[b]) })
	v.build(order, 0)
	return v
}

// build adds the node for order (sorted tokens whose pieces share their
// first depth bytes) and its subtree, and returns the node's index.
func (v *Vocab) build(order []int32, depth int) int32 {
	id := int32(len(v.nodes))
	v.nodes = append(v.nodes, trieNode{})
	n := trieNode{tokLo: int32(len(v.toks))}
	i := 0
	for i < len(order) && len(v.pieces[order[i]]) == depth {
		v.toks = append(v.toks, order[i])
		i++
	}
	n.tokHi = int32(len(v.toks))
	// The rest, grouped by their next byte: one child each. The node's edges
	// are reserved together before the children add theirs.
	type group struct {
		b      byte
		lo, hi int
	}
	var groups []group
	for i < len(order) {
		b := v.pieces[order[i]][depth]
		j := i
		for j < len(order) && v.pieces[order[j]][depth] == b {
			j++
		}
		groups = append(groups, group{b, i, j})
		i = j
	}
	n.edgeLo = int32(len(v.edges))
	for _, g := range groups {
		v.edges = append(v.edges, trieEdge{b: g.b})
	}
	n.edgeHi = int32(len(v.edges))
	v.nodes[id] = n
	for k, g := range groups {
		child := v.build(order[g.lo:g.hi], depth+1)
		v.edges[int(n.edgeLo)+k].child = child
	}
	return id
}

// child follows the edge for byte b from node, or returns -1.
func (v *Vocab) child(node int32, b byte) int32 {
	n := v.nodes[node]
	es := v.edges[n.edgeLo:n.edgeHi]
	lo, hi := 0, len(es)
	for lo < hi {
		m := (lo + hi) / 2
		if es[m].b < b {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(es) && es[lo].b == b {
		return es[lo].child
	}
	return -1
}

// Piece is the text of tok ("" for a token never allowed).
func (v *Vocab) Piece(tok int) string {
	if tok < 0 || tok >= len(v.pieces) {
		return ""
	}
	return v.pieces[tok]
}

// Prefixes appends to dst every token whose piece is a prefix of text (and
// not empty), and returns it.
func (v *Vocab) Prefixes(dst []int, text string) []int {
	node := int32(0)
	for i := 0; i < len(text); i++ {
		node = v.child(node, text[i])
		if node < 0 {
			break
		}
		n := v.nodes[node]
		for _, t := range v.toks[n.tokLo:n.tokHi] {
			dst = append(dst, int(t))
		}
	}
	return dst
}

// Span constrains written text to be a span (a run of consecutive bytes) of
// a source text: at each step Allowed gives the tokens whose piece continues
// the span at one of the places it occurs, and Advance follows the chosen
// token. The index is the set of those places, narrowed with each token.
// The source may be given in parts (NewSpanIn): a span then never runs from
// one part into the next, as when the text between them was cut.
type Span struct {
	v    *Vocab
	text string
	// at are the offsets in text where the span written so far ends, one for
	// each place it occurs; starts are where those places begin, and ends
	// where their parts end: a place grows no further.
	at, starts, ends []int32
	n                int // bytes written
	scratch          []place
}

// place is where a span ends in the text, and where its part ends.
type place struct{ at, end int32 }

// NewSpan starts a span of text that may begin at any of starts (byte
// offsets, e.g. where words begin).
func (v *Vocab) NewSpan(text string, starts []int) *Span {
	return v.NewSpanIn(text, [][2]int{{0, len(text)}}, starts)
}

// NewSpanIn starts a span of text that stays inside one of parts ([start,
// end) byte offsets, in order, not overlapping) and may begin at any of
// starts; a start outside every part is dropped.
func (v *Vocab) NewSpanIn(text string, parts [][2]int, starts []int) *Span {
	s := &Span{v: v, text: text}
	k := 0
	for _, p := range starts {
		for k < len(parts) && parts[k][1] <= p {
			k++
		}
		if k < len(parts) && p >= parts[k][0] && p < parts[k][1] && parts[k][1] <= len(text) {
			s.at = append(s.at, int32(p))
			s.starts = append(s.starts, int32(p))
			s.ends = append(s.ends, int32(parts[k][1]))
		}
	}
	return s
}

// Written is the span so far.
func (s *Span) Written() string {
	if len(s.at) == 0 {
		return ""
	}
	return s.text[s.starts[0]:s.at[0]]
}

// Places returns the [start, end) byte offsets in the source text of every
// place the span so far occurs.
func (s *Span) Places() [][2]int {
	out := make([][2]int, len(s.at))
	for i := range s.at {
		out[i] = [2]int{int(s.starts[i]), int(s.at[i])}
	}
	return out
}

// Allowed appends to dst the tokens that keep the span a span of the text,
// and returns it.
func (s *Span) Allowed(dst []int) []int {
	if len(s.at) == 0 {
		return dst
	}
	pos := s.scratch[:0]
	for i, at := range s.at {
		pos = append(pos, place{at, s.ends[i]})
	}
	dst = s.walk(dst, 0, 0, pos)
	s.scratch = pos[:0]
	return dst
}

// walk visits the trie below node, at depth bytes past the span's ends pos,
// along the bytes that follow them in their parts of the text.
func (s *Span) walk(dst []int, node int32, depth int, pos []place) []int {
	// Sort the places by their next byte, so each byte's places are a run.
	text := s.text
	k := 0
	for _, p := range pos {
		if int(p.at)+depth < int(p.end) {
			pos[k] = p
			k++
		}
	}
	pos = pos[:k]
	next := func(p place) byte { return text[int(p.at)+depth] }
	slices.SortFunc(pos, func(a, b place) int { return int(next(a)) - int(next(b)) })
	for i := 0; i < len(pos); {
		b := next(pos[i])
		j := i + 1
		for j < len(pos) && next(pos[j]) == b {
			j++
		}
		if c := s.v.child(node, b); c >= 0 {
			n := s.v.nodes[c]
			for _, t := range s.v.toks[n.tokLo:n.tokHi] {
				dst = append(dst, int(t))
			}
			if n.edgeHi > n.edgeLo {
				dst = s.walk(dst, c, depth+1, pos[i:j])
			}
		}
		i = j
	}
	return dst
}

// Advance follows tok: it reports whether tok's piece continues the span at
// one of its places, keeping only those places.
func (s *Span) Advance(tok int) bool {
	p := s.v.Piece(tok)
	if p == "" {
		return false
	}
	k := 0
	for i, at := range s.at {
		if strings.HasPrefix(s.text[at:s.ends[i]], p) {
			s.at[k] = at + int32(len(p))
			s.starts[k] = s.starts[i]
			s.ends[k] = s.ends[i]
			k++
		}
	}
	if k == 0 {
		return false
	}
	s.at, s.starts, s.ends = s.at[:k], s.starts[:k], s.ends[:k]
	s.n += len(p)
	return true
}
