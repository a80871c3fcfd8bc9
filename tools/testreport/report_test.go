package main

import (
	"strings"
	"testing"
)

// stream is a go test -json stream of two packages: a slow one with a
// release subtest and a fast one, and a line of build output.
const stream = `{"Action":"start","Package":"example/slow"}
{"Action":"run","Package":"example/slow","Test":"TestA"}
{"Action":"output","Package":"example/slow","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"example/slow","Test":"TestA/22.05","Elapsed":40.5}
{"Action":"pass","Package":"example/slow","Test":"TestA/22.05/case","Elapsed":20}
{"Action":"skip","Package":"example/slow","Test":"TestA/24.11","Elapsed":0}
{"Action":"pass","Package":"example/slow","Test":"TestA","Elapsed":40.6}
{"Action":"fail","Package":"example/slow","Test":"TestB","Elapsed":80}
{"Action":"pass","Package":"example/slow","Test":"TestC","Elapsed":0.1}
{"Action":"fail","Package":"example/slow","Elapsed":121.2}
# example/fast [build output]
{"Action":"pass","Package":"example/fast","Test":"TestX","Elapsed":0.2}
{"Action":"pass","Package":"example/fast","Elapsed":0.3}
`

func TestReport(t *testing.T) {
	r, err := read(strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := write(&b, []*run{r}, 754); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		"Wall time of the whole run: 754 s (12.6 min).",
		"| example/slow | fail | 121.2 | 4 | 1 | 1 |",
		"| example/fast | pass | 0.3 | 1 | 0 | 0 |",
		"| TestB | fail | 80.0 |\n| TestA | pass | 40.6 |\n| TestA/22.05 | pass | 40.5 |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "TestA/22.05/case") || strings.Contains(got, "| TestC") {
		t.Errorf("report lists a third-level or fast test:\n%s", got)
	}
	if strings.Contains(got, "example/fast: tests") {
		t.Errorf("report details a fast package:\n%s", got)
	}
}
