package pipeline

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"weak"
)

// TestStreamOrderAndWindow: results come out in order although item 0 is
// the slowest, and while item 0 holds the line no more than the window
// of items is started — the bound on what a `lint DIR` of many large
// specs holds, checked by counting, not by timing.
func TestStreamOrderAndWindow(t *testing.T) {
	const n, workers, window = 50, 3, 6
	release := make(chan struct{})
	var mu sync.Mutex
	started, maxAhead, emitted := 0, 0, 0
	var got []int
	err := stream(n, workers, window, func() (func(int) (int, error), error) {
		return func(i int) (int, error) {
			mu.Lock()
			started++
			maxAhead = max(maxAhead, started-emitted)
			if started == window {
				close(release) // the window is full: let item 0 finish
			}
			mu.Unlock()
			if i == 0 {
				<-release
			}
			return i * 10, nil
		}, nil
	}, func(i, v int) error {
		if v != i*10 {
			t.Errorf("item %d: got %d", i, v)
		}
		mu.Lock()
		emitted++
		mu.Unlock()
		got = append(got, i)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("emitted out of order: %v", got)
		}
	}
	if len(got) != n {
		t.Fatalf("emitted %d of %d", len(got), n)
	}
	if maxAhead > window {
		t.Errorf("%d items started but not emitted, window %d", maxAhead, window)
	}
}

// TestStreamDropsResults: once emitted, a result is not kept by stream:
// every result is collectable before stream returns, so a long run holds
// only the window.
func TestStreamDropsResults(t *testing.T) {
	type big struct{ data []byte }
	const n = 40
	var ptrs []weak.Pointer[big]
	var collectedBeforeEnd int
	err := stream(n, 2, 4, func() (func(int) (*big, error), error) {
		return func(int) (*big, error) { return &big{data: make([]byte, 1<<20)}, nil }, nil
	}, func(i int, v *big) error {
		ptrs = append(ptrs, weak.Make(v))
		if i == n-1 {
			runtime.GC()
			for _, p := range ptrs[:n-1] {
				if p.Value() == nil {
					collectedBeforeEnd++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Up to the window's worth may still sit in a worker's stack or a
	// channel buffer; everything older must be gone.
	if collectedBeforeEnd < n-1-8 {
		t.Errorf("only %d of %d emitted results were collectable: stream keeps them", collectedBeforeEnd, n-1)
	}
}

// TestStreamErrors: a worker's set-up error, a work error and an emit
// error each stop the run and are returned; nothing after the failing
// item is emitted.
func TestStreamErrors(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name              string
		setupErr, workErr error
		emitErrAt         int
	}{
		{name: "setup", setupErr: boom, emitErrAt: -1},
		{name: "work", workErr: boom, emitErrAt: -1},
		{name: "emit", emitErrAt: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var emitted []int
			err := stream(20, 3, 6, func() (func(int) (int, error), error) {
				if tc.setupErr != nil {
					return nil, tc.setupErr
				}
				return func(i int) (int, error) {
					if tc.workErr != nil && i == 5 {
						return 0, tc.workErr
					}
					return i, nil
				}, nil
			}, func(i, _ int) error {
				emitted = append(emitted, i)
				if i == tc.emitErrAt {
					return boom
				}
				return nil
			})
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v", err)
			}
			for j, i := range emitted {
				if i != j {
					t.Fatalf("emitted %v", emitted)
				}
			}
			if tc.name == "work" && len(emitted) != 5 || tc.name == "emit" && len(emitted) != 4 || tc.name == "setup" && len(emitted) != 0 {
				t.Errorf("emitted %v", emitted)
			}
		})
	}
}

func TestStreamEmpty(t *testing.T) {
	err := stream(0, 4, 8, func() (func(int) (int, error), error) {
		return nil, fmt.Errorf("no worker needed")
	}, func(int, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
}
