package draft

import "fmt"

// Used only by the tests.

// OpenFixedEndpoint opens the drafter of the sponge serve at endpoint for a
// benchmark: every draft it asks for has the length fixed sets (see
// Embedded.Fixed), so that random-weight models can be timed through the
// server. Other servers cannot be asked for that and are refused.
func OpenFixedEndpoint(endpoint string, fixed Fixed) (Drafter, error) {
	d, err := openEndpointDrafter(endpoint, "", ModelOptions{MaxStatements: fixed.Statements})
	if err != nil {
		return nil, err
	}
	ed := d.(*endpointDrafter)
	if !ed.sponge {
		return nil, fmt.Errorf("%s is not sponge serve, so it cannot make drafts of a fixed length", ed.client.Endpoint)
	}
	ed.fixed = &fixedDraft{Statements: fixed.Statements, TextTokens: fixed.TextTokens, QuoteTokens: fixed.QuoteTokens}
	return ed, nil
}
