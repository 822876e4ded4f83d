package pdf

import "strconv"

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// ParseNumber reads a PDF integer ([+-]digits) or real ([+-]digits with
// one dot). isNum says whether w has the form of one; ok whether its value
// parses (as strconv does: an integer must fit in int64, a real must be finite).
func ParseNumber(w []byte) (x float64, ok, isNum bool) {
	s := w
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 {
		return 0, false, false
	}
	var m uint64
	nd, digits, frac, dots := 0, 0, 0, 0 // digits, significant digits, digits after the dot, dots
	for _, c := range s {
		switch {
		case c == '.':
			dots++
		case c >= '0' && c <= '9':
			nd++
			if m != 0 || c != '0' {
				digits++
			}
			m = m*10 + uint64(c-'0') // only used when digits ≤ 15
			if dots > 0 {
				frac++
			}
		default:
			return 0, false, false
		}
	}
	switch {
	case dots == 0:
		if digits <= 18 {
			x = float64(int64(m))
			if neg {
				x = float64(-int64(m))
			}
			return x, true, true
		}
		v, err := strconv.ParseInt(string(w), 10, 64)
		return float64(v), err == nil, true
	case dots == 1 && nd == 0:
		return 0, false, true // strconv refuses "."
	case dots == 1:
		// A value of at most 15 digits divided by an exact power of ten is
		// correctly rounded, as strconv.ParseFloat's result is.
		if digits <= 15 && frac < len(pow10) {
			x = float64(m) / pow10[frac]
			if neg {
				x = -x
			}
			return x, true, true
		}
		v, err := strconv.ParseFloat(string(w), 64)
		return v, err == nil, true
	}
	return 0, false, false
}

// IsInteger reports whether a number's word has no dot.
func IsInteger(w []byte) bool {
	for _, c := range w {
		if c == '.' {
			return false
		}
	}
	return true
}
