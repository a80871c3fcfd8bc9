// Package jobmix is the job-level oracle (issue 26): for every partition of
// a compiled spec, the standard job shapes its pools' machine types call
// for (render/jobshapes, which slurmspec verify submits to a live cluster
// too), each pinned to nodes (Derive, pure: no daemons), and a runner that
// submits each on a real
// cluster started by lab/localslurm and says what Slurm did with it (Judge:
// runs, refused at submit, or pending for a configuration reason).
//
// Compare puts the verdicts beside lint's findings: a shape that fails
// with no finding predicting it is a false negative, a finding that
// predicts a shape fails while it runs is a false positive. Which shapes a
// finding predicts is decided by a small table keyed by rule id
// (Predictors).
package jobmix
