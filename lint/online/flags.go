package online

import (
	"time"

	"github.com/spf13/pflag"
)

// Flags are the online checks' settings as command-line flags, taken by
// `slurmspec lint --online` and by the slurmspec-online helper alike.
type Flags struct {
	// Timeout bounds each Filestore API call.
	Timeout time.Duration
	// MinHomeCapacityGiB is the smallest /home instance filestore-capacity
	// accepts; negative: no check.
	MinHomeCapacityGiB int64
}

// RegisterFlags declares f's fields as flags on fs: the one place their
// names, defaults and help texts are written.
func (f *Flags) RegisterFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&f.Timeout, "online-timeout", DefaultTimeout, "time limit of each Filestore API call")
	fs.Int64Var(&f.MinHomeCapacityGiB, "min-home-capacity-gib", DefaultMinHomeCapacityGiB, "smallest /home Filestore instance filestore-capacity accepts, in GiB (negative: no check)")
}
