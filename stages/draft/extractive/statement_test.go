package extractive

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sponge-library/sponge/jsonl"
)

func TestIsStatement(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Green tea is steeped at eighty degrees.", true},
		{"The -g flag sets a global option, and C-b is the prefix key.", true},
		{"In 1973, about 3.5% of the oil came from the U.S. and Canada.", true},
		{"Don't rinse a well-seasoned pan with soap.", true},
		{"Green tea.", false}, // fewer than three words
		{"Next: Tables, Previous: Lists, Up: Top   [Contents][Index]", false},
		{"Next: Invoking tar, Previous: Tutorial, Up: Top", false},
		{"int main(int argc, char **argv) {\n    int i = 0;\n    for (i = 0; i < argc; i++) {\n        puts(argv[i]);\n    }\n}", false},
		{"C-b c      Create a new window.\nC-b n      Change to the next window.\nC-b p      Change to the previous window.\nC-b d      Detach the current client.", false},
		{"ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-B bind_interface] [-b bind_address] [-c cipher_spec] [-D [bind_address:]port] destination [command]", false},
		{"x = malloc(n * sizeof *x); if (x == NULL) return -1;", false},
		// A table of keys flattened into one line.
		{"C-b Send the prefix key C-o Rotate the panes forward C-z Suspend the client ! Break the pane out", false},
		{"Press C-b, then d, to detach the session.", true},
		// A manual's entry: its options, then prose.
		{"-z, --gzip, --gunzip, --ungzip Filter the archive through gzip.", true},
		{"-B, --bind-address, --bind-interface, -b, -c, -D", false},
		{"-a, --archive same as -dR --preserve=all", true},
		// Code that lost its lines: a reference page's declaration, Go
		// with its comments, a shell session.
		{"Structure xsltStyleItemSort struct _xsltStyleItemSort { const xmlChar * stype : sort int has_stype : sort int number : sort const xmlChar * order : sort int has_order", false},
		{"// An interface representing only the type int. interface { int } // An interface representing all types with underlying type int. interface { ~int }", false},
		{"$ tar --warning=decompress-program -x -f archive.Z tar (child): cannot run compress: No such file or directory", false},
		// Prose about code stays a statement.
		{"Also note that a call to ffi_prep_cif_var with nfixedargs=nototalargs is NOT equivalent to a call to ffi_prep_cif.", true},
		{"The expression a * b is evaluated before c, and x = y assigns.", true},
		{"In BRCA2, we observed multiple BCCRs spanning c.1 to c.596 (BCCR1; RHR = 1.71; 95% CI, 1.06-2.78; P = .03) and c.772 to c.1806 (RHR = 1.63; P = .01).", true},
		// Chinese and Japanese write dashes, a name's dots and quotes
		// between words without spaces (betweenWords).
		{"無脊椎動物—如昆蟲—的循環系統是開放式的，血液會流進體腔中。", true},
		{"第一次提倡埃斯特雷馬杜拉語的寫作由十九世紀後期出現的一位西班牙著名詩人何塞·加布里埃爾，之前埃斯特雷馬杜拉語只是口頭語言。", true},
		{"她被称为“铁娘子”，任期内推行了私有化。", true},
		{"ジョン・レノンはビートルズの一員として活動した。", true},
	} {
		if got := IsStatement(c.text); got != c.want {
			t.Errorf("IsStatement(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// A navigation line and a listing that hold the question's words are never
// quoted; the sentence that answers is.
func TestListingsAreNotStatements(t *testing.T) {
	listing := "Next: Cleaning, Previous: Tools, Up: Top [Contents][Index]\n\n" +
		"chain_clean(chain *c) {\n    lube = degreaser(c->chain, CHAIN_LUBE);\n    wipe(c->chain);\n    return chain_oil(c, lube);\n}"
	ps := []*jsonl.Passage{
		passage(1, "Chain care", listing),
		passage(2, "Chain care", "Oil the chain with a drop of lube on each roller after you clean it."),
	}
	q := "How do I lube and clean the chain?"
	for _, s := range draft(t, New(), q, ps) {
		if s.Passage == 1 {
			t.Errorf("quoted %q from the listing", s.Quote)
		}
	}
	// The rule, not the scores, keeps the listing out.
	d := New()
	d.Params.Sentences = true
	listed := false
	for _, s := range draft(t, d, q, ps) {
		listed = listed || s.Passage == 1
	}
	if !listed {
		t.Error("with whole sentences the listing is not quoted either: the test proves nothing")
	}
}

// A sentence that introduces what follows, and the clauses of code that
// lost its lines, are never quoted, though they hold the question's words.
func TestIntroductionsAndFlatCodeAreNotStatements(t *testing.T) {
	for _, c := range []struct {
		q, not, answer string
	}{
		{"How is a string literal represented in Go?",
			"These examples all represent the same string literal in Go:",
			"A string literal represents a string constant obtained from concatenating a sequence of characters."},
		{"Is there a type that is both an int and a string?",
			"// An interface representing only the type int. interface { int } // An interface representing all types with underlying type int. " +
				"interface { ~int } // An interface representing all types with underlying type int that implement the String method. " +
				"interface { ~int String() string } // An interface representing an empty type set: there is no type that is both an int and a string. interface { int string }",
			"Every type is either an int or a string or neither, and a type set may be empty."},
	} {
		ps := []*jsonl.Passage{passage(1, "Types", c.not), passage(2, "Types", c.answer)}
		for _, s := range draft(t, New(), c.q, ps) {
			if s.Passage == 1 {
				t.Errorf("%s: quoted %q", c.q, s.Quote)
			}
		}
		d := New()
		d.Params.Sentences = true
		quoted := false
		for _, s := range draft(t, d, c.q, ps) {
			quoted = quoted || s.Passage == 1
		}
		if !quoted {
			t.Errorf("%s: with whole sentences, passage 1 is not quoted either: the test proves nothing", c.q)
		}
	}
}

// A block of code keeps its lines (item.CodeOf): saved with the sentence
// that announces it, the two are quoted together, lines and all; its lines
// alone are never a statement, though they hold the question's words.
// Fails without blockAfter's blank line (no statement) or inCode.
func TestCodeBlockQuotedWithItsAnnouncer(t *testing.T) {
	code := ">>> while True print('Hello world')\n  File \"<stdin>\", line 1\n    while True print('Hello world')\n" +
		"                   ^\nSyntaxError: invalid syntax"
	announcer := "Syntax errors, also known as parsing errors, are perhaps the most common kind of complaint you get while you are still learning Python:"
	q := "What does a syntax error look like in Python?"
	got := draft(t, New(), q, []*jsonl.Passage{passage(1, "Syntax Errors", announcer+"\n\n"+code)})
	if len(got) != 1 || got[0].Quote != announcer+"\n\n"+code {
		t.Errorf("announced block: got %d statements, want the sentence with its block", len(got))
		for _, s := range got {
			t.Logf("%q", s.Quote)
		}
	}
	code = "print(1)\nA syntax error in Python looks like this when the parser meets it.\nprint(2)"
	for _, s := range draft(t, New(), q, []*jsonl.Passage{passage(1, "Syntax Errors", announcer+"\n\n"+code)}) {
		if strings.Contains(code, s.Quote) {
			t.Errorf("a line of the block alone: quoted %q", s.Quote)
		}
	}
}

// A paragraph that opens with a shell prompt and its command is a session
// whole: the lines the command printed are no statements, though they
// read as sentences (issue 40: "17 profiles are in complain mode." was
// quoted from aa-status's output). A paragraph of prose lines is read as
// before. Fails without inCode's session (the interpreter's session without
// isShellSession's >>>).
func TestSessionOutputIsNoStatement(t *testing.T) {
	q := "How many profiles are in complain mode?"
	session := "# aa-status\napparmor module is loaded.\n32 profiles are loaded.\n17 profiles are in complain mode.\n0 processes are unconfined but have a profile defined."
	for _, cand := range Candidates(q, []*jsonl.Passage{passage(1, "AppArmor", session)}, &DefaultParams, nil) {
		t.Errorf("quoted %q from a session's output", cand.Quote)
	}
	// Python's interactive session, opening with its prompt (issue 40:
	// "> f.seek(-3, 2) # Go to the 3rd byte before the end 13" was quoted
	// first for "Which mode opens a file so that what I write goes to its
	// end?").
	python := ">>> f = open('workfile', 'rb+')\n>>> f.write(b'0123456789abcdef')\n16\n>>> f.seek(5) # Go to the 6th byte in the file\n5\n>>> f.seek(-3, 2) # Go to the 3rd byte before the end of the file\n13"
	for _, cand := range Candidates("Where does f.seek go in the file?", []*jsonl.Passage{passage(1, "Input and Output", python)}, &DefaultParams, nil) {
		t.Errorf("quoted %q from an interpreter's session", cand.Quote)
	}
	prose := "AppArmor reports its state.\nSeventeen profiles are in complain mode after the installation."
	if len(Candidates(q, []*jsonl.Passage{passage(1, "AppArmor", prose)}, &DefaultParams, nil)) == 0 {
		t.Error("lines of prose gave no statement")
	}
}

const longSentence = "The committee, which had met in the old town hall every spring since the charter was signed by the seven founding villages, " +
	"and which counted among its members the miller, the schoolmaster, two farmers and the widow of the former mayor, decided after a long debate; " +
	"the new bridge over the river would be built of stone from the quarry at Hollin Edge, not of timber, so that it would outlast the century, " +
	"and the toll would be one penny for a cart and nothing for a person on foot."

func TestLongSentenceQuotesItsClause(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Village history", longSentence)}
	q := "What stone was the new bridge built of?"
	got := draft(t, New(), q, ps)
	if len(got) == 0 {
		t.Fatal("no statement")
	}
	for _, s := range got {
		if n := utf8.RuneCountInString(s.Quote); n > MaxStatement {
			t.Errorf("a statement of %d characters: %q", n, s.Quote)
		}
		if !strings.Contains(longSentence, s.Quote) {
			t.Errorf("%q is not the saved words", s.Quote)
		}
	}
	if !strings.Contains(got[0].Quote, "Hollin Edge") {
		t.Errorf("first statement %q, want the clause about the bridge", got[0].Quote)
	}
	d := New()
	d.Params.Sentences = true
	if whole := draft(t, d, q, ps); len(whole) == 0 || utf8.RuneCountInString(whole[0].Quote) <= MaxStatement {
		t.Errorf("with whole sentences: %+v, want the long sentence", whole)
	}
}

// A clause of a few words cut from a long sentence is not a statement.
func TestNoFragmentClauses(t *testing.T) {
	long := "-L bind_address:port:host:hostport -L bind_address:port:remote_socket -L local_socket:host:hostport " +
		"-L local_socket:remote_socket Specifies that connections to the given TCP port or Unix socket on the local (client) " +
		"host are to be forwarded to the given host and port, or Unix socket, on the remote side."
	cl := Clauses(long)
	if len(cl) < 2 || wordCount(long[cl[len(cl)-1].Start:cl[len(cl)-1].End]) >= minClauseWords {
		t.Fatalf("clauses %v: the test wants a short last clause", cl)
	}
	for _, s := range draft(t, New(), "What does ssh -L forward to the remote side?", []*jsonl.Passage{passage(1, "ssh(1)", long)}) {
		if wordCount(s.Quote) < minClauseWords {
			t.Errorf("quoted the fragment %q", s.Quote)
		}
	}
}

func TestClauses(t *testing.T) {
	for _, sp := range Clauses(longSentence) {
		c := longSentence[sp.Start:sp.End]
		if utf8.RuneCountInString(c) > MaxStatement || strings.TrimSpace(c) != c || c == "" {
			t.Errorf("clause %q", c)
		}
	}
	if got := Clauses("A short one."); len(got) != 1 || got[0] != (Span{0, 12}) {
		t.Errorf("Clauses of a short sentence = %v", got)
	}
}

// A negated question is not answered by a sentence that says the opposite.
func TestRefusesANegatedQuestion(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Complexity", "For a precise definition of what it means to solve a problem in a given time, a deterministic Turing machine is used.")}
	q := "What is not used for a precise definition of what it means to solve a problem in a given time?"
	if got := draft(t, New(), q, ps); len(got) != 0 {
		t.Errorf("answered %q", got[0].Quote)
	}
	d := New()
	d.Params.Negation = false
	if got := draft(t, d, q, ps); len(got) == 0 {
		t.Error("refused without the rule too: the test proves nothing")
	}
	// A sentence that negates may answer.
	ps[0].Text = "A stack is not used for a precise definition of what it means to solve a problem in a given time."
	if got := draft(t, New(), q, ps); len(got) == 0 {
		t.Error("refused a sentence that negates")
	}
}

// The question's names and numbers must meet near its other words.
func TestRefusesWhenNamesDoNotMeet(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Normans", "The Normans were the people who in the 10th and 11th centuries gave their name to Normandy, a region in France.")}
	q := "Who gave their name to Normandy in the 1000s and 1100s?"
	if got := draft(t, New(), q, ps); len(got) != 0 {
		t.Errorf("answered %q", got[0].Quote)
	}
	d := New()
	d.Params.MaxNames = 0
	if got := draft(t, d, q, ps); len(got) == 0 {
		t.Error("refused without the rule too: the test proves nothing")
	}
	if got := draft(t, New(), "Who gave their name to Normandy in the 10th century?", ps); len(got) == 0 {
		t.Error("refused a question whose names and numbers meet")
	}
}

// A question that asks how to do something is asked without its numbers:
// the manual writes "n", not the reader's 7.
func TestHowToNumbersAreValues(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "find", "The -mtime n test is true when the file's data was last modified n days ago: use it to find files modified in the last few days.")}
	if got := draft(t, New(), "How do I find files modified in the last 7 days?", ps); len(got) == 0 {
		t.Error("refused a question how to do something for its number")
	}
	if got := draft(t, New(), "Which files were modified in the last 7 days?", ps); len(got) != 0 {
		t.Errorf("answered a question that names the number 7: %q", got[0].Quote)
	}
	for q, want := range map[string]string{"How do I find files modified in the last 7 days?": "How do I find files modified in the last days?",
		"How do I install Python 3?": "How do I install Python 3?", "How can I set the timeout to 30?": "How can I set the timeout to ?",
		"What happened in the last 7 days?": "What happened in the last 7 days?"} {
		if got := withoutValues(q); got != want {
			t.Errorf("withoutValues(%q) = %q, want %q", q, got, want)
		}
	}
}

// A sentence's word ending in "-free" negates: "race-free programs" are
// programs without races.
func TestFreeNegates(t *testing.T) {
	for s, want := range map[string]bool{"The guarantee holds for race-free programs.": true,
		"It is free software.": false, "A lock-free queue": true, "free-form text": false, "-free alone": false} {
		if got := freeOf(s); got != want {
			t.Errorf("freeOf(%q) = %v", s, got)
		}
	}
	ps := []*jsonl.Passage{passage(1, "Memory model", "The memory model guarantees sequential consistency for race-free programs.")}
	if got := draft(t, New(), "What does the memory model guarantee for programs without races?", ps); len(got) == 0 {
		t.Error("refused: the sentence's race-free is the question's without races")
	}
}

// A question that names a program's option is answered only by sentences
// near that option, written as the question writes it.
func TestOptionsMustBeWritten(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "GZIP(1)", "--rsyncable When you synchronize a compressed file between two computers, "+
		"this option allows rsync to transfer only files that were changed, so rsync does not delete and send the entire archive again.")}
	q := "What does rsync --delete do?"
	if got := draft(t, New(), q, ps); len(got) != 0 {
		t.Errorf("answered %q", got[0].Quote)
	}
	d := New()
	d.Params.Options = false
	if got := draft(t, d, q, ps); len(got) == 0 {
		t.Error("refused without the rule too: the test proves nothing")
	}
	ps = []*jsonl.Passage{
		passage(1, "SSH(1)", "-l login_name Specifies the user to log in as on the remote machine, which ssh uses for every connection it makes."),
		passage(2, "SSH(1)", "-L [bind_address:]port:host:hostport Specifies that connections to the given TCP port on the local host are to be forwarded by ssh to the given host and port."),
	}
	got := draft(t, New(), "What does ssh -L do?", ps)
	if len(got) == 0 || got[0].Passage != 2 {
		t.Errorf("answered %v, want passage 2's sentence first", got)
	}
	for _, s := range got {
		if s.Passage == 1 {
			t.Errorf("quoted the -l option for -L: %q", s.Quote)
		}
	}
	// The manual's entry for the option answers; a sentence that only
	// uses it does not, though it holds more of the question's words.
	use := passage(1, "TAR(1)", "If a subprocess invoked by tar exits with a nonzero code, tar exits with it too. "+
		"This happens when a compression option such as -z was used in tar and the compressor failed.")
	entry := passage(2, "TAR(1)", "-z, --gzip, --gunzip, --ungzip Filter the archive through gzip.")
	got = draft(t, New(), "What does tar -z do?", []*jsonl.Passage{use, entry})
	if len(got) == 0 {
		t.Fatal("refused tar -z")
	}
	for _, s := range got {
		if s.Passage != 2 {
			t.Errorf("quoted %q, not the entry for -z", s.Quote)
		}
	}
	if got := draft(t, New(), "What does tar -z do?", []*jsonl.Passage{use}); len(got) == 0 {
		t.Error("without the entry, the sentence that uses -z is not quoted either: the test proves nothing")
	}
	// Of two programs' entries for -D, the one of the program asked about.
	ps = []*jsonl.Passage{
		passage(1, "scp(1)", "-D sftp_server_path Connect directly to a local SFTP server program rather than a remote one via ssh."),
		passage(2, "ssh(1)", "-D bind_address:port Specifies a local dynamic application-level port forwarding."),
	}
	got = draft(t, New(), "What does ssh -D do?", ps)
	if len(got) == 0 || got[0].Passage != 2 || len(got) > 1 {
		t.Errorf("answered %v, want ssh(1)'s entry alone", got)
	}
	// Of one manual's entries for -c, the one in its section of options.
	builtin := passage(1, "BASH(1)", "-c The maximum size of core files created by bash.")
	builtin.Heading = "SHELL BUILTIN COMMANDS"
	own := passage(2, "BASH(1)", "-c If the -c option is present, then commands are read from the first non-option argument.")
	own.Heading = "OPTIONS"
	got = draft(t, New(), "What does bash -c do?", []*jsonl.Passage{builtin, own})
	if len(got) != 1 || got[0].Passage != 2 {
		t.Errorf("answered %v, want the OPTIONS section's entry alone", got)
	}
	// Between programs a section of options counts for nothing: tar's
	// entry under DESCRIPTION answers for tar, not gzip's under OPTIONS.
	gz := passage(1, "GZIP(1)", "-c --stdout --to-stdout Write output on standard output; keep original files unchanged.")
	gz.Heading, gz.ItemID = "OPTIONS", strings.Repeat("cd", 32)
	tarc := passage(2, "TAR(1)", "-c, --create Create a new archive.")
	tarc.Heading = "DESCRIPTION"
	got = draft(t, New(), "What does tar -c do?", []*jsonl.Passage{gz, tarc})
	if len(got) == 0 || got[0].Passage != 2 {
		t.Errorf("answered %v, want tar's entry", got)
	}
	// The entry's opening sentence comes first.
	entry = passage(1, "CURL(1)", "-L, --location (HTTP) Make curl follow a redirect when the server answers with a 3XX code. "+
		"When curl follows a redirect with -L, it sends the request again with the method curl would otherwise select.")
	got = draft(t, New(), "What does curl -L do?", []*jsonl.Passage{entry})
	if len(got) == 0 || !strings.HasPrefix(got[0].Quote, "-L, --location") {
		t.Errorf("answered %v, want the entry's opening first", got)
	}
}

// Two sentences that say the same thing are one statement.
func TestSameThingOnce(t *testing.T) {
	ps := []*jsonl.Passage{
		passage(1, "Tea", "Green tea is steeped at eighty degrees for two minutes."),
		passage(2, "Tea again", "Green tea is steeped at eighty degrees for about two minutes."),
	}
	d := New()
	d.Params.MinRelative, d.Params.MinRelativeQuestion, d.Params.MinItemAnswer = 0, 0, 0
	q := "How is green tea steeped?"
	if got := draft(t, d, q, ps); len(got) != 1 {
		t.Errorf("%d statements, want the sentence once", len(got))
	}
	d.Params.Same = 0
	if got := draft(t, d, q, ps); len(got) != 2 {
		t.Errorf("without the rule: %d statements, want 2", len(got))
	}
}

// A first statement far above the rest stands alone.
func TestStrongFirstAlone(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Tea", "Green tea is steeped at eighty degrees for two minutes. Tea comes in tins. Some tea is green.")}
	q := "How long is green tea steeped at eighty degrees?"
	if got := draft(t, New(), q, ps); len(got) != 1 {
		t.Errorf("%d statements, want 1", len(got))
	}
	d := New()
	d.Params.MinRelative, d.Params.MinRelativeQuestion = 0, 0
	if got := draft(t, d, q, ps); len(got) < 2 {
		t.Errorf("without the rule: %d statements, want more", len(got))
	}
}

func TestExplains(t *testing.T) {
	a := Choose(Candidates("How hot should the water be for green tea?", teaAndCompost, &DefaultParams, nil), &DefaultParams)
	if len(a.Why) != len(a.Statements) || len(a.Statements) == 0 || !strings.Contains(a.Why[0], "«green»") {
		t.Errorf("why %q for %d statements", a.Why, len(a.Statements))
	}
	r := Choose(Candidates("Who gave their name to Normandy in the 1000s?", []*jsonl.Passage{passage(1, "Normans", "The Normans gave their name to Normandy in the 10th century.")}, &DefaultParams, nil), &DefaultParams)
	if len(r.Statements) != 0 || !strings.Contains(r.Refused, "«1000s»") {
		t.Errorf("refused %q, want the missing number named", r.Refused)
	}
}

// A claim to check is not a question: a sentence that contradicts it is
// the evidence a person wants, so the rules on the subject leave it be.
func TestClaimsAreNotRefusedOnTheSubject(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "Complexity", "For a precise definition of what it means to solve a problem in a given time, a deterministic Turing machine is used.")}
	claim := "A deterministic Turing machine is not used for a precise definition of solving a problem in a given time."
	if got := draft(t, New(), claim, ps); len(got) == 0 {
		t.Error("refused a claim")
	}
	if got := draft(t, New(), "Is a deterministic Turing machine not used for a precise definition of solving a problem in a given time?", ps); len(got) != 0 {
		t.Error("the rules on the subject do not refuse it as a question: the test proves nothing")
	}
}

// A long sentence is not cut before a parenthesis when a dash or a comma
// will do: the clause holding "(especially Warsaw) was a major success"
// keeps its subject, the Three-Year Plan.
func TestClausesKeepAnAside(t *testing.T) {
	s := "Like many cities in Central and Eastern Europe, infrastructure in Warsaw suffered considerably during its time as an Eastern Bloc economy – though it is worth mentioning that the initial Three-Year Plan to rebuild Poland (especially Warsaw) was a major success, but what followed was very much the opposite."
	holds := func() bool {
		for _, sp := range Clauses(s) {
			c := s[sp.Start:sp.End]
			if strings.Contains(c, "Three-Year Plan") && strings.Contains(c, "major success") {
				return true
			}
		}
		return false
	}
	if !holds() {
		t.Errorf("no clause holds the plan and its success: %v", Clauses(s))
	}
	defer func(c int) { parenCut = c }(parenCut)
	parenCut = 1
	if holds() {
		t.Error("cut before the parenthesis too: the test proves nothing")
	}
}

// Each rule of neverStatement, with texts in several languages and
// scripts: those it must hold (the rule's name is NotStatement's answer)
// and prose it must leave alone (no rule holds it). A rule's Scripts say
// where it sees nothing; the prose cases include those scripts, so that a
// rule that reads case or ASCII does not take their sentences for tables.
func TestNeverStatementRules(t *testing.T) {
	prose := []string{
		"Green tea is steeped at eighty degrees for two minutes.",
		"In 1973, about 3.5% of the oil came from the U.S. and Canada.",
		"Pages 78 and 79 describe the multicol package in detail.",
		"Add \\UseRawInputEncoding as the first line of the file to keep the old encoding.",
		"It costs $ 5 to ship, and # 3 is the cheapest box.",
		"NASA and ESA launched the probe together in 2018.",
		"NASA launched the probe together in 2018",
		"ISO images can be written to a USB stick",
		"USB 3.0 Promoter Group members agreed",
		"Der Tee wird bei achtzig Grad zwei Minuten lang gezogen.",
		"Чай заваривают при восьмидесяти градусах две минуты.",
		"绿茶用八十度的水冲泡两分钟。",
		"緑茶は八十度のお湯で二分間淹れます。",
		"녹차는 팔십 도의 물에 이 분 동안 우려냅니다.",
		"يُنقع الشاي الأخضر في ماء بدرجة ثمانين لمدة دقيقتين.",
		"বাংলা ভাষা দক্ষিণ এশিয়ার একটি প্রধান ভাষা।",
		"ชาเขียวแช่ในน้ำอุณหภูมิแปดสิบองศาเป็นเวลาสองนาที",
		"The release of 1994 was followed by 2.09 in 1996 and 2e in 2018.",
		"-r Recursively copy entire directories. Note that scp follows symbolic links encountered in the tree traversal.",
		"The file ~/.ssh/authorized_keys lists the public keys that are permitted for logging in.",
		"ไฟล์ ~/.ssh/authorized_keys เก็บกุญแจสาธารณะที่อนุญาตให้เข้าสู่ระบบ สำหรับผู้ใช้แต่ละคน",
		"scp — OpenSSH secure file copy",
		"ssh-keygen generates, manages and converts authentication keys for ssh(1).",
		"accessing accented characters via commands;",
		"2561 อายุรวม 94 ปี 7 เดือน 20 วัน",
		"Note: the Pin: line comes first, and Pin-Priority: sets its weight.",
		"Der Anteil lag bei 20 % und 2019 bei 30 % der Fläche.",
		"A total of 173 690 sepsis cases were identified among 2 901 019 adults admitted in 2014.",
		"This review will explore plaque fissuring, rupture, or disruption.7 8 9 Atherosclerosis is the result of a complex interaction.",
		"A raw seconds since epoch (Jan 1 1970 00:00:00 UTC) as a hexadecimal number.",
		"Between Oct 14, 1990, and Sept 25, 1997, 160 921 participants were randomly assigned.",
		"inflammation, with increased endothelial permeability, endothelial activation, and monocyte recruitment9 10 11 12 13 14 ;",
		"Пакет занимает 104 КиБ, а его популярность V:0, I:4 невелика.",
		"In 1992 Ken Thompson and Rob Pike developed the UTF-8 encoding scheme",
		"The census was taken in 1990, 1995, 2000 and 2005.",
		"Die Gipfel messen 1.200, 1.450, 1.900 und 3.050 Meter.",
		"On 7 December 2026 the release 2.100 came out.",
		"1.5Mb of memory is enough for the build",
		"2.5GHz processors build it in an hour",
		"dev=tmpfs | The device hosting the target object is a tmpfs (an in-memory filesystem).",
		"Allow LDAP admin account to behave like local root? | Yes. This allows using the usual passwd command for changing passwords stored in the LDAP database.",
		"In our case, it understands there are two programs (ls and sort), with a data stream flowing from one to the other (denoted by the | character, known as a pipe).",
		"The \"[\" and \"]\" in the regular expression of the \"ps aux | grep -e \"[e]xim4*\"\" command above enable grep to avoid matching itself.",
		"Run “ls -l | sort | head” to see the first files of the folder.",
		"dev=tmpfs | Das Gerät ist ein tmpfs, ein Dateisystem im Arbeitsspeicher.",
		"dev=tmpfs | Устройство, на котором лежит объект, это tmpfs в памяти.",
		"ชาเขียว | ชาเขียวแช่ในน้ำอุณหภูมิแปดสิบองศาเป็นเวลาสองนาที",
		"Note: the pin applies to every package Note: it is read first",
		"grep, egrep, fgrep, rgrep - print lines that match patterns",
		"When the screen goes berserk, type ”reset” at the command prompt, or ”stty sane” and ”clear” if that fails.",
		"Pick ”Settings” → ”Region & Language” → ”Language” to change it.",
		"He said \"Go\" Then \"Stop\" and left.",
		"Note that a, b and c are set, and d is not.",
		"Oats: US: 32lb[4] (14.5150kg) Canada: 34lb[5] (15.4221kg) Barley: 48lb[4] (21.7724kg) Malted barley: 34lb (15.4221kg) Shelled maize (corn) at 15.5% moisture by weight: 56lb[4] (25.4012kg) Wheat at 13.5% moisture by weight: 60lb[4] (27.2155kg)",
	}
	for _, c := range []struct {
		rule  string
		holds []string
	}{
		{"a table's row", []string{
			"sudo | execute sudo without their password",
			"Pin-Priority | apt-pinning effects to the package",
			"smartmontools | V:189, I:236 | 2199 | control and monitor storage systems using S.M.A.R.T.",
			"syslinux | V:3, I:41 | 344 | Supported | Isolinux | This understands the ISO9660 filesystem. This is used by the boot CD.",
			"/etc/aliases | account name alias for incoming mail | general, activated after newaliases(1) command execution.",
			"sudo | Befehle ohne ihr Passwort als root ausführen",
			"sudo | выполнять команды от имени root без пароля",
			"sudo | 无需密码即可执行 sudo",
			"sudo | パスワードなしで sudo を実行する",
			"sudo | تنفيذ الأوامر دون كلمة مرور",
			"sudo | คำสั่ง | เรียกใช้โดยไม่ต้องใช้รหัสผ่าน",
		}},
		{"numbered lines of code", []string{
			"78 \\ifnum\\col@number>20 79 \\PackageError{multicol}% 80 {Too many columns}\\@ehc",
			"12 if (x > 0) { 13 return x; 14 }",
			"١٢ if(x>0){ ١٣ return;",
			"for balancing 23 \\c@minrows: Provide minrows counter for",
		}},
		{"a table's row of keys", []string{
			"default public SSH keys that clients use to connect to this account on this SSH server ~/.ssh/id_rsa secret SSH-2 RSA key of the user",
			"match pattern packages declaring broken dependency of type ~DB[type:]pattern match packages to which the pattern matching package declares dependency",
			"Standardschlüssel des Benutzers für diesen Server ~/.ssh/id_ed25519 geheimer Schlüssel des Benutzers",
		}},
		{"TeX code", []string{
			"\\def\\foo{bar} \\let\\baz\\relax \\newcommand{\\qux}{1}",
			"\\begin{multicols}{3} \\raggedcolumns \\end{multicols}",
			"\\docolaction: Support star with \\docolaction 33 v1.8v \\multi@column@out: Removed dead code, the case where this can go wrong is too obscure",
		}},
		{"a shell session", []string{
			"$ tar -xf archive.tar",
			"# apt-get install debian-reference-en",
			"user@host:~$ ls -l /etc",
			"Затем выполните $ cd src $ make install",
			">>> # The argument to repr() may be any Python object:",
			">>> f.seek(-3, 2) # Go to the 3rd byte before the end",
		}},
		{"a table's header", []string{
			"NUMBER DATE DESCRIPTION NAME Debian Reference iv",
			"НОМЕР ДАТА ОПИСАНИЕ ИМЯ",
			"PACKAGE POPCON SIZE DESCRIPTION",
		}},
		{"a table's row of numbers", []string{
			"aptitude V:4, I:62 4455 terminal-based",
			"2019 4,1 3,8 2,9 Umsatz",
			"２０１９ ３２ ４５ 売上",
			"mercurial V:5, I:37 2013 Mercurial distributed DVCS in Python and some C",
			"pax V:10, I:18 170 .pax pax(1) new POSIX standard archiver, compromise between tar and cpio",
			"Rust 1,81 2,45 3,02 Systemprogrammiersprache mit Speichersicherheit ohne Speicherbereinigung",
			"Москва 2019 12,6 13,0 столица и крупнейший город страны",
		}},
		{"a table's row of commands", []string{
			"Unset job environment ”variable” ”systemctl unset-environment variable” Reload all unit files and daemons ”systemctl daemon-reload” Shut down the system ”systemctl poweroff”",
			"List all target unit configuration ”systemctl list-units --type=target” List all service unit configuration ”systemctl list-units --type=service” List all unit configuration types ”systemctl list-units --type=help”",
		}},
		{"a table's empty cells", []string{
			"Upgradable Packages list packages organized as section → area → package New Packages , , Installed Packages , , Not Installed Packages",
			"Пакеты для обновления , , Установленные пакеты , ,",
		}},
		{"a record of fields", []string{
			"Explanation: The package xserver-xorg-video-intel provided Explanation: in experimental can be used safely Package: xserver-xorg-video-intel Pin: release a=experimental Pin-Priority: 500",
			"Erklärung: Das Paket aus experimental ist sicher Erklärung: es wird bevorzugt Paket: xserver-xorg-video-intel Pin: release a=experimental Pin-Priority: 500",
			"Пояснение: пакет из experimental можно ставить Пояснение: он важнее Пакет: xserver-xorg-video-intel Pin: release a=experimental Приоритет: 500",
			"Package: debian-reference-common Pin: release a=unstable Pin-Priority: 700",
			"Archive: experimental Origin: Debian Label: Debian NotAutomatic: yes Component: main Architecture: amd64",
			"Paket: debian-reference-de Version: 2.100 Priorität: optional",
			"Пакет: debian-reference-ru Версия: 2.100 Приоритет: optional",
			"软件包：debian-reference-zh 版本：2.100 优先级：可选",
		}},
		{"a table of contents", []string{
			"The new default . . . . . . . . . . . 2",
			"BOM: byte order mark handling .......... 2",
			"2.1.1 What is wrong with current live systems 23 2.1.2 Live systems 24",
			"1.1 Введение 3 1.2 Установка 5",
			"Inhaltsverzeichnis Einleitung …… 3",
			"The new default 2 Compatibility 2 BOM: byte order mark handling 2",
			"Введение 3 Установка пакетов 5 Настройка 9",
		}},
		{"a piece of a sentence", []string{
			"documents using only ascii in the input file and",
			"sudo execute sudo without their password lpadmin execute commands to add, modify, and remove printers from printer databases",
			"die Dokumente, die nur ASCII in der Eingabedatei verwenden, und",
			"документы, в которых только ASCII во входном файле, и",
			"documentation packages: no special requirements – interpreter program packages: compatible interpreter must be available",
		}},
		{"a heading", []string{
			"2.1.1 What is wrong with current live systems",
			"4.7.1. sudo",
			"6.2.5 apt-pinning",
			"Chapter 11. Data conversion",
			"Appendix B. Tips and tricks",
			"Table 1.22: Command exit codes",
			"Table 2: Text symbols formerly from the textcomp package",
			"Таблица 3: Коды завершения команд",
			"Kapitel 11. Datenkonvertierung",
			"Глава 11. Преобразование данных",
			"3.2 Установка пакетов",
			"4.1 Installation der Pakete",
			"IV. Results and Discussion",
			"§ 4 Scope of the Licence",
			"第二章 安装软件包",
			"제2장 패키지 설치",
			"一、概述",
			"Changes to Packages in the Tools Category",
			"安装软件包",
			"パッケージのインストール",
			"๒.๑ การติดตั้งแพ็กเกจ",
			"NOTE More AppArmor profiles",
			"BACK TO BASICS Finding the Debian package of a program",
			"CULTURE Origin of the Debian name",
			"ANMERKUNG Weitere AppArmor-Profile",
			"ЗАМЕТКА Другие профили AppArmor",
			"SPECIAL CASE cron and daylight savings time",
			"=== 2. Weltkrieg ===",
			"==== Museo Frida Kahlo ====",
			"== Политика ==",
			"12.16List of build tool packages 228",
			"10.13Git tips 197",
			"11.14Список интерпретаторов PostScript 209",
		}},
	} {
		for _, text := range c.holds {
			if got := NotStatement(text); got != c.rule {
				t.Errorf("NotStatement(%q) = %q, want %q", text, got, c.rule)
			}
			if IsStatement(text) {
				t.Errorf("IsStatement(%q) = true", text)
			}
		}
	}
	for _, text := range prose {
		if got := NotStatement(text); got != "" {
			t.Errorf("NotStatement(%q) = %q, want none: it is prose", text, got)
		}
	}
	// Every rule says which scripts it sees its shape in.
	for _, r := range neverStatement {
		if r.Scripts == "" {
			t.Errorf("rule %q says nothing of its scripts", r.Name)
		}
	}
}

// A sentence that announces a command is quoted with the command after it
// in its passage, word for word; with a block too long to read at a
// glance, or none, it is no statement (issue 40: "You can change it by
// the following." was quoted alone).
func TestAnnouncerBringsItsBlock(t *testing.T) {
	long := strings.Repeat("$ sudo update-alternatives --install /usr/bin/editor editor /usr/bin/vim.basic 50\n", 4)
	for _, c := range []struct {
		name, q, text, want string // want: the first quote; "" when the announcer is never quoted
	}{
		{"English, a full stop", "How do I change the default editor?",
			"Debian keeps its default editor behind /usr/bin/editor.\nYou can change the default editor by the following.\n$ sudo update-alternatives --config editor",
			"You can change the default editor by the following.\n$ sudo update-alternatives --config editor"},
		{"German, a colon", "Wie ändere ich den Standardeditor?",
			"Den Standardeditor ändern Sie so:\n$ sudo update-alternatives --config editor",
			"Den Standardeditor ändern Sie so:\n$ sudo update-alternatives --config editor"},
		{"Chinese, a full-width colon", "如何更改默认编辑器？",
			"用以下命令更改默认编辑器：\n$ sudo update-alternatives --config editor",
			"用以下命令更改默认编辑器：\n$ sudo update-alternatives --config editor"},
		{"a block too long", "How do I change the default editor?",
			"You can change the default editor by the following.\n" + long, ""},
		{"no block: prose follows", "How do I change the default editor?",
			"You can change the default editor by the following. The editor is vim by default on new systems.", ""},
	} {
		// The candidates, not the answer: the refusal rules, which
		// weigh the question's words by language, are not this test's.
		var quotes []string
		for _, cand := range Candidates(c.q, []*jsonl.Passage{passage(1, "Editors", c.text)}, &DefaultParams, nil) {
			quotes = append(quotes, cand.Quote)
			if !strings.Contains(c.text, cand.Quote) {
				t.Errorf("%s: %q is not the passage's words", c.name, cand.Quote)
			}
			if c.want == "" && strings.Contains(cand.Quote, "the following") {
				t.Errorf("%s: quoted %q", c.name, cand.Quote)
			}
		}
		if c.want != "" && !slices.Contains(quotes, c.want) {
			t.Errorf("%s: candidates %q, want %q among them", c.name, quotes, c.want)
		}
	}
	// And the answer quotes it first.
	text := "Debian keeps its default editor behind /usr/bin/editor.\nYou can change the default editor by the following.\n$ sudo update-alternatives --config editor"
	if got := draft(t, New(), "How do I change the default editor?", []*jsonl.Passage{passage(1, "Editors", text)}); len(got) == 0 || !strings.HasSuffix(got[0].Quote, "--config editor") {
		t.Errorf("statements %+v, want the announcer with its command first", got)
	}
	for _, c := range []struct {
		sentence string
		want     bool
	}{
		{"You can change it by the following.", true},
		{"Run:", true},
		{"Führen Sie Folgendes aus:", true},
		{"执行以下命令：", true},
		{"The output looks like this.", true},
		{"The following is a list of packages.", false},
		{"You can change it at any time.", false},
	} {
		if got := introduces(c.sentence); got != c.want {
			t.Errorf("introduces(%q) = %v, want %v", c.sentence, got, c.want)
		}
	}
}

// A clause cut from a long sentence ends at a comma, not as a sentence
// does: the rules that read a sentence's end (a table's row, a heading)
// are not asked of it, or a clause dense with numbers was taken for a
// table's row (one more answerable question of en-tydiqa's tuning half
// refused).
func TestClausesAreNotRows(t *testing.T) {
	clause := "the peaks stand at 1,200, 1,450, 1,900, 2,100, 2,350, 2,600, 2,800 and 3,050 metres;"
	if !isStatement(clause, true) {
		t.Errorf("the clause %q is no statement", clause)
	}
	if IsStatement(clause) {
		t.Errorf("as a whole text %q is a statement: the test proves nothing", clause)
	}
	long := "The committee, which had met in the old town hall every spring since the charter was signed by the seven founding villages " +
		"and which counted among its members the miller, the schoolmaster, two farmers and the widow of the former mayor, decided after a long debate; " +
		clause + " the new road would climb them all before the winter came to the valley, and the toll on it would be one penny for a cart, " +
		"two pennies for a coach drawn by four horses, and nothing at all for a person on foot, a child or a priest on his way to the chapel."
	if cl := Clauses(long); len(cl) != 3 || long[cl[1].Start:cl[1].End] != clause {
		t.Fatalf("clauses %v: the test wants the heights as a clause of their own", cl)
	}
	found := false
	for _, c := range Candidates("How high do the peaks stand?", []*jsonl.Passage{passage(1, "Mountains", long)}, &DefaultParams, nil) {
		found = found || strings.Contains(c.Quote, "3,050 metres")
	}
	if !found {
		t.Error("the clause with the heights is no candidate")
	}
}

// A row with an empty cell (" | | ", as sponge saves a table's blank cell
// or a navigation bar's: 'Chapter 11. Data conversion | | Appendix A.')
// is a row, and reading it does not panic: sponge-draft died on the
// Debian Reference's 'backup with rsync' (slice bounds out of range).
func TestTableRowWithEmptyCell(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"rsync | | a fast remote file copy program", []string{"rsync", "", "a fast remote file copy program"}},
		{"a | | | b", []string{"a", "", "", "b"}},
		{"| | x", []string{"|", "x"}},
		{"x | | ", []string{"x", "", ""}},
	} {
		if got := tableCells(c.text); !slices.Equal(got, c.want) {
			t.Errorf("tableCells(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	if !isTableRow("rsync | | a fast remote file copy program") || IsStatement("Chapter 11. Data conversion | | Appendix A. Appendix") {
		t.Error("a row with an empty cell is taken for a statement")
	}
}

// FuzzTableCells: cutting any text into cells never panics, and the cells
// are the text's own words, in order.
func FuzzTableCells(f *testing.F) {
	for _, s := range []string{"a | b", "a | | b", " | | | ", "“a | b” | c", "(|) | |", "x |  | y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rest := text
		for _, c := range tableCells(text) {
			i := strings.Index(rest, c)
			if i < 0 {
				t.Fatalf("tableCells(%q): cell %q is not in the text after the cells before it", text, c)
			}
			rest = rest[i+len(c):]
		}
	})
}

// A caption or a heading whose number ends in a full stop is cut by the
// sentence splitter after it ('Example 9.4.' | 'The
// /backup/root/dirvish/default.conf file'); the part after the number is
// no statement either: 'backup with rsync' over the Debian Handbook quoted
// it as its third statement. A sentence of a line that is prose stays.
func TestHeadingCutAtItsNumber(t *testing.T) {
	ps := []*jsonl.Passage{
		passage(1, "9.10. Backup", "The main configuration is in the /etc/dirvish/master.conf file."),
		passage(2, "9.10. Backup", "Example 9.4. The /backup/root/dirvish/default.conf file"),
	}
	var quotes []string
	for _, c := range Candidates("Where is the dirvish configuration file for the backup?", ps, &DefaultParams, nil) {
		quotes = append(quotes, c.Quote)
	}
	if slices.ContainsFunc(quotes, func(q string) bool { return strings.HasPrefix(q, "The /backup/root") }) {
		t.Errorf("the caption's title is a statement: %q", quotes)
	}
	if !slices.ContainsFunc(quotes, func(q string) bool { return strings.HasPrefix(q, "The main configuration") }) {
		t.Errorf("the prose before it is no statement: %q", quotes)
	}
}

// A heading before a sentence's first words, on a line of its own or
// joined to them as MediaWiki writes it, is no part of the sentence: the
// sentence is quoted whole, where with its heading it was too long and cut
// at its last comma, losing the answer (issue 40, GermanQuAD).
func TestHeadingApartFromItsSentence(t *testing.T) {
	sentence := "Obwohl die indische Öffentlichkeit ganz und gar nicht mit den Nazis sympathisierte und Großbritanniens Haltung gegenüber Deutschland begrüßte, erklärten die führenden politischen Kräfte Indiens, nur in den Krieg eintreten zu wollen, wenn im Gegenzug Indien seine Unabhängigkeit erhalten würde."
	after := " Der britische Generalgouverneur erklärte beim Ausbruch des Zweiten Weltkrieges den Kriegszustand."
	for _, heading := range []string{"=== 2. Weltkrieg === ", "=== 2. Weltkrieg ===\n", "2.3 Der Zweite Weltkrieg\n"} {
		ps := []*jsonl.Passage{passage(1, "Geschichte Indiens", heading+sentence+after)}
		var quotes []string
		for _, c := range Candidates("Warum wollte Indien in den zweiten Weltkrieg eintreten?", ps, &DefaultParams, nil) {
			quotes = append(quotes, c.Quote)
		}
		if !slices.Contains(quotes, sentence) {
			t.Errorf("after %q, the sentence is not quoted whole: %q", heading, quotes)
		}
	}
}

// A manual page's NAME line: the commands' names, a dash, what they are,
// no sentence end; a sentence with a dash, a row of keys and a name line's
// look-alike with a capital name or a sentence end are not. Fails without
// isNameLine (the name line rule).
func TestIsNameLine(t *testing.T) {
	for text, want := range map[string]bool{
		"tar - an archiving utility":                                    true,
		"grep, egrep, fgrep, rgrep - print lines that match patterns":   true,
		"ssh-keygen — OpenSSH authentication key utility":               true,
		"gzip, gunzip, zcat – compress or expand files":                 true,
		"tar - an archiving utility.":                                   false,
		"The archive – a regular file – can be a device":                false,
		"Debian - the universal operating system":                       false,
		"documentation packages: no special requirements – interpreter": false,
		"tar -": false,
	} {
		if got := isNameLine(text); got != want {
			t.Errorf("isNameLine(%q) = %v, want %v", text, got, want)
		}
	}
}

// A PDF's table saved as a header (the heading) and cells (paragraphs): a
// cell is no statement, a sentence under the same header is, and so is a
// fragment under a section's heading. Fails without isCell ("SSH server
// (secure)" was quoted first for "Which Debian package holds the SSH
// server?").
func TestCellsUnderATableHeader(t *testing.T) {
	cell := func(n int, heading, text string) *jsonl.Passage {
		p := passage(n, "Debian Reference", text)
		p.Heading = heading
		return p
	}
	q := "Which Debian package holds the SSH server?"
	for _, text := range []string{"SSH server (secure)", "openssh-client V:856, I:997 5609 ssh -X SSH client (secure) xauth V:155, I:952 81 xauth X authority file utility"} {
		for _, c := range Candidates(q, []*jsonl.Passage{cell(1, "package popcon size command description", text)}, &DefaultParams, nil) {
			t.Errorf("quoted the cell %q", c.Quote)
		}
	}
	for _, ps := range []*jsonl.Passage{
		cell(1, "package popcon size command description", "The SSH server is in the openssh-server package."),
		cell(1, "6.3 The SSH server", "SSH server packages for Debian"),
		cell(1, "package popcon size command description", "-o, --output=FILE write the SSH server's package list to FILE"),
	} {
		if len(Candidates(q, []*jsonl.Passage{ps}, &DefaultParams, nil)) == 0 {
			t.Errorf("%q under %q gave no statement", ps.Text, ps.Heading)
		}
	}
}
