package extract

import (
	"errors"
	"html"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/item"
)

// Transcripts (WebVTT and SubRip) are read cue by cue; cues are joined into
// paragraphs a person can read, and a paragraph ends
//   - at a pause of pauseMs or more between two cues,
//   - when the speaker changes (<v Name> in WebVTT, a "NAME:" prefix in
//     either format, or a ">>" turn marker),
//   - after softParaRunes at the end of a sentence, or before it would
//     pass maxParaRunes.
//
// The speaker becomes the paragraph's Heading and its name is removed from
// the text, so a quote reads as it was spoken. Every cue's start time is
// kept with its offset in the paragraph text (Paragraph.Cues).
const (
	pauseMs       = 2000
	softParaRunes = 300
	maxParaRunes  = 600
)

var (
	timingRE      = lazyRE(`^\s*((?:\d+:)?\d{1,2}:\d{1,2}(?:[.,]\d{1,3})?)\s*-->\s*((?:\d+:)?\d{1,2}:\d{1,2}(?:[.,]\d{1,3})?)`)
	voiceRE       = lazyRE(`<v(?:\.[^\s>]*)?\s+([^>]*)>`)
	cueTagRE      = lazyRE(`<[^>]*>`)
	assTagRE      = lazyRE(`\{\\[^}]*\}`)
	speakerRE     = lazyRE(`^([\p{Lu}][\p{L}.'’\-]*(?: [\p{L}.'’\-]+){0,3}):\s+`)
	headerTitleRE = lazyRE(`(?i)^\s*title\s*:\s*(.+)$`)
)

// rawCue is a cue as read from the file.
type rawCue struct {
	start, end int64
	lines      []string // payload lines, tags still in
}

// parseTime reads 01:02:03.456, 02:03.456 or 01:02:03,456 as milliseconds.
func parseTime(s string) (int64, bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", ".")
	frac := int64(0)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		f := s[i+1:]
		for len(f) < 3 {
			f += "0"
		}
		v, err := strconv.ParseInt(f[:3], 10, 64)
		if err != nil {
			return 0, false
		}
		frac, s = v, s[:i]
	}
	var ms int64
	for _, part := range strings.Split(s, ":") {
		v, err := strconv.ParseInt(part, 10, 64)
		if err != nil || v < 0 || v > 1<<40 {
			return 0, false
		}
		ms = ms*60 + v
	}
	return ms*1000 + frac, true
}

// parseCues reads the cues of a WebVTT or SubRip file, and the title a
// WebVTT header or NOTE gives.
func parseCues(text string, vtt bool) (cues []rawCue, title string, other int) {
	lines := splitLines(strings.TrimPrefix(text, "\ufeff"))
	i := 0
	if vtt && len(lines) > 0 && strings.HasPrefix(strings.TrimSpace(lines[0]), "WEBVTT") {
		// The header runs to the first blank line.
		for i = 1; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
			if m := headerTitleRE.FindStringSubmatch(lines[i]); m != nil && title == "" {
				title = cleanText(m[1])
			}
			if timingRE.MatchString(lines[i]) { // no blank line after the header
				break
			}
		}
	}
	var block []string
	endBlock := func() {
		defer func() { block = block[:0] }()
		if len(block) == 0 {
			return
		}
		first := strings.TrimSpace(block[0])
		if vtt && (first == "NOTE" || strings.HasPrefix(first, "NOTE ") || strings.HasPrefix(first, "NOTE\t")) {
			for _, l := range append([]string{strings.TrimPrefix(first, "NOTE")}, block[1:]...) {
				if m := headerTitleRE.FindStringSubmatch(l); m != nil && title == "" {
					title = cleanText(m[1])
				}
			}
			return
		}
		if vtt && (first == "STYLE" || first == "REGION") {
			return
		}
		// Usually one cue per block; a file without blank lines between
		// cues has several timing lines in one block.
		var at []int
		for k, l := range block {
			if timingRE.MatchString(l) {
				at = append(at, k)
			}
		}
		if len(at) == 0 {
			// A block without a timing line: text of the cue before that a
			// blank line cut off (SubRip files in the wild do this).
			other++
			if len(cues) > 0 && !(len(block) == 1 && isDigits(first)) {
				c := &cues[len(cues)-1]
				c.lines = append(c.lines, block...)
			}
			return
		}
		for j, k := range at {
			end := len(block)
			if j+1 < len(at) {
				end = at[j+1]
				if end-1 > k && isDigits(strings.TrimSpace(block[end-1])) {
					end-- // the next cue's SubRip index
				}
			}
			m := timingRE.FindStringSubmatch(block[k])
			start, ok1 := parseTime(m[1])
			stop, ok2 := parseTime(m[2])
			if !ok1 || !ok2 {
				continue
			}
			cues = append(cues, rawCue{start: start, end: stop, lines: append([]string(nil), block[k+1:end]...)})
		}
	}
	for ; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "" {
			endBlock()
			continue
		}
		block = append(block, lines[i])
	}
	endBlock()
	return cues, title, other
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// cue is a cleaned cue.
type cue struct {
	start, end int64
	text       string
	speaker    string // "" when the cue does not name one
	turn       bool   // a ">>" or "- " marks a new speaker without a name
}

// cleanCue strips tags and reads the speaker of a cue.
func cleanCue(c rawCue) cue {
	out := cue{start: c.start, end: c.end}
	var parts []string
	for _, l := range c.lines {
		if m := voiceRE.FindStringSubmatch(l); m != nil && out.speaker == "" {
			out.speaker = cleanText(html.UnescapeString(m[1]))
		}
		l = assTagRE.ReplaceAllString(l, "")
		l = cueTagRE.ReplaceAllString(l, "")
		l = cleanText(html.UnescapeString(l))
		if strings.HasPrefix(l, ">>") {
			out.turn = len(parts) == 0
			l = strings.TrimSpace(strings.TrimLeft(l, ">"))
		}
		if strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "– ") {
			if len(parts) == 0 {
				out.turn = true
			}
			l = strings.TrimSpace(l[strings.IndexByte(l, ' ')+1:])
		}
		if l != "" {
			parts = append(parts, l)
		}
	}
	out.text = strings.Join(parts, " ")
	return out
}

// speakerPrefix splits "ALICE: Hello" into the name and the rest.
func speakerPrefix(text string) (name, rest string, ok bool) {
	m := speakerRE.FindStringSubmatch(text)
	if m == nil {
		return "", text, false
	}
	return m[1], text[len(m[0]):], true
}

func isUpperName(s string) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
			if !unicode.IsUpper(r) {
				return false
			}
		}
	}
	return letters >= 2
}

func extractTranscript(text string, vtt bool) (*Document, error) {
	raw, title, other := parseCues(text, vtt)
	if len(raw) == 0 {
		if other == 0 { // nothing but a header and notes
			return nil, noText("a header and notes, but no cues")
		}
		if vtt {
			return nil, errors.New("no cues found: not a WebVTT transcript")
		}
		return nil, errors.New("no cues found: not a SubRip transcript")
	}
	cues := make([]cue, 0, len(raw))
	for _, r := range raw {
		cues = append(cues, cleanCue(r))
	}
	// "Name:" is a speaker when it is in capitals (ALICE:) or starts cues
	// more than once (Alice: … Alice:); a lone "Note:" is just text.
	prefixes := map[string]int{}
	for _, c := range cues {
		if name, _, ok := speakerPrefix(c.text); ok {
			prefixes[name]++
		}
	}
	for i := range cues {
		if name, rest, ok := speakerPrefix(cues[i].text); ok && (isUpperName(name) || prefixes[name] >= 2) {
			if cues[i].speaker == "" {
				cues[i].speaker = name
			}
			cues[i].text = rest
		}
	}
	cues = dropRepeats(cues)

	var b builder
	var para strings.Builder
	var pcues []item.Cue
	runes := 0
	speaker := ""
	var lastEnd int64
	flush := func() {
		if runes > 0 {
			start := pcues[0].StartMs
			b.add(item.Paragraph{Text: para.String(), Heading: speaker, StartMs: &start, Cues: pcues})
		}
		para.Reset()
		pcues, runes = nil, 0
	}
	for _, c := range cues {
		if c.text == "" {
			if c.speaker != "" && c.speaker != speaker {
				flush()
				speaker = c.speaker
			}
			continue
		}
		n := utf8.RuneCountInString(c.text)
		newSpeaker := c.speaker != "" && c.speaker != speaker
		if runes > 0 && (newSpeaker || c.turn || c.start-lastEnd >= pauseMs ||
			runes+1+n > maxParaRunes || runes >= softParaRunes && endsSentence(para.String())) {
			flush()
		}
		if c.speaker != "" {
			speaker = c.speaker
		} else if c.turn {
			speaker = ""
		}
		if runes > 0 {
			para.WriteByte(' ')
			runes++
		}
		pcues = append(pcues, item.Cue{Offset: runes, StartMs: c.start})
		para.WriteString(c.text)
		runes += n
		lastEnd = c.end
	}
	flush()
	return &Document{Title: title, Paragraphs: b.paras}, nil
}

// dropRepeats removes the text that rolling captions repeat: a cue that
// starts with the end of the cue before keeps only what is new.
func dropRepeats(cues []cue) []cue {
	out := cues[:0]
	prev := ""
	for _, c := range cues {
		t := c.text
		if prev != "" && t != "" {
			if t == prev {
				if len(out) > 0 {
					out[len(out)-1].end = max(out[len(out)-1].end, c.end)
				}
				continue
			}
			// The longest suffix of prev that prefixes t, at word boundaries.
			for k := 0; k < len(prev); k++ {
				if k > 0 && prev[k-1] != ' ' {
					continue
				}
				suf := prev[k:]
				if len(suf) >= 8 && strings.HasPrefix(t, suf) && (len(t) == len(suf) || t[len(suf)] == ' ') {
					t = strings.TrimSpace(t[len(suf):])
					break
				}
			}
			if t == "" {
				if len(out) > 0 {
					out[len(out)-1].end = max(out[len(out)-1].end, c.end)
				}
				continue
			}
		}
		prev = c.text
		c.text = t
		out = append(out, c)
	}
	return out
}
