package pdf

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// parseAll reads every object of src, in order.
func parseAll(src string) ([]any, error) {
	l := &lexer{data: []byte(src)}
	var objs []any
	for {
		l.skipSpace()
		if l.pos >= len(l.data) {
			return objs, nil
		}
		x, err := l.object(0)
		if err != nil {
			return objs, err
		}
		objs = append(objs, x)
	}
}

// parseOne reads src, which must hold exactly one object.
func parseOne(t *testing.T, src string) any {
	t.Helper()
	objs, err := parseAll(src)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	if len(objs) != 1 {
		t.Fatalf("%q: read %d objects %#v, want 1", src, len(objs), objs)
	}
	return objs[0]
}

func checkParse(t *testing.T, src string, want any) {
	t.Helper()
	got := parseOne(t, src)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q: got %#v, want %#v", src, got, want)
	}
}

func TestParseNumbers(t *testing.T) {
	for src, want := range map[string]any{
		"0":          int64(0),
		"123":        int64(123),
		"-17":        int64(-17),
		"+1":         int64(1),
		"00042":      int64(42),
		"4.25":       4.25,
		".5":         0.5,
		"-.002":      -0.002,
		"+.5":        0.5,
		"-3.":        -3.0,
		"0.0":        0.0,
		"1234567.25": 1234567.25,
	} {
		checkParse(t, src, want)
	}
	// Integers and reals are told apart: a real that happens to be whole
	// stays a real.
	if _, ok := parseOne(t, "2.0").(float64); !ok {
		t.Errorf("2.0 is not read as a real")
	}
}

func TestParseKeywords(t *testing.T) {
	checkParse(t, "true", true)
	checkParse(t, "false", false)
	if x := parseOne(t, "null"); x != nil {
		t.Errorf("null read as %#v", x)
	}
	// Not numbers: two dots, a sign alone, a sign inside.
	for _, src := range []string{"1.2.3", "-", "+", ".", "1-2", "--5", "bogus"} {
		if objs, err := parseAll(src); err == nil {
			t.Errorf("%q: read as %#v, want an error", src, objs)
		}
	}
}

func TestParseNames(t *testing.T) {
	for src, want := range map[string]any{
		"/Name":                 Name("Name"),
		"/A#20B":                Name("A B"),
		"/Lime#20Green":         Name("Lime Green"),
		"/#41#42":               Name("AB"),
		"/paired#28#29":         Name("paired()"),
		"/The_Key_of_F#23Minor": Name("The_Key_of_F#Minor"),
		"/A#2":                  Name("A#2"), // not an escape: kept as written
		"/A#zz":                 Name("A#zz"),
		"/":                     Name(""),
		"/1.5":                  Name("1.5"),
		"/a;b*c":                Name("a;b*c"),
	} {
		checkParse(t, src, want)
	}
	// A name ends at a delimiter.
	objs, err := parseAll("/a/b(c)/d[/e]")
	want := []any{Name("a"), Name("b"), "c", Name("d"), Array{Name("e")}}
	if err != nil || !reflect.DeepEqual(objs, want) {
		t.Errorf("names run together: got %#v, %v; want %#v", objs, err, want)
	}
}

func TestParseLiteralStrings(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`()`, ""},
		{`(plain text)`, "plain text"},
		{`(a(b)c)`, "a(b)c"},
		{`(a(b(c)d)e)`, "a(b(c)d)e"},
		{`(a\(b)`, "a(b"},
		{`(a\)b)`, "a)b"},
		{`(\n\r\t\b\f\(\)\\)`, "\n\r\t\b\f()\\"},
		{`(\053)`, "+"},
		{`(\53)`, "+"},
		{`(\5)`, "\x05"},
		{`(\0538)`, "+8"},    // at most three octal digits
		{`(a\0b)`, "a\x00b"}, // one digit, then a non-digit
		{`(\101\102C)`, "ABC"},
		{`(\q)`, "q"}, // an unknown escape is the byte itself
		{"(ab\\\ncd)", "abcd"},
		{"(ab\\\r\ncd)", "abcd"},
		{"(ab\\\rcd)", "abcd"},
		{"(a%b)", "a%b"}, // no comments inside strings
		{"(a\nb)", "a\nb"},
		// An end of line inside a string is \n whatever its bytes.
		{"(a\rb)", "a\nb"},
		{"(a\r\nb)", "a\nb"},
		{"(a\r\nb\\n)", "a\nb\n"},
		{"(a\rb(c))", "a\nb(c)"},
		{"(\xff\xfe\x00)", "\xff\xfe\x00"},
	} {
		checkParse(t, c.src, c.want)
	}
}

func TestParseHexStrings(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"<>", ""},
		{"<48656C6C6F>", "Hello"},
		{"<48 65\n6C\t6c\r6F>", "Hello"},
		{"<414>", "A@"}, // an odd final digit is followed by 0
		{"<4 1 4>", "A@"},
		{"<901FA>", "\x90\x1f\xa0"},
		{"<FEFF0041>", "\xfe\xff\x00A"},
	} {
		checkParse(t, c.src, c.want)
	}
}

func TestParseArraysAndRefs(t *testing.T) {
	for _, c := range []struct {
		src  string
		want any
	}{
		{"[]", Array{}},
		{"[1 2 3]", Array{int64(1), int64(2), int64(3)}},
		{"[1 0 R]", Array{Ref{1, 0}}},
		{"[1 0 R 2 0 R]", Array{Ref{1, 0}, Ref{2, 0}}},
		{"[12 3 R 4]", Array{Ref{12, 3}, int64(4)}},
		{"[1 0]", Array{int64(1), int64(0)}},
		{"[1 0 2]", Array{int64(1), int64(0), int64(2)}},
		{"[1 2 0 R]", Array{int64(1), Ref{2, 0}}},
		{"[1 2.0 3]", Array{int64(1), 2.0, int64(3)}},
		{"[1.0 0 R]", nil}, // "R" after a real is no reference: an error
		{"[(a)/b<63>[true null]]", Array{"a", Name("b"), "c", Array{true, nil}}},
		{"[ 0 0 612 792 ]", Array{int64(0), int64(0), int64(612), int64(792)}},
	} {
		objs, err := parseAll(c.src)
		if c.want == nil {
			if err == nil {
				t.Errorf("%q: read %#v, want an error", c.src, objs)
			}
			continue
		}
		if err != nil || len(objs) != 1 || !reflect.DeepEqual(objs[0], c.want) {
			t.Errorf("%q: got %#v, %v; want %#v", c.src, objs, err, c.want)
		}
	}
	// At top level too, two integers are two objects unless R follows.
	objs, err := parseAll("5 0 obj")
	if err == nil || len(objs) != 2 || objs[0] != int64(5) || objs[1] != int64(0) {
		t.Errorf(`"5 0 obj": got %#v, %v; want 5, 0 and an error at obj`, objs, err)
	}
	checkParse(t, "7 0 R", Ref{7, 0})
	checkParse(t, "7 0 R % a comment", Ref{7, 0})
}

func TestParseDicts(t *testing.T) {
	src := `<< /Type /Page /Count 3 /Sub << /Deep << /X [1 (x) 2 0 R] >> >>
		/Null null /Ref 4 0 R /Str (a>b) /Hex <41> /Empty << >> >>`
	want := Dict{
		"Type":  Name("Page"),
		"Count": int64(3),
		"Sub":   Dict{"Deep": Dict{"X": Array{int64(1), "x", Ref{2, 0}}}},
		"Ref":   Ref{4, 0},
		"Str":   "a>b",
		"Hex":   "A",
		"Empty": Dict{},
	}
	checkParse(t, src, want)
	d := parseOne(t, src).(Dict)
	if _, ok := d["Null"]; ok {
		t.Errorf("a null value left its key in the dictionary")
	}
	// Delimiters need no spaces around them.
	checkParse(t, "<</Type/Pages/Kids[3 0 R 4 0 R]/Count 2>>", Dict{
		"Type": Name("Pages"), "Kids": Array{Ref{3, 0}, Ref{4, 0}}, "Count": int64(2),
	})
	checkParse(t, "<</A#20B(x)>>", Dict{"A B": "x"})
	// A later duplicate key wins, as in most readers.
	checkParse(t, "<</A 1/A 2>>", Dict{"A": int64(2)})
}

func TestParseComments(t *testing.T) {
	checkParse(t, "% leading comment\n/X", Name("X"))
	checkParse(t, "[1 % one ]\n 2]", Array{int64(1), int64(2)})
	checkParse(t, "<< /A % comment >>\r 1 >>", Dict{"A": int64(1)})
	checkParse(t, "[1 0 % not yet\n R]", Array{Ref{1, 0}})
	checkParse(t, "(a) % trailing", "a")
}

func TestParseErrors(t *testing.T) {
	if x, err := (&lexer{data: []byte(" % nothing\n")}).object(0); err == nil {
		t.Errorf("no object: read %#v, want an error", x)
	}
	for _, src := range []string{
		"(abc",
		"(a(b)",
		"(abc\\",
		"<41",
		"<4G>",
		"[1 2",
		"[1 [2]",
		"<< /A 1",
		"<< /A 1 /B",
		"<< /A >>",
		"<< 1 2 >>",
		"<< (k) 1 >>",
		")",
		">",
		"]",
		">>",
		"{",
	} {
		if objs, err := parseAll(src); err == nil {
			t.Errorf("%q: read %#v, want an error", src, objs)
		}
	}
}

// nested is n levels of open around inner.
func nested(open, inner, close string, n int) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

func TestParseDepth(t *testing.T) {
	// Nesting as deep as real files have reads fine.
	for _, src := range []string{nested("[", "", "]", 100), nested("<</A ", "1", ">>", 100)} {
		if _, err := parseAll(src); err != nil {
			t.Errorf("100 levels: %v", err)
		}
	}
	x := parseOne(t, nested("[", "", "]", maxDepth))
	for i := 1; i < maxDepth; i++ {
		a, ok := x.(Array)
		if !ok || len(a) != 1 {
			t.Fatalf("level %d of %d: %#v", i, maxDepth, x)
		}
		x = a[0]
	}
	// Deeper nesting is an error, not a stack overflow, and quick to find.
	start := time.Now()
	for _, src := range []string{
		nested("[", "", "]", 4*maxDepth),
		nested("<</A ", "1", ">>", 4*maxDepth),
		strings.Repeat("[<</K ", 200000),
		strings.Repeat("[", 1<<20),
	} {
		if _, err := parseAll(src); err == nil {
			t.Errorf("%.20q… (%d bytes) nested too deep: no error", src, len(src))
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusing deep nesting took %v", d)
	}
}
