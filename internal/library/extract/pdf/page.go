package pdf

// Page is a page of a document: its dictionary and the resources it has
// or inherits from the page tree.
type Page struct {
	V         Value
	resources Value
}

// Resources are the page's resources, its own or inherited.
func (p Page) Resources() Value { return p.resources }

// Pages walks the page tree once, in order, and returns at most limit
// pages. A node met twice (a loop, which broken files have) is walked
// once; check is called now and then and stops the walk with its error.
func (d *Doc) Pages(limit int, check func() error) ([]Page, error) {
	var pages []Page
	seen := map[any]bool{}
	visits := 0
	var walk func(v, res Value, depth int) error
	walk = func(v, res Value, depth int) error {
		visits++
		// Loops are cut by seen; visits bounds a tree of many empty nodes.
		if depth > 64 || visits > 8*limit+1024 || len(pages) >= limit {
			return nil
		}
		if visits%1024 == 0 {
			if err := check(); err != nil {
				return err
			}
		}
		if id := v.ID(); id != nil {
			if seen[id] {
				return nil
			}
			seen[id] = true
		}
		if r := v.Key("Resources"); r.Kind() == KindDict {
			res = r
		}
		kids := v.Key("Kids")
		page := v.Key("Type").Name() == "Page"
		if page || kids.Kind() != KindArray {
			if page || !v.Key("Contents").IsNull() {
				pages = append(pages, Page{V: v, resources: res})
			}
			return nil
		}
		for i := 0; i < kids.Len(); i++ {
			if err := walk(kids.Index(i), res, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	err := walk(d.Root().Key("Pages"), Value{d: d}, 0)
	return pages, err
}
