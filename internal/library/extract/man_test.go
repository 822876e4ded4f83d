package extract

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An mdoc page reads as mandoc and groff render it: .Nm without a name
// is the page's name, and the marks among a macro's arguments (".Xr gzip
// 1 .", ".Ar bind_address ,") and .Ns, .Pf and .Ap write against their
// neighbours. The lines are ssh(1)'s (OpenSSH, BSD licence).
func TestMdocNameAndMarks(t *testing.T) {
	src := `.Dd $Mdocdate: November 28 2022 $
.Dt SSH 1
.Os
.Sh NAME
.Nm ssh
.Nd OpenSSH remote login client
.Sh SYNOPSIS
.Nm ssh
.Op Fl D Oo Ar bind_address : Oc Ns Ar port
.Op Fl w Ar local_tun Ns Op : Ns Ar remote_tun
.Op Ar command Op Ar argument ...
.Sh DESCRIPTION
.Nm
(SSH client) is a program for logging into a remote machine and for
executing commands on a remote machine.
X11 connections, arbitrary TCP ports and
.Ux Ns -domain
sockets can also be forwarded over the secure channel.
.Pp
The compression algorithm is the same used by
.Xr gzip 1 .
Compression is desirable on modem lines.
.Pp
However, an explicit
.Ar bind_address
may be used.
Only the
.Ar bind_address ,
or
.Pq see Xr ssh_config 5 ,
and the user
.Pf ( Ar login_name )
.Ap s
key.
.Dq Li yes
is the default.
.Sh SEE ALSO
.Rs
.%A T. Ylonen
.%T The Secure Shell (SSH) Protocol Architecture
.%R RFC 4251
.%D 2006
.Re
`
	d := mustExtract(t, []byte(src), "ssh.1")
	want := []string{
		"NAME: ssh — OpenSSH remote login client",
		"SYNOPSIS: ssh [-D [bind_address:]port] [-w local_tun[:remote_tun]] [command [argument ...]]",
		"DESCRIPTION: ssh (SSH client) is a program for logging into a remote machine and for executing commands on a remote machine. X11 connections, arbitrary TCP ports and UNIX-domain sockets can also be forwarded over the secure channel.",
		"DESCRIPTION: The compression algorithm is the same used by gzip(1). Compression is desirable on modem lines.",
		"DESCRIPTION: However, an explicit bind_address may be used. Only the bind_address, or (see ssh_config(5)), and the user (login_name)'s key. “yes” is the default.",
		"SEE ALSO: T. Ylonen, The Secure Shell (SSH) Protocol Architecture, RFC 4251, 2006.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A page written by asciidoctor (util-linux's fstab(5), mount(8))
// defines its macros inside a condition's block and ends each with ". ."
// rather than "..": the page is read, its strings (\*(Aq) and macros
// (.URL) with it, and what a false condition governs is left out.
func TestManAsciidoctor(t *testing.T) {
	src := `'\" t
.\" Generator: Asciidoctor 2.0.15
.TH "FSTAB" "5" "2022-05-11" "util\-linux 2.38.1" "File formats"
.ie \n(.g .ds Aq \(aq
.el       .ds Aq '
.ss \n[.ss] 0
.nh
.ad l
.de URL
\fI\\$2\fP <\\$1>\\$3
..
.als MTO URL
.if \n[.g] \{\
.  mso www.tmac
.  am URL
.    ad l
.  .
.  am MTO
.    ad l
.  .
.  LINKSTYLE blue R < >
.\}
.if t \{\
Printed only.
.\}
.SH "NAME"
fstab \- static information about the filesystems
.SH "DESCRIPTION"
.sp
The file \fBfstab\fP contains descriptive information; see \fBmount\fP(8).
Lines starting with \*(Aq#\*(Aq are comments.
.sp
Mail
.MTO "util\-linux\(atvger.kernel.org" "the list" ""
or see
.URL "https://www.kernel.org/pub/linux/utils/util\-linux/" "the archive" "."
`
	d := mustExtract(t, []byte(src), "fstab.5")
	want := []string{
		"NAME: fstab - static information about the filesystems",
		"DESCRIPTION: The file fstab contains descriptive information; see mount(8). Lines starting with '#' are comments.",
		"DESCRIPTION: Mail the list <util-linux@vger.kernel.org> or see the archive <https://www.kernel.org/pub/linux/utils/util-linux/>.",
	}
	if d.Title != "FSTAB(5)" {
		t.Errorf("title %q", d.Title)
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A page's macro that calls itself stops at the expansion budget.
func TestManMacroLoop(t *testing.T) {
	src := ".TH LOOP 1\n.de XX\nword\n.XX\n..\n.SH NAME\nloop \\- a page\n.XX\n"
	d := mustExtract(t, []byte(src), "loop.1")
	if len(d.Paragraphs) != 1 || !strings.HasPrefix(d.Paragraphs[0].Text, "loop - a page word word") {
		t.Errorf("paragraphs %d: %.80q", len(d.Paragraphs), d.Paragraphs[0].Text)
	}
}

// docbook's numbered lists: the number, a motion to the right, and the
// item's words after \c on the next line, read as "1. They".
func TestManDocbookList(t *testing.T) {
	src := ".TH GITPROTOCOL-COMMON 5\n.SH \"DESCRIPTION\"\n.RS 4\n.ie n \\{\\\n\\h'-04' 1.\\h'+01'\\c\n.\\}\n.el \\{\\\n.sp -1\n.IP \"  1.\" 4.2\n.\\}\nThey can include slash\n.RE\n"
	d := mustExtract(t, []byte(src), "gitprotocol-common.5")
	if len(d.Paragraphs) != 1 || d.Paragraphs[0].Text != "1. They can include slash" {
		t.Errorf("paragraphs: %q", provenance(d))
	}
}

// BenchmarkManPages reads a few of the machine's manual pages (mdoc,
// man(7) by hand, by asciidoctor and by docbook), gzipped as installed.
func BenchmarkManPages(b *testing.B) {
	var pages [][]byte
	var names []string
	for _, p := range []string{"man1/ssh.1.gz", "man1/bash.1.gz", "man5/fstab.5.gz", "man8/mount.8.gz", "man1/git-config.1.gz"} {
		data, err := os.ReadFile("/usr/share/man/" + p)
		if err == nil {
			pages, names = append(pages, data), append(names, p)
		}
	}
	if len(pages) == 0 {
		b.Skip("no manual pages in /usr/share/man")
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, data := range pages {
			if _, err := Bytes(data, names[i], ""); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// An mdoc reference reads as man prints it, whatever the order of its
// fields in the page: ssh-keyscan(1)'s ".%D 2006", ".%R RFC 4255", ".%T
// Using DNS …" was saved as "2006, RFC 4255, “Using DNS …”.", which no
// one reading the page sees. The wants are groff's `man -l` output of
// these references.
func TestMdocReferenceOrder(t *testing.T) {
	src := `.Dd January 1, 2020
.Dt X 1
.Os
.Sh NAME
.Nm x
.Nd y
.Sh SEE ALSO
.Rs
.%D 2006
.%R RFC 4255
.%T Using DNS to Securely Publish Secure Shell (SSH) Key Fingerprints
.Re
.Rs
.%D 2006
.%A Ann One
.%A Bob Two
.%A Cy Three
.%T A Title
.%J Some Journal
.%V 12
.Re
.Rs
.%B The Book
.%T Chapter T
.%A Solo
.%I Publisher
.%C Place
.Re
.Rs
.%A X
.%A Y
.%T Two Authors
.%U https://e.org
.Re
`
	d := mustExtract(t, []byte(src), "x.1")
	want := []string{
		"NAME: x — y",
		"SEE ALSO: Using DNS to Securely Publish Secure Shell (SSH) Key Fingerprints, RFC 4255, 2006.",
		"SEE ALSO: Ann One, Bob Two, and Cy Three, “A Title”, Some Journal, 12, 2006.",
		"SEE ALSO: Solo, “Chapter T”, The Book, Publisher, Place.",
		"SEE ALSO: X and Y, Two Authors, https://e.org.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A manual page's no-fill displays keep their lines, and a short one goes
// with the sentence that announces it (builder.announce), as HTML's <pre>
// does: man's .nf … .fi and .EX … .EE, mdoc's .Bd -literal … .Ed and .Dl.
// A heading ends no-fill, as man's .SH does.
func TestManDisplaysKeepLines(t *testing.T) {
	page := `.TH TEAPOT 1
.SH NAME
teapot \- brew tea
.SH SYNOPSIS
.nf
\fBteapot\fR [\fB\-t\fR \fIdegrees\fR]
\fBteapot\fR \fB\-\-list\fR
.fi
.SH EXAMPLES
To brew green tea at eighty degrees, run:
.PP
.EX
teapot -t 80 sencha
  # wait a minute
.EE
.PP
The pot whistles when the tea is ready.
.SH NOTES
.nf
The kettle is never filled twice
.SH BUGS
None known, and none
expected.
`
	want := []string{
		"teapot - brew tea",
		"teapot [-t degrees]\nteapot --list",
		"To brew green tea at eighty degrees, run:\n\nteapot -t 80 sencha\n  # wait a minute",
		"The pot whistles when the tea is ready.",
		"The kettle is never filled twice",
		"None known, and none expected.",
	}
	if diff := cmp.Diff(want, manTexts(t, page, "teapot.1")); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}

	mdoc := `.Dd January 1, 2026
.Dt TEAPOT 1
.Os
.Sh NAME
.Nm teapot
.Nd brew tea
.Sh EXAMPLES
Brew sencha for a minute:
.Dl $ teapot -m 1 sencha
Or list every tea the pot knows:
.Bd -literal -offset indent
$ teapot --list
sencha
  gyokuro
.Ed
.Bd -filled
Filled text
goes on one line.
.Ed
`
	want = []string{
		"teapot — brew tea",
		"Brew sencha for a minute:\n\n$ teapot -m 1 sencha",
		"Or list every tea the pot knows:\n\n$ teapot --list\nsencha\n  gyokuro",
		"Filled text goes on one line.",
	}
	if diff := cmp.Diff(want, manTexts(t, mdoc, "teapot.1")); diff != "" {
		t.Errorf("mdoc paragraphs (-want +got):\n%s", diff)
	}
}

// manTexts are the texts of the paragraphs a manual page is saved as.
func manTexts(t *testing.T, page, name string) []string {
	t.Helper()
	var got []string
	for _, p := range mustBytes(t, page, name, "").Paragraphs {
		got = append(got, p.Text)
	}
	return got
}

// What man prints, read as man prints it; each case's wants are groff's
// `man -l` output (-Tutf8) of its page, a table's cells a " | " apart, and
// each case failed before its change:
//   - named characters: shadow's translated pages write "l'âge" as
//     "l\*(Aq\(^age", "été" as "\('et\('e", German quotes as \(Bq … \(lq
//     („…“); the reader knew a dozen accented letters and dropped every
//     other name, so French lost its â and ç;
//   - groff's synopsis macros (.SY, .OP, .YS: adduser's and deluser's
//     pages): a synopsis was its loose arguments ("utilisateur --group
//     groupe");
//   - a mail address or link's address after its text (.MT/.ME, .UR/.UE:
//     "Vito Mule ⟨mulevito@gmail.com⟩"), a number register's value (.nr,
//     \n[step], \n+[step]: sensible-editor(1)'s numbered steps), a table
//     whose cells tbl's "tab(;)" separates (xz(1)'s presets);
//   - an escaped space inside an argument: w3m(1)'s ".BI \-bookmark\  file"
//     is "-bookmark file"; the reader cut the argument there, so "\" met
//     "file" and read a font escape: "-bookmarkle".
func TestManAsManPrints(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"named characters", ".TH CHAGE 1\n.ds Aq \\(aq\n.SH NOM\nchage \\- afficher l\\*(Aq\\(^age\n" +
			".SH DESCRIPTION\nLe mot de passe a \\('et\\('e chang\\('e, \\(,ca marche \\(`a la fa\\(,con d\\(aqun \\(vsk\\(oal; " +
			"\\(Bqnicht\\(lq, \\[u0061_0302]ge, \\(*a \\(mu \\(*b \\(<= 2\\(S2, 1\\(12 \\(ff\\(fi.\n",
			[]string{
				"chage - afficher l'âge",
				"Le mot de passe a été changé, ça marche à la façon d'un škål; „nicht“, âge, α × β ≤ 2², 1½ fffi.",
			}},
		{"synopsis macros", ".TH DELUSER 8\n.SH SYNOPSIS\n.SY deluser\n.OP \\-\\-backup\n.OP \\-\\-backup\\-to r\\('ep\n.OP \\-\\-conf fichier\n" +
			"\\fIutilisateur\\fP\n.YS\n.SY deluser\n\\fB\\-\\-group\\fP\n.OP \\-\\-debug\n\\fIgroupe\\fP\n.YS\n" +
			".SH DESCRIPTION\nRetire \\[char94] un utilisateur.\n",
			[]string{
				"deluser [--backup] [--backup-to rép] [--conf fichier] utilisateur",
				"deluser --group [--debug] groupe",
				"Retire ^ un utilisateur.",
			}},
		{"addresses, registers, tables", ".TH X 1\n.SH AUTHOR\nWritten by\n.MT mulevito@gmail.com\nVito Mule\n.ME .\nSee\n.UR https://example.org/\n.UE\n" +
			"and\n.UR https://a.org/x\nthe site\n.UE ,\nnow.\n.nr step 1 1\n.IP \\n[step]\nFirst\n.IP \\n+[step]\nSecond\n" +
			".TS\ntab(;);\nl l.\nA;B c\n\\-1;2 MiB\n.TE\n",
			[]string{
				"Written by Vito Mule ⟨mulevito@gmail.com⟩. See ⟨https://example.org/⟩ and the site ⟨https://a.org/x⟩, now.",
				"1 First",
				"2 Second",
				"A | B c",
				"-1 | 2 MiB",
			}},
		{"escaped space in an argument", ".TH W3M 1\n.SH OPTIONS\n.TP\n.BI \\-bookmark\\  file\nBookmark file.\n",
			[]string{"-bookmark file Bookmark file."}},
	} {
		d := mustExtract(t, []byte(c.src), "page.1")
		if diff := cmp.Diff(c.want, texts(d)); diff != "" {
			t.Errorf("%s: paragraphs (-want +got):\n%s", c.name, diff)
		}
	}
}
