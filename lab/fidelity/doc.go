// Package fidelity is the differential oracle between slurmspec's lint and
// a real slurmctld: a seeded, reproducible generator of plausible and
// implausible slurm.conf settings drawn from the catalog
// (schema/catalog), and a runner that lints each generated spec for a
// release and starts it on that release's slurmctld (lab/localslurm).
//
// A spec that lints clean (no error) is rendered as `slurmspec render`
// renders it; if slurmctld then refuses it, or logs an error line, the
// spec is a false negative: lint promised a cluster that does not start
// cleanly. A spec that lint refuses is started through a minimal stand-in
// renderer (the base spec's rendered slurm.conf with the settings written
// in verbatim); if slurmctld accepts it without an error line, it is a
// candidate false positive, for a person to review: Slurm accepting a
// setting does not prove it honours it.
//
// `make fidelity` runs it on every release and rewrites docs/fidelity.md;
// the package's test runs a small fixed sample per release.
package fidelity
