package rules

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
)

// GRES: GresTypes against the GRES the node lines declare (S9).

// GresSharedWithoutGPU reports mps or shard without gpu in GresTypes (S9).
var GresSharedWithoutGPU = &lint.Rule{
	ID:       "gres-shared-without-gpu",
	Severity: diag.Error,
	Summary:  "GresTypes lists mps or shard without gpu",
	Doc: doc("The shared GRES (mps, shard) are slices of GPUs; slurmctld exits when GresTypes lists them "+
		"without gpu.",
		`config: {GresTypes: shard}`,
		`config: {GresTypes: gpu}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("GresTypes")
		if kv == nil || !hasToken(kv.Value.Value, "mps", "shard") || hasToken(kv.Value.Value, "gpu") {
			return
		}
		reportValue(p, kv, "add gpu: GresTypes: gpu,"+kv.Value.Value, "GresTypes=%s lists a shared GRES without gpu: slurmctld exits", kv.Value.Value)
	},
}

// GresSharingUnsupported reports mps or shard in GresTypes next to gpu: the
// sharing GRES are counted in gres.conf (Name=mps Count=…, Name=shard
// Count=…), which the service writes with gpu lines only and a spec cannot
// extend, so no node ever offers them (S9, found by the fidelity oracle).
var GresSharingUnsupported = &lint.Rule{
	ID:       "gres-sharing-unsupported",
	Severity: diag.Error,
	Summary:  "GresTypes lists mps or shard, whose counts only gres.conf can give",
	Doc: doc("GPU sharing (mps, shard) needs gres.conf lines that give each GPU node its count "+
		"(Name=mps Count=…, Name=shard Count=…). The service writes gres.conf with gpu lines only and a spec "+
		"cannot add any, so no node offers the shared GRES and jobs asking for them never run; slurmctld "+
		"logs \"SHARING configuration lacks \"File\" specification\" for every autoscaled GPU node at start "+
		"(Slurm 22.05, 24.11 and 26.05, gres_c_s.c). Request whole GPUs instead.",
		`config: {GresTypes: "gpu,mps"}`,
		`config: {GresTypes: gpu}`),
	Check: func(p *lint.Pass) {
		kv := effective(p).user("GresTypes")
		if kv == nil || !hasToken(kv.Value.Value, "gpu") {
			return // without gpu, gres-shared-without-gpu reports it
		}
		var shared, kept []string
		for _, t := range strings.Split(kv.Value.Value, ",") {
			switch strings.ToLower(strings.TrimSpace(t)) {
			case "mps", "shard":
				shared = append(shared, strings.TrimSpace(t))
			default:
				kept = append(kept, strings.TrimSpace(t))
			}
		}
		if len(shared) == 0 {
			return
		}
		reportValue(p, kv, "GresTypes: "+strings.Join(kept, ","),
			"GresTypes=%s lists %s, but the counts of shared GPUs come only from gres.conf lines the service does not write and a spec cannot add: no node offers %s, and slurmctld logs \"SHARING configuration lacks \"File\" specification\"",
			kv.Value.Value, strings.Join(shared, " and "), strings.Join(shared, " or "))
	},
}

// GresTypeNotDeclared reports node GRES whose type GresTypes lacks.
var GresTypeNotDeclared = &lint.Rule{
	ID:       "gres-type-not-declared",
	Severity: diag.Error,
	Summary:  "A node has a GRES (rendered Gres=gpu:… or set in nodeSets) that GresTypes does not list",
	Doc: doc("Slurm drops every node GRES whose name GresTypes does not list, with an error, so the GPUs are "+
		"invisible to jobs. The service writes GresTypes=gpu when a pool has GPUs, but a GresTypes in the "+
		"spec's config replaces that default.",
		"nodePools:\n- {id: a4, machineSpec: {machineType: a4-highgpu-8g}, ...}\nconfig: {GresTypes: nic}",
		"nodePools:\n- {id: a4, machineSpec: {machineType: a4-highgpu-8g}, ...}\nconfig: {GresTypes: \"gpu,nic\"}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		declared := tokenList(e.val("GresTypes"))
		userTypes := e.user("GresTypes")
		reported := map[string]bool{}
		if gpuPool := firstWholeGPUPool(p); gpuPool != "" {
			if _, ok := declared["gpu"]; !ok && userTypes != nil {
				reported["gpu"] = true
				reportValue(p, userTypes, "add gpu: GresTypes: gpu,"+userTypes.Value.Value,
					"GresTypes=%s lacks gpu, but node pool %q renders Gres=gpu:…: Slurm drops its GPUs", userTypes.Value.Value, gpuPool)
			}
		}
		for _, ns := range p.Cluster.Slurm.NodeSets {
			kv := lookupKV(ns.Config, "Gres")
			if kv == nil {
				continue
			}
			for _, item := range strings.Split(kv.Value.Value, ",") {
				name := strings.ToLower(strings.SplitN(item, ":", 2)[0])
				if name == "" {
					continue
				}
				if _, ok := declared[name]; ok {
					continue
				}
				hint := fmt.Sprintf("add %s to orchestratorSpec.slurmSpec.config.GresTypes", name)
				reportValue(p, kv, hint, "nodeSets entry for %q has Gres %q, but GresTypes does not list %s: Slurm drops it",
					ns.NodePoolID.Value, item, name)
				break
			}
		}
	},
}

// poolsByID indexes the node pools by id, so that rules over nodeSets stay
