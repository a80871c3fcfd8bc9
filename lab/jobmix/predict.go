package jobmix

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
)

// Variants says which variants of a shape a finding predicts fail.
type Variants int

// The variants a finding can name.
const (
	// Defaults: the shape without --mem, --mem-per-gpu or --time fails;
	// the sized one runs.
	Defaults Variants = iota
	// Both: the shape fails whatever sizes it gives.
	Both
	// BySeverity: Both for an error, Defaults for a warning, the issue's
	// convention ("an error when no job of that shape can ever run in that
	// partition, a warning when only the defaults fail").
	BySeverity
)

// Phrase maps a part of a rule's message to the shape kinds the finding
// says fail.
type Phrase struct {
	// Contains is matched against the finding's message; "" matches every
	// message.
	Contains string
	Kinds    []Kind
	Variants Variants
	// Unless, when set, replaces Variants: the finding predicts every
	// shape of Kinds that does not pass this sbatch option (such as
	// "--mem" for a finding that says "no job without --mem fits").
	Unless string
	// If, when set, replaces Variants: the finding predicts every shape
	// of Kinds that passes this sbatch option (such as "--time" for a
	// finding that says a job with --time pends for ever).
	If string
}

// Predictor is how one rule's findings name the shapes they predict fail.
// The partition is the one the finding's message names (`partition "X"`),
// else the one of its spec path (partitions[i]), else every partition;
// the pool likewise (`pool "Y"`, else every pool of the partition). The
// first Phrase whose Contains the message holds gives the kinds.
type Predictor struct {
	Phrases []Phrase
}

// Predictors returns the table of rules whose findings predict that job
// shapes fail, by rule id. A rule that says a shape cannot run is added
// here with the phrases of its messages; a finding of a rule not listed
// predicts nothing, so every shape that fails beside it is a false
// negative (and, for an error, the spec is lint-refused and not run: see
// lab/fidelity's workload mode).
func Predictors() map[string]Predictor {
	gpu := []Kind{OneGPU, AllGPUs}
	return map[string]Predictor{
		// lint/rules/jobshapes.go. Each message names the option that
		// lifts the default ("without --mem", "without --mem-per-gpu"):
		// every shape that does not pass it fails, the sized GPU shapes
		// (--mem-per-gpu, no --mem) included where --mem is named
		// (measured: DefMemPerNode above the node refuses
		// --mem-per-gpu jobs, "Memory specification can not be
		// satisfied").
		"memory-default-unfit": {Phrases: []Phrase{
			// A GPU job's DefCpuPerGPU CPUs, each given DefMemPerCPU:
			// --mem-per-gpu does not lift it (lint/rules/shapes_gpumem.go).
			{Contains: "a GPU job without --mem does not fit", Kinds: gpu, Unless: "--mem"},
			{Contains: "GPUs of a node without --mem does not fit", Kinds: []Kind{AllGPUs}, Unless: "--mem"},
			{Contains: "no job without --mem fits", Kinds: Kinds(), Unless: "--mem"},
			{Contains: "a whole-node job (--exclusive) without --mem", Kinds: []Kind{WholeNode}, Unless: "--mem"},
			{Contains: "no GPU job without --mem-per-gpu", Kinds: gpu, Unless: "--mem-per-gpu"},
			{Contains: "a job asking for all", Kinds: []Kind{AllGPUs}, Unless: "--mem-per-gpu"},
		}},
		// lint/rules/shapes.go: every message says no job runs.
		"shape-node-limits": {Phrases: []Phrase{{Kinds: Kinds(), Variants: Both}}},
		// MaxTime=0: a job with --time (the sized shapes, and max-time's
		// --time=0) pends for ever; one without runs.
		// JobSubmitPlugins=require_timelimit: every shape without --time
		// is refused at submit.
		"shape-time-limit": {Phrases: []Phrase{
			{Contains: "a job with --time pends for ever", Kinds: Kinds(), If: "--time"},
			{Contains: "refuses at submit every job without --time", Kinds: Kinds(), Unless: "--time"},
		}},
		// lint/rules/shapes_state.go: a partition's State, RootOnly or
		// ReqResv stops every job the mix submits (none names a
		// reservation, none is root's).
		"shape-partition-closed": {Phrases: []Phrase{{Kinds: Kinds(), Variants: Both}}},
		// lint/rules/shapes_res.go. The shapes never pass --cpus-per-gpu.
		"shape-cpu-limit": {Phrases: []Phrase{
			{Contains: "MaxCPUsPerNode=0 admits no job", Kinds: Kinds(), Variants: Both},
			{Contains: "every job takes a whole node here", Kinds: Kinds(), Variants: Both},
			{Contains: "a whole-node job (--exclusive) is refused at submit", Kinds: []Kind{WholeNode}, Variants: Both},
			{Contains: "no GPU job without --cpus-per-gpu", Kinds: gpu, Unless: "--cpus-per-gpu"},
			{Contains: "a job asking for all", Kinds: []Kind{AllGPUs}, Unless: "--cpus-per-gpu"},
		}},
		// lint/rules/nodelines.go: a nodeSets Gres with fewer GPUs than
		// the machine type's is what slurmctld schedules; a job asking
		// for more GPUs on a node is refused at submit, sizes or not.
		"rendered-key-override": {Phrases: []Phrase{
			{Contains: "schedules no GPU on a node", Kinds: gpu, Variants: Both},
			{Contains: "GPUs of a node is refused at submit", Kinds: []Kind{AllGPUs}, Variants: Both},
		}},
		// A job without --mem is given more than the limit; with
		// memory tracked, a GPU job with --mem-per-gpu pends too
		// ("and so does"); MaxMemPerCPU refuses --mem-per-gpu above it
		// the same way. A DefMemPerNode above MaxMemPerNode stops only
		// the defaults (--mem-per-gpu replaces DefMemPerNode).
		// A DefMemPerCPU times the CPUs a shape gets above
		// MaxMemPerNode stops the unsized shapes the message names: every
		// one (one CPU is over, or every job takes a whole node), GPU
		// shapes left out where DefMemPerGPU replaces it; or the
		// whole-node one.
		"shape-mem-limit": {Phrases: []Phrase{
			{Contains: "(GPU jobs get DefMemPerGPU instead)", Kinds: []Kind{OneTask, WholeNode, TwoNodes, MaxTime}, Variants: Defaults},
			{Contains: "MiB for one CPU, above MaxMemPerNode", Kinds: Kinds(), Variants: Defaults},
			{Contains: "a whole-node job (--exclusive) without --mem is given DefMemPerCPU=", Kinds: []Kind{WholeNode}, Variants: Defaults},
			{Contains: "and one without --mem is given DefMemPerCPU=", Kinds: Kinds(), Variants: Defaults},
			{Contains: "and so does a GPU job with --mem-per-gpu", Kinds: Kinds(), Unless: "--mem"},
			{Contains: "the node's", Kinds: Kinds(), Unless: "--mem"},
			{Contains: "is given DefMemPerNode=", Kinds: Kinds(), Variants: Defaults},
		}},
	}
}

// Claim is one finding's prediction about one shape.
type Claim struct {
	ShapeID string
	// Finding is the finding, as "rule: message".
	Finding string
}

var (
	partitionIn = regexp.MustCompile(`partition "([^"]+)"`)
	poolIn      = regexp.MustCompile(`pool "([^"]+)"`)
	partPath    = regexp.MustCompile(`\.partitions\[(\d+)\]`)
)

// Predict returns, for each finding of a rule in table, the shapes it
// predicts fail.
func Predict(table map[string]Predictor, c *ir.Cluster, diags diag.List, shapes []Shape) []Claim {
	var out []Claim
	for _, d := range diags {
		pr, ok := table[d.Rule]
		if !ok {
			continue
		}
		var ph *Phrase
		for i := range pr.Phrases {
			if strings.Contains(d.Message, pr.Phrases[i].Contains) {
				ph = &pr.Phrases[i]
				break
			}
		}
		if ph == nil {
			continue
		}
		part := ""
		if m := partitionIn.FindStringSubmatch(d.Message); m != nil {
			part = m[1]
		} else if m := partPath.FindStringSubmatch(d.Path); m != nil {
			if i, err := strconv.Atoi(m[1]); err == nil && i < len(c.Slurm.Partitions) {
				part = c.Slurm.Partitions[i].ID.Value
			}
		}
		// A finding may name several pools of its partition
		// (shape-cpu-limit: "a node of pool "gpu" (...) has 224, a node
		// of pool "cpu" (...) has 22 CPUs"): it predicts each of them.
		var pools []string
		for _, m := range poolIn.FindAllStringSubmatch(d.Message, -1) {
			pools = append(pools, m[1])
		}
		both := ph.Variants == Both || ph.Variants == BySeverity && d.Severity == diag.Error
		for _, s := range shapes {
			if part != "" && s.Partition != part || len(pools) > 0 && !slices.Contains(pools, s.Pool) || !slices.Contains(ph.Kinds, s.Kind) {
				continue
			}
			switch {
			case ph.If != "":
				if !passes(s, ph.If) {
					continue
				}
			case ph.Unless != "":
				if passes(s, ph.Unless) {
					continue
				}
			case s.Sized && !both:
				continue
			}
			out = append(out, Claim{ShapeID: s.ID(), Finding: d.Rule + ": " + d.Message})
		}
	}
	return out
}

// passes reports whether a shape passes an sbatch option (--mem matches
// --mem=N, not --mem-per-gpu=N).
func passes(s Shape, option string) bool {
	return slices.ContainsFunc(s.Args(), func(a string) bool { return a == option || strings.HasPrefix(a, option+"=") })
}
