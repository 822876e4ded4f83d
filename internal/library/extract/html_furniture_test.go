package extract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTMLFurniture reads small article pages of testdata/html, each made
// to hold one kind of site furniture beside its text (issue 39): the
// text is kept whole and the furniture left out.
func TestHTMLFurniture(t *testing.T) {
	cases := []struct {
		file       string
		keep, drop []string
		once       []string // kept, but only once
		twice      []string // kept twice
	}{
		// The page's one paragraph and 84 archive links share a <div>
		// that is mostly links: the page was saved as nothing.
		{"links-around-text.html",
			[]string{"From next month the town library opens on Sundays", "not in the box outside."},
			[]string{"March 2016"}, nil, nil},
		// Furniture named by a class among others ("post-pagination",
		// "dpsp-share-text": a word of content in the same name), in
		// camel case ("relatedContent"), or by a name that was not
		// known: a byline, a timestamp, a photo's credit, an ad, a
		// header shown only on paper, boxes of recommended, trending
		// and similar stories, text for screen readers only, a paywall's
		// sign-in, a call to action, a disclosure of affiliate links, a
		// post's info line and foot; an article's "meta" line (who
		// wrote it, when: "article__meta", "content__meta", a content
		// word and "meta" in one name) and its "authors"; a photo's
		// copyright and source; a chat prompt ("messenger"); Jetpack's
		// likes, shares and related posts ("sharedaddy", "jp-post-flair",
		// "jp-relatedposts", each a word written as one); a byline beside a
		// class for how its text looks ("text-muted": "text" names no
		// content there). A post quoted in the text ("social-media-embed",
		// a tweet) stays.
		{"named-furniture.html",
			[]string{"A rain garden is a shallow bed", "Rushes and sedges grow", "Dig it at least", "irises, asters and switchgrass",
				"took the whole storm", "Pat Neighbour"},
			[]string{"Sharing is good", "previous post", "Compost bins", "Green roofs", "reach from a ladder",
				"Ann Example", "Nov. 19, 2019", "Jane Roe", "Advertisement",
				"green-streets.example.org", "Ten trees", "chlorine", "Image caption", "planting list", "swale",
				"full story", "join the Green Streets club", "commission", "Filed under", "Topics",
				"Sam Writer", "Kit Author", "Lee Penman", "Picture Agency", "Dee Lens", "Chat with us", "Like this", "Loading",
				"Moss lawns", "Tweet this", "Rob Quill"}, nil, nil},
		// A name with a word of each kind on the block that holds the
		// page's text: "ad_body" (a body with ads in it).
		{"ad-body-wrapper.html",
			[]string{"the morning ferry leaves the harbour", "Season tickets"}, nil, nil, nil},
		// When it was posted and updated, and who wrote it: a short
		// block around a <time>, and schema.org's author; a <time> in a
		// sentence or in a table's cell stays.
		{"dateline.html",
			[]string{"The sleeper to the mountains runs again", "since 2003, when the line", "go on sale on Monday at", "22:04 | 07:51"},
			[]string{"Posted", "Updated", "11/20/19", "covered railways"}, nil, nil},
		// Datelines without a <time>, named by a class: "post-date
		// published", "posted-on" and "entry-date" on <span>s,
		// "storyDate". A longer paragraph named so stays.
		{"named-dates.html",
			[]string{"The club signed a goalkeeper", "Updated on Thursday with the length"},
			[]string{"August 8, 2018", "6:21 AM", "8:22AM"}, nil, nil},
		// Paragraphs that are a link to another page and little else
		// (after a label: "SEE MORE:"), tags, and the links to the
		// previous and next posts (rel); a link among words, a label
		// with a short link ("Source code: count/tally.py"), a list's
		// item and a link to a file beside the page by a relative path
		// stay. A sentence with a person's card of links in it (shown on
		// hover: The Hill's "rollover-block") is judged without the card:
		// the card goes, the sentence stays.
		{"link-paragraphs.html",
			[]string{"The first swifts of the year", "leave the gaps under their roof tiles", "the club's list of sites names",
				"A field guide to swifts", "How to tell a swift from a swallow", "Source code: count/tally.py",
				"The club's warden, Jo Bird, counted them from the tower."},
			[]string{"House martins", "Kestrels", "BARN OWL", "Tagged", "migration", "heron", "cuckoo", "Nest boxes", "Owls return"}, nil, nil},
		// A book's front page (DocBook): its title page, with the legal
		// notice, beside its table of contents, which holds more text.
		{"book-front-page.html",
			[]string{"This book is free documentation", "Copyright © 2020, 2021 Ada Example", "1. Getting started", "12.2. Troubleshooting, step by step"},
			nil, nil, nil},
		// DocBook's <a id="…"/> in a heading is left open by HTML
		// parsing over the section under it: its id ("_sharing_files",
		// "_the_print_queue") names a place, not furniture.
		{"docbook-anchors.html",
			[]string{"keeping files safe", "format it with a filesystem", "lpq lists them"}, nil, nil, nil},
		// Teasers of other pages as <article>s beside the page's own,
		// each a tenth of its text or less.
		{"teaser-articles.html",
			[]string{"After three years of work", "may ride across at other hours"},
			[]string{"ferry", "Kim Lee", "joiner"}, nil, nil},
		// A side column of teasers (each an <article> a tenth of the
		// page's longest or less) with headings and other lines of its
		// own: it wraps no article of the page, and is judged by its
		// name ("rail-promo").
		{"teaser-rail.html",
			[]string{"The swallows came back", "map the return across the county"},
			[]string{"Most read", "Barn owls", "hours ago", "From the forum", "Nest boxes"}, nil, nil},
		// Paragraphs all in italics at the end of an article: a note on
		// its writer, a call to sign up. A paragraph in italics among
		// the others stays.
		{"italic-notes.html",
			[]string{"The night market leaves", "Lanterns, not floodlights", "until the market closes in September"},
			[]string{"Ann Example", "newsletters"}, nil, nil},
		// A box about the writer, named "post-author" and
		// "author-content". (A name that is "author" alone, DocBook's
		// on a book's title page, names its text: the docs sites.)
		{"author-box.html",
			[]string{"We set out for the lake", "ours walked to the first bend"},
			[]string{"Regan", "two cats"}, nil, nil},
		// A credit named "attribution": a photo's, in its caption (after
		// the caption, which stays) or in the text ("image-attribution").
		// A quotation's source, named so inside a <blockquote> (docutils)
		// or beside one (a pull quote), stays.
		{"credits.html",
			[]string{"A scion of the oldest pear tree", "Volunteers at the community orchard", "Some of these pears",
				"Orchard keeper Rowan Ash", "planted out along the lane in March.", "an old saying of the valley"},
			[]string{"Ivy Shutter", "Valley Gazette", "Valley Archive"}, nil, nil},
		// A card between the paragraphs that leads to another story: its
		// picture and its headline, each a link to that story. A picture
		// that links to its own file at full size, with its caption,
		// stays.
		{"picture-cards.html",
			[]string{"A return ticket across the estuary", "Season tickets rise by less", "The morning ferry leaves the south slipway",
				"a meeting for passengers"},
			[]string{"Repairs close the north pier"}, nil, nil},
		// A photo's credit at the end of its caption, or a caption that
		// is one ("Photo: Kim Shutter"), in a <figcaption>, in a block
		// named a caption ("wp-caption-text", a <span class="caption">
		// in a <div>); the captions stay. A paragraph of the text that
		// ends in words like a credit is no caption, and stays whole.
		{"caption-credits.html",
			[]string{"Painted boats line the quay before the parade on Saturday.", "The brass band plays from the barge",
				"Lanterns float past the mill at midnight", "Crowds on the bridge at noon.", "The river festival came back",
				"Photo: all by the council"},
			[]string{"Jo Lens", "Sam Flash", "GETTY", "Kim Shutter"}, nil, nil},
		// A gallery writes each caption twice, whole and cut short.
		{"gallery-captions.html",
			[]string{"Twelve boats raced", "cooked by the volunteers"}, nil,
			[]string{"The rowing club's crew passes under the footbridge a length ahead.", "Children watch the race"}, nil},
		// Another writes each caption whole ("… less") and cut short
		// ("… more"), and both again in its full-screen view: the
		// caption is kept once; a paragraph that repeats one further up,
		// with no copy cut short, stays (a plan's breakfast each day).
		{"gallery-copies.html",
			[]string{"Forty former keepers", "A walk to the north light", "The boat back"}, []string{"... more"},
			[]string{"Keepers from six lighthouses climb the stairs of the old tower on Saturday, the first"},
			[]string{"Breakfast in the keepers' cottage at eight."}},
		// A caption that a gallery writes again whole, under its slide
		// and in the caption bar of its full-screen view (Hearst's news
		// sites), is kept once; a paragraph of the text that repeats
		// another further up stays (a road closed on each day).
		{"gallery-repeats.html",
			[]string{"Forty centimetres of snow", "Lorries wait at the foot of the pass.", "The bus runs"}, nil,
			[]string{"A plough clears the road below the pass on Tuesday morning."},
			[]string{"The road is closed above the village."}},
		// Blocks hidden by a CSS framework's class ("dn", "d-none",
		// "hide"): a sign-up form's messages, shown when a script says
		// so, a map's "Loading". A block shown on wider screens
		// ("d-none d-md-block", "dn db-l") and one hidden on phones only
		// ("hide-for-small") stay.
		{"hidden-classes.html",
			[]string{"the morning ferry leaves", "The evening ferry keeps its hours", "Fares are paid on board",
				"Bicycles travel free", "Dogs on a lead"},
			[]string{"successfully subscribed", "problem subscribing", "Loading the map", "tide table"}, nil, nil},
		// Notes in italics that end an article, with their links in
		// roman ("<i>Follow the Gazette on </i><a>Instagram</a>"), and a
		// stop after the last link; a paragraph with words in italics and
		// a link among plain words stays.
		{"italic-note-links.html",
			[]string{"The town choir gives", "Silent Night closes the evening", "The hall's doors open at seven"},
			[]string{"Follow the Gazette", "Instagram", "podcast"}, nil, nil},
		// A control that closes a box, named "close" in a class: a
		// gallery's "Close" (Hearst), a video box's (Fox, "btn-close").
		// An id with the word stays (Python's docs name a function so:
		// "difflib.get_close_matches"), and so does a class of other
		// words ("closing-times").
		{"close-controls.html",
			[]string{"The new gates swing shut", "The canal's top lock opened", "tea until four", "Moorings close to the lock",
				"Six moorings below"},
			[]string{"Close\n", "Shut window"}, nil, nil},
		// A block named furniture ("d-print-none": not printed with the
		// story) beside a BEM element of a block named content
		// ("article-main__explore": the "explore" part of the article),
		// which does not name it content; a BEM element that is the
		// content ("story__content", beside "has-share") stays.
		{"bem-elements.html",
			[]string{"Five kinds of bat", "four hundred bats", "The tunnel stays closed"},
			[]string{"Explore further", "Owls nest"}, nil, nil},
		// A button that shows the rest of a story ("read-more-link":
		// CNN's "Read More"; "readmore"), and a block its site marks as
		// no content for search engines ("robots-nocontent": Jetpack's
		// "This slideshow requires JavaScript."). The story's text in
		// "entry-content entry-content-read-more" stays.
		{"read-more.html",
			[]string{"Shares in Asia drifted", "Oil rose by half a percent", "Analysts expect little"},
			[]string{"Read More", "Keep reading", "slideshow"}, nil, nil},
		// Old markup's paragraphs, made with <br><br>: one that is a
		// link to another page (a call to subscribe, Moneycontrol's) is
		// left out; one with a link among its words, one that links to
		// a file beside the page and one of links to two pages stay.
		{"break-links.html",
			[]string{"The night train to the north runs again", "Tickets are sold at the station", "Timetable of the night train",
				"Oslo Trondheim", "late less often"},
			[]string{"a pound a week"}, nil, nil},
		// How long the story takes to read, named so
		// ("estimated-read-time", "rt-reading-time"), in any language.
		{"reading-time.html",
			[]string{"Nunca ouviu as brincadeiras", "O grupo toca no parque"},
			[]string{"Tempo de leitura", "1 minuto", "Min Read"}, nil, nil},
		// Share buttons by where they link (a messenger's scheme,
		// "whatsapp://send", or a network's share address), whatever
		// their bar is named. A link to an account among words stays, and
		// so does a quotation set to be tweeted whole.
		{"share-buttons.html",
			[]string{"Nesta página você terá sempre", "lidera por doze pontos", "Quem lidera em novembro"},
			[]string{"WhatsApp", "Tweetar", "Compartilhar"}, nil, nil},
		// A gallery's counter of its pictures ("1 of 6" in a
		// "td-gallery-slide-count", "6" in an "article__gallery-count"),
		// named so; the caption stays, and so does a "count" in the text.
		{"gallery-counts.html",
			[]string{"Officers outside a house", "Police arrested six people", "the count of charges"},
			[]string{"1 of 6", "\n6\n"}, nil, nil},
		// An ad's label left beside its slot once the slot's script is
		// gone, whatever its box is named: "Iklan" three <div>s above the
		// script, "Advert" beside it in a <center>, "Sponsored links" in a
		// <p> beside the one that held it. A paragraph that held a
		// script beside its words, a caption beside a player's script and
		// a <div> with words of its own and a script stay.
		{"ad-labels.html",
			[]string{"The night ferry to the islands", "It leaves at eleven", "Now on sale", "The ferry at dawn",
				"Ten crossings a week.", "Tickets cost the same"},
			[]string{"Iklan", "Advert", "Sponsored links"}, nil, nil},
		// A newsletter's sign-up box, known by its form's email input
		// whatever it is named: its heading and blurb go with the form;
		// a box with a paragraph of prose above such a form stays.
		{"signup-box.html",
			[]string{"The new tram line reached the hospital", "every eight minutes", "Write to the letters page",
				"We read every letter"},
			[]string{"Morning Digest", "to your inbox", "signed up"}, nil, nil},
		// A toggle's control beside its "Close" control: "Caption" on a
		// gallery's slide goes with the box it stood in, when nothing but
		// a few words is left; the slide's text stays, and so does a
		// caption beside a "Close".
		{"close-toggles.html",
			[]string{"Workers lift the last span", "The old bridge over the river", "The new rails", "thirty years"},
			[]string{"Caption", "Close", "Painted blue"}, nil, nil},
		// When the story was posted, in a short block that no name marks
		// and no <time> holds: a time of day with a year, "pm" or "GMT".
		// A verse, a time in a sentence, a log line in code and a date in
		// a table's cell stay.
		{"timestamps.html",
			[]string{"The polls closed at 8:00 pm", "John 3:16", "2010-12-12 11:41:42 box 17 in", "Tue Nov 3 21:30:00 2020",
				"The last box came in"},
			[]string{"12:02 PM", "07:29 GMT", "First Published"}, nil, nil},
		// The label of links to other stories that went: "DON'T MISS"
		// above a paragraph of two headlines, "You may also like..."
		// above paragraphs that are each one. A label above a share bar
		// (its buttons are no headlines) and one above a link to a
		// single product stay, and so does a short block above a box of
		// prose with links (an <aside>, which goes), and a short block above
		// a box of links with a title of its own ("More from the coast"):
		// the box needs no label, so the block is not one. A heading is
		// a label above teasers' headlines ("Read more:" above lists of
		// one each, "Elsewhere on the coast" in a box of its own), not
		// above a share bar ("How it shone" names its section).
		{"link-labels.html",
			[]string{"The old lighthouse on the point", "Jo Keeper", "Tickets cost four pounds", "Bring shoes for the stairs.",
				"Keeper's log, p. 41", "Drink during the climb", "The lantern room is warm", "Photographs by Sam Lens",
				"The keeper's cottage holds", "How it shone", "ships saw it"},
			[]string{"DON'T MISS", "You may also like", "Ferry timetable", "Seal pups", "fishing boats",
				"Read more", "pier reopens", "Elsewhere", "new bell"}, nil, nil},
		// The heading and note above a box of readers' comments that a
		// script fills ("disqus_thread": "Have your say", "Be kind: …").
		// An article's last line before a comment box outside it, and a
		// caption before one, stay.
		{"comment-notes.html",
			[]string{"a well of their own", "did not answer a request for comment", "forty feet deep", "new pump"},
			[]string{"Have your say", "Be kind"}, nil, nil},
		// Teasers of other pages by their headline: a heading (h2–h6)
		// that is all a link to another page, in a list's item or on a
		// card that is a link; a breadcrumb named in camel case
		// ("article-breadCrumb") and the link to the next story
		// ("prevNext"). A heading that links to another page above its
		// own section, and one in a list that links into the page, stay.
		{"teaser-headings.html",
			[]string{"The ferry across the estuary", "The crossing takes twelve minutes", "A season ticket", "forty pounds",
				"Timetable", "The winter timetable"},
			[]string{"old bridge", "harbour wall", "Two days ago", "News", "Local", "Tide tables"}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "html", c.file))
			if err != nil {
				t.Fatal(err)
			}
			d := mustBytes(t, string(data), c.file, "")
			var lines []string // each heading path where it changes, and each paragraph
			heading := ""
			for _, p := range d.Paragraphs {
				if p.Heading != heading {
					lines, heading = append(lines, p.Heading), p.Heading
				}
				lines = append(lines, p.Text)
			}
			all := strings.Join(lines, "\n")
			for _, s := range c.keep {
				if !strings.Contains(all, s) {
					t.Errorf("lost %q; kept:\n%s", s, all)
				}
			}
			for _, s := range c.once {
				if k := strings.Count(all, s); k != 1 {
					t.Errorf("%q kept %d times; kept:\n%s", s, k, all)
				}
			}
			for _, s := range c.twice {
				if k := strings.Count(all, s); k != 2 {
					t.Errorf("%q kept %d times, not twice; kept:\n%s", s, k, all)
				}
			}
			for _, s := range c.drop {
				if strings.Contains(all, s) {
					t.Errorf("kept %q; kept:\n%s", s, all)
				}
			}
		})
	}
}

// TestNameHas: nameKinds finds what wordKinds finds in nameWords' words,
// and nameHas of clutterWords what it should.
func TestNameHas(t *testing.T) {
	names := []string{"", " ", "post-pagination", "entry-content has-sidebar", "GoogleDfpAd-wrapper", "relatedContent",
		"site-header", "site header", "siteHeader", "SITE-HEADER", "sr-only", "srOnly", "content__meta-byline", "ad_body",
		"x\tnav\ny", "navbar", "nav2", "ABCNav", "commentList", "Comments", "çomment nav", "a-" + strings.Repeat("x", 70) + "-nav",
		"visually-hidden", "visuallyHidden", "hidden-visually", "ads", "-ad-", "bad", "Ad"}
	for _, name := range names {
		if got, want := nameKinds(name), wordKinds(nameWords(name)); got != want {
			t.Errorf("nameKinds(%q) = %b, wordKinds(nameWords) = %b", name, got, want)
		}
	}
	for name, want := range map[string]nameKind{
		"post-pagination": clutterWords | contentWords, "entry-content has-sidebar": contentWords | sidebarWords,
		"site header": clutterWords, "relatedContent": clutterWords | contentWords, "bad": 0, "ABCNav": 0,
		"posted-on": dateWords, "gallery-close": closeWords, "post-author": contentWords | authorWords,
	} {
		if got := nameKinds(name); got != want {
			t.Errorf("nameKinds(%q) = %b, want %b", name, got, want)
		}
	}
	if nameKindCount > 16 {
		t.Errorf("%d kinds of name words: nameKind holds 16", nameKindCount)
	}
}
