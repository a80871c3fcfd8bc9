package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/compiler/ir"
)

// Setting is one config key a what-if run sets before rendering.
type Setting struct {
	Key, Value string
	// Why names what asked for it, such as "--preempt-exempt-time 1s".
	Why string
}

// TimeScale holds the time-scaled settings of a what-if run: each shortens
// a period so that preemption and fair-share effects show in seconds
// instead of minutes or days. A zero field is left as the spec has it.
type TimeScale struct {
	// PreemptExemptTime: how long a job runs before it may be preempted.
	PreemptExemptTime time.Duration
	// PreemptExemptTimeSet distinguishes an explicit 0 from unset.
	PreemptExemptTimeSet bool
	// PriorityCalcPeriod, in minutes: how often the multifactor plugin
	// recomputes usage decay and fair-share.
	PriorityCalcPeriod int
	// PriorityDecayHalfLife: the half-life of past usage in fair-share.
	PriorityDecayHalfLife time.Duration
}

// Settings checks the values and returns the settings to apply.
func (ts TimeScale) Settings() ([]Setting, error) {
	var out []Setting
	if ts.PreemptExemptTimeSet {
		v, err := slurmTime(ts.PreemptExemptTime, time.Second)
		if err != nil {
			return nil, fmt.Errorf("--preempt-exempt-time: %w", err)
		}
		out = append(out, Setting{Key: "PreemptExemptTime", Value: v, Why: "--preempt-exempt-time " + ts.PreemptExemptTime.String()})
	}
	if ts.PriorityCalcPeriod != 0 {
		if ts.PriorityCalcPeriod < 1 {
			return nil, fmt.Errorf("--priority-calc-period: %d minutes: Slurm's PriorityCalcPeriod is a whole number of minutes, at least 1", ts.PriorityCalcPeriod)
		}
		out = append(out, Setting{Key: "PriorityCalcPeriod", Value: strconv.Itoa(ts.PriorityCalcPeriod), Why: fmt.Sprintf("--priority-calc-period %d", ts.PriorityCalcPeriod)})
	}
	if ts.PriorityDecayHalfLife != 0 {
		// Slurm reads PriorityDecayHalfLife in whole minutes: "00:00:30"
		// would be 0, which turns decay off.
		if ts.PriorityDecayHalfLife < time.Minute {
			return nil, fmt.Errorf("--priority-decay-half-life: %v: Slurm reads it in whole minutes, and 0 turns decay off; use 1m or more", ts.PriorityDecayHalfLife)
		}
		v, err := slurmTime(ts.PriorityDecayHalfLife, time.Minute)
		if err != nil {
			return nil, fmt.Errorf("--priority-decay-half-life: %w", err)
		}
		out = append(out, Setting{Key: "PriorityDecayHalfLife", Value: v, Why: "--priority-decay-half-life " + ts.PriorityDecayHalfLife.String()})
	}
	return out, nil
}

// slurmTime formats d as a Slurm time, "HH:MM:SS" or "D-HH:MM:SS"; d must
// be a whole multiple of unit and not negative.
func slurmTime(d time.Duration, unit time.Duration) (string, error) {
	if d < 0 {
		return "", fmt.Errorf("%v is negative", d)
	}
	if d%unit != 0 {
		return "", fmt.Errorf("%v is not a whole number of %s", d, strings.TrimPrefix(unit.String(), "1"))
	}
	s := int64(d / time.Second)
	days, h, m, sec := s/86400, s%86400/3600, s%3600/60, s%60
	if days > 0 {
		return fmt.Sprintf("%d-%02d:%02d:%02d", days, h, m, sec), nil
	}
	return fmt.Sprintf("%02d:%02d:%02d", h, m, sec), nil
}

// Apply sets each setting in the spec's global config
// (orchestratorSpec.slurmSpec.config), before rendering, and returns the
// changes made. A key the spec sets (in any letter case) gets the new value
// where it stands; a key it does not set is added in the compiler's key
// order (case-insensitive). Setting a
// key to the value it has is no change.
func Apply(c *ir.Cluster, settings []Setting) []Change {
	var changes []Change
	for _, s := range settings {
		found := false
		for i := range c.Slurm.Config {
			kv := &c.Slurm.Config[i]
			if !strings.EqualFold(kv.Key.Value, s.Key) {
				continue
			}
			found = true
			if kv.Value.Value != s.Value {
				changes = append(changes, Change{Key: kv.Key.Value, From: kv.Value.Value, To: s.Value, Why: s.Why})
				kv.Value.Value = s.Value
				kv.Value.Set = true
			}
		}
		if found {
			continue
		}
		path := c.Slurm.Path + ".config." + s.Key
		kv := ir.KV{
			Key:   ir.Str{Value: s.Key, Set: true, Pos: c.Slurm.Pos, Path: path},
			Value: ir.Str{Value: s.Value, Set: true, Pos: c.Slurm.Pos, Path: path},
		}
		at := len(c.Slurm.Config)
		for i, e := range c.Slurm.Config {
			if strings.ToLower(e.Key.Value) > strings.ToLower(s.Key) {
				at = i
				break
			}
		}
		c.Slurm.Config = append(c.Slurm.Config[:at], append([]ir.KV{kv}, c.Slurm.Config[at:]...)...)
		changes = append(changes, Change{Key: s.Key, To: s.Value, Why: s.Why})
	}
	return changes
}
