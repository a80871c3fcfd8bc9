package load

import (
	"fmt"

	"cuelang.org/go/cue/literal"
	"github.com/cockroachdb/apd/v3"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// MaxNumberText is the longest text a number in a string map may be
// written out as: the longest slurm.conf value. It keeps a short literal
// such as 1e999999 from becoming a million digits.
const MaxNumberText = 1024

// stringify turns the numbers and booleans among the values of a string
// map (Options.Strings) into the strings the API takes: a boolean becomes
// "true" or "false", a number its exact value written out in decimal,
// without an exponent (10 → "10", 1.5 → "1.5", 16.0 → "16.0", 1e6 →
// "1000000", and in CUE 0x10 → "16", 1Ki → "1024"). The node keeps its
// position, so a later finding on the value points at the number. A
// number too long to write out is reported and left as its literal text.
func (n *normaliser) stringify(x *Node, path Path) {
	for _, f := range x.Fields {
		v := f.Value
		switch v.Kind {
		case Bool:
			v.Kind, v.Text = String, fmt.Sprint(v.True)
		case Number:
			text, err := plainDecimal(v.Text)
			if err != nil {
				n.diags.Add(diag.Diagnostic{Rule: RuleLimit, Severity: diag.Error, Pos: v.Pos, Path: path.Key(f.Name).String(),
					Message: fmt.Sprintf("number %s cannot be used as a string: %v", v.Text, err),
					Hint:    "write the value as a quoted string"})
				text = v.Text
			}
			v.Kind, v.Text = String, text
		}
	}
}

// plainDecimal writes a number literal (JSON or CUE syntax) as its exact
// decimal value, with no exponent.
func plainDecimal(lit string) (string, error) {
	num := lit
	if !jsonNumber().MatchString(lit) { // CUE's own syntax: 0x10, 1_000, 1Ki
		var info literal.NumInfo
		if err := literal.ParseNum(lit, &info); err != nil {
			return "", err
		}
		num = info.String()
	}
	d, _, err := apd.NewFromString(num)
	if err != nil {
		return "", err
	}
	if d.IsZero() && d.Exponent > 0 {
		d.Exponent = 0 // 0e5 is 0, not 000000
	}
	// The length of the text before building it: the digits and the
	// zeros an exponent adds, a point ("0." when all digits are
	// fractional), and a sign.
	digits, exp := d.NumDigits(), int64(d.Exponent)
	size := digits + max(exp, 0)
	if exp < 0 {
		size = max(digits, -exp+1) + 1
	}
	if d.Negative {
		size++
	}
	if size > MaxNumberText {
		return "", fmt.Errorf("written out it has more than %d characters", MaxNumberText)
	}
	return d.Text('f'), nil
}
