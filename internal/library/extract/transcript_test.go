package extract

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/charmap"

	"github.com/sponge-library/sponge/internal/base/item"
)

const talkVTT = "\ufeffWEBVTT - tea talk\nTitle: The Chemistry of Tea\n\n" +
	"STYLE\n::cue { color: white }\n\n" +
	"NOTE recorded at the spring meetup\n\n" +
	"intro-1\n00:00:01.000 --> 00:00:04.000 align:start position:10%\n<v Ana Ruiz>Welcome, everyone, to this talk.</v>\n\n" +
	"00:00:04.500 --> 00:00:08.000\n<v Ana Ruiz>Tea leaves hold <b>catechins</b>, which <i>taste</i> bitter</v>\n\n" +
	"00:00:08.000 --> 00:00:11.250\n<v Ana Ruiz>when the water is <c.yellow>too hot</c>.\n<00:00:10.000>So keep it cool.</v>\n\n" +
	// a pause of 5 s: new paragraph, same speaker
	"00:00:16.250 --> 00:00:19.000\n<v Ana Ruiz>After the pause, caffeine.</v>\n\n" +
	// a new speaker: new paragraph
	"00:00:19.500 --> 00:00:22.000\n<v.loud Ben>Does milk change that?</v>\n\n" +
	"01:00:22.000 --> 01:00:25.500\n<v Ana Ruiz>Milk proteins bind the tannins &amp; soften the taste.</v>\n"

func TestVTT(t *testing.T) {
	d := mustBytes(t, talkVTT, "talk.vtt", "")
	if d.Title != "The Chemistry of Tea" || d.Kind != item.KindVTT {
		t.Errorf("title %q kind %q", d.Title, d.Kind)
	}
	ms := func(v int64) *int64 { return &v }
	want := []item.Paragraph{
		{
			Text:    "Welcome, everyone, to this talk. Tea leaves hold catechins, which taste bitter when the water is too hot. So keep it cool.",
			Heading: "Ana Ruiz", StartMs: ms(1000),
			Cues: []item.Cue{{Offset: 0, StartMs: 1000}, {Offset: 33, StartMs: 4500}, {Offset: 79, StartMs: 8000}},
		},
		{Text: "After the pause, caffeine.", Heading: "Ana Ruiz", StartMs: ms(16250), Cues: []item.Cue{{Offset: 0, StartMs: 16250}}},
		{Text: "Does milk change that?", Heading: "Ben", StartMs: ms(19500), Cues: []item.Cue{{Offset: 0, StartMs: 19500}}},
		{Text: "Milk proteins bind the tannins & soften the taste.", Heading: "Ana Ruiz", StartMs: ms(3622000), Cues: []item.Cue{{Offset: 0, StartMs: 3622000}}},
	}
	if diff := cmp.Diff(want, d.Paragraphs); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A quote starting mid-paragraph names the time of its own cue.
	p := d.Paragraphs[0]
	off := utf8.RuneCountInString(p.Text[:strings.Index(p.Text, "when the water")])
	if _, at := p.At(off); at == nil || *at != 8000 {
		t.Errorf("At(%d) = %v, want 8000", off, at)
	}
	if _, at := p.At(off - 2); *at != 4500 {
		t.Errorf("At(%d) = %v, want 4500", off-2, *at)
	}
}

func TestVTTLengthCapAndRollingCaptions(t *testing.T) {
	var b strings.Builder
	b.WriteString("WEBVTT\n\n")
	for i := 0; i < 40; i++ {
		start := int64(i) * 1500
		sentence := "the kettle hums while we wait for the water to cool " + strings.Repeat("a little ", i%3+1) + "more"
		b.WriteString(vttTime(start) + " --> " + vttTime(start+1500) + "\n" + sentence + "\n\n")
	}
	d := mustBytes(t, b.String(), "long.vtt", "")
	if len(d.Paragraphs) < 4 {
		t.Fatalf("%d paragraphs from 40 joined cues", len(d.Paragraphs))
	}
	for _, p := range d.Paragraphs {
		if n := utf8.RuneCountInString(p.Text); n > maxParaRunes {
			t.Errorf("paragraph of %d characters, cap %d", n, maxParaRunes)
		}
	}
	// Rolling captions repeat the line before: keep each line once.
	roll := "WEBVTT\n\n00:00.000 --> 00:02.000\nwe pour the water\n\n" +
		"00:02.000 --> 00:04.000\nwe pour the water\nover the rolled leaves\n\n" +
		"00:04.000 --> 00:04.010\nover the rolled leaves\n\n" +
		"00:04.010 --> 00:06.000\nover the rolled leaves\nand wait\n"
	d = mustBytes(t, roll, "roll.vtt", "")
	if diff := cmp.Diff([]string{"we pour the water over the rolled leaves and wait"}, texts(d)); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]item.Cue{{Offset: 0, StartMs: 0}, {Offset: 18, StartMs: 2000}, {Offset: 41, StartMs: 4010}}, d.Paragraphs[0].Cues); diff != "" {
		t.Error(diff)
	}
}

func vttTime(ms int64) string {
	return strings.Replace(srtTime(ms), ",", ".", 1)
}

func srtTime(ms int64) string {
	h, m, s, f := ms/3600000, ms/60000%60, ms/1000%60, ms%1000
	return twoDigits(h) + ":" + twoDigits(m) + ":" + twoDigits(s) + "," + threeDigits(f)
}

func twoDigits(v int64) string { return string([]byte{byte('0' + v/10%10), byte('0' + v%10)}) }
func threeDigits(v int64) string {
	return string([]byte{byte('0' + v/100), byte('0' + v/10%10), byte('0' + v%10)})
}

func TestSRT(t *testing.T) {
	srt := "1\r\n00:00:00,500 --> 00:00:03,000\r\nHOST: Welcome back to <i>Leaf Talk</i>.\r\n\r\n" +
		"2\r\n00:00:03,000 --> 00:00:06,000\r\n{\\an8}Today we taste a smoky\r\nlapsang souchong.\r\n\r\n" +
		"3\r\n00:00:06,200 --> 00:00:09,000\r\nDR. CHEN: The smoke comes from pine fires.\r\n\r\n" +
		"4\r\n00:00:09,000 --> 00:00:12,000\r\n<font color=\"#ffff00\">Note: pine, not oak.</font>\r\n" +
		// no blank line before the next cue
		"5\r\n00:00:12,100 --> 00:00:14,000\r\n- Really?\r\n- Yes, really.\r\n"
	d := mustBytes(t, srt, "leaf-talk.srt", "")
	if d.Title != "leaf-talk" || d.Kind != item.KindSRT {
		t.Errorf("title %q kind %q", d.Title, d.Kind)
	}
	type para struct {
		Heading, Text string
		Start         int64
	}
	var got []para
	for _, p := range d.Paragraphs {
		got = append(got, para{p.Heading, p.Text, *p.StartMs})
	}
	want := []para{
		{"HOST", "Welcome back to Leaf Talk. Today we taste a smoky lapsang souchong.", 500},
		{"DR. CHEN", "The smoke comes from pine fires. Note: pine, not oak.", 6200},
		{"", "Really? Yes, really.", 12100},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Windows-1252 subtitles are decoded.
	latin, _ := charmap.Windows1252.NewEncoder().String("1\n00:00:01,000 --> 00:00:02,000\nUn th\u00e9 glac\u00e9, s'il vous pla\u00eet.\n")
	d = mustBytes(t, latin, "fr.srt", "")
	if d.Paragraphs[0].Text != "Un thé glacé, s'il vous plaît." {
		t.Errorf("windows-1252: %q", d.Paragraphs[0].Text)
	}
}

func TestParseTime(t *testing.T) {
	for in, want := range map[string]int64{
		"00:00:01.000": 1000, "01:02:03,456": 3723456, "02:03.5": 123500, "1:00:00.000": 3600000, "00:00:00,07": 70,
	} {
		if got, ok := parseTime(in); !ok || got != want {
			t.Errorf("parseTime(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	if _, ok := parseTime("aa:bb"); ok {
		t.Error("parseTime accepted garbage")
	}
}
