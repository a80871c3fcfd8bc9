package load

import (
	"cmp"
	"fmt"
	"sync"
	"time"
)

// CUEGate is one process's budget for CUE evaluation. CUE cannot be
// interrupted: an evaluation the watchdog abandons (past CUETimeout, or
// once the heap has grown by CUEMaxHeap) runs on, and allocates, until the
// process exits. A gate therefore evaluates one CUE spec at a time, so
// that evaluations of files linted concurrently do not add up, and once
// one evaluation has been abandoned it evaluates no further CUE: each
// later CUE spec is refused with a load-limit diagnostic that names the
// abandoned file. A process that loads many specs shares one gate between
// all of them (lint/pipeline gives every load of a Pipeline its own
// gate); the memory of CUE evaluation in the process is then that of one
// evaluation, however many CUE files it reads. A gate is safe for
// concurrent use.
type CUEGate struct {
	timeout time.Duration
	maxHeap uint64
	slot    chan struct{} // held by the evaluation under way

	mu sync.Mutex
	// abandoned says which evaluation was abandoned and why; empty
	// while none was.
	abandoned string
	// evaluated counts the evaluations started.
	evaluated int
}

// NewCUEGate returns a budget of timeout and maxHeap for each evaluation,
// and of one abandoned evaluation for the process. A zero timeout is
// CUETimeout; a zero maxHeap is CUEMaxHeap, or less under a limit on the
// process's address space (cueHeapBound).
func NewCUEGate(timeout time.Duration, maxHeap uint64) *CUEGate {
	return &CUEGate{
		timeout: cmp.Or(timeout, CUETimeout),
		maxHeap: cmp.Or(maxHeap, cueHeapBound(addressSpaceLimit())),
		slot:    make(chan struct{}, 1),
	}
}

// cueHeapBound is the heap bound of CUE evaluation in a process whose
// address space is limited to as bytes (0: no limit). The Go runtime
// reserves about 1 GiB of address space before it allocates anything, and
// a growing list maps several times its final size (every old backing
// array stays mapped), so the bound is a quarter of what remains, between
// 64 MiB and CUEMaxHeap: under ulimit -v 2 GB an abandoned evaluation
// then leaves the process room to report and exit instead of dying with
// "fatal error: out of memory".
func cueHeapBound(as uint64) uint64 {
	const reserved, floor = 1 << 30, 64 << 20
	if as == 0 {
		return CUEMaxHeap
	}
	if as <= reserved+4*floor {
		return floor
	}
	return min((as-reserved)/4, CUEMaxHeap)
}

// acquire waits for the evaluation under way, if any, to end. It returns
// release, to call once the caller's own evaluation has ended or been
// abandoned, or, when an earlier evaluation was abandoned, why the caller
// must not evaluate.
func (g *CUEGate) acquire() (release func(), refused string) {
	if why := g.refusal(); why != "" {
		return nil, why // without waiting: an abandoned evaluation never ends
	}
	g.slot <- struct{}{}
	if why := g.refusal(); why != "" {
		<-g.slot
		return nil, why
	}
	g.mu.Lock()
	g.evaluated++
	g.mu.Unlock()
	return func() { <-g.slot }, ""
}

func (g *CUEGate) refusal() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.abandoned
}

// abandon records that the evaluation of file was abandoned, and why.
// The first one is kept.
func (g *CUEGate) abandon(file, why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.abandoned == "" {
		g.abandoned = fmt.Sprintf("the evaluation of %s %s", file, why)
	}
}

// evaluations returns how many CUE evaluations the gate has started.
func (g *CUEGate) evaluations() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.evaluated
}
