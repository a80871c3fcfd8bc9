#!/usr/bin/env bash
# install-slurm.sh installs what lab/localslurm needs to start a throwaway
# single-host Slurm: Debian bookworm's Slurm 22.05, MUNGE and MariaDB, plus
#   mailutils    /bin/mail, Slurm's default MailProg (else slurmctld logs
#                "error: Configured MailProg is invalid")
#   libpmix-dev  the unversioned libpmix.so that Debian's mpi/pmix plugin
#                loads (else slurmctld logs "can not load PMIx library")
#   slurmrestd   Slurm's REST daemon, behind the local double of the
#                service's Slurm Job API (lab/slurmapi); bookworm's 22.05
#                serves v0.0.36-v0.0.38 only, so `slurmspec verify` (v0.0.42)
#                is tested against 24.11 and 26.05 (.ci/build-rootfs.sh)
#   slurm-wlm-*-plugin(s)  the plugins Debian ships outside
#                slurm-wlm-basic-plugins (schema/catalog/data/debian_plugins.tsv),
#                so a real slurmctld can load every plugin Debian ships and
#                the fidelity oracle judges them instead of the test host
#
# Idempotent and non-interactive. While it installs, a policy-rc.d that exits
# 101 keeps Debian's daemons (munge, mariadb, slurm*) from starting; an
# existing policy-rc.d is put back afterwards. It stops and disables nothing:
# the harness starts its own daemons in the foreground, with private state,
# ports and sockets.
set -euo pipefail

plugins=(slurm-wlm-elasticsearch-plugin slurm-wlm-hdf5-plugin slurm-wlm-influxdb-plugin slurm-wlm-ipmi-plugins slurm-wlm-jwt-plugin slurm-wlm-mysql-plugin slurm-wlm-rrd-plugin slurm-wlm-rsmi-plugin)
packages=(slurmctld slurmd slurm-client slurmdbd slurmrestd munge mariadb-server mailutils libpmix-dev util-linux mount hostname "${plugins[@]}")
binaries=(slurmctld slurmd scontrol sinfo sbatch squeue sacctmgr sprio slurmdbd slurmrestd munged mariadbd mariadb-install-db nsenter mount hostname)

have_all() {
	local b
	for b in "${binaries[@]}"; do
		command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] || [ -x "/sbin/$b" ] || return 1
	done
	[ -e /bin/mail ] || return 1
	compgen -G '/usr/lib/*/pmix2/lib/libpmix.so' >/dev/null || return 1
	local p
	for p in "${plugins[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qx 'install ok installed' || return 1
	done
	return 0
}

# INSTALL_SLURM_FORCE=1 runs apt-get even when everything looks present.
if [ "${INSTALL_SLURM_FORCE:-0}" != 1 ] && have_all; then
	echo "install-slurm: everything present ($(slurmctld -V)), nothing to do"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-slurm: must run as root: apt-get install -y ${packages[*]}" >&2
	exit 1
fi

policy=/usr/sbin/policy-rc.d
saved=""
if [ -e "$policy" ]; then
	saved=$(mktemp)
	cp -p "$policy" "$saved"
fi
restore_policy() {
	if [ -n "$saved" ]; then
		cp -p "$saved" "$policy"
		rm -f "$saved"
	else
		rm -f "$policy"
	fi
}
trap restore_policy EXIT
printf '#!/bin/sh\n# install-slurm.sh: keep Debian daemons from starting during install\nexit 101\n' >"$policy"
chmod 0755 "$policy"

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${packages[@]}"

if ! have_all; then
	echo "install-slurm: something is still missing after install" >&2
	exit 1
fi
echo "install-slurm: done ($(slurmctld -V))"
