package localslurm

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
)

// portReservation holds the ports handed to one cluster until it stops.
//
// A port found free and closed again is free for anyone until the daemon
// binds it, and two kinds of taker were seen with eight clusters started
// side by side ("Unable to bind listen port (42415): Address already in
// use" from a stand-in slurmd): another cluster given the same port, and
// an outgoing connection (scontrol, slurmd, MariaDB's clients) whose
// local port the kernel picked from its ephemeral range. So the ports
// come from below the ephemeral range, which outgoing connections never
// use, and each is reserved by an abstract Unix socket named after it:
// the kernel lets one socket of a name exist, across processes (clusters
// of other test binaries and of the fidelity command), and frees it when
// the holder closes it or exits.
type portReservation struct {
	locks []net.Listener
}

// release frees the reservation's ports for other clusters.
func (r *portReservation) release() {
	if r == nil {
		return
	}
	for _, l := range r.locks {
		l.Close()
	}
	r.locks = nil
}

// portLockName is the abstract socket that reserves port p.
func portLockName(p int) string { return "@slurmspec-localslurm-port-" + strconv.Itoa(p) }

// reservePorts returns n distinct TCP ports that are free on every
// address of this host, reserved for the caller until release.
func reservePorts(n int) ([]int, *portReservation, error) {
	lo, hi := reservedRange()
	r := &portReservation{}
	var ports []int
	for tries := 0; len(ports) < n; tries++ {
		if tries >= 20*n+1000 {
			r.release()
			return nil, nil, fmt.Errorf("find %d free ports in %d-%d: %d found after %d tries", n, lo, hi, len(ports), tries)
		}
		p := lo + rand.IntN(hi-lo+1)
		if slices.Contains(ports, p) {
			continue
		}
		lock, err := net.Listen("unix", portLockName(p))
		if err != nil {
			continue // another cluster holds it
		}
		l, err := net.Listen("tcp", ":"+strconv.Itoa(p))
		if err != nil {
			lock.Close()
			continue // in use on this host
		}
		l.Close()
		r.locks = append(r.locks, lock)
		ports = append(ports, p)
	}
	return ports, r, nil
}

// The ports reservePorts draws from: from firstPort to just below the
// kernel's ephemeral range, when that leaves at least minPorts; else the
// ports above it; else both sides of it as they are.
const (
	firstPort = 10000
	lastPort  = 65535
	minPorts  = 2000
)

// reservedRange returns the range reservePorts draws from, given the
// kernel's ephemeral range (net.ipv4.ip_local_port_range).
func reservedRange() (lo, hi int) {
	ephLo, ephHi, err := ephemeralRange()
	switch {
	case err != nil:
		return firstPort, lastPort
	case ephLo-1-firstPort >= minPorts:
		return firstPort, ephLo - 1
	case lastPort-(ephHi+1) >= minPorts:
		return ephHi + 1, lastPort
	}
	return firstPort, lastPort
}

// ephemeralRange reads the kernel's range of local ports for outgoing
// connections.
func ephemeralRange() (lo, hi int, err error) {
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0, 0, err
	}
	f := strings.Fields(string(data))
	if len(f) != 2 {
		return 0, 0, errors.New("ip_local_port_range: want two numbers")
	}
	if lo, err = strconv.Atoi(f[0]); err != nil {
		return 0, 0, err
	}
	if hi, err = strconv.Atoi(f[1]); err != nil {
		return 0, 0, err
	}
	return lo, hi, nil
}
