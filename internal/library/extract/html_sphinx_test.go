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
	// The permalink anchor "¶" is not part of the heading.
	if h := d.Paragraphs[0].Heading; h != "6. ACPI considerations" {
		t.Errorf("heading %q, want %q", h, "6. ACPI considerations")
	}
}
