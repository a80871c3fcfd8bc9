package localslurm

import (
	"net"
	"slices"
	"testing"
)

// TestReservePorts: a cluster's ports are distinct, outside the kernel's
// ephemeral range (where an outgoing connection could take one before the
// daemon binds it), and reserved: no other reservation, of this process or
// another, gets them until release.
func TestReservePorts(t *testing.T) {
	ephLo, ephHi, err := ephemeralRange()
	if err != nil {
		t.Fatal(err)
	}
	a, ra, err := reservePorts(40)
	if err != nil {
		t.Fatal(err)
	}
	b, rb, err := reservePorts(40)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.release()
	for _, p := range append(slices.Clone(a), b...) {
		if p >= ephLo && p <= ephHi {
			t.Errorf("port %d is in the ephemeral range %d-%d", p, ephLo, ephHi)
		}
	}
	all := append(slices.Clone(a), b...)
	slices.Sort(all)
	if len(slices.Compact(all)) != 80 {
		t.Errorf("two reservations of 40 ports share ports: %v and %v", a, b)
	}
	// Another process asking for a reserved port's lock is refused; the
	// lock is the kernel's, so a second listener of this process stands
	// in for it.
	if l, err := net.Listen("unix", portLockName(a[0])); err == nil {
		l.Close()
		t.Errorf("port %d's reservation could be taken while held", a[0])
	}
	ra.release()
	l, err := net.Listen("unix", portLockName(a[0]))
	if err != nil {
		t.Errorf("port %d's reservation is still held after release: %v", a[0], err)
	} else {
		l.Close()
	}
}
