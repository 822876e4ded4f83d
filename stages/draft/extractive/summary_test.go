package extractive

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sponge-library/sponge/jsonl"
)

func TestSummaryStatement(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"Green tea is steeped at a lower temperature than black tea.", true},
		{"“Quoted speech can open a sentence of a summary too.”", true},
		{"Too short to say much.", false},
		{"and the rest of a sentence cut by a page break goes on here.", false},
		{"Is this a question that a summary should quote as a statement?", false},
		{`Use \usepackage{natbib} in the preamble of the document to load it.`, false},
		{"Set x = compute(a, b) before the loop and return it at the end.", false},
		{"Home | About us | Contact | Blog | Shop for more of our things", false},
		{"Table 3 12.5 13.1 14.2 15.0 16.3 17.7 18.1 19.9 20.4 21.8", false},
		{"Skip to main content of this page and read the rest of it.", false},
		{"2 Support calc in various kernel commands of the format .", false},
		{"3.1 Options of the package that a document may give to it", false},
		{"1980 was the year a landslide removed the north flank of it.", true},
		{"The driver file can be extracted by docstrip with the instruction file:", false},
	} {
		if got := summaryStatement(tt.s); got != tt.want {
			t.Errorf("summaryStatement(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func summaryPassages() []*jsonl.Passage {
	id := strings.Repeat("c", 64)
	return []*jsonl.Passage{
		{Number: 1, ItemID: id, Paragraph: 0, Text: "Magma rises because it is lighter than the rock around it. " +
			"The amount of gas in the magma decides how a volcano erupts. " +
			"The amount of gas in the magma decides how the volcano erupts. " +
			"Is that all there is to it?"},
		{Number: 2, ItemID: id, Paragraph: 5, Text: "Thick magma traps gas until the pressure shatters it into ash, " +
			strings.Repeat("and the ash cloud rises high above the volcano for many kilometres, ", 6) + "and falls far away."},
		{Number: 3, ItemID: id, Paragraph: 9, Text: "Volcanologists forecast eruptions from earthquakes and gas measurements of the magma. " +
			"\\begin{figure} x = 1 \\end{figure} is not prose at all here."},
	}
}

// TestSummarySentences: the summary's sentences are in reading order, each
// a span of its passage of at most SummaryChars, no two saying the same.
func TestSummarySentences(t *testing.T) {
	ps := summaryPassages()
	got := SummarySentences(ps, SummaryStatements)
	if len(got) < 2 {
		t.Fatalf("%d sentences, want 2 or more", len(got))
	}
	for i, s := range got {
		if !strings.Contains(ps[s.Passage-1].Text, s.Quote) {
			t.Errorf("%q is not in passage %d", s.Quote, s.Passage)
		}
		if n := utf8.RuneCountInString(s.Quote); n > SummaryChars {
			t.Errorf("%q has %d characters, more than %d", s.Quote, n, SummaryChars)
		}
		if i > 0 && (s.Passage < got[i-1].Passage || s.Passage == got[i-1].Passage && s.Index <= got[i-1].Index) {
			t.Errorf("sentence %d is out of reading order", i)
		}
		if strings.Contains(s.Quote, "?") || strings.Contains(s.Quote, `\`) {
			t.Errorf("%q is not a statement", s.Quote)
		}
	}
	same := 0
	for _, s := range got {
		if strings.HasPrefix(s.Quote, "The amount of gas in the magma decides") {
			same++
		}
	}
	if same > 1 {
		t.Errorf("two sentences say the same thing: %v", got)
	}
}

// TestSummarize: the drafter's summary mode writes the sentences as
// statements whose quote is the statement.
func TestSummarize(t *testing.T) {
	var out []*jsonl.Statement
	err := New().Summarize(context.Background(), summaryPassages(), func(s *jsonl.Statement) error {
		out = append(out, s)
		return nil
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("Summarize: %d statements, %v", len(out), err)
	}
	for _, s := range out {
		if s.Text != s.Quote || s.Passage < 1 {
			t.Errorf("statement %+v", s)
		}
	}
}

// TestSummaryWholeWords: a quote that would stop inside "2,3" or "1,409"
// (which sponge-verify would refuse) is not quoted.
func TestSummaryWholeWords(t *testing.T) {
	id := strings.Repeat("d", 64)
	text := "Most patients develop evidence of retinopathy within twenty years of diagnosis.2,3 Retinopathy may begin to develop years before the diagnosis of diabetes. " +
		"The dressing protocol tended to have lower total costs and a greater rate of healing in the burn units of the hospitals studied, " + strings.Repeat("with results that were similar across the sites and the years of the study ", 2) +
		"resulting in a cost per burn healed of Dollars 1,409.06 for the dressing and more for the other."
	got := SummarySentences([]*jsonl.Passage{{Number: 1, ItemID: id, Text: text}}, 5)
	for _, s := range got {
		i := strings.Index(text, s.Quote)
		if !wholeWords(text, i, i+len(s.Quote)) || strings.HasSuffix(s.Quote, ".2") || strings.HasSuffix(s.Quote, " 1") {
			t.Errorf("%q stops inside a word", s.Quote)
		}
	}
	if wholeWords(text, 0, strings.Index(text, ",3")) || wholeWords(text, 0, strings.Index(text, ",409")) {
		t.Errorf("wholeWords takes a cut inside 2,3 or 1,409")
	}
}

// TestSummaryLead: of two sentences that say nearly the same, the one that
// opens its passage is quoted, though the other shares a word more with the
// rest of the item.
func TestSummaryLead(t *testing.T) {
	id := strings.Repeat("e", 64)
	ps := []*jsonl.Passage{
		{Number: 1, ItemID: id, Text: "Volcanoes erupt when hot magma rises through the crust. " +
			"Volcanoes erupt quickly when hot magma rises through the crust."},
		{Number: 2, ItemID: id, Text: "Gas escapes quickly from runny magma near volcanoes. Sticky magma traps the gas quickly inside volcanoes."},
	}
	got := SummarySentences(ps, 1)
	if len(got) != 1 || got[0].Passage != 1 || got[0].Index != 0 {
		t.Errorf("got %+v, want the first sentence of passage 1", got)
	}
}

// TestSummaryOpening: a summary's first statement is the first sentence of
// the item's first passage, which says what the item is, though sentences
// of the other passages are more central; in any language (the rule keys on
// position), and with a small letter first when that word is the title's
// (a manual page's command).
func TestSummaryOpening(t *testing.T) {
	rest := func(id string) []*jsonl.Passage {
		return []*jsonl.Passage{
			{Number: 2, ItemID: id, Paragraph: 4, Text: "The remote machine runs the commands of the session and sends back their output. " +
				"The remote machine keeps the session open until the commands of the session end."},
			{Number: 3, ItemID: id, Paragraph: 8, Text: "Commands of the session on the remote machine can forward ports of the machine."},
		}
	}
	for _, tt := range []struct {
		name, title, first string
		want               bool
	}{
		{"English definition", "Secure shell", "Secure shell is a tool for logging into another computer over a network. It was first written in Finland.", true},
		{"command name first", "SSH(1)", "ssh (SSH client) is a program for logging into another computer and for executing commands there.", true},
		{"a NAME line", "gcloud_dns_record-sets_transaction_remove(1)", "gcloud dns record-sets transaction remove - append a record-set deletion to the transaction", true},
		{"a name with '_'", "PAM_FAILLOCK(8)", "pam_faillock - Module counting authentication failures during a specified interval", true},
		{"a NAME line without a verb", "GPG-WKS-CLIENT(1)", "gpg-wks-client - Client for the Web Key Service", true},
		{"a NAME line of another command", "gcloud_dns_record-sets_transaction_remove(1)", "kubectl dns record-sets transaction remove - append a record-set deletion to the transaction", false},
		{"German", "Die sichere Shell", "Die sichere Shell ist ein Programm für die Anmeldung an einem entfernten Rechner im Netz.", true},
		{"Russian", "Безопасная оболочка", "Безопасная оболочка — это программа для входа на удалённый компьютер по сети.", true},
		{"a piece of a sentence", "SSH(1)", "and then the program logs into another computer and executes commands there for you.", false},
		{"a lead-in", "SSH(1)", "The program is a client that logs into another computer as follows:", false},
	} {
		id := strings.Repeat("f", 64)
		ps := append([]*jsonl.Passage{{Number: 1, ItemID: id, Title: tt.title, Paragraph: 1, Text: tt.first}}, rest(id)...)
		for _, p := range ps {
			p.Title = tt.title
		}
		got := SummarySentences(ps, 3)
		opens := len(got) > 0 && got[0].Passage == 1 && got[0].Index == 0
		if opens != tt.want {
			var quotes []string
			for _, s := range got {
				quotes = append(quotes, s.Quote)
			}
			t.Errorf("%s: opens with the first sentence = %v, want %v: %q", tt.name, opens, tt.want, quotes)
		}
	}
}

// TestSummaryStatementScripts: a sentence of a script without capitals, or
// written without spaces, can be a summary's statement: the six words are
// counted as the drafter counts words (lang.Words), and only a cased
// script's small letter marks a piece of a sentence.
func TestSummaryStatementScripts(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"绿茶的冲泡温度比红茶低，一般在八十度左右。", true},                                            // Chinese
		{"緑茶は紅茶よりも低い温度でいれるのが一般的です。", true},                                         // Japanese
		{"الشاي الأخضر يُنقع في درجة حرارة أقل من الشاي الأسود عادة.", true},       // Arabic
		{"সবুজ চা সাধারণত কালো চায়ের চেয়ে কম তাপমাত্রায় ভেজানো হয়।", true},     // Bengali
		{"녹차는 보통 홍차보다 낮은 온도의 물로 우려서 마시는 차입니다.", true},                              // Korean
		{"Зелёный чай заваривают при более низкой температуре, чем чёрный.", true}, // Russian
		{"зелёный чай заваривают при более низкой температуре, чем чёрный.", false},
		{"绿茶。", false},
		{"绿茶的冲泡方法如下：", false},
	} {
		if got := summaryStatement(tt.s); got != tt.want {
			t.Errorf("summaryStatement(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// TestSummaryChinese: an item in Chinese gets a summary (it got none: no
// sentence of it had six space-separated words or a capital first).
func TestSummaryChinese(t *testing.T) {
	id := strings.Repeat("a", 64)
	got := SummarySentences([]*jsonl.Passage{{Number: 1, ItemID: id, Title: "绿茶", Text: "绿茶是一种不经过发酵的茶，保留了鲜叶的天然物质。" +
		"绿茶的冲泡温度比红茶低，一般在八十度左右。用沸水冲泡会让绿茶变苦，失去清香的味道。"}}, 3)
	if len(got) == 0 || got[0].Index != 0 {
		t.Fatalf("got %+v, want the first sentence first", got)
	}
}
