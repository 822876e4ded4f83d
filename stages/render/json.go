package render

import "io"

// AnswerJSON is the --json document of an answer. The first seven keys are
// the promised interface; the keys after them are extra detail.
type AnswerJSON struct {
	Question string        `json:"question"`
	Answered bool          `json:"answered"`
	Claims   []ClaimJSON   `json:"claims"`
	Passages []PassageJSON `json:"passages"`
	Dropped  int           `json:"dropped"`
	Warnings []WarningJSON `json:"warnings"`
	// Model is what wrote the statements ("extractive" for sentences
	// quoted as they are); null when the stream does not say.
	Model *string `json:"model"`

	// Complete is false when the answer was cut off.
	Complete bool `json:"complete"`
	// Sources are the items quoted, numbered in order of first use, as the
	// text view numbers them.
	Sources []SourceJSON `json:"sources"`
	// LeftOut are the statements not shown, with the reasons.
	LeftOut []LeftOutJSON `json:"leftOut"`
	// Closest are the items search found nearest, when nothing answers.
	Closest []ClosestJSON `json:"closest"`
}

// ClaimJSON is a verified statement.
type ClaimJSON struct {
	Text string `json:"text"`
	// Quote is the saved words the statement rests on, as they stand in the item.
	Quote   string `json:"quote"`
	ItemID  string `json:"itemId"`
	Passage int    `json:"passage"`
	Page    int    `json:"page,omitempty"`
	StartMs *int64 `json:"startMs,omitempty"`

	// SourceNumber is the number of the quoted item in Sources, the [n] of
	// the text view ("source" is, in every document, a file or URL).
	SourceNumber int    `json:"sourceNumber"`
	Title        string `json:"title"`
	// Paragraph, Start and End locate the quote: the paragraph index in
	// the item and character offsets in its text, End exclusive.
	Paragraph int `json:"paragraph"`
	Start     int `json:"start"`
	End       int `json:"end"`
	// Extractive is true when the statement only restates its quote.
	Extractive bool `json:"extractive"`
}

// PassageJSON is a numbered paragraph the model read.
type PassageJSON struct {
	Number    int     `json:"number"`
	ItemID    string  `json:"itemId"`
	Title     string  `json:"title"`
	Heading   string  `json:"heading,omitempty"`
	Page      int     `json:"page,omitempty"`
	StartMs   *int64  `json:"startMs,omitempty"`
	Paragraph int     `json:"paragraph"`
	Text      string  `json:"text"`
	Score     float64 `json:"score"`
}

// WarningJSON is a warning: a code, a message and perhaps a hint.
type WarningJSON struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	Setup   bool   `json:"setup,omitempty"` // as in the stream (jsonl.Warning)
}

// SourceJSON is a quoted item; Claims are indexes into the claims.
type SourceJSON struct {
	Number int    `json:"number"`
	ItemID string `json:"itemId"`
	Title  string `json:"title"`
	Claims []int  `json:"claims"`
}

// LeftOutJSON is a statement not shown, and why.
type LeftOutJSON struct {
	Text    string `json:"text"`
	Passage int    `json:"passage"`
	Quote   string `json:"quote"`
	Reason  string `json:"reason"`
}

// ClosestJSON is an item near the question.
type ClosestJSON struct {
	ItemID string `json:"itemId"`
	Title  string `json:"title"`
}

// PassagesJSON is the --json document of the passages view.
type PassagesJSON struct {
	Question string        `json:"question"`
	Passages []PassageJSON `json:"passages"`
	Warnings []WarningJSON `json:"warnings"`
}

// WriteJSON writes the stream as one JSON document: an answer, or the passages.
func WriteJSON(w io.Writer, s *Stream) error {
	if s.IsAnswer() {
		return writeJSONDoc(w, Answer(s))
	}
	return writeJSONDoc(w, PassagesJSON{Question: question(s), Passages: passages(s), Warnings: warnings(s)})
}

// Answer makes the --json document of an answer.
func Answer(s *Stream) AnswerJSON {
	a := AnswerJSON{
		Question: question(s),
		Answered: len(s.Verified) > 0,
		Claims:   []ClaimJSON{},
		Passages: passages(s),
		Dropped:  s.Dropped(),
		Warnings: warnings(s),
		Complete: s.Complete(),
		Sources:  []SourceJSON{},
		LeftOut:  []LeftOutJSON{},
		Closest:  []ClosestJSON{},
	}
	if s.Model != nil {
		a.Model = &s.Model.Name
	}
	sources, numbers := s.Sources()
	for i, v := range s.Verified {
		a.Claims = append(a.Claims, ClaimJSON{
			Text: v.Text, Quote: v.Saved, ItemID: v.ItemID, Passage: v.Passage, Page: v.Page, StartMs: v.StartMs,
			SourceNumber: numbers[i], Title: v.Title, Paragraph: v.Paragraph, Start: v.Start, End: v.End,
			Extractive: Extractive(v),
		})
	}
	for _, src := range sources {
		a.Sources = append(a.Sources, SourceJSON{Number: src.Number, ItemID: src.ItemID, Title: src.Title, Claims: src.Claims})
	}
	for _, l := range s.LeftOut {
		a.LeftOut = append(a.LeftOut, LeftOutJSON{Text: l.Text, Passage: l.Passage, Quote: l.Quote, Reason: l.Reason})
	}
	// A statement that never went through sponge-verify is dropped too.
	for _, st := range s.Statements {
		a.LeftOut = append(a.LeftOut, LeftOutJSON{Text: st.Text, Passage: st.Passage, Quote: st.Quote, Reason: WarnUnchecked})
	}
	if !a.Answered {
		for _, h := range Closest(s.Hits) {
			a.Closest = append(a.Closest, ClosestJSON{ItemID: h.ItemID, Title: h.Title})
		}
	}
	return a
}

func question(s *Stream) string {
	if s.Question == nil {
		return ""
	}
	return s.Question.Text
}

func passages(s *Stream) []PassageJSON {
	out := []PassageJSON{}
	for _, p := range s.Passages {
		out = append(out, PassageJSON{Number: p.Number, ItemID: p.ItemID, Title: p.Title, Heading: p.Heading,
			Page: p.Page, StartMs: p.StartMs, Paragraph: p.Paragraph, Text: p.Text, Score: p.Score})
	}
	return out
}

func warnings(s *Stream) []WarningJSON {
	out := []WarningJSON{}
	for _, w := range s.AllWarnings() {
		out = append(out, WarningJSON{Code: w.Code, Message: w.Message, Hint: w.Hint, Setup: w.Setup})
	}
	return out
}
