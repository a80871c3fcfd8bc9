#!/bin/sh
# What-if check of examples/a4-training.yaml's preemption, on a sandbox:
#
#   slurmspec sandbox run examples/a4-training.yaml --preempt-exempt-time 1s -- sh preempt.sh
#
# Partitions "train" (PriorityTier=10) and "preempt" (PriorityTier=1,
# PreemptMode=REQUEUE) share the A4 nodes. A job in preempt runs; a job in
# train that needs its node requeues it. Exits 0 when it does.
set -eu

# Accounting is enforced (associations): an account and a user in it.
sacctmgr -i add account research >/dev/null
sacctmgr -i add user "$(id -un)" Account=research >/dev/null

# The node both jobs need: the stand-in (the other A4 nodes are drained).
node=$(sinfo -h -p preempt -t idle -o %N)

# wait_for JOB STATE: poll squeue until the job is in STATE (30 s at most).
wait_for() {
	i=0
	until [ "$(squeue -h -j "$1" -o %T)" = "$2" ]; do
		i=$((i + 1))
		if [ "$i" -gt 150 ]; then
			echo "job $1 is not $2 after 30s:" >&2
			squeue -o '%.6i %.9P %.9T %.12r %N' >&2
			exit 1
		fi
		sleep 0.2
	done
}

low=$(sbatch --parsable -A research -p preempt -w "$node" --exclusive -o /dev/null --wrap 'sleep 600')
wait_for "$low" RUNNING
echo "low-priority job $low is RUNNING in partition preempt on $node"
sleep 2 # past PreemptExemptTime (00:00:01 with --preempt-exempt-time 1s)

high=$(sbatch --parsable -A research -p train -w "$node" --exclusive -o /dev/null --wrap 'sleep 600')
wait_for "$high" RUNNING
echo "high-priority job $high is RUNNING in partition train on $node"

squeue -o '%.6i %.9P %.9T %.12r %N'
state=$(squeue -h -j "$low" -o %T)
restarts=$(scontrol show job -o "$low" | tr ' ' '\n' | sed -n 's/^Restarts=//p')
sacct -X -D -j "$low" -o JobID,Partition,State
if [ "$state" = PENDING ] && [ "$restarts" -ge 1 ]; then
	echo "PASS: job $low was requeued ($state, Restarts=$restarts)"
else
	echo "FAIL: job $low is $state with Restarts=$restarts; want it requeued (PENDING, Restarts>=1)"
	exit 1
fi
