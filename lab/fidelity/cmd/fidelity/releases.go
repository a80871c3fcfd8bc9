package main

import (
	"errors"
	"sync"
)

// eachRelease calls one for every release with its index, in turn or,
// with parallel, side by side, and returns their errors joined.
func eachRelease(releases []string, parallel bool, one func(i int, rel string) error) error {
	errs := make([]error, len(releases))
	var wg sync.WaitGroup
	for i, rel := range releases {
		if !parallel {
			errs[i] = one(i, rel)
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = one(i, rel) }()
	}
	wg.Wait()
	return errors.Join(errs...)
}
