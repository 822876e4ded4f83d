package pdf

// Used only by the tests.

// Repaired reports whether the file's cross-reference was rebuilt.
func (d *Doc) Repaired() bool { return d.repaired }

// Keys are a dictionary's keys, in no particular order.
func (v Value) Keys() []string {
	var ks []string
	for k := range v.dict() {
		ks = append(ks, string(k))
	}
	return ks
}

// Bool is a boolean's value.
func (v Value) Bool() bool {
	b, _ := v.x.(bool)
	return b
}
