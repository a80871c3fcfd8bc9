#!/usr/bin/env bash
# Builds a release: release.sh VERSION (make release VERSION=vX.Y.Z), run at
# the commit tagged VERSION in a clean checkout. docs/releasing.md.
#
# For each platform in PLATFORMS (default: linux/amd64 and linux/arm64;
# slurmspec does not build for darwin yet: render/output writes with
# Linux's renameat2, lab/localslurm uses Linux namespaces) it builds slurmspec, slurmspec-online and slurmspec-deploy with
# CGO_ENABLED=0, -trimpath, -buildvcs=false and VERSION stamped at link
# time (compiler/buildinfo: every binary's --version prints it), and packs
# them with LICENSE and README.md into
# DIST/slurmspec_VERSION_OS_ARCH.tar.gz (file order, times and owners fixed,
# so the same commit and Go release give the same bytes). DIST/SHA256SUMS
# lists the archives' SHA-256 sums, as `sha256sum -c` reads them.
# DIST defaults to dist/VERSION and must not exist yet.
set -euo pipefail

die() {
	echo "release.sh: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: release.sh VERSION (make release VERSION=vX.Y.Z)"
version=$1
# Semantic versioning with the v, as Go modules require.
[[ $version =~ ^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] ||
	die "VERSION $version is not vMAJOR.MINOR.PATCH[-PRERELEASE]"

root=$(git rev-parse --show-toplevel) || die "not in a git checkout"
cd "$root"
git tag --points-at HEAD | grep -qxF -- "$version" ||
	die "HEAD is not tagged $version: tag the release commit first (git tag -a $version)"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "the checkout has uncommitted changes: a release is built from the tagged commit only"

dist=${DIST:-dist/$version}
platforms=${PLATFORMS:-linux/amd64 linux/arm64}
[ ! -e "$dist" ] || die "$dist exists: remove it or set DIST"
mkdir -p "$dist"
dist=$(cd "$dist" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ldflags="-s -w -X github.com/slurmspec/slurmspec/compiler/buildinfo.stamped=$version"
# A commit time for the archive entries: reproducible, and meaningful.
mtime=$(git log -1 --format=%cI HEAD)
for platform in $platforms; do
	goos=${platform%/*} goarch=${platform#*/}
	name=slurmspec_${version}_${goos}_${goarch}
	out=$work/$name
	mkdir -p "$out"
	echo "== $platform"
	export CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch GOWORK=off
	go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$out/" ./cmd/slurmspec
	for helper in cmd/slurmspec-online cmd/slurmspec-deploy; do
		go -C "$helper" build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$out/" .
	done
	unset GOOS GOARCH
	cp LICENSE README.md "$out/"
	tar -C "$work" --sort=name --mtime="$mtime" --owner=0 --group=0 --numeric-owner \
		-cf - "$name" | gzip -n -9 >"$dist/$name.tar.gz"
done
(cd "$dist" && sha256sum -- *.tar.gz >SHA256SUMS)
echo "== $dist"
ls -l "$dist"
