package extract

import (
	"bytes"
	"fmt"
	"mime"
	"strings"
	stdunicode "unicode"
	"unicode/utf8"

	"github.com/wlynxg/chardet"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// detectSample is how much of a file the encoding detector reads: enough
// for its letter statistics, and a bound on its cost for a large file
// (BenchmarkLegacyText: 1 MB of Windows-1251 text took 339 ms with a 1 MiB
// sample, 241 ms with 256 KiB, beside 115-121 ms for the same text in UTF-8).
const detectSample = 256 << 10

// minConfidence is the detector's confidence below which sponge says it
// cannot tell the encoding rather than guess.
const minConfidence = 0.2

// decodeText turns the bytes of a text format into UTF-8. A byte-order
// mark or the declared charset (HTTP, HTML meta, XML declaration) decides;
// else UTF-8 when the bytes are valid UTF-8; else the encoding the
// detector finds by the letters' statistics. Text that decodes to
// replacement or control characters is refused, not saved as mojibake.
func decodeText(data []byte, cs string) (string, error) {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		// The mark says UTF-8; when the bytes after it are not (a
		// Latin-1 file an editor put the mark on), they are read as what
		// they are, not with U+FFFD for each letter beyond ASCII.
		if rest := data[3:]; utf8.Valid(rest) {
			return string(rest), nil
		}
		data, cs = data[3:], ""
	case bytes.HasPrefix(data, []byte("\xff\xfe")), bytes.HasPrefix(data, []byte("\xfe\xff")):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		out, err := dec.Bytes(data)
		if err != nil {
			return "", fmt.Errorf("cannot decode UTF-16 text: %v", err)
		}
		if bad, n := notText(string(out)); bad > n/50+1 {
			// Random bytes after the mark decode to characters of every
			// script, private-use and unassigned ones among them.
			return "", fmt.Errorf("cannot decode the text: it starts with a UTF-16 byte-order mark, but %d of its %d characters are not text", bad, n)
		}
		return string(out), nil
	}
	if cs != "" && !isUTF8Name(cs) {
		if enc, name := charset.Lookup(cs); enc != nil {
			return decodeWith(data, enc, name)
		}
	}
	if utf8.Valid(data) {
		return string(data), nil
	}
	enc, name, err := detectEncoding(data)
	if err != nil {
		return "", err
	}
	text, err := decodeWith(data, enc, name)
	if err != nil {
		return "", err
	}
	// A guess is checked: text whose words mix alphabets was read wrong
	// ("Grφίe" for German "Größe" read as Greek). The Latin, then the
	// Cyrillic encodings people use most are tried instead.
	if mixedText(text) {
		sample := data[:min(len(data), detectSample)]
		for _, guess := range []string{"windows-1252", "windows-1251"} {
			if enc, other := chooseLatin(sample, guess); other != name {
				if t, err := decodeWith(data, enc, other); err == nil && !mixedText(t) {
					return t, nil
				}
			}
		}
		return "", fmt.Errorf("cannot decode the text: it is not UTF-8, and read as %s its words mix alphabets (save it as UTF-8)", name)
	}
	return text, nil
}

// mixedText says whether more than one word in 20 of text (of its first
// 512 KiB) mixes alphabets (see mixedWords).
func mixedText(text string) bool {
	mixed, words := mixedWords(text[:min(len(text), 2*detectSample)])
	return mixed > words/20
}

// notText counts the characters of text that no text holds: replacement
// characters, C0 controls but white space and the few that logs hold
// (backspace, escape), C1 controls, private-use and unassigned code
// points (and surrogates, noncharacters); n is all characters.
func notText(text string) (bad, n int) {
	for _, r := range text {
		n++
		switch {
		case r < 0x80:
			bad += int(binaryBytes[r])
		case r == utf8.RuneError, r <= 0x9f, r >= 0xe000 && r <= 0xf8ff, r >= 0xf0000, r&0xfffe == 0xfffe, r >= 0xfdd0 && r <= 0xfdef:
			bad++
		case !stdunicode.In(r, stdunicode.L, stdunicode.M, stdunicode.N, stdunicode.P, stdunicode.S, stdunicode.Z, stdunicode.Cf):
			bad++ // unassigned
		}
	}
	return bad, n
}

func isUTF8Name(cs string) bool {
	return strings.EqualFold(cs, "utf-8") || strings.EqualFold(cs, "utf8")
}

// decodeWith decodes data as enc, and refuses the result when more than
// one character in 200 (and one stray) is not text (see notText): the
// bytes were not in that encoding.
func decodeWith(data []byte, enc encoding.Encoding, name string) (string, error) {
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return "", fmt.Errorf("cannot decode the text as %s: %v", name, err)
	}
	if bad, n := notText(string(out)); bad > n/200+1 {
		return "", fmt.Errorf("cannot decode the text: it is not UTF-8, and read as %s it gives %d characters that are not text", name, bad)
	}
	return string(out), nil
}

// detectEncoding finds the encoding of text that is not UTF-8, with the
// port of the universal charset detector (Mozilla's, by way of Python's
// chardet). Its guesses among the 8-bit Latin encodings are checked
// against the alphabets of the languages each one writes: see chooseLatin.
func detectEncoding(data []byte) (encoding.Encoding, string, error) {
	sample := data
	if len(sample) > detectSample {
		sample = sample[:detectSample]
	}
	r := chardet.Detect(sample)
	name := r.Charset
	if r.Confidence < minConfidence || name == "" || strings.EqualFold(name, "ascii") {
		return nil, "", fmt.Errorf("cannot decode the text: it is not UTF-8, and its encoding cannot be told (save it as UTF-8)")
	}
	if enc, chosen := chooseLatin(sample, name); enc != nil {
		return enc, chosen, nil
	}
	switch strings.ToLower(name) {
	case "gb2312", "gbk":
		// GB18030 is a superset of both: decode with it so that the
		// characters beyond GB2312 a sample did not show are read too.
		return simplifiedchinese.GB18030, "GB18030", nil
	}
	enc, canonical := charset.Lookup(name)
	if enc == nil {
		return nil, "", fmt.Errorf("cannot decode the text: it looks like %s, which sponge cannot read (save it as UTF-8)", name)
	}
	return enc, canonical, nil
}

var (
	metaCharsetRE = lazyRE(`(?i)<meta\s[^>]*charset`)
	xmlEncodingRE = lazyRE(`^\s*<\?xml\s[^>]*encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']`)
)

// decodeMarkup turns an HTML or XML document into UTF-8. What the document
// declares decides (byte-order mark, the HTTP charset, <meta charset>, the
// XML declaration's encoding), and when it declares nothing, the bytes
// are read as decodeText reads them: UTF-8 if valid, else as detected.
func decodeMarkup(data []byte, contentType string) (string, error) {
	if bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")) ||
		bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) && !utf8.Valid(data[3:]) {
		// A byte-order mark wins over what the page declares; decodeText
		// reads UTF-16 (refusing random bytes after the mark) and a UTF-8
		// mark before bytes that are not UTF-8 (by what they are).
		return decodeText(data, "")
	}
	head := data
	if len(head) > 1024 {
		head = head[:1024]
	}
	if m := xmlEncodingRE.FindSubmatch(head); m != nil && !isUTF8Name(string(m[1])) && !bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		if enc, name := charset.Lookup(string(m[1])); enc != nil {
			return decodeWith(data, enc, name)
		}
	}
	declared := metaCharsetRE.Match(head)
	if _, params, err := mime.ParseMediaType(contentType); err == nil && params["charset"] != "" {
		declared = true
	}
	if declared || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) || bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")) {
		enc, name, certain := charset.DetermineEncoding(data, contentType)
		if name == "utf-8" || !certain && utf8.Valid(data) {
			// (not certain: a <meta charset> cut at the 1,024 bytes the
			// declaration is looked for in, and windows-1252 guessed)
			return strings.ToValidUTF8(string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))), "\uFFFD"), nil
		}
		out, err := enc.NewDecoder().Bytes(data)
		if err != nil {
			return "", fmt.Errorf("cannot decode the page as %s: %v", name, err)
		}
		return string(out), nil
	}
	return decodeText(data, "")
}
