package draft

// Fixed sets the length of benchmark drafts (see Embedded.Fixed), in process
// or through sponge serve. It builds without cgo, since the endpoint client
// names it too.
type Fixed struct {
	Statements, TextTokens, QuoteTokens int
}
