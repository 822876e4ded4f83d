package pdf

import (
	"bytes"
	"compress/zlib"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// cryptFixture is what the crypt tests need of a fixture file, read with
// the lexer alone so that they do not depend on the rest of the reader.
type cryptFixture struct {
	objs    map[Ref]any
	streams map[Ref][]byte // raw data of stream objects, whose dictionaries are in objs
	trailer Dict
}

var fixtureObjRe = regexp.MustCompile(`(?m)^(\d+) (\d+) obj\b`)

func readCryptFixture(t *testing.T, name string) *cryptFixture {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f := &cryptFixture{objs: map[Ref]any{}, streams: map[Ref][]byte{}}
	for _, m := range fixtureObjRe.FindAllSubmatchIndex(data, -1) {
		num, _ := strconv.Atoi(string(data[m[2]:m[3]]))
		gen, _ := strconv.Atoi(string(data[m[4]:m[5]]))
		ref := Ref{num, gen}
		l := &lexer{data: data, pos: m[1]}
		v, err := l.object(0)
		if err != nil {
			t.Fatalf("%s: object %v: %v", name, ref, err)
		}
		f.objs[ref] = v
		if tok, err := l.token(); err == nil && l.isKeyword(tok, "stream") {
			p := l.pos
			if p < len(data) && data[p] == '\r' {
				p++
			}
			if p < len(data) && data[p] == '\n' {
				p++
			}
			n, ok := v.(Dict)["Length"].(int64)
			if !ok || p+int(n) > len(data) {
				t.Fatalf("%s: stream %v has no usable direct /Length", name, ref)
			}
			f.streams[ref] = data[p : p+int(n)]
			if v.(Dict)["Type"] == Name("XRef") {
				f.trailer = v.(Dict)
			}
		}
	}
	if i := bytes.LastIndex(data, []byte("trailer")); i >= 0 {
		l := &lexer{data: data, pos: i + len("trailer")}
		v, err := l.object(0)
		if err != nil {
			t.Fatalf("%s: trailer: %v", name, err)
		}
		f.trailer = v.(Dict)
	}
	if f.trailer == nil {
		t.Fatalf("%s: no trailer", name)
	}
	return f
}

func (f *cryptFixture) resolve(x any) any {
	if r, ok := x.(Ref); ok {
		return f.objs[r]
	}
	return x
}

func (f *cryptFixture) dict(x any) Dict {
	d, _ := f.resolve(x).(Dict)
	return d
}

func (f *cryptFixture) crypt() (*crypt, error) {
	var id0 string
	if ids, ok := f.resolve(f.trailer["ID"]).(Array); ok && len(ids) > 0 {
		id0, _ = ids[0].(string)
	}
	return newCrypt(f.dict(f.trailer["Encrypt"]), id0, f.resolve)
}

// streamOfType is the one stream object whose /Type is typ ("" for none).
func (f *cryptFixture) streamOfType(t *testing.T, typ Name) Ref {
	t.Helper()
	var found []Ref
	for ref := range f.streams {
		if got, _ := f.dict(ref)["Type"].(Name); got == typ {
			found = append(found, ref)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d streams of type %q, want 1", len(found), typ)
	}
	return found[0]
}

// decodedStream decrypts stream ref and inflates it if it is compressed.
func (f *cryptFixture) decodedStream(t *testing.T, c *crypt, ref Ref) []byte {
	t.Helper()
	d := f.dict(ref)
	b, err := c.decryptStream(ref, d, f.streams[ref])
	if err != nil {
		t.Fatalf("decryptStream %v: %v", ref, err)
	}
	if d["Filter"] == Name("FlateDecode") {
		zr, err := zlib.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("stream %v: %v", ref, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatalf("stream %v: %v", ref, err)
		}
	}
	return b
}

// The fixtures are made by qpdf from one source file (testdata/README.md).
const (
	fixtureText     = "Sponge encryption test"
	fixtureTitle    = "Sponge secret title"
	fixtureMetadata = "Sponge metadata"
)

func TestCryptFixtures(t *testing.T) {
	for _, tc := range []struct {
		file string
		v, r int64
		stmF Name // the CFM of the stream crypt filter for V 4 and 5
	}{
		{"encrypted-rc4-40.pdf", 1, 2, ""},
		{"encrypted-rc4-128.pdf", 2, 3, ""},
		{"encrypted-aes-128.pdf", 4, 4, "AESV2"},
		{"encrypted-aes-128-cleartext-metadata.pdf", 4, 4, "AESV2"},
		{"encrypted-aes-128-objstm.pdf", 4, 4, "AESV2"},
		{"encrypted-aes-256.pdf", 5, 6, "AESV3"},
		{"encrypted-aes-256-r5.pdf", 5, 5, "AESV3"},
		{"encrypted-aes-256-owner-empty.pdf", 5, 6, "AESV3"},
		{"encrypted-aes-256-objstm.pdf", 5, 6, "AESV3"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f := readCryptFixture(t, tc.file)
			enc := f.dict(f.trailer["Encrypt"])
			if enc["V"] != tc.v || enc["R"] != tc.r {
				t.Fatalf("fixture has V %v R %v, want V %d R %d", enc["V"], enc["R"], tc.v, tc.r)
			}
			if tc.stmF != "" {
				cf := f.dict(enc["CF"])
				if got := f.dict(cf[enc["StmF"].(Name)])["CFM"]; got != tc.stmF {
					t.Fatalf("stream crypt filter method %v, want %s", got, tc.stmF)
				}
			}
			c, err := f.crypt()
			if err != nil {
				t.Fatal(err)
			}

			// The page tree may be in an object stream: the fixture's content
			// stream is its only stream without a /Type.
			contents := f.streamOfType(t, "")
			if bytes.Contains(f.streams[contents], []byte(fixtureText)) {
				t.Fatal("the content stream is not encrypted in the fixture")
			}
			if got := f.decodedStream(t, c, contents); !bytes.Contains(got, []byte(fixtureText)) {
				t.Errorf("content stream decrypts to %q, want it to contain %q", got, fixtureText)
			}

			// Only the cleartext-metadata fixture leaves the metadata alone.
			meta := f.streamOfType(t, "Metadata")
			plain := bytes.Contains(f.streams[meta], []byte(fixtureMetadata))
			if wantPlain := strings.Contains(tc.file, "cleartext"); plain != wantPlain {
				t.Fatalf("metadata in clear text: %v, want %v", plain, wantPlain)
			}
			if got := f.decodedStream(t, c, meta); !bytes.Contains(got, []byte(fixtureMetadata)) {
				t.Errorf("metadata stream decrypts to %q", got)
			}

			info := f.trailer["Info"].(Ref)
			if d, ok := f.objs[info].(Dict); ok {
				title := d["Title"].(string)
				if title == fixtureTitle {
					t.Fatal("the title is not encrypted in the fixture")
				}
				if got := c.decryptString(info, title); got != fixtureTitle {
					t.Errorf("title decrypts to %q, want %q", got, fixtureTitle)
				}
				if got := c.decryptString(info, d["Producer"].(string)); got != "handmade" {
					t.Errorf("producer decrypts to %q", got)
				}
				return
			}
			// The info dictionary is in an object stream, whose strings are
			// not encrypted once the stream is decrypted.
			found := false
			for ref := range f.streams {
				if f.dict(ref)["Type"] != Name("ObjStm") {
					continue
				}
				if bytes.Contains(f.decodedStream(t, c, ref), []byte(fixtureTitle)) {
					found = true
				}
			}
			if !found {
				t.Error("no object stream decrypts to one that holds the title")
			}
		})
	}
}

func TestCryptWrongPassword(t *testing.T) {
	for _, file := range []string{"encrypted-aes-256-userpw.pdf", "encrypted-rc4-128-userpw.pdf", "encrypted-rc4-40-userpw.pdf"} {
		f := readCryptFixture(t, file)
		if _, err := f.crypt(); !errors.Is(err, ErrPassword) {
			t.Errorf("%s: got %v, want ErrPassword", file, err)
		}
	}
	// The right file key depends on the ID: with another one, the empty
	// password no longer opens an RC4 file.
	f := readCryptFixture(t, "encrypted-rc4-128.pdf")
	if _, err := newCrypt(f.dict(f.trailer["Encrypt"]), "another ID", f.resolve); !errors.Is(err, ErrPassword) {
		t.Errorf("RC4 with a wrong ID: got %v, want ErrPassword", err)
	}
}

func TestCryptUnsupported(t *testing.T) {
	f := readCryptFixture(t, "encrypted-aes-128.pdf")
	base := f.dict(f.trailer["Encrypt"])
	with := func(k Name, v any) Dict {
		d := Dict{}
		for k, v := range base {
			d[k] = v
		}
		d[k] = v
		return d
	}
	for name, d := range map[string]Dict{
		"public key":      with("Filter", Name("Adobe.PubSec")),
		"V 3":             with("V", int64(3)),
		"V 5 with R 4":    with("V", int64(5)),
		"unknown CFM":     with("CF", Dict{"StdCF": Dict{"CFM": Name("Rot13")}}),
		"missing filter":  with("StmF", Name("Other")),
		"short O":         with("O", "short"),
		"no Encrypt dict": nil,
	} {
		if _, err := newCrypt(d, "", f.resolve); !errors.Is(err, ErrUnsupportedEncryption) {
			t.Errorf("%s: got %v, want ErrUnsupportedEncryption", name, err)
		}
	}
}

func TestCryptStreamCryptFilter(t *testing.T) {
	f := readCryptFixture(t, "encrypted-aes-128.pdf")
	c, err := f.crypt()
	if err != nil {
		t.Fatal(err)
	}
	ref := f.streamOfType(t, "")
	raw := f.streams[ref]
	parms := Ref{1000, 0}
	f.objs[parms] = Dict{"Name": Name("Identity")}
	for _, d := range []Dict{
		{"Filter": Name("Crypt")},
		{"Filter": Name("Crypt"), "DecodeParms": Dict{"Name": Name("Identity")}},
		{"Filter": Array{Name("Crypt"), Name("FlateDecode")}, "DecodeParms": Array{parms, nil}},
	} {
		got, err := c.decryptStream(ref, d, raw)
		if err != nil || !bytes.Equal(got, raw) {
			t.Errorf("%v: an Identity crypt filter changed the data (err %v)", d, err)
		}
	}
	d := Dict{"Filter": Array{Name("Crypt")}, "DecodeParms": Array{Dict{"Name": Name("StdCF")}}}
	if got, err := c.decryptStream(ref, d, raw); err != nil || !bytes.Contains(got, []byte(fixtureText)) {
		t.Errorf("crypt filter StdCF: %q, %v", got, err)
	}
	d = Dict{"Filter": Name("Crypt"), "DecodeParms": Dict{"Name": Name("Nonesuch")}}
	if _, err := c.decryptStream(ref, d, raw); !errors.Is(err, ErrUnsupportedEncryption) {
		t.Errorf("unknown crypt filter: got %v, want ErrUnsupportedEncryption", err)
	}
	// Metadata is decrypted unless EncryptMetadata is false.
	if got, _ := c.decryptStream(ref, Dict{"Type": Name("Metadata")}, raw); bytes.Equal(got, raw) {
		t.Error("a metadata stream was not decrypted though EncryptMetadata is true")
	}
}

// aesEncrypt is AES-CBC with PKCS#5 padding and the IV in front, as a
// writer does it.
func aesEncrypt(t *testing.T, key, iv, plain []byte) []byte {
	b, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	p := 16 - len(plain)%16
	in := append(append([]byte(nil), plain...), bytes.Repeat([]byte{byte(p)}, p)...)
	out := make([]byte, len(in))
	cipher.NewCBCEncrypter(b, iv).CryptBlocks(out, in)
	return append(append([]byte(nil), iv...), out...)
}

func TestAESDecryptPadding(t *testing.T) {
	key := []byte("0123456789abcdef")
	iv := []byte("fedcba9876543210")
	for _, n := range []int{0, 1, 15, 16, 17, 32, 100} {
		plain := bytes.Repeat([]byte("x"), n)
		enc := aesEncrypt(t, key, iv, plain)
		got, err := aesDecrypt(key, enc)
		if err != nil || !bytes.Equal(got, plain) {
			t.Errorf("%d bytes: got %q, %v", n, got, err)
		}
		// A ragged end is dropped, not a reason to fail.
		got, err = aesDecrypt(key, append(enc, 1, 2, 3))
		if err != nil || !bytes.Equal(got, plain) {
			t.Errorf("%d bytes and 3 more: got %q, %v", n, got, err)
		}
	}

	// Blocks whose last bytes are no padding are kept whole.
	b, _ := aes.NewCipher(key)
	for _, last := range [][]byte{{0}, {17}, {3, 2, 3}, {0xff}} {
		block := append(bytes.Repeat([]byte("y"), 16-len(last)), last...)
		enc := make([]byte, 16)
		cipher.NewCBCEncrypter(b, iv).CryptBlocks(enc, block)
		got, err := aesDecrypt(key, append(append([]byte(nil), iv...), enc...))
		if err != nil || !bytes.Equal(got, block) {
			t.Errorf("bad padding %v: got %q, %v", last, got, err)
		}
	}

	if got, err := aesDecrypt(key, nil); err != nil || len(got) != 0 {
		t.Errorf("no data: %q, %v", got, err)
	}
	if got, err := aesDecrypt(key, iv); err != nil || len(got) != 0 {
		t.Errorf("IV alone: %q, %v", got, err)
	}
	if _, err := aesDecrypt(key, iv[:7]); err == nil {
		t.Error("7 bytes: no error")
	}
}

func TestCryptMalformedAESString(t *testing.T) {
	f := readCryptFixture(t, "encrypted-aes-256.pdf")
	c, err := f.crypt()
	if err != nil {
		t.Fatal(err)
	}
	ref := Ref{6, 0}
	for _, s := range []string{"short", strings.Repeat("z", 16), strings.Repeat("z", 33)} {
		if got := c.decryptString(ref, s); got != s {
			t.Errorf("%q: got %q, want it unchanged", s, got)
		}
	}
	enc := aesEncrypt(t, c.key, []byte("fedcba9876543210"), []byte("plain"))
	if got := c.decryptString(ref, string(enc)); got != "plain" {
		t.Errorf("got %q, want plain", got)
	}
	if _, err := c.decryptStream(ref, Dict{}, []byte("short")); err == nil {
		t.Error("a 5-byte AES stream gave no error")
	}
}

// TestCryptEmptyOwnerRC4 builds an R3 Encrypt dictionary the way a writer
// does (algorithms 3 and 5) with the user password "secret" and an empty
// owner password: the owner password opens it.
func TestCryptEmptyOwnerRC4(t *testing.T) {
	pad := func(pw string) []byte { return append([]byte(pw), padding[:32-len(pw)]...) }
	rounds := func(key, data []byte) []byte {
		out := append([]byte(nil), data...)
		for i := range 20 {
			k := make([]byte, len(key))
			for j := range key {
				k[j] = key[j] ^ byte(i)
			}
			c, _ := rc4.NewCipher(k)
			c.XORKeyStream(out, out)
		}
		return out
	}
	md5n := func(b []byte, n int) []byte {
		s := md5.Sum(b)
		for range n {
			s = md5.Sum(s[:16])
		}
		return s[:16]
	}
	id0 := "0123456789abcdef"
	o := rounds(md5n(pad(""), 50), pad("secret"))
	p := int64(-4)
	keyIn := append(append(pad("secret"), o...), 0xfc, 0xff, 0xff, 0xff)
	key := md5n(append(keyIn, id0...), 50)
	u := append(rounds(key, md5n(append(append([]byte(nil), padding...), id0...), 0)), make([]byte, 16)...)
	enc := Dict{"Filter": Name("Standard"), "V": int64(2), "R": int64(3), "Length": int64(128),
		"O": string(o), "U": string(u), "P": p}

	c, err := newCrypt(enc, id0, func(x any) any { return x })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(c.key, key) {
		t.Fatalf("file key %x, want %x", c.key, key)
	}
	// Without the right O, neither password opens it.
	enc["O"] = string(rounds(md5n(pad("owner"), 50), pad("secret")))
	if _, err := newCrypt(enc, id0, nil); !errors.Is(err, ErrPassword) {
		t.Errorf("got %v, want ErrPassword", err)
	}
}
