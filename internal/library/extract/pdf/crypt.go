package pdf

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"fmt"
	"hash"
)

// ErrPassword: the file is encrypted and the empty user password does not open it.
var ErrPassword = errors.New("encrypted PDF: it needs a password")

// ErrUnsupportedEncryption: a security handler other than the standard one
// (e.g. public-key), or an unknown V/R/crypt filter.
var ErrUnsupportedEncryption = errors.New("encrypted PDF: unsupported encryption")

// cryptMethod is what a crypt filter does to the bytes it covers.
type cryptMethod int

const (
	cryptIdentity cryptMethod = iota
	cryptRC4                  // /V2 and the V 1/2 handlers
	cryptAESV2                // AES-128-CBC, per-object key
	cryptAESV3                // AES-256-CBC, the file key itself
)

// crypt decrypts the strings and streams of a file encrypted by the
// Standard Security Handler, once the empty password has opened it.
type crypt struct {
	key             []byte // the file encryption key
	stm, str        cryptMethod
	filters         map[Name]cryptMethod // the /CF entries, for /Crypt stream filters
	encryptMetadata bool
	resolve         func(any) any // for stream dictionary entries that are Refs
}

// padding is the 32 bytes that pad passwords for revisions 2 to 4.
var padding = []byte{
	0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08,
	0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
}

// newCrypt prepares decryption from the trailer's /Encrypt dictionary and
// the first string of the trailer's /ID array (may be ""). resolve returns
// the direct object for a value that may be a Ref.
func newCrypt(encrypt Dict, id0 string, resolve func(any) any) (*crypt, error) {
	if resolve == nil {
		resolve = func(x any) any { return x }
	}
	get := func(d Dict, k Name) any {
		if d == nil {
			return nil
		}
		return resolve(d[k])
	}
	getInt := func(d Dict, k Name) (int64, bool) {
		switch x := get(d, k).(type) {
		case int64:
			return x, true
		case float64:
			return int64(x), true
		}
		return 0, false
	}
	getString := func(d Dict, k Name) string {
		s, _ := get(d, k).(string)
		return s
	}

	if f, _ := get(encrypt, "Filter").(Name); f != "Standard" {
		return nil, fmt.Errorf("%w: security handler /%s", ErrUnsupportedEncryption, f)
	}
	v, _ := getInt(encrypt, "V")
	r, _ := getInt(encrypt, "R")
	if v == 0 && r >= 2 && r <= 3 {
		v = r - 1 // V 0 is undocumented; old writers that left V out meant these
	}
	c := &crypt{encryptMetadata: true, resolve: resolve}
	if b, ok := get(encrypt, "EncryptMetadata").(bool); ok {
		c.encryptMetadata = b
	}

	// keyLen is the file key's length in bytes for revisions 2 to 4.
	keyLen := 5
	switch v {
	case 1:
		c.stm, c.str = cryptRC4, cryptRC4
	case 2:
		c.stm, c.str = cryptRC4, cryptRC4
		if n, ok := getInt(encrypt, "Length"); ok {
			keyLen = int(n / 8)
		}
	case 4, 5:
		cf, _ := get(encrypt, "CF").(Dict)
		c.filters = map[Name]cryptMethod{}
		for name := range cf {
			fd, _ := get(cf, name).(Dict)
			cfm, _ := get(fd, "CFM").(Name)
			switch cfm {
			case "", "None":
				c.filters[name] = cryptIdentity
			case "V2":
				c.filters[name] = cryptRC4
			case "AESV2":
				c.filters[name] = cryptAESV2
			case "AESV3":
				c.filters[name] = cryptAESV3
			default:
				return nil, fmt.Errorf("%w: crypt filter method /%s", ErrUnsupportedEncryption, cfm)
			}
		}
		pick := func(k Name) (cryptMethod, error) {
			name, _ := get(encrypt, k).(Name)
			if name == "" || name == "Identity" {
				return cryptIdentity, nil
			}
			m, ok := c.filters[name]
			if !ok {
				return 0, fmt.Errorf("%w: /%s names crypt filter /%s, not in /CF", ErrUnsupportedEncryption, k, name)
			}
			return m, nil
		}
		var err error
		if c.stm, err = pick("StmF"); err != nil {
			return nil, err
		}
		if c.str, err = pick("StrF"); err != nil {
			return nil, err
		}
		keyLen = 16
		if n, ok := getInt(encrypt, "Length"); ok {
			keyLen = int(n / 8)
		} else if name, _ := get(encrypt, "StmF").(Name); name != "" {
			// Some writers give the length only in the crypt filter, in bytes or bits.
			fd, _ := get(cf, name).(Dict)
			if n, ok := getInt(fd, "Length"); ok {
				if n >= 40 {
					n /= 8
				}
				keyLen = int(n)
			}
		}
	default:
		return nil, fmt.Errorf("%w: V %d", ErrUnsupportedEncryption, v)
	}

	o, u := getString(encrypt, "O"), getString(encrypt, "U")
	switch {
	case v == 5 && (r == 5 || r == 6):
		oe, ue := getString(encrypt, "OE"), getString(encrypt, "UE")
		if len(o) < 48 || len(u) < 48 || len(oe) < 32 || len(ue) < 32 {
			return nil, fmt.Errorf("%w: /O, /U, /OE or /UE too short", ErrUnsupportedEncryption)
		}
		key := fileKeyAES256(int(r), u[:32], u[32:40], u[40:48], "", ue[:32])
		if key == nil {
			// An empty owner password opens the file as well.
			key = fileKeyAES256(int(r), o[:32], o[32:40], o[40:48], u[:48], oe[:32])
		}
		if key == nil {
			return nil, ErrPassword
		}
		c.key = key
		return c, nil
	case v <= 4 && r >= 2 && r <= 4:
		if keyLen < 5 || keyLen > 16 {
			return nil, fmt.Errorf("%w: key length %d bits", ErrUnsupportedEncryption, keyLen*8)
		}
		if len(o) < 32 || len(u) < 32 && r == 2 || len(u) < 16 {
			return nil, fmt.Errorf("%w: /O or /U too short", ErrUnsupportedEncryption)
		}
		p, _ := getInt(encrypt, "P")
		a := &rc4Auth{r: int(r), keyLen: keyLen, o: o[:32], u: u, p: uint32(p), id0: id0,
			// EncryptMetadata enters the key only from revision 4 on.
			noMetadata: r >= 4 && !c.encryptMetadata}
		key := a.userKey(padding)
		if key == nil {
			key = a.userKey(a.userPasswordFromOwner(padding))
		}
		if key == nil {
			return nil, ErrPassword
		}
		c.key = key
		return c, nil
	}
	return nil, fmt.Errorf("%w: V %d with R %d", ErrUnsupportedEncryption, v, r)
}

// rc4Auth holds what revisions 2 to 4 derive the file key from.
type rc4Auth struct {
	r, keyLen  int
	o, u       string
	p          uint32
	id0        string
	noMetadata bool
}

// fileKey is algorithm 2: the file key for a padded 32-byte password.
func (a *rc4Auth) fileKey(pw []byte) []byte {
	h := md5.New()
	h.Write(pw)
	h.Write([]byte(a.o))
	h.Write([]byte{byte(a.p), byte(a.p >> 8), byte(a.p >> 16), byte(a.p >> 24)})
	h.Write([]byte(a.id0))
	if a.noMetadata {
		h.Write([]byte{0xff, 0xff, 0xff, 0xff})
	}
	sum := h.Sum(nil)
	if a.r >= 3 {
		for range 50 {
			s := md5.Sum(sum[:a.keyLen])
			sum = s[:]
		}
	}
	return sum[:a.keyLen]
}

// userKey is algorithm 6: the file key if pw is the user password, else nil.
func (a *rc4Auth) userKey(pw []byte) []byte {
	key := a.fileKey(pw)
	if a.r == 2 {
		u := rc4Crypt(key, padding)
		if !bytes.Equal(u, []byte(a.u[:32])) {
			return nil
		}
		return key
	}
	h := md5.New()
	h.Write(padding)
	h.Write([]byte(a.id0))
	u := rc4Rounds(key, h.Sum(nil))
	if !bytes.Equal(u, []byte(a.u[:16])) {
		return nil
	}
	return key
}

// userPasswordFromOwner is algorithm 7: /O decrypted with the key of the
// padded owner password ownerPw is the padded user password.
func (a *rc4Auth) userPasswordFromOwner(ownerPw []byte) []byte {
	sum := md5.Sum(ownerPw)
	k := sum[:]
	if a.r >= 3 {
		for range 50 {
			s := md5.Sum(k)
			k = s[:]
		}
	}
	k = k[:a.keyLen]
	if a.r == 2 {
		return rc4Crypt(k, []byte(a.o))
	}
	return rc4Rounds(k, []byte(a.o))
}

// rc4Rounds applies RC4 twenty times with the key XORed with 0..19. The
// spec undoes it with 19..0, but RC4 is an XOR with a keystream, and XORs
// commute: the same order undoes it.
func rc4Rounds(key, data []byte) []byte {
	k := make([]byte, len(key))
	out := data
	for i := range 20 {
		for j := range key {
			k[j] = key[j] ^ byte(i)
		}
		out = rc4Crypt(k, out)
	}
	return out
}

func rc4Crypt(key, data []byte) []byte {
	c, err := rc4.NewCipher(key)
	if err != nil { // only for a key of 0 or more than 256 bytes
		return append([]byte(nil), data...)
	}
	out := make([]byte, len(data))
	c.XORKeyStream(out, data)
	return out
}

// fileKeyAES256 checks the empty password against a 32-byte hash and its
// validation salt (from /U, or /O with udata the 48 bytes of /U) and, if it
// matches, decrypts the file key from enc (/UE or /OE). It returns nil if
// the password does not match.
func fileKeyAES256(r int, hashed, validSalt, keySalt, udata, enc string) []byte {
	if !bytes.Equal(hashR56(r, nil, []byte(validSalt), []byte(udata)), []byte(hashed)) {
		return nil
	}
	k := hashR56(r, nil, []byte(keySalt), []byte(udata))
	b, err := aes.NewCipher(k)
	if err != nil {
		return nil
	}
	key := make([]byte, 32)
	cipher.NewCBCDecrypter(b, make([]byte, 16)).CryptBlocks(key, []byte(enc))
	return key
}

// hashR56 is the password hash of revision 5 (one SHA-256) and of
// revision 6 (ISO 32000-2 algorithm 2.B).
func hashR56(r int, pw, salt, udata []byte) []byte {
	h := sha256.New()
	h.Write(pw)
	h.Write(salt)
	h.Write(udata)
	k := h.Sum(nil)
	if r == 5 {
		return k
	}
	var k1, e []byte
	for i := 0; i < 64 || int(e[len(e)-1]) > i-32; i++ {
		k1 = k1[:0]
		for range 64 {
			k1 = append(k1, pw...)
			k1 = append(k1, k...)
			k1 = append(k1, udata...)
		}
		b, _ := aes.NewCipher(k[:16]) // k is at least 32 bytes
		e = make([]byte, len(k1))
		cipher.NewCBCEncrypter(b, k[16:32]).CryptBlocks(e, k1)
		// The first 16 bytes of e as a number mod 3 pick the hash; 256 is 1 mod 3.
		sum := 0
		for _, x := range e[:16] {
			sum += int(x)
		}
		var hh hash.Hash
		switch sum % 3 {
		case 0:
			hh = sha256.New()
		case 1:
			hh = sha512.New384()
		default:
			hh = sha512.New()
		}
		hh.Write(e)
		k = hh.Sum(nil)
	}
	return k[:32]
}

// objectKey is the key for the object ref (algorithm 1); AES-256 uses the
// file key as it is.
func (c *crypt) objectKey(ref Ref, m cryptMethod) []byte {
	if m == cryptAESV3 {
		return c.key
	}
	h := md5.New()
	h.Write(c.key)
	h.Write([]byte{byte(ref.Num), byte(ref.Num >> 8), byte(ref.Num >> 16), byte(ref.Gen), byte(ref.Gen >> 8)})
	if m == cryptAESV2 {
		h.Write([]byte("sAlT"))
	}
	n := min(len(c.key)+5, 16)
	return h.Sum(nil)[:n]
}

// decrypt applies method m to data of object ref.
func (c *crypt) decrypt(ref Ref, m cryptMethod, data []byte) ([]byte, error) {
	switch m {
	case cryptRC4:
		return rc4Crypt(c.objectKey(ref, m), data), nil
	case cryptAESV2, cryptAESV3:
		return aesDecrypt(c.objectKey(ref, m), data)
	}
	return data, nil
}

// aesDecrypt decrypts AES-CBC data whose first 16 bytes are the IV. Like
// viewers, it is lenient: a ragged last block is dropped and bad padding
// is left in place, so that what can be read still is.
func aesDecrypt(key, data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, nil
	}
	if len(data) < aes.BlockSize {
		return nil, fmt.Errorf("AES-encrypted data of %d bytes has no room for its IV", len(data))
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	iv, body := data[:aes.BlockSize], data[aes.BlockSize:]
	body = body[:len(body)/aes.BlockSize*aes.BlockSize]
	out := make([]byte, len(body))
	cipher.NewCBCDecrypter(b, iv).CryptBlocks(out, body)
	if n := len(out); n > 0 {
		if p := int(out[n-1]); p >= 1 && p <= aes.BlockSize &&
			bytes.Count(out[n-p:], out[n-1:]) == p {
			out = out[:n-p]
		}
	}
	return out, nil
}

// decryptString decrypts a string that is part of indirect object ref. A
// string that does not decrypt is returned as it is.
func (c *crypt) decryptString(ref Ref, s string) string {
	if c.str == cryptIdentity || s == "" {
		return s
	}
	if c.str != cryptRC4 && (len(s) < 2*aes.BlockSize || len(s)%aes.BlockSize != 0) {
		return s // an AES string is an IV and at least one padded block
	}
	b, err := c.decrypt(ref, c.str, []byte(s))
	if err != nil {
		return s
	}
	return string(b)
}

// decryptStream decrypts the raw (still filtered) bytes of stream object
// ref whose dictionary is dict, before filters are applied.
func (c *crypt) decryptStream(ref Ref, dict Dict, data []byte) ([]byte, error) {
	if t, _ := c.resolve(dict["Type"]).(Name); t == "Metadata" && !c.encryptMetadata {
		return data, nil
	}
	m := c.stm
	if name, ok := c.cryptFilterName(dict); ok {
		if name == "Identity" {
			return data, nil
		}
		if m, ok = c.filters[name]; !ok {
			return nil, fmt.Errorf("%w: stream %d %d names crypt filter /%s, not in /CF", ErrUnsupportedEncryption, ref.Num, ref.Gen, name)
		}
	}
	return c.decrypt(ref, m, data)
}

// cryptFilterName is the crypt filter a stream chooses with /Crypt as its
// first filter (Identity when DecodeParms names none), and whether it does.
func (c *crypt) cryptFilterName(dict Dict) (Name, bool) {
	var first, parms any
	switch f := c.resolve(dict["Filter"]).(type) {
	case Name:
		first, parms = f, c.resolve(dict["DecodeParms"])
	case Array:
		if len(f) > 0 {
			first = c.resolve(f[0])
		}
		if a, ok := c.resolve(dict["DecodeParms"]).(Array); ok && len(a) > 0 {
			parms = c.resolve(a[0])
		}
	}
	if first != Name("Crypt") {
		return "", false
	}
	if p, ok := parms.(Dict); ok {
		if n, ok := c.resolve(p["Name"]).(Name); ok {
			return n, true
		}
	}
	return "Identity", true
}
