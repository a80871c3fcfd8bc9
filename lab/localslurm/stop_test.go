package localslurm

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
)

// TestStopKillsOnlyItsNamespace: the kernel gives a freed mount namespace's
// id to the next one made, so Stop's last sweep, which runs once the
// cluster's namespace holder is gone, must not find another cluster's
// namespace under the same id. Here a second holder starts right after the
// first one's holder is gone (as another cluster, side by side, does), and
// must survive the first cluster's Stop. Needs root (a mount namespace):
// a real-Slurm test (slurmtest).
func TestStopKillsOnlyItsNamespace(t *testing.T) {
	var tools holderTools
	// A lab test like those that start Slurm: it runs when the real-Slurm
	// tests are asked for (slurmtest), and fails then without root or a
	// program the namespace holder runs.
	slurmtest.Require(t, func() error {
		if os.Geteuid() != 0 {
			return errors.New("needs root: it makes mount namespaces")
		}
		for _, p := range []struct {
			name string
			into *string
		}{{"sh", &tools.sh}, {"mount", &tools.mount}, {"hostname", &tools.hostname}, {"sleep", &tools.sleep}} {
			path, err := lookTool(p.name)
			if err != nil {
				return err
			}
			*p.into = path
		}
		return nil
	})
	dir := t.TempDir()
	hosts := filepath.Join(dir, "hosts")
	if err := os.WriteFile(hosts, []byte("127.0.0.1 localhost\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	holder := func(name string) (*daemon, string) {
		t.Helper()
		d, err := startHolder(tools, hosts, name, "/", filepath.Join(dir, name+".out"), 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		ns, err := mountNamespace(d.pid())
		if err != nil {
			t.Fatal(err)
		}
		return d, ns
	}
	a, nsA := holder("first")
	c := &Cluster{holder: a, ns: nsA, opts: Options{StopTimeout: 5 * time.Second}}
	var b *daemon
	var nsB string
	c.afterHolder = func() { b, nsB = holder("second") }
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = b.terminate(time.Second) }()
	t.Logf("first namespace %s, second %s", nsA, nsB)
	time.Sleep(100 * time.Millisecond)
	if b.exited() {
		t.Errorf("the first cluster's Stop killed the second cluster's namespace holder (namespace %s, the first's was %s)", nsB, nsA)
	}
}
