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
		{name: "nsenter", pkg: "util-linux"},
		{name: "mount", pkg: "mount"},
		{name: "hostname", pkg: "hostname"},
		{name: "sleep", pkg: "coreutils"},
		{name: "sh", pkg: "dash"},
		{name: "slurmdbd", pkg: "slurmdbd", accounting: true},
		{name: "mariadbd", pkg: "mariadb-server", accounting: true},
		{name: "mariadb-install-db", pkg: "mariadb-server", accounting: true},
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
// when o.Accounting is set). It returns a *PrereqError or nil.
func PrereqsFor(o Options) error {
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
		if t.accounting && !o.Accounting {
			continue
		}
		if _, err := lookTool(t.name); err != nil {
			missing = append(missing, Missing{What: t.name, Detail: "is not installed (" + err.Error() + ")", Package: t.pkg})
		}
	}
	if _, err := os.Stat("/bin/mail"); err != nil {
		missing = append(missing, Missing{
			What:    "/bin/mail",
			Detail:  "is missing: it is Slurm's default MailProg, and slurmctld logs \"error: Configured MailProg is invalid\" without it",
			Package: "mailutils",
		})
	}
	if pmixPluginWithoutLibrary() {
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
func pmixPluginWithoutLibrary() bool {
	plugins, _ := filepath.Glob("/usr/lib/*/slurm-wlm/mpi_pmix*.so")
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
