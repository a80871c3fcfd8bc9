package localslurm

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSeriesOf(t *testing.T) {
	for _, tc := range []struct{ in, series, full string }{
		{"slurm-wlm 22.05.8\n", "22.05", "22.05.8"},
		{"slurm 24.11.5", "24.11", "24.11.5"},
		{"slurm-wlm 26.05.5", "26.05", "26.05.5"},
		{"slurm 9.05.1", "9.05", "9.05.1"},
	} {
		s, f, ok := seriesOf(tc.in)
		if !ok || s.String() != tc.series || f != tc.full {
			t.Errorf("seriesOf(%q) = %q, %q, %v; want %q, %q", tc.in, s, f, ok, tc.series, tc.full)
		}
	}
	for _, in := range []string{"slurm-wlm", "slurm 2.6", "slurm 24.5.1"} {
		if s, _, ok := seriesOf(in); ok {
			t.Errorf("seriesOf(%q) = %v, want no version", in, s)
		}
	}
}

// TestRootPathStaysInRoot: links inside a root file system, absolute or
// relative, resolve inside it, never to the host's files.
func TestRootPathStaysInRoot(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"usr/bin", "etc/alternatives"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "usr/bin/mail.mailutils"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"bin":                   "usr/bin",
		"usr/bin/mail":          "/etc/alternatives/mail",
		"etc/alternatives/mail": "/usr/bin/mail.mailutils",
		"usr/bin/escape":        "../../../../../etc/passwd",
		"usr/bin/hostlink":      "/etc/hostname-on-host-only",
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(root, l)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := rootPath(root, "/bin/mail")
	if want := filepath.Join(root, "usr/bin/mail.mailutils"); err != nil || got != want {
		t.Errorf("rootPath(/bin/mail) = %q, %v; want %q", got, err, want)
	}
	// ".." never climbs above the root, as in a chroot.
	got, err = rootPath(root, "/usr/bin/escape")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("rootPath(/usr/bin/escape) = %q, %v; want not found inside the root (not the host's /etc/passwd)", got, err)
	}
	if _, err := rootPath(root, "/usr/bin/hostlink"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an absolute link to a path only the host has resolved: %v", err)
	}
	if p, err := lookToolIn(root, "mail"); err != nil || p != "/usr/bin/mail" {
		t.Errorf("lookToolIn(mail) = %q, %v; want /usr/bin/mail", p, err)
	}
	if _, err := lookToolIn(root, "slurmctld"); err == nil {
		t.Error("lookToolIn found a program the root lacks")
	}
}

func TestResolveRoot(t *testing.T) {
	t.Setenv("SLURMSPEC_ROOTFS_DIR", t.TempDir())
	if r, err := resolveRoot(""); err != nil || r != "/" {
		t.Errorf(`resolveRoot("") = %q, %v; want the host`, r, err)
	}
	for _, s := range []string{"23.02", "24.11.5", "27.05", "x"} {
		if _, err := resolveRoot(s); err == nil || !strings.Contains(err.Error(), "unknown Slurm release") {
			t.Errorf("resolveRoot(%q) = %v, want an unknown release", s, err)
		}
	}
	for _, s := range []string{"24.11", "26.05"} {
		if s == hostSeries().String() {
			continue
		}
		_, err := resolveRoot(s)
		var pe *PrereqError
		if !errors.As(err, &pe) {
			t.Fatalf("resolveRoot(%s) without a root file system: %v; want a *PrereqError", s, err)
		}
		t.Logf("%s", pe.Summary())
	}
}

// TestReleasesOnRealSlurm starts the fixture on every release this host can
// run (with accounting and a stand-in node), and checks that the cluster
// runs the release asked for (slurmctld -V in the namespace, scontrol show
// config's SLURM_VERSION), that slurmctld logged no error, that the
// release's slurmdbd (on the host's MariaDB) answers sacctmgr, that a job
// runs, and that Stop leaves nothing behind. A real-Slurm test
// (slurmtest): asked for, a release whose root file system is not built
// fails.
func TestReleasesOnRealSlurm(t *testing.T) {
	for _, series := range Releases() {
		t.Run(series, func(t *testing.T) {
			t.Parallel() // the releases side by side: their clusters share nothing
			o := Options{Release: series, Accounting: true, StandIns: []string{"seed-a4-0"}, Log: testLog{t}}
			requirePrereqs(t, o)
			o.Dir = renderedDir(t, nil, filepath.Join(t.TempDir(), "prolog.log"))
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			c, err := Start(ctx, o)
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			stopped := false
			defer func() {
				if !stopped {
					_ = c.Stop()
				}
			}()
			r := c.Release()
			t.Logf("running %s", r)
			if r.Series != series || !strings.HasPrefix(r.Version, series+".") {
				t.Errorf("Release() = %+v, want series %s", r, series)
			}
			cfg, err := c.ShowConfig()
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg["SLURM_VERSION"]; got != r.Version {
				t.Errorf("scontrol show config: SLURM_VERSION = %q, want %q (the release asked for)", got, r.Version)
			}
			if errs := c.LogErrors(); len(errs) > 0 {
				t.Errorf("slurmctld logged errors:\n%s", strings.Join(errs, "\n"))
			}
			if out := run(t, c, "srun", "-w", "seed-a4-0", "printenv", "SLURMD_NODENAME"); strings.TrimSpace(out) != "seed-a4-0" {
				t.Errorf("srun ran on %q, want seed-a4-0", out)
			}
			if out := run(t, c, "sacctmgr", "-n", "-P", "list", "cluster", "format=cluster"); strings.TrimSpace(out) != "seed" {
				t.Errorf("sacctmgr list cluster: %q, want seed (slurmdbd of %s)", out, series)
			}
			// MariaDB keeps its temporary tables in the work directory: in
			// the shared /tmp, installs in two PID namespaces collided.
			for _, p := range c.Processes() {
				if p.Name != "mariadbd" {
					continue
				}
				cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p.PID), "cmdline"))
				if want := "--tmpdir=" + filepath.Join(c.WorkDir(), "db", "tmp"); err != nil || !strings.Contains(string(cmdline), want) {
					t.Errorf("mariadbd's command line %q lacks %s (%v)", cmdline, want, err)
				}
			}
			procs, ns := c.Processes(), c.Namespace()
			beganUp := uptimeNow(t)
			stopped = true
			if err := c.Stop(); err != nil {
				t.Fatalf("Stop: %v", err)
			}
			for _, p := range procs {
				if LeftAfter(p.PID, beganUp) {
					t.Errorf("%s (pid %d) still exists after Stop", p.Name, p.PID)
				}
			}
			if left := processesIn(ns, 0); len(left) > 0 {
				t.Errorf("processes %v left in namespace %s", left, ns)
			}
		})
	}
}
