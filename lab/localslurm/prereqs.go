package localslurm

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Missing is one prerequisite that is not met on this host.
type Missing struct {
	// What names the missing thing, such as "slurmctld".
	What string
	// Detail says why it is needed or how it was looked for.
	Detail string
	// Package is the Debian package that provides it; empty when no
	// package does.
	Package string
}

// String returns the one-line message for this missing prerequisite,
// including the exact install command where a package provides it.
func (m Missing) String() string {
	s := "localslurm: " + m.What + " " + m.Detail
	if m.Package != "" {
		s += "; install with: apt-get install -y " + m.Package
	}
	return s
}

// PrereqError lists every prerequisite that is missing.
type PrereqError struct {
	Missing []Missing
}

// Error returns one line per missing prerequisite.
func (e *PrereqError) Error() string {
	lines := make([]string, len(e.Missing))
	for i, m := range e.Missing {
		lines[i] = m.String()
	}
	return strings.Join(lines, "\n")
}

// Summary returns a single line naming everything missing and the one
// apt-get line that installs all of it, for test skip messages.
func (e *PrereqError) Summary() string {
	var whats, pkgs, other []string
	for _, m := range e.Missing {
		whats = append(whats, m.What)
		if m.Package == "" {
			other = append(other, m.What+" "+m.Detail)
		} else if !slices.Contains(pkgs, m.Package) {
			pkgs = append(pkgs, m.Package)
		}
	}
	s := "missing prerequisites: " + strings.Join(whats, ", ")
	if len(pkgs) > 0 {
		s += "; install with: apt-get install -y " + strings.Join(pkgs, " ") + " (or run .ci/install-slurm.sh)"
	}
	if len(other) > 0 {
		s += "; " + strings.Join(other, "; ")
	}
	return s
}

// tool is one program the harness runs, and the package that provides it.
type tool struct {
	name, pkg  string
	accounting bool // needed only when accounting is started
	rest       bool // needed only when slurmrestd is started (Options.RestAPI)
	// host marks the programs that always come from the host, whatever
	// release runs: nsenter and the shell that set up the namespace,
	// mount and hostname (run before the release's root is mounted), and
	// MariaDB (one server, the host's, for every release: see
	// startAccounting). The others come from the release's root.
	host bool
}

// requiredTools lists the programs the harness runs.
func requiredTools() []tool {
	return []tool{
		{name: "slurmctld", pkg: "slurmctld"},
		{name: "slurmd", pkg: "slurmd"},
		{name: "scontrol", pkg: "slurm-client"},
		{name: "sinfo", pkg: "slurm-client"},
		{name: "sbatch", pkg: "slurm-client"},
		{name: "squeue", pkg: "slurm-client"},
		{name: "sacctmgr", pkg: "slurm-client"},
		{name: "sprio", pkg: "slurm-client"},
		{name: "munged", pkg: "munge"},
		{name: "nsenter", pkg: "util-linux", host: true},
		{name: "mount", pkg: "mount", host: true},
		{name: "hostname", pkg: "hostname", host: true},
		{name: "sleep", pkg: "coreutils"},
		{name: "sh", pkg: "dash", host: true},
		{name: "slurmdbd", pkg: "slurmdbd", accounting: true},
		{name: "slurmrestd", pkg: "slurmrestd", rest: true},
		{name: "mariadbd", pkg: "mariadb-server", accounting: true, host: true},
		{name: "mariadb-install-db", pkg: "mariadb-server", accounting: true, host: true},
	}
}

// sbinDirs are searched after PATH, since the daemons live in sbin
// directories that a non-root PATH often lacks.
func sbinDirs() []string { return []string{"/usr/sbin", "/sbin", "/usr/bin", "/bin"} }

// lookTool finds a program in PATH or the sbin directories.
func lookTool(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, dir := range sbinDirs() {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found in PATH or %s", name, strings.Join(sbinDirs(), ", "))
}

// Prereqs checks that this host can run every feature of the harness,
// accounting (slurmdbd and MariaDB) and stand-in slurmd daemons included:
// root, the Slurm, MUNGE, MariaDB and util-linux programs, /bin/mail and
// libpmix.so. It returns a *PrereqError listing everything missing, each
// with the exact apt-get line that installs it.
func Prereqs() error {
	return PrereqsFor(Options{Accounting: true})
}

// PrereqsFor checks only what Start needs for o (MariaDB and slurmdbd only
// when o.Accounting is set; the root file system of o.Release when that is
// not the host's Slurm). It returns a *PrereqError or nil.
func PrereqsFor(o Options) error {
	root, err := resolveRoot(o.Release)
	if err != nil {
		return err
	}
	var missing []Missing
	if os.Geteuid() != 0 {
		// Measured: in an unprivileged user namespace (uid 0 mapped to the
		// caller) the namespace itself works, but slurmctld dies with
		// "fatal: Failed to drop supplementary groups, setgroups: Operation
		// not permitted", since such a namespace must deny setgroups.
		missing = append(missing, Missing{
			What:   "root",
			Detail: "is required: slurmctld runs as uid 0 and calls setgroups, which an unprivileged user namespace denies; run as root (for example with sudo)",
		})
	}
	for _, t := range requiredTools() {
		if t.accounting && !o.Accounting || t.rest && !o.RestAPI {
			continue
		}
		if _, err := t.find(root); err != nil {
			m := Missing{What: t.name, Detail: "is not installed (" + err.Error() + ")", Package: t.pkg}
			if root != "/" && !t.host {
				m = Missing{What: t.name, Detail: "is missing from the root file system (" + err.Error() + "); rebuild it with: rm -rf " + root + " && bash .ci/build-rootfs.sh " + o.Release}
			}
			missing = append(missing, m)
		}
	}
	if root != "/" {
		if hosts, err := rootPath(root, "/etc/hosts"); err != nil || !regular(hosts) {
			missing = append(missing, Missing{What: root + "/etc/hosts", Detail: "is missing: the harness mounts its hosts file there; rebuild the root file system with .ci/build-rootfs.sh " + o.Release})
		}
		if rootMissing := rootMergedUsr(root); rootMissing != "" {
			missing = append(missing, Missing{What: "merged /usr", Detail: rootMissing})
		}
	}
	if mail, err := rootPath(root, "/bin/mail"); err != nil || !exists(mail) {
		missing = append(missing, Missing{
			What:    "/bin/mail",
			Detail:  "is missing: it is Slurm's default MailProg, and slurmctld logs \"error: Configured MailProg is invalid\" without it",
			Package: "mailutils",
		})
	}
	if pmixPluginWithoutLibrary(root) {
		missing = append(missing, Missing{
			What:    "libpmix.so",
			Detail:  "is missing: Debian's mpi/pmix plugin loads the unversioned library, and slurmctld logs \"can not load PMIx library\" errors without it",
			Package: "libpmix-dev",
		})
	}
	if len(missing) == 0 {
		return nil
	}
	return &PrereqError{Missing: missing}
}

// pmixPluginWithoutLibrary reports whether Slurm's PMIx plugin is installed
// but the libpmix.so it loads at run time is not.
func pmixPluginWithoutLibrary(root string) bool {
	plugins, _ := filepath.Glob(filepath.Join(root, "/usr/lib/*/slurm-wlm/mpi_pmix*.so"))
	if len(plugins) == 0 {
		return false
	}
	for _, p := range plugins {
		lib := filepath.Join(filepath.Dir(filepath.Dir(p)), "pmix2", "lib", "libpmix.so")
		if _, err := os.Stat(lib); err == nil {
			return false
		}
	}
	return true
}

// find returns the program's path: on the host for host tools and for the
// host's own Slurm, else as seen inside root.
func (t tool) find(root string) (string, error) {
	if t.host {
		return lookTool(t.name)
	}
	return lookToolIn(root, t.name)
}

// exists reports whether a path exists (following symbolic links).
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// regular reports whether a path is a regular file.
func regular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// rootMergedUsr checks that the host and the root file system both keep
// their programs and libraries under /usr (Debian's merged /usr since
// bookworm), so that mounting the root's /usr and /etc over the host's in
// the cluster's namespace is enough. It returns what is wrong, or "".
func rootMergedUsr(root string) string {
	for _, d := range []string{"/bin", "/sbin", "/lib"} {
		for _, base := range []string{"/", root} {
			st, err := os.Lstat(filepath.Join(base, d))
			if err == nil && st.Mode()&os.ModeSymlink == 0 {
				return filepath.Join(base, d) + " is a directory, not a link into /usr: the harness runs another release only on a merged-/usr host and root file system"
			}
		}
	}
	return ""
}
