package escape

import "testing"

func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain/name.yaml", "plain/name.yaml"},
		{"", ""},
		{"a\n::error file=x::forged", `a\n::error file=x::forged`},
		{"a\r\n::stop-commands::tok", `a\r\n::stop-commands::tok`},
		{"::error file=x::forged.yaml", `\x3a:error file=x::forged.yaml`},
		{"  ::warning::x", `  \x3a:warning::x`},
		{"\u00a0\u3000::warning::x", "\u00a0\u3000\\x3a:warning::x"}, // .NET trims Unicode white space too
		{"\t::x", `\t\x3a:x`},
		{"a::b", "a::b"},
		{":x", ":x"},
		{"\x1b[31mred", `\x1b[31mred`},
		{"ab\u202ecd\u200bef\u2028", `ab\u202ecd\u200bef\u2028`},
		{"ünïcødé", "ünïcødé"},
		{"a ##[error]forged", `a #\x23[error]forged`},
		{"###[x", `##\x23[x`},
		{"## [x #[ ##", "## [x #[ ##"},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestHidden(t *testing.T) {
	for _, r := range []rune{'\n', '\r', 0, 0x1b, 0x7f, 0x85, 0x2028, 0x2029, 0x202e, 0x200b, 0xfeff} {
		if !Hidden(r) {
			t.Errorf("Hidden(%U) = false", r)
		}
	}
	for _, r := range []rune{'a', ' ', ':', 'é', '…'} {
		if Hidden(r) {
			t.Errorf("Hidden(%U) = true", r)
		}
	}
}

func TestBlock(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain\ntext\twith tabs\n", "plain\ntext\twith tabs\n"},
		{"a::b\n", "a::b\n"},
		{"x\n::error::f\n \t::warning::g\r::notice::h\n", "x\n\\x3a:error::f\n \t\\x3a:warning::g\r\\x3a:notice::h\n"},
		{"::stop-commands::t", `\x3a:stop-commands::t`},
		{"+ echo ##[error]x", `+ echo #\x23[error]x`},
		{"é::x\n:: y", "é::x\n\\x3a: y"},
		{"a\n\u00a0::x", "a\n\u00a0\\x3a:x"},
	} {
		if got := Block(c.in); got != c.want {
			t.Errorf("Block(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestJSON(t *testing.T) {
	if got := string(JSON([]byte(`{"a": "x ##[error]y"}`))); got != `{"a": "x #\u0023[error]y"}` {
		t.Errorf("JSON: %s", got)
	}
}
