package outformat

import (
	"slices"
	"testing"
)

func registry() *Registry[int] {
	return MustNew(
		Format[int]{Name: "text", Writer: 1},
		Format[int]{Name: "markdown", Note: "a PR comment", Writer: 2},
		Format[int]{Name: "json", Writer: 3},
	)
}

func TestRegistry(t *testing.T) {
	r := registry()
	if got := r.Names(); !slices.Equal(got, []string{"text", "markdown", "json"}) {
		t.Errorf("Names() = %q", got)
	}
	if got := r.Default(); got != "text" {
		t.Errorf("Default() = %q, want text", got)
	}
	if got, want := r.Usage(), "output format: text, markdown (a PR comment) or json"; got != want {
		t.Errorf("Usage() = %q, want %q", got, want)
	}
	for i, name := range r.Names() {
		if w, err := r.Lookup(name); err != nil || w != i+1 {
			t.Errorf("Lookup(%q) = %d, %v; want %d", name, w, err, i+1)
		}
		if err := r.Check(name); err != nil {
			t.Errorf("Check(%q) = %v", name, err)
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	r := registry()
	for name, want := range map[string]string{
		"jsn":  `unknown format "jsn" (did you mean "json"?)`,
		"xml":  `unknown format "xml" (want text, markdown or json)`,
		"":     `unknown format "" (want text, markdown or json)`,
		"TEXT": `unknown format "TEXT" (did you mean "text"?)`,
	} {
		if err := r.Check(name); err == nil || err.Error() != want {
			t.Errorf("Check(%q) = %v, want %s", name, err, want)
		}
		if w, err := r.Lookup(name); err == nil || w != 0 {
			t.Errorf("Lookup(%q) = %d, %v; want an error", name, w, err)
		}
	}
}

func TestMustNewRefusesMistakes(t *testing.T) {
	for what, formats := range map[string][]Format[int]{
		"none":     nil,
		"empty":    {{Name: ""}},
		"repeated": {{Name: "json"}, {Name: "json"}},
		"spaced":   {{Name: "j son"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: MustNew did not panic", what)
				}
			}()
			MustNew(formats...)
		}()
	}
}
