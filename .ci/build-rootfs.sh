#!/usr/bin/env bash
# build-rootfs.sh builds a Debian root file system holding another Slurm
# release, for lab/localslurm to run its daemons in (chroot inside the
# harness's private mount namespace):
#
#   bash .ci/build-rootfs.sh 24.11    # Debian trixie   (Slurm 24.11.x)
#   bash .ci/build-rootfs.sh 26.05    # Debian forky    (Slurm 26.05.x)
#   bash .ci/build-rootfs.sh all      # both
#   bash .ci/build-rootfs.sh --list   # what it builds: release suite script
#
# The releases, their suites and debootstrap scripts are the rows of lab
# rootfs in schema/catalog/data/releases.tsv. Each goes
# into $HOME/.cache/slurmspec/rootfs-<release> (SLURMSPEC_ROOTFS_DIR=DIR puts
# them in DIR/rootfs-<release>), where localslurm looks for them. Idempotent:
# a finished root file system carries a stamp (version, build time, package
# list) and is not rebuilt unless the package list changed; an unfinished
# one (interrupted build) is removed and built again. Built in a
# temporary sibling directory and renamed into place, so a reader never sees
# a half-built one. Prints the directory on its last line.
#
# Slurm 22.05 is the host's own (bookworm, .ci/install-slurm.sh); nothing is
# built for it.
#
# The root file systems hold no MariaDB server: slurmdbd of every release
# talks to the host's bookworm MariaDB 10.11 (started by the harness on a unix
# socket in the work directory, which the namespace sees). Measured:
# slurmdbd 24.11 and 26.05 die at start in _check_mysql_concat_is_sane
# (client error 5027) on a TLS connection, which MariaDB 11.8 offers by
# default; against bookworm's 10.11 without TLS they start. See
# docs/fidelity.md.
#
# Needs root, debootstrap, and a Debian mirror (SLURMSPEC_DEBIAN_MIRROR,
# default deb.debian.org). Measured on 2 cores: about 1-2 minutes and
# ~500 MB per release (docs/fidelity.md).
set -euo pipefail

CACHE="${SLURMSPEC_ROOTFS_DIR:-${HOME}/.cache/slurmspec}"
MIRROR="${SLURMSPEC_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

# Packages: the Slurm daemons and clients, slurmrestd (behind the local
# double of the service's Slurm Job API, lab/slurmapi: 24.11 and 26.05 serve
# the v0.0.42 that `slurmspec verify` calls), MUNGE, mailutils (Slurm's
# default MailProg is /bin/mail), and the programs the harness runs inside. Not
# libpmix-dev (on the host it provides the unversioned libpmix.so that
# Debian's mpi/pmix plugin loads): debootstrap cannot resolve its
# dependency on "automake | automaken" in trixie, so the script makes that
# one link itself below.
#
# And every plugin Debian ships outside slurm-wlm-basic-plugins
# (schema/catalog/data/debian_plugins.tsv), so that the fidelity oracle's
# slurmctld can load each plugin a release of Debian has (the stamp names
# them: a root file system built without them is built again).
plugins=slurm-wlm-elasticsearch-plugin,slurm-wlm-hdf5-plugin,slurm-wlm-influxdb-plugin,slurm-wlm-ipmi-plugins,slurm-wlm-jwt-plugin,slurm-wlm-kafka-plugin,slurm-wlm-mysql-plugin,slurm-wlm-rsmi-plugin
packages=slurmctld,slurmd,slurm-client,slurmdbd,slurmrestd,munge,mailutils,util-linux,mount,hostname,procps,${plugins}

# The Debian suite and debootstrap script of each release come from
# schema/catalog/data/releases.tsv (its debian, lab and debootstrap columns),
# the one place that states them; the rows of lab rootfs are the releases
# built here.
RELEASES_TSV="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/schema/catalog/data/releases.tsv"

# column RELEASE NAME prints the NAME column of RELEASE's row if its lab
# column is rootfs; it fails for any other release.
column() {
	awk -F '\t' -v release="$1" -v name="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == release && $col["lab"] == "rootfs" { print $col[name]; found = 1 }
		END { exit !found }' "${RELEASES_TSV}"
}
# rootfs_releases prints the releases built here, oldest first.
rootfs_releases() {
	awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["lab"] == "rootfs" { print $1 }' "${RELEASES_TSV}"
}

build() {
	local release=$1 suite script dir tmp began version
	suite=$(column "$release" debian) || {
		echo "build-rootfs: unknown release $release (want one of $(rootfs_releases | paste -sd ' ') or all; the host's own release is not built)" >&2
		return 2
	}
	script=$(column "$release" debootstrap)
	dir="${CACHE}/rootfs-${release}"
	# The stamp names the packages: a root file system built from another
	# package list (an older version of this script) is built again.
	if [ -f "${dir}/.slurmspec-rootfs" ] && grep -qxF "packages=${packages}" "${dir}/.slurmspec-rootfs"; then
		echo "build-rootfs: ${dir} present ($(head -n 1 "${dir}/.slurmspec-rootfs")), nothing to do" >&2
		echo "${dir}"
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "build-rootfs: must run as root (debootstrap)" >&2
		return 1
	fi
	command -v debootstrap >/dev/null || {
		echo "build-rootfs: debootstrap is not installed; install with: apt-get install -y debootstrap" >&2
		return 1
	}
	mkdir -p "${CACHE}"
	rm -rf "${dir}.tmp"
	tmp="${dir}.tmp"
	began=$(date +%s)
	echo "build-rootfs: debootstrap ${suite} (script ${script}) into ${tmp}" >&2
	# policy-rc.d keeps the packages' daemons from starting in the chroot.
	mkdir -p "${tmp}/usr/sbin"
	printf '#!/bin/sh\nexit 101\n' >"${tmp}/usr/sbin/policy-rc.d"
	chmod 0755 "${tmp}/usr/sbin/policy-rc.d"
	debootstrap --variant=minbase --include="${packages}" \
		"${suite}" "${tmp}" "${MIRROR}" "/usr/share/debootstrap/scripts/${script}" >"${CACHE}/rootfs-${release}.log" 2>&1 || {
		echo "build-rootfs: debootstrap failed; last lines of ${CACHE}/rootfs-${release}.log:" >&2
		tail -n 20 "${CACHE}/rootfs-${release}.log" >&2
		return 1
	}
	# The unversioned libpmix.so next to the library Slurm's mpi/pmix plugin
	# was built against (else slurmctld logs "can not load PMIx library").
	local lib
	for lib in "${tmp}"/usr/lib/*/pmix2/lib/libpmix.so.2; do
		[ -e "${lib}" ] && [ ! -e "${lib%.2}" ] && ln -s libpmix.so.2 "${lib%.2}"
	done
	# The harness mounts its own hosts file over /etc/hosts.
	[ -e "${tmp}/etc/hosts" ] || printf '127.0.0.1 localhost\n' >"${tmp}/etc/hosts"
	# Nothing the harness needs lives in apt's caches.
	rm -rf "${tmp}/var/cache/apt/archives/"*.deb "${tmp}/var/lib/apt/lists/"*
	version=$(chroot "${tmp}" /usr/sbin/slurmctld -V)
	case "${version}" in
	"slurm-wlm ${release}."* | "slurm ${release}."*) ;;
	*)
		echo "build-rootfs: ${suite} holds ${version}, not Slurm ${release}" >&2
		return 1
		;;
	esac
	printf '%s\npackages=%s\n' "${version} debian ${suite} built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(($(date +%s) - began))s" "${packages}" >"${tmp}/.slurmspec-rootfs"
	# Only now is a stale one replaced (a cluster running on it at this
	# moment loses its programs).
	rm -rf "${dir}"
	mv "${tmp}" "${dir}"
	echo "build-rootfs: ${dir}: $(head -n 1 "${dir}/.slurmspec-rootfs"), $(du -sh "${dir}" | cut -f1)" >&2
	echo "${dir}"
}

case "${1:-all}" in
--list)
	for release in $(rootfs_releases); do
		printf '%s\t%s\t%s\n' "${release}" "$(column "${release}" debian)" "$(column "${release}" debootstrap)"
	done
	;;
all)
	for release in $(rootfs_releases); do
		build "${release}"
	done
	;;
*) build "$1" ;;
esac
