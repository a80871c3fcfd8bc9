package diff

// The JSON form of a report.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/slurmspec/slurmspec/compiler/escape"
)

// JSONVersion is the version of the JSON shape Report.JSON writes.
// Version 1:
//
//	{
//	  "version": 1,
//	  "slurmVersion": "23.02",   // release series the changes were classified for
//	  "changed": true,           // false when nothing changed
//	  "maxImpact": "restart",    // none, in-place, reconfigure, restart, replace-pool, replace-cluster
//	  "hurtsJobs": 1,            // how many changes can hurt running or pending jobs
//	  "summary": "2 changes — 1 may hurt running jobs, restarts slurmctld",
//	  "changes": [               // never null; ordered by decreasing impact, then place
//	    {"kind": "slurm.conf-global", "op": "changed", "key": "SelectType",
//	     "old": "select/cons_tres", "new": "select/linear", "impact": "restart",
//	     "reason": "...", "hurtsJobs": "..."}
//	  ]
//	}
//
// Change fields: kind (cluster, node-pool, slurm.conf-global,
// slurm.conf-partition, slurm.conf-nodeset, slurm.conf-node, script, file),
// op (added, removed, changed), path, key, old, new, impact, reason,
// hurtsJobs, effective (what Slurm uses for a key that falls back to the
// global one), diff, appliedBy (who applies it); path, key, old, new,
// hurtsJobs, effective and diff are left out when empty. slurmConfDiff is
// a unified diff of the slurm.conf lines Slurm reads, left out when
// slurm.conf did not change. accounting lists the changes of the
// accounting file beside the spec, which sacctmgr applies (op, entity,
// field, old, new, impact: who loses access, which limit tightens), left
// out when there are none; they count for changed but not for maxImpact. New fields may be added within version 1; a change of meaning
// or a removal increases the version.
const JSONVersion = 1

// jsonReport is the JSON shape documented on JSONVersion.
type jsonReport struct {
	Version      int                `json:"version"`
	SlurmVersion string             `json:"slurmVersion"`
	Changed      bool               `json:"changed"`
	MaxImpact    Impact             `json:"maxImpact"`
	HurtsJobs    int                `json:"hurtsJobs"`
	Summary      string             `json:"summary"`
	Changes      []Change           `json:"changes"`
	ConfDiff     string             `json:"slurmConfDiff,omitempty"`
	Accounting   []AccountingChange `json:"accounting,omitempty"`
}

// JSON writes the report as JSON in the shape documented on JSONVersion.
func (r *Report) JSON(w io.Writer) error {
	out := jsonReport{
		Version:      JSONVersion,
		SlurmVersion: r.SlurmVersion,
		Changed:      r.HasChanges(),
		MaxImpact:    r.MaxImpact(),
		HurtsJobs:    r.HurtsJobs(),
		Summary:      r.Summary(),
		Changes:      r.Changes,
		ConfDiff:     r.ConfDiff,
		Accounting:   r.Accounting,
	}
	if out.Changes == nil {
		out.Changes = []Change{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing JSON report: %w", err)
	}
	// Values and scripts come from the spec: "##[" in them must not
	// read as a workflow command in a CI log (compiler/escape).
	if _, err := w.Write(escape.JSON(b.Bytes())); err != nil {
		return fmt.Errorf("writing JSON report: %w", err)
	}
	return nil
}
