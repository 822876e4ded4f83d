package extract

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A Sphinx (Read the Docs theme) page, as in Debian's linux-doc: the whole
// page sits in a wrapper whose class ends in "-nav" and that holds the long
// menu of the sidebar (most of its text is links), with the page's own text
// in role="main".
func TestHTMLSphinxPage(t *testing.T) {
	page := `<!DOCTYPE html><html><head><meta charset="utf-8"><title>6. ACPI considerations &mdash; The Linux Kernel documentation</title></head>
<body class="wy-body-for-nav">
 <div class="wy-grid-for-nav">
  <nav data-toggle="wy-nav-shift" class="wy-nav-side"><div class="wy-menu wy-menu-vertical" role="navigation">
   <ul><li><a href="a.html">A guide to the Kernel Development Process</a></li><li><a href="b.html">Submitting patches: the essential guide to getting your code into the kernel</a></li>
    <li><a href="c.html">Code of conduct</a></li><li><a href="d.html">Kernel Maintainer Handbook</a></li><li><a href="e.html">The Linux driver implementer's API guide</a></li>
    <li><a href="f.html">Kernel subsystem documentation</a></li><li><a href="g.html">Locking in the kernel</a></li><li><a href="h.html">Linux kernel licensing rules</a></li>
    <li><a href="i.html">Writing kernel documentation</a></li><li><a href="j.html">Development tools for the kernel</a></li><li><a href="k.html">Kernel Testing Guide</a></li></ul>
  </div></nav>
  <section data-toggle="wy-nav-shift" class="wy-nav-content-wrap">
   <div class="wy-nav-content"><div class="rst-content">
    <div role="navigation" aria-label="Page navigation"><ul class="wy-breadcrumbs"><li><a href="index.html">Docs</a></li></ul></div>
    <div role="main" class="document">
     <section id="acpi"><h1>6. ACPI considerations<a class="headerlink" href="#acpi">¶</a></h1>
      <p>The general rule is that the ACPI namespace should describe everything the OS might use.</p>
     </section>
    </div>
    <footer><p>&copy; The kernel development community.</p></footer>
   </div></div>
  </section>
 </div>
</body></html>`
	d := mustBytes(t, page, "acpi-info.html", "")
	want := []string{"The general rule is that the ACPI namespace should describe everything the OS might use."}
	if diff := cmp.Diff(want, texts(d)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The permalink anchor "¶" is not part of the heading, which is the
	// item's title (and so no heading of the paragraph below it).
	if h := d.Title; h != "6. ACPI considerations" {
		t.Errorf("title %q, want %q", h, "6. ACPI considerations")
	}
}

// A Sphinx chapter page of Python's docs (library/netdata.html): a
// sentence, then the chapter's table of contents (a toctree: a list of
// links to the chapter's pages) in role="main", beside the sidebar's
// menu of links outside it. The toctree is what the page shows a person;
// it was dropped as a menu, and 27 of Python's 498 pages were saved as
// their navigation (10 as nothing).
func TestHTMLSphinxTocTree(t *testing.T) {
	page := `<!DOCTYPE html><html><head><title>Internet Data Handling &#8212; Python 3.11 documentation</title></head><body>
<div class="related" role="navigation"><ul><li><a href="../genindex.html">index</a></li><li><a href="../py-modindex.html">modules</a></li><li><a href="email.html">next</a></li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">
 <section id="internet-data-handling"><h1>Internet Data Handling<a class="headerlink" href="#internet-data-handling">¶</a></h1>
 <p>This chapter describes modules which support handling data formats commonly used on the internet.</p>
 <div class="toctree-wrapper compound"><ul>
  <li class="toctree-l1"><a class="reference internal" href="email.html"><code>email</code> — An email and MIME handling package</a></li>
  <li class="toctree-l1"><a class="reference internal" href="json.html"><code>json</code> — JSON encoder and decoder</a></li>
  <li class="toctree-l1"><a class="reference internal" href="mailbox.html"><code>mailbox</code> — Manipulate mailboxes in various formats</a></li>
  <li class="toctree-l1"><a class="reference internal" href="base64.html#base64.b64encode"><code>base64</code> — Base16, Base32, Base64, Base85 Data Encodings</a></li>
 </ul></div>
 </section>
</div></div></div>
<div class="sphinxsidebar" role="navigation"><div class="sphinxsidebarwrapper">
 <h4>Previous topic</h4><p><a href="security_warnings.html">Security Considerations</a></p>
 <ul><li><a href="../bugs.html">Report a Bug</a></li><li><a href="../_sources/library/netdata.rst.txt">Show Source</a></li><li><a href="../contents.html">Contents</a></li></ul>
</div></div></div>
</body></html>`
	d := mustBytes(t, page, "netdata.html", "")
	want := []string{
		"This chapter describes modules which support handling data formats commonly used on the internet.",
		"email — An email and MIME handling package",
		"json — JSON encoder and decoder",
		"mailbox — Manipulate mailboxes in various formats",
		"base64 — Base16, Base32, Base64, Base85 Data Encodings",
	}
	if diff := cmp.Diff(want, texts(d)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A list of links in an article's <main> that names other pages by their
// URL or from the site's root is a menu of other articles, not the
// article's text: the rule that keeps a documentation page's table of
// contents keeps only lists of files beside the page.
func TestHTMLMainRelatedLinks(t *testing.T) {
	page := `<!DOCTYPE html><html><head><title>Kettles</title></head><body><main>
 <h1>Kettles</h1>
 <p>A kettle boils water for tea; an electric one switches itself off when the water boils.</p>
 <ul class="list"><li><a href="/news/1">Teapots in decline</a></li><li><a href="https://example.com/news/2">The price of leaves</a></li><li><a href="/news/3">Matcha again</a></li></ul>
</main></body></html>`
	d := mustBytes(t, page, "kettles.html", "")
	want := []string{"A kettle boils water for tea; an electric one switches itself off when the water boils."}
	if diff := cmp.Diff(want, texts(d)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Sphinx makes a section's id from its heading: the sections of IDLE's
// page are "file-menu-shell-and-editor", "edit-menu-shell-and-editor"…,
// and "menu" marks a page's menu; the sections were dropped (IDLE's page
// kept 0.49 of its words). An id made from the section's own heading names
// the section; a menu's id or class still marks a menu.
func TestHTMLSectionIDFromHeading(t *testing.T) {
	page := `<!DOCTYPE html><html><head><title>IDLE</title></head><body>
<div id="menu"><p>Home · Downloads · Documentation · Community</p></div>
<div class="body" role="main"><section id="idle"><h1>IDLE</h1>
 <p>IDLE is Python’s Integrated Development and Learning Environment.</p>
 <section id="file-menu-shell-and-editor"><h3>File menu (Shell and Editor)</h3>
  <dl class="simple"><dt>New File</dt><dd><p>Create a new file editing window.</p></dd>
  <dt>Open…</dt><dd><p>Open an existing file with an Open dialog.</p></dd></dl>
 </section>
</section></div>
</body></html>`
	d := mustBytes(t, page, "idle.html", "")
	want := []string{
		"IDLE is Python’s Integrated Development and Learning Environment.",
		"New File", "Create a new file editing window.",
		"Open…", "Open an existing file with an Open dialog.",
	}
	if diff := cmp.Diff(want, texts(d)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
