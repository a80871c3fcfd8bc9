package specgen

import (
	"fmt"
	"os"
	"path/filepath"
)

// Case is one benchmark input: a spec file's name and content.
type Case struct {
	// Name is the benchmark's sub-name: "seed", "a4-training", "gen-10", ...
	Name string
	// File is the name the spec is loaded under; its extension chooses the
	// format.
	File string
	Data []byte
}

// Sizes are the node pool (and partition) counts of the generated cases.
var Sizes = []int{10, 100, 1000}

// Cases returns the inputs every benchmark runs on, in this order: the two
// bundled examples (read from root/examples, root being the repository's
// top directory) and generated specs of 10, 100 and 1000 node pools and
// partitions.
func Cases(root string) ([]Case, error) {
	var cs []Case
	for _, ex := range []struct{ name, file string }{
		{"seed", "seed.jsonc"},
		{"a4-training", "a4-training.yaml"},
	} {
		data, err := os.ReadFile(filepath.Join(root, "examples", ex.file))
		if err != nil {
			return nil, fmt.Errorf("benchmark input: %w", err)
		}
		cs = append(cs, Case{Name: ex.name, File: ex.file, Data: data})
	}
	for _, n := range Sizes {
		cs = append(cs, Generated(n))
	}
	return cs, nil
}

// Generated returns the generated case of n node pools and partitions.
func Generated(n int) Case {
	return Case{Name: fmt.Sprintf("gen-%d", n), File: fmt.Sprintf("gen-%d.json", n), Data: JSON(n)}
}
