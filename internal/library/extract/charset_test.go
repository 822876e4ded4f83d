package extract

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

func encode(t *testing.T, enc encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := enc.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Text in a legacy encoding is read as what it says, by the detector when
// nothing declares the encoding.
func TestLegacyEncodings(t *testing.T) {
	srt := func(lines ...string) string {
		var b strings.Builder
		for i, l := range lines {
			b.WriteString(string(rune('1'+i)) + "\r\n00:00:0" + string(rune('1'+i)) + ",000 --> 00:00:0" + string(rune('2'+i)) + ",000\r\n" + l + "\r\n\r\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name string
		enc  encoding.Encoding
		text string
	}{
		// The example: ISO-8859-9 read as Windows-1252 gave "adým".
		{"turkish.srt", charmap.ISO8859_9, srt("Benim adım Ali. Sen neredesin?", "Bugün hava çok güzel, değil mi?", "Şimdi gitmem gerekiyor, görüşürüz.")},
		{"icelandic.txt", charmap.ISO8859_1, "Þetta er ævintýri. Ég fór í ferð með þeim og við sáum fjöllin."},
		{"french.txt", charmap.Windows1252, "Le café est “très” bon — où est la bibliothèque? Ça va très bien, merci."},
		{"russian.srt", charmap.Windows1251, srt("Привет, как дела?", "Сегодня очень хорошая погода, и мы пойдём гулять в парк.")},
		{"russian.txt", charmap.KOI8R, "Привет, как дела? Сегодня очень хорошая погода, и мы пойдём гулять в парк."},
		{"japanese.srt", japanese.ShiftJIS, srt("今日はとても良い天気ですね。", "私は東京に住んでいます。日本語の字幕ファイルです。")},
		{"japanese.vtt", japanese.EUCJP, "WEBVTT\n\n00:01.000 --> 00:02.000\n今日はとても良い天気ですね。私は東京に住んでいます。日本語の字幕ファイルです。\n"},
		{"chinese.txt", simplifiedchinese.GB18030, "今天天气很好。我们去公园散步吧。这是一个中文字幕文件。"},
		{"taiwan.txt", traditionalchinese.Big5, "今天天氣很好。我們去公園散步吧。這是一個中文字幕檔案。"},
		{"greek.txt", charmap.ISO8859_7, "Καλημέρα σας, τι κάνετε σήμερα; Ο καιρός είναι πολύ ωραίος."},
		// Central European: the detector says Western or Turkish for all
		// of these ("Za¿ó³æ gê¶l±" was saved); chooseLatin reads them right.
		{"polish.txt", charmap.ISO8859_2, "Zażółć gęślą jaźń. W Polsce jest wiele pięknych miejsc, które warto zobaczyć latem. Łódź i Kraków są duże."},
		{"polish.srt", charmap.Windows1250, srt("Zażółć gęślą jaźń.", "W Polsce jest wiele pięknych miejsc, które warto zobaczyć latem.")},
		{"czech.txt", charmap.ISO8859_2, "Příliš žluťoučký kůň úpěl ďábelské ódy. Dnes je krásný den a půjdeme na procházku do města."},
		{"czech-1250.txt", charmap.Windows1250, "Příliš žluťoučký kůň úpěl ďábelské ódy. Dnes je krásný den a půjdeme na procházku do města."},
		{"hungarian.txt", charmap.ISO8859_2, "Árvíztűrő tükörfúrógép. Ma szép idő van, és elmegyünk sétálni a városba."},
		{"german.txt", charmap.ISO8859_1, "Der Bär läuft über die Straße. Café crème, naïve façade, garçon. Ærø og Ålborg."},
		{"russian.html", charmap.Windows1251, "<html><body><main><h1>Погода</h1><p>Сегодня очень хорошая погода, и мы пойдём гулять в парк.</p></main></body></html>"},
	} {
		d := mustExtract(t, encode(t, tc.enc, tc.text), tc.name)
		got := strings.Join(texts(d), " ")
		for _, w := range strings.Fields(tc.text) {
			if strings.ContainsAny(w, "<>:0123456789") || strings.HasPrefix(w, "WEBVTT") {
				continue
			}
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q is not in %q", tc.name, w, got)
				break
			}
		}
	}
}

// What a page or an XML part declares wins over the detector.
func TestDeclaredEncoding(t *testing.T) {
	page := "<html><head><meta charset=\"iso-8859-9\"></head><body><main><p>Benim ad\xfdm Ali, sen kimsin?</p></main></body></html>"
	d := mustExtract(t, []byte(page), "tr.html")
	if got := texts(d)[0]; got != "Benim adım Ali, sen kimsin?" {
		t.Errorf("meta charset: %q", got)
	}
	if d, err := Bytes([]byte("Caf\xe9 cr\xe8me au lait"), "x", "text/plain; charset=iso-8859-1"); err != nil || texts(d)[0] != "Café crème au lait" {
		t.Errorf("HTTP charset: %v %q", err, texts(d))
	}
}

// Bytes that decode to control characters in every guess are refused,
// not saved as mojibake.
func TestUndecodable(t *testing.T) {
	data := []byte(strings.Repeat("ab\x81\x8d\x8f\x90\x9d cd ", 50))
	_, err := Bytes(data, "odd.txt", "")
	if err == nil || !strings.HasPrefix(err.Error(), "cannot decode the text") {
		t.Fatalf("error %v", err)
	}
}
