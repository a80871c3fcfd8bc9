#!/bin/sh
# Run by TestUpAppliesAccounting inside `slurmspec sandbox run`: the spec's
# accounting file is in the database, and a job of a user it declares is
# accepted at once, under AccountingStorageEnforce=associations,limits,qos,
# in its account and QOS.
set -eu
sacctmgr -nP show assoc format=Account,User,QOS | grep -x 'research|root|normal,scavenger,urgent' ||
	{ echo "FAIL: no association research|root with the file's QOS"; sacctmgr -nP show assoc; exit 1; }
sacctmgr -nP show qos format=Name,PreemptMode | grep -x 'scavenger|requeue' ||
	{ echo "FAIL: no QOS scavenger with PreemptMode requeue"; exit 1; }
id=$(sbatch --parsable -A research --qos scavenger -p preempt -o /dev/null --wrap true)
echo "job $id accepted at once"
i=0
until sacct -n -X -j "$id" -o State | grep -q COMPLETED; do
	i=$((i + 1))
	[ "$i" -lt 300 ] || { echo "FAIL: job $id did not complete"; squeue -a; exit 1; }
	sleep 0.2
done
echo "PASS: job $id COMPLETED with $(scontrol show job -o "$id" | grep -o 'Account=[^ ]* QOS=[^ ]*')"
