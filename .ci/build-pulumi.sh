#!/usr/bin/env bash
# Builds the Pulumi CLI (and the YAML language host) from the Go module proxy
# into a cache outside the repo, so the deploy end-to-end test can run the real
# engine offline. Does nothing when the binaries are already there.
#
#   bash .ci/build-pulumi.sh    # into $HOME/.cache/slurmspec/pulumi-v3.274.1/bin,
#                               # where the end-to-end test looks for it
#   PULUMI_CACHE_DIR=DIR bash .ci/build-pulumi.sh   # elsewhere; then point the
#                               # test at it with SLURMSPEC_PULUMI_BIN=DIR/bin
#
# The CLI is the wrapper module below: pkg/v3 and sdk/v3 at the same version,
# pkg's own replace of atotto/clipboard, and the version ldflag without which
# the Automation API cannot parse `pulumi version`. Prints the bin directory
# on its last line. About 12 minutes cold on 2 cores, 170 MB.
set -euo pipefail

PULUMI_VERSION="${PULUMI_VERSION:-v3.274.1}"
PULUMI_YAML_VERSION="${PULUMI_YAML_VERSION:-v1.25.0}"
CACHE_DIR="${PULUMI_CACHE_DIR:-${HOME}/.cache/slurmspec/pulumi-${PULUMI_VERSION}}"
BIN_DIR="${CACHE_DIR}/bin"
mkdir -p "${BIN_DIR}"

if [ ! -x "${BIN_DIR}/pulumi" ]; then
	work="$(mktemp -d)"
	trap 'rm -rf "${work}"' EXIT
	cat >"${work}/go.mod" <<MOD
module slurmspec.local/pulumicli

go 1.26

require (
	github.com/pulumi/pulumi/pkg/v3 ${PULUMI_VERSION}
	github.com/pulumi/pulumi/sdk/v3 ${PULUMI_VERSION}
)

replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e
MOD
	# A tools file pins pkg's CLI package in this module; the build below
	# compiles pkg's own main package with these requirements and replace.
	cat >"${work}/tools.go" <<'GO'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
GO
	(
		cd "${work}"
		GOFLAGS=-mod=mod go get github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@"${PULUMI_VERSION}"
		GOFLAGS=-mod=mod go build -trimpath \
			-ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${PULUMI_VERSION}" \
			-o "${BIN_DIR}/pulumi.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
	)
	mv "${BIN_DIR}/pulumi.tmp" "${BIN_DIR}/pulumi"
fi

if [ ! -x "${BIN_DIR}/pulumi-language-yaml" ]; then
	GOBIN="${BIN_DIR}" go install -trimpath \
		-ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=${PULUMI_YAML_VERSION}" \
		"github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@${PULUMI_YAML_VERSION}"
fi

"${BIN_DIR}/pulumi" version >&2
echo "${BIN_DIR}"
