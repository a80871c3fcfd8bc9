package sandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/compiler/shellquote"
	"github.com/slurmspec/slurmspec/lab/localslurm"

	"github.com/slurmspec/slurmspec/render/slurmconf"
)

// fakeGPUDir is where the fake nvidia-smi is mounted inside the cluster's
// namespace: a directory on the default PATH of Slurm's prolog and epilog.
const fakeGPUDir = "/usr/local/sbin"

// absentReason is the Reason of rendered nodes without a stand-in.
const absentReason = "slurmspec sandbox: no stand-in slurmd for this node"

// afterStart does what the sandbox adds to a started cluster, each stated in
// the log and in st.Notes: nodes without a stand-in are drained, and a
// fake nvidia-smi is mounted when stand-ins have rendered GPUs that this
// host lacks.
func afterStart(ctx context.Context, st *State, cl *localslurm.Cluster, log io.Writer) error {
	groups, err := localslurm.NodeGroups(filepath.Join(st.Dir, renderedDir))
	if err != nil {
		return err
	}
	var absent []string
	for _, g := range groups {
		for _, n := range g.Nodes {
			if !slices.Contains(st.StandIns, n) {
				absent = append(absent, n)
			}
		}
	}
	// DRAIN, not DOWN: every node without a stand-in of its own has the
	// address and port of a stand-in (all rendered host names resolve to
	// this host), so that slurmd answers slurmctld's pings for it, and with
	// the rendered ReturnToService a DOWN node would come back IDLE and
	// take jobs.
	for chunk := range slices.Chunk(absent, 64) {
		out, err := run(ctx, cl, "scontrol", "update", "NodeName="+strings.Join(chunk, ","), "State=DRAIN", "Reason="+absentReason)
		if err != nil {
			return fmt.Errorf("drain the nodes without a stand-in: %w: %s", err, out)
		}
	}
	if len(absent) > 0 {
		note(st, log, "drained the %s without a stand-in, so that no job is scheduled there (scontrol update State=DRAIN Reason=%q): %s", nodes(len(absent), "node"), absentReason, strings.Join(absent, ","))
	}
	if st.FakeNvidiaSMI {
		if err := fakeNvidiaSMI(ctx, st, cl, groups, log); err != nil {
			return err
		}
	}
	if st.AccountingFile {
		return applyAccounting(ctx, st, cl, log)
	}
	return nil
}

// note records and logs one stated thing the supervisor did.
func note(st *State, log io.Writer, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	st.Notes = append(st.Notes, msg)
	say(log, "%s", msg)
}

// run runs a client command in the cluster and returns its combined output.
func run(ctx context.Context, cl *localslurm.Cluster, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := cl.Command(ctx, name, args...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// gpu is one stand-in's rendered GPUs.
type gpu struct {
	node  string
	count int
	model string
}

// gpuNodes returns the stand-ins whose rendered Gres has GPUs.
func gpuNodes(groups []localslurm.NodeGroup, standIns []string) []gpu {
	var out []gpu
	for _, g := range groups {
		for _, n := range g.Nodes {
			if !slices.Contains(standIns, n) {
				continue
			}
			count, model := 0, ""
			entries, _ := slurmconf.ParseGres(g.Gres[n]) // the rendered Gres, already read by localslurm
			for _, e := range entries {
				if e.Name != "gpu" {
					continue
				}
				if e.Type != "" {
					model = e.Type
				}
				count += int(min(e.Count, 64)) // a fake nvidia-smi lists at most this many
			}
			if count > 0 {
				if model == "" {
					model = "GPU"
				}
				out = append(out, gpu{node: n, count: count, model: "NVIDIA " + strings.ToUpper(model)})
			}
		}
	}
	return out
}

// hostHasNvidiaSMI reports whether this host has a real nvidia-smi.
func hostHasNvidiaSMI() bool {
	_, err := exec.LookPath("nvidia-smi")
	return err == nil
}

// fakeNvidiaSMIScript lists each stand-in's rendered GPUs, chosen by
// SLURMD_NODENAME, which slurmd sets for the prolog, the epilog and jobs.
func fakeNvidiaSMIScript(gpus []gpu) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Fake nvidia-smi of `slurmspec sandbox`: this host has no GPUs, so it lists the\n# GPUs of the rendered node (its Gres=), whatever the arguments.\n")
	b.WriteString("case \"${SLURMD_NODENAME:-}\" in\n")
	for _, g := range gpus {
		fmt.Fprintf(&b, "%s) n=%d model=%s ;;\n", shellquote.Word(g.node), g.count, shellquote.Word(g.model))
	}
	b.WriteString("*) echo \"nvidia-smi (slurmspec sandbox fake): no GPUs on node ${SLURMD_NODENAME:-unknown}\" >&2; exit 9 ;;\nesac\n")
	b.WriteString("i=0\nwhile [ \"$i\" -lt \"$n\" ]; do\n\techo \"GPU $i: $model (UUID: GPU-sandbox-${SLURMD_NODENAME}-$i)\"\n\ti=$((i + 1))\ndone\n")
	return b.String()
}

// fakeNvidiaSMI mounts a directory holding the fake nvidia-smi over
// /usr/local/sbin inside the cluster's namespace (the host's directory is
// untouched), when that directory is empty.
func fakeNvidiaSMI(ctx context.Context, st *State, cl *localslurm.Cluster, groups []localslurm.NodeGroup, log io.Writer) error {
	gpus := gpuNodes(groups, st.StandIns)
	entries, err := os.ReadDir(fakeGPUDir)
	if err != nil || len(entries) > 0 {
		why := fakeGPUDir + " is not empty"
		if err != nil {
			why = err.Error()
		}
		note(st, log, "no fake nvidia-smi (%s): a prolog or job that runs nvidia-smi on a stand-in will fail", why)
		return nil
	}
	dir := filepath.Join(cl.WorkDir(), "sandbox-gpu")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("fake nvidia-smi: %w", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return fmt.Errorf("fake nvidia-smi: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "nvidia-smi"), []byte(fakeNvidiaSMIScript(gpus)), 0o755); err != nil {
		return fmt.Errorf("fake nvidia-smi: %w", err)
	}
	if out, err := run(ctx, cl, "mount", "--bind", dir, fakeGPUDir); err != nil {
		return fmt.Errorf("fake nvidia-smi: mount: %w: %s", err, out)
	}
	var what []string
	for _, g := range gpus {
		what = append(what, fmt.Sprintf("%s: %d x %s", g.node, g.count, g.model))
	}
	note(st, log, "this host has no nvidia-smi: a fake one listing each stand-in's rendered GPUs (%s) is mounted on %s inside the sandbox's namespace only, for the rendered prolog and jobs", strings.Join(what, "; "), fakeGPUDir)
	return nil
}
