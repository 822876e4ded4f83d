package extract

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Who wrote a page and when it was published are kept with the item from
// what the page says of itself, its byline and dateline being left out of
// its text as furniture: JSON-LD first (a list of authors, an ISO
// date-time's date), then <meta> tags; a writer's web address is no name.
func TestHTMLAuthorPublished(t *testing.T) {
	for _, c := range []struct {
		name, head      string
		author, publish string
	}{
		{"json-ld", `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},
			{"@type":"NewsArticle","headline":"Tea","datePublished":"2019-11-18T11:08:00-05:00",
			"author":[{"@type":"Person","name":"Matthew Digby"},{"@type":"Person","name":"Minh Do"}]}]}</script>
			<meta name="author" content="Matthew Digby">`, "Matthew Digby, Minh Do", "2019-11-18"},
		{"meta", `<meta property="article:author" content="https://example.org/people/jeff">
			<meta name="byl" content="By Jeff Foust"><meta property="article:published_time" content="2019-11-18">`, "Jeff Foust", "2019-11-18"},
		{"citation", `<meta name="citation_author" content="Knuth, Donald E."><meta name="citation_author" content="Lamport, Leslie">
			<meta name="citation_publication_date" content="1986/01/01">`, "Knuth, Donald E., Lamport, Leslie", "1986/01/01"},
		{"broken json-ld", `<script type="application/ld+json">{"author": </script>`, "", ""},
		{"none", ``, "", ""},
	} {
		page := `<html><head><title>Tea</title>` + c.head + `</head><body><article><h1>Tea</h1>
			<p class="byline">By Someone, on a day</p><p>Green tea is steeped at 70 °C for a minute or two, and never boiled.</p></article></body></html>`
		d := mustExtract(t, []byte(page), "tea.html")
		if diff := cmp.Diff([]string{c.author, c.publish}, []string{d.Author, d.Published}); diff != "" {
			t.Errorf("%s: author, published (-want +got):\n%s", c.name, diff)
		}
	}
}
