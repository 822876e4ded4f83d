package extract

import (
	"bytes"
	"fmt"
	"mime"
	"strings"
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
		return string(data[3:]), nil
	case bytes.HasPrefix(data, []byte("\xff\xfe")), bytes.HasPrefix(data, []byte("\xfe\xff")):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		out, err := dec.Bytes(data)
		if err != nil {
			return "", fmt.Errorf("cannot decode UTF-16 text: %v", err)
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
	return decodeWith(data, enc, name)
}

func isUTF8Name(cs string) bool {
	return strings.EqualFold(cs, "utf-8") || strings.EqualFold(cs, "utf8")
}

// decodeWith decodes data as enc, and refuses the result when more than
// one character in 200 (and one stray) is a replacement character or a C1
// control: the bytes were not in that encoding.
func decodeWith(data []byte, enc encoding.Encoding, name string) (string, error) {
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return "", fmt.Errorf("cannot decode the text as %s: %v", name, err)
	}
	bad, n := 0, 0
	for _, r := range string(out) {
		n++
		if r == utf8.RuneError || r >= 0x80 && r <= 0x9f {
			bad++
		}
	}
	if bad > n/200+1 {
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
		enc, name, _ := charset.DetermineEncoding(data, contentType)
		if name == "utf-8" {
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
