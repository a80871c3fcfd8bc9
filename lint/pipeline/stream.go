package pipeline

import (
	"io"
	"runtime"
	"sync"

	"github.com/slurmspec/slurmspec/schema"
)

// Stream analyses files concurrently (one worker per CPU, each with its
// own compiled schema: CUE values are not shared between goroutines) and
// calls emit with each result in file order, as soon as it and every
// earlier file are done. Stream keeps no result after emit returns, and
// workers run at most a window of files ahead of the oldest one not yet
// emitted, so the memory a run holds is bounded by the window, not by the
// number of files. CUE specs among them are evaluated one at a time,
// under the one budget of the pipeline (load.CUEGate). "-" is read from
// stdin. Settings of every file should
// have been resolved (SettingsFor) first: a bad project config found here
// stops the run with its error, as does an error emit returns.
func (p *Pipeline) Stream(files []string, stdin io.Reader, emit func(*Result) error) error {
	workers := min(runtime.GOMAXPROCS(0), len(files))
	return stream(len(files), workers, 2*workers, func() (func(int) (*Result, error), error) {
		sch, err := schema.New()
		if err != nil {
			return nil, err
		}
		return func(i int) (*Result, error) {
			return p.Analyse(File(files[i], stdin), AnalyseOptions{Schema: sch})
		}, nil
	}, func(_ int, r *Result) error { return emit(r) })
}

// stream runs work(i) for i in [0, n) on workers goroutines (each made by
// newWorker) and calls emit(i, result) in order of i from the calling
// goroutine. At most window results are started but not yet emitted. The
// first error (of a worker's set-up, a work item or emit) stops the run:
// no further item is started, and it is returned.
func stream[T any](n, workers, window int, newWorker func() (func(int) (T, error), error), emit func(int, T) error) error {
	if n == 0 {
		return nil
	}
	workers = max(1, min(workers, n))
	window = max(window, workers)
	type done struct {
		i   int
		v   T
		err error
	}
	jobs := make(chan int)
	results := make(chan done, window)
	tokens := make(chan struct{}, window) // one per started, not yet emitted item
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work, err := newWorker()
			for i := range jobs {
				if err != nil {
					results <- done{i: i, err: err}
					continue
				}
				v, werr := work(i)
				results <- done{i: i, v: v, err: werr}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range n {
			select {
			case tokens <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case jobs <- i:
			case <-stop:
				return
			}
		}
	}()

	pending := make(map[int]done, window)
	var firstErr error
	for next := 0; next < n && firstErr == nil; {
		d := <-results
		pending[d.i] = d
		for {
			d, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if d.err == nil {
				d.err = emit(d.i, d.v)
			}
			<-tokens
			if d.err != nil {
				firstErr = d.err
				break
			}
		}
	}
	close(stop)
	// Drain what the workers still finish, so that they exit.
	go func() {
		wg.Wait()
		close(results)
	}()
	for range results {
	}
	return firstErr
}
