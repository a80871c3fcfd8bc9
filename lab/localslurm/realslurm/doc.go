// Package realslurm runs slurmspec's rendered output on real Slurm through
// lab/localslurm: 22.05 (the host's Debian bookworm packages), 24.11 and
// 26.05 (Debian trixie and forky root file systems, .ci/build-rootfs.sh).
// It holds only tests:
//
//   - on each release, every example and every golden spec of
//     testdata/script that lints clean for it renders with that
//     --slurm-version, and that release's slurmctld accepts it and shows the
//     partitions, nodes and settings the spec asks for;
//   - accounting as the product docs describe it (slurmdbd, sacctmgr
//     associations, AccountingStorageEnforce), and the accounting file
//     (docs/accounting.md): its script applied twice, its plan against the
//     database's own capture, QOS preemption and a QOS limit, and the facts
//     behind lint's accounting-partition-no-qos and time-minutes-seconds
//     (MaxWall=12:00 is twelve minutes; a partition's AllowQos against the
//     association's QOS);
//   - preemption by partition PriorityTier, and the priority weights;
//   - every preemption claim of lint and diff, with a pair of real jobs
//     (preempt_test.go, preempt_diff_test.go; docs/fidelity.md);
//   - prolog and epilog scripts around a real job, and the order Slurm runs
//     them in;
//   - negative controls: configurations slurmctld refuses are refused, with
//     slurmctld's own error lines;
//   - lint against slurmctld (truth_test.go): for each setting on which
//     they once disagreed, the lint finding's severity matches what
//     slurmctld of each release does (refuses, logs an error, or accepts).
//
// Every real-Slurm test, each release's subtest, and each case that starts
// a cluster of its own (a truth case, a corpus config, an example or golden
// spec) runs in parallel (t.Parallel), up to go test's -parallel at once
// (make test: 8): each cluster has its own work directory, free ports,
// MUNGE socket, MariaDB data directory and socket, and private mount and
// UTS namespace (lab/localslurm), so that clusters running side by side
// share nothing. The cases that share one cluster per release (the shape
// rules, the preemption cases, which restart slurmctld on each case's
// slurm.conf while slurmdbd keeps what earlier cases made) run one after
// another within their release.
//
// They run only when asked for (SLURMSPEC_REAL_SLURM=1, which make test
// sets; see lab/localslurm/slurmtest), and then fail, not skip, without
// root or the Slurm packages, naming what is missing.
package realslurm
