package extract

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The pages below are trimmed from Debian's documentation, as packaged
// (debian-reference-en 2.100, debian-handbook 11.20220922): their
// markup as written by DocBook, a few of their sentences. Both are under
// the GNU GPL (version 2 or later), which allows this.

// A chapter of Debian Reference (ch06.en.html, trimmed): DocBook's XHTML
// writes its anchors as <a id="…"/>, which HTML parsing leaves open, so
// that the anchor wraps the rest of the page; the chapter was read as
// nothing but links and dropped, and the page saved as its navigation bar
// ("Chapter 10. Data management | | Chapter 12. Programming", issue 39).
const debianReferenceChapter = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
  <head><title>Chapter 6. Network applications</title></head>
  <body>
    <div class="navheader">
      <table width="100%" summary="Navigation header">
        <tr><th colspan="3" align="center">Chapter 6. Network applications</th></tr>
        <tr>
          <td align="left"><a accesskey="p" href="ch05.en.html"><img src="images/prev.png" alt="Prev"/></a> </td>
          <th width="60%" align="center"> </th>
          <td align="right"> <a accesskey="n" href="ch07.en.html"><img src="images/next.png" alt="Next"/></a></td>
        </tr>
      </table>
      <hr/>
    </div>
    <div class="chapter">
      <div class="titlepage"><div><div><h1 class="title"><a id="_network_applications"/>Chapter 6. Network applications</h1></div></div></div>
      <div class="toc">
        <p><strong>Table of Contents</strong></p>
        <dl class="toc">
          <dt><span class="section"><a href="ch06.en.html#_web_browsers">6.1. Web browsers</a></span></dt>
          <dt><span class="section"><a href="ch06.en.html#_other_network_application_clients">6.6. Other network application clients</a></span></dt>
          <dt><span class="section"><a href="ch06.en.html#_the_diagnosis_of_the_system_daemons">6.7. The diagnosis of the system daemons</a></span></dt>
        </dl>
      </div>
      <p>After establishing network connectivity (see <a class="xref" href="ch05.en.html" title="Chapter 5. Network setup">Chapter 5, <em>Network setup</em></a>), you can run various network applications.</p>
      <div class="tip" style="margin-left: 0.5in; margin-right: 0.5in;">
        <table border="0" summary="Tip">
          <tr><td rowspan="2" align="center" valign="top"><img alt="[Tip]" src="images/tip.png"/></td><th align="left">Tip</th></tr>
          <tr><td align="left" valign="top"><p>For modern Debian specific guide to the network infrastructure, read <a class="ulink" href="https://www.debian.org/doc/manuals/debian-handbook/network-infrastructure">The Debian Administrator's Handbook — Network Infrastructure</a>.</p></td></tr>
        </table>
      </div>
      <div class="section">
        <div class="titlepage"><div><div><h2 class="title"><a id="_other_network_application_clients"/>6.6. Other network application clients</h2></div></div></div>
        <p>Here are other network application clients.</p>
        <div class="table">
          <a id="listofnetworkapplicationclients"/>
          <p class="title"><strong>Table 6.13. List of network application clients</strong></p>
          <div class="table-contents">
            <table class="table" summary="List of network application clients" border="1">
              <thead><tr><th> package </th><th> popcon </th><th> size </th><th> protocol </th><th> description </th></tr></thead>
              <tbody>
                <tr>
                  <td><a class="ulink" href="http://packages.debian.org/sid/netcat"> <code class="literal">netcat</code> </a></td>
                  <td><a class="ulink" href="http://qa.debian.org/popcon-graph.php?packages=netcat">I:37</a></td>
                  <td><a class="ulink" href="http://packages.qa.debian.org/n/netcat.html">16</a></td>
                  <td> <a class="ulink" href="https://en.wikipedia.org/wiki/TCP/IP">TCP/IP</a> </td>
                  <td> TCP/IP swiss army knife </td>
                </tr>
                <tr>
                  <td><a class="ulink" href="http://packages.debian.org/sid/openssl"> <code class="literal">openssl</code> </a></td>
                  <td><a class="ulink" href="http://qa.debian.org/popcon-graph.php?packages=openssl">V:841, I:995</a></td>
                  <td><a class="ulink" href="http://packages.qa.debian.org/o/openssl.html">2269</a></td>
                  <td> <a class="ulink" href="https://en.wikipedia.org/wiki/Transport_Layer_Security">SSL</a> </td>
                  <td> Secure Socket Layer (SSL) binary and related cryptographic tools </td>
                </tr>
              </tbody>
            </table>
          </div>
        </div>
      </div>
      <div class="section">
        <div class="titlepage"><div><div><h2 class="title"><a id="_the_diagnosis_of_the_system_daemons"/>6.7. The diagnosis of the system daemons</h2></div></div></div>
        <p>The <code class="literal">telnet</code> program enables manual connection to the system daemons and its diagnosis.</p>
      </div>
    </div>
    <div class="navfooter">
      <hr/>
      <table width="100%" summary="Navigation footer">
        <tr>
          <td width="40%" align="left"><a accesskey="p" href="ch05.en.html"><img src="images/prev.png" alt="Prev"/></a> </td>
          <td width="20%" align="center"> </td>
          <td width="40%" align="right"> <a accesskey="n" href="ch07.en.html"><img src="images/next.png" alt="Next"/></a></td>
        </tr>
        <tr>
          <td width="40%" align="left" valign="top">Chapter 5. Network setup </td>
          <td width="20%" align="center"><a accesskey="h" href="index.en.html"><img src="images/home.png" alt="Home"/></a></td>
          <td width="40%" align="right" valign="top"> Chapter 7. GUI System</td>
        </tr>
      </table>
    </div>
  </body>
</html>`

func TestHTMLDebianReferenceChapter(t *testing.T) {
	d := mustBytes(t, debianReferenceChapter, "ch06.en.html", "")
	if d.Title != "Chapter 6. Network applications" {
		t.Errorf("title %q", d.Title)
	}
	want := []string{
		": After establishing network connectivity (see Chapter 5, Network setup), you can run various network applications.",
		": Tip",
		": For modern Debian specific guide to the network infrastructure, read The Debian Administrator's Handbook — Network Infrastructure.",
		"6.6. Other network application clients: Here are other network application clients.",
		"6.6. Other network application clients: Table 6.13. List of network application clients",
		"6.6. Other network application clients: package | popcon | size | protocol | description",
		"6.6. Other network application clients: netcat | I:37 | 16 | TCP/IP | TCP/IP swiss army knife",
		"6.6. Other network application clients: openssl | V:841, I:995 | 2269 | SSL | Secure Socket Layer (SSL) binary and related cryptographic tools",
		"6.7. The diagnosis of the system daemons: The telnet program enables manual connection to the system daemons and its diagnosis.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}

// A page of the Debian Administrator's Handbook (the-debian-project.html
// and sect.apparmor.html, trimmed): its boxes (CULTURE, BACK TO BASICS,
// TIP…) are <div class="sidebar"> among the paragraphs, and were dropped as
// a page's side column; and of its sub-sections only the largest was kept,
// as the block holding two thirds of the text (issue 39).
const debianHandbookPage = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><title>14.4. Introduction to AppArmor</title></head><body><div id="banner"><a href="http://debian-handbook.info/get/"><span class="text">Download the ebook</span></a></div><p id="title"><a class="left" href="http://www.debian.org"><img alt="Product Site" src="Common_Content/images//image_left.png" /></a><a class="right" href="index.html"><img alt="Documentation Site" src="Common_Content/images//image_right.png" /></a></p><ul class="docnav top"><li class="previous"><a accesskey="p" href="sect.supervision.html"><strong>Prev</strong></a></li><li class="home">The Debian Administrator's Handbook</li><li class="next"><a accesskey="n" href="sect.selinux.html"><strong>Next</strong></a></li></ul><div class="section"><div class="titlepage"><div><div><h2 class="title"><a xmlns="" id="sect.apparmor"></a>14.4. Introduction to AppArmor</h2></div></div></div><a id="id-1.17.7.2" class="indexterm"></a><div class="section"><div class="titlepage"><div><div><h3 class="title"><a xmlns="" id="sect.apparmor-principles"></a>14.4.1. Principles</h3></div></div></div><div class="para">
				AppArmor is a <span class="emphasis"><em>Mandatory Access Control</em></span> (MAC) system built on Linux's LSM (<span class="emphasis"><em>Linux Security Modules</em></span>) interface.
			</div><div class="sidebar"><div class="titlepage"><div><div><p class="title"><strong><span class="emphasis"><em>CULTURE</em></span> Origin of the Debian name</strong></p></div></div></div><div class="para">
			Look no further: Debian is not an acronym. This name is, in reality, a contraction of two first names: that of Ian Murdock, and his girlfriend at the time, Debra. Debra + Ian = Debian.
		</div></div><div class="para">
				AppArmor profiles are stored in <code class="filename">/etc/apparmor.d/</code> and they contain a list of access control rules on resources that each program can make use of.
			</div></div><div class="section"><div class="titlepage"><div><div><h3 class="title"><a xmlns="" id="sect.apparmor-enabling"></a>14.4.2. Enabling AppArmor and managing AppArmor profiles</h3></div></div></div><div class="para">
				AppArmor support is built into the standard kernels provided by Debian.
			</div></div><div class="section"><div class="titlepage"><div><div><h3 class="title"><a xmlns="" id="sect.apparmor-new-profile"></a>14.4.3. Creating a new profile</h3></div></div></div><div class="para">
				Even though creating an AppArmor profile is rather easy, most programs do not have one. This section will show you how to create a new profile from scratch just by using the target program and letting AppArmor monitor the system call it makes and the resources it accesses.
			</div><div class="para">
				The most important programs that need to be confined are the network facing programs as those are the most likely targets of remote attackers. That is why AppArmor conveniently provides an <code class="command">aa-unconfined</code> command to list the programs which have no associated profile and which expose an open network socket. With the <code class="option">--paranoid</code> option you get all unconfined processes that have at least one active network connection.
			</div><div class="para">
				In the following example, we will thus try to create a profile for <code class="command">/sbin/dhclient</code> (there already is a profile shipped by <span class="pkg pkg">apparmor-profiles</span>, so you can compare your results to the official one). For this we will use <code class="command">aa-genprof dhclient</code>. It will invite you to use the application in another window and when done to come back to <code class="command">aa-genprof</code> to scan for AppArmor events in the system logs and convert those logs into access rules.
			</div></div></div><ul class="docnav"><li class="previous"><a accesskey="p" href="sect.supervision.html"><strong>Prev</strong>14.3. Supervision: Prevention, Detection, Deterrence</a></li><li class="up"><a accesskey="u" href="#"><strong>Up</strong></a></li><li class="home"><a accesskey="h" href="index.html"><strong>Home</strong></a></li><li class="next"><a accesskey="n" href="sect.selinux.html"><strong>Next</strong>14.5. Introduction to SELinux</a></li></ul></body></html>`

func TestHTMLDebianHandbookPage(t *testing.T) {
	d := mustBytes(t, debianHandbookPage, "sect.apparmor.html", "")
	want := []string{
		"14.4.1. Principles: AppArmor is a Mandatory Access Control (MAC) system built on Linux's LSM (Linux Security Modules) interface.",
		"14.4.1. Principles: CULTURE Origin of the Debian name",
		"14.4.1. Principles: Look no further: Debian is not an acronym. This name is, in reality, a contraction of two first names: that of Ian Murdock, and his girlfriend at the time, Debra. Debra + Ian = Debian.",
		"14.4.1. Principles: AppArmor profiles are stored in /etc/apparmor.d/ and they contain a list of access control rules on resources that each program can make use of.",
		"14.4.2. Enabling AppArmor and managing AppArmor profiles: AppArmor support is built into the standard kernels provided by Debian.",
	}
	got := provenance(d)
	if diff := cmp.Diff(want, got[:min(len(got), len(want))]); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
	if n := len(got); n != len(want)+3 {
		t.Errorf("%d paragraphs, want %d", n, len(want)+3)
	}
	all := strings.Join(got, "\n")
	for _, furniture := range []string{"Download the ebook", "Prev", "Next", "14.5. Introduction to SELinux"} {
		if strings.Contains(all, furniture) {
			t.Errorf("furniture %q kept", furniture)
		}
	}
}

// A chapter's own table of contents names places in the page
// ("ch11.en.html#_iconv" in ch11.en.html): it repeats the headings below,
// and is left out, where a book's table of contents, naming its other
// files, is kept (TestHTMLBookContents).
func TestHTMLChapterOwnContents(t *testing.T) {
	page := `<html><head><title>Chapter 11. Data conversion</title></head><body><div class="chapter">
<h1 class="title"><a id="_data_conversion"/>Chapter 11. Data conversion</h1>
<div class="toc"><p><strong>Table of Contents</strong></p><dl class="toc">
<dt><span class="section"><a href="ch11.en.html#_iconv">11.1. Converting text with iconv</a></span></dt>
<dt><span class="section"><a href="ch11.en.html#_utf8">11.2. Checking files are UTF-8</a></span></dt>
<dt><span class="section"><a href="ch11.en.html#_names">11.3. Converting file names</a></span></dt>
</dl></div>
<p>Tools and tips for converting data formats on the Debian system are described.</p>
<div class="section"><h2 class="title"><a id="_iconv"/>11.1. Converting text with iconv</h2><p>The iconv command converts the encoding of text.</p></div>
<div class="section"><h2 class="title"><a id="_utf8"/>11.2. Checking files are UTF-8</h2><p>Use iconv with the same encoding on both sides.</p></div>
<div class="section"><h2 class="title"><a id="_names"/>11.3. Converting file names</h2><p>The convmv command renames files from one encoding to another.</p></div>
</div></body></html>`
	d := mustBytes(t, page, "ch11.en.html", "")
	want := []string{
		": Tools and tips for converting data formats on the Debian system are described.",
		"11.1. Converting text with iconv: The iconv command converts the encoding of text.",
		"11.2. Checking files are UTF-8: Use iconv with the same encoding on both sides.",
		"11.3. Converting file names: The convmv command renames files from one encoding to another.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}
