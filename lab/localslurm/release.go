package localslurm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Releases returns the Slurm release series the harness knows how to run,
// oldest first: those data/releases.tsv gives a lab column
// (catalog.LabVersions), the host's own (Debian bookworm, 22.05) and those
// of the root file systems that .ci/build-rootfs.sh builds (Debian trixie,
// 24.11; Debian forky, 26.05). Whether one can run on this host is
// PrereqsFor's answer.
func Releases() []string {
	var out []string
	for _, v := range catalog.LabVersions() {
		out = append(out, v.String())
	}
	return out
}

// Release says which Slurm a cluster runs.
type Release struct {
	// Series is the release series, such as "24.11".
	Series string
	// Version is the version slurmctld -V reports, such as "24.11.5".
	Version string
	// Root is the root file system the Slurm and MUNGE programs come from:
	// "/" for the host's own, or a directory built by .ci/build-rootfs.sh.
	Root string
}

// String returns "Slurm 24.11.5 (root file system DIR)" or "Slurm 22.05.8
// (host)".
func (r Release) String() string {
	where := "host"
	if r.Root != "/" {
		where = "root file system " + r.Root
	}
	v := r.Version
	if v == "" {
		v = r.Series
	}
	return "Slurm " + v + " (" + where + ")"
}

// rootfsStamp is the file .ci/build-rootfs.sh writes last into a finished
// root file system.
const rootfsStamp = ".slurmspec-rootfs"

// RootFSDir returns where .ci/build-rootfs.sh puts the root file system of
// a release series: $SLURMSPEC_ROOTFS_DIR/rootfs-<series>, by default under
// $HOME/.cache/slurmspec.
func RootFSDir(series string) (string, error) {
	base := os.Getenv("SLURMSPEC_ROOTFS_DIR")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("root file system directory: %w", err)
		}
		base = filepath.Join(home, ".cache", "slurmspec")
	}
	return filepath.Join(base, "rootfs-"+series), nil
}

// versionWord is the version in a `slurmctld -V` line: its first word
// of three dot-separated numbers.
var versionWord = regexp.MustCompile(`\b\d+\.\d+\.\d+\b`)

// seriesOf returns the release series (catalog.ParseSeries) and the point
// release of a `slurmctld -V` line such as "slurm-wlm 22.05.8" or
// "slurm 24.11.5".
func seriesOf(version string) (series catalog.Series, full string, ok bool) {
	full = versionWord.FindString(version)
	s, err := catalog.ParseSeries(full)
	if err != nil {
		return catalog.Series{}, "", false
	}
	return s, full, true
}

// hostSeries returns the release series of the host's slurmctld, zero when
// it is not installed or says no version.
func hostSeries() catalog.Series {
	p, err := lookTool("slurmctld")
	if err != nil {
		return catalog.Series{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, p, "-V").Output()
	if err != nil {
		return catalog.Series{}
	}
	s, _, _ := seriesOf(string(out))
	return s
}

// resolveRoot returns the root file system that runs a release series:
// "/" for "" (the host's own) or the host's series, else the finished root
// file system of the series. A *PrereqError says what is missing.
func resolveRoot(series string) (string, error) {
	if series == "" {
		return "/", nil
	}
	v, err := catalog.ParseVersion(series)
	deb := v.Debian()
	if err != nil || v.String() != series || deb.Lab == catalog.LabNone {
		return "", fmt.Errorf("localslurm: unknown Slurm release %q (known: %s)", series, strings.Join(Releases(), ", "))
	}
	if series == hostSeries().String() {
		return "/", nil
	}
	dir, err := RootFSDir(series)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, rootfsStamp)); err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("localslurm: Slurm %s root file system: %w", series, err)
		}
		if deb.Lab == catalog.LabHost {
			// No root file system is built for the host's own release.
			return "", &PrereqError{Missing: []Missing{{
				What:    "Slurm " + series,
				Detail:  "is not the host's Slurm (" + orNone(hostSeries().String()) + "): it comes from Debian " + deb.Suite + "'s packages (.ci/install-slurm.sh)",
				Package: "slurmctld",
			}}}
		}
		return "", &PrereqError{Missing: []Missing{{
			What:   "Slurm " + series,
			Detail: "is neither the host's Slurm nor a built root file system (" + dir + "); build it with: bash .ci/build-rootfs.sh " + series,
		}}}
	}
	return dir, nil
}

// rootPath returns the host path of a path inside root, following
// symbolic links inside root (an absolute link target is taken relative to
// root, as a process chrooted there would see it).
func rootPath(root, p string) (string, error) {
	if root == "/" {
		return p, nil
	}
	cur := "/"
	rest := strings.Split(strings.Trim(p, "/"), "/")
	for links := 0; len(rest) > 0; {
		elem := rest[0]
		rest = rest[1:]
		if elem == "" || elem == "." {
			continue
		}
		if elem == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, elem)
		st, err := os.Lstat(filepath.Join(root, next))
		if err != nil {
			return "", err
		}
		if st.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > 40 {
			return "", fmt.Errorf("%s: too many symbolic links", p)
		}
		target, err := os.Readlink(filepath.Join(root, next))
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(strings.Trim(target, "/"), "/"), rest...)
	}
	return filepath.Join(root, cur), nil
}

// lookToolIn finds a program in the sbin and bin directories of root and
// returns its path as seen inside root. For the host ("/"), PATH comes
// first.
func lookToolIn(root, name string) (string, error) {
	if root == "/" {
		return lookTool(name)
	}
	for _, dir := range sbinDirs() {
		p := filepath.Join(dir, name)
		hp, err := rootPath(root, p)
		if err != nil {
			continue
		}
		if st, err := os.Stat(hp); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found in %s of %s", name, strings.Join(sbinDirs(), ", "), root)
}

// checkRelease runs slurmctld -V inside the cluster's namespace, records
// the version, and checks it is of the series asked for.
func (c *Cluster) checkRelease(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.ReadyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.tools["nsenter"], append(c.nsArgs(), c.tools["slurmctld"], "-V")...)
	cmd.Env = c.clientEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("slurmctld -V in %s: %w: %s", c.release.Root, err, strings.TrimSpace(string(out)))
	}
	series, full, ok := seriesOf(string(out))
	if !ok {
		return fmt.Errorf("slurmctld -V in %s says %q, not a version", c.release.Root, strings.TrimSpace(string(out)))
	}
	if c.release.Series != "" && series.String() != c.release.Series {
		return fmt.Errorf("asked for Slurm %s, but slurmctld in %s is %s", c.release.Series, c.release.Root, full)
	}
	c.release.Series, c.release.Version = series.String(), full
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none installed"
	}
	return s
}
