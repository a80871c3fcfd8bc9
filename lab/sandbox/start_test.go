package sandbox

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
)

func TestChooseVersion(t *testing.T) {
	for _, c := range []struct {
		installed, requested string
		explicit             bool
		project              string
		want, release, note  string
		err                  bool
	}{
		{installed: "22.05.8", requested: "26.05", want: "22.05"},
		// The project config's slurmVersion is the target, as the flag is.
		{installed: "22.05.8", requested: "24.11", project: "24.11", want: "24.11", release: "24.11", note: "running Slurm 24.11 from its root file system"},
		{installed: "22.05.8", requested: "25.05", project: "25.05", want: "25.05", note: "warning: rendering for Slurm 25.05"},
		{installed: "22.05.8", requested: "22.05", project: "22.05", want: "22.05"},
		{installed: "22.05.8", requested: "23.02", explicit: true, project: "24.11", want: "23.02", note: "warning: rendering for Slurm 23.02"},
		{installed: "22.05.8", requested: "26.05", explicit: true, want: "26.05", release: "26.05", note: "running Slurm 26.05 from its root file system"},
		{installed: "22.05.8", requested: "25.05", explicit: true, want: "25.05", note: "warning: rendering for Slurm 25.05, but the installed slurmctld is 22.05.8"},
		{installed: "22.05.8", requested: "22.05", explicit: true, want: "22.05"},
		{installed: "19.05.5", requested: "26.05", err: true},
	} {
		got, release, note, err := ChooseVersion(c.installed, c.requested, c.explicit, c.project)
		var ve *VersionError
		if c.err {
			if !errors.As(err, &ve) || !strings.Contains(err.Error(), "pass --slurm-version") {
				t.Errorf("%+v: err %v", c, err)
			}
			continue
		}
		if err != nil || got != c.want || release != c.release || (c.note == "") != (note == "") || !strings.Contains(note, c.note) {
			t.Errorf("%+v: got %q, %q, %q, %v", c, got, release, note, err)
		}
	}
}

func TestForegroundExitStatus(t *testing.T) {
	var out bytes.Buffer
	for _, c := range []struct {
		argv []string
		code int
	}{
		{[]string{"true"}, 0},
		{[]string{"sh", "-c", "exit 3"}, 3},
		{[]string{"sh", "-c", "kill -TERM $$"}, 128 + 15},
	} {
		code, err := Foreground(exec.Command(c.argv[0], c.argv[1:]...), nil, &out, &out)
		if err != nil || code != c.code {
			t.Errorf("%v: %d, %v; want %d", c.argv, code, err, c.code)
		}
	}
	if code, err := Foreground(exec.Command("/nonexistent/program"), nil, &out, &out); code != 127 || err == nil {
		t.Errorf("a missing program: %d, %v", code, err)
	}
}

func TestHostCommandFindsTheWrappersFirst(t *testing.T) {
	dir := t.TempDir()
	st := &State{Dir: dir, ConfPath: "/w/slurm.conf"}
	if err := os.MkdirAll(st.BinDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(st.BinDir(), "squeue")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\necho wrapped \"$SLURM_CONF\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := st.HostCommand([]string{"squeue"}).Output()
	if err != nil || string(out) != "wrapped /w/slurm.conf\n" {
		t.Errorf("squeue: %q, %v", out, err)
	}
}

// TestStartRefusesWhatDoesNotRender: the renderer's refusal reaches the
// caller as a *RenderError with its diagnostics, before anything starts.
func TestStartRefusesWhatDoesNotRender(t *testing.T) {
	c := pipelinetest.Compile(t, "s.yaml", pipelinetest.Spec)
	c.Slurm.Config = append(c.Slurm.Config, ir.KV{Key: ir.Str{Value: "SlurmUser", Set: true}, Value: ir.Str{Value: "root", Set: true}})
	dir := filepath.Join(t.TempDir(), "state")
	_, err := Start(t.Context(), StartOptions{Cluster: c, Options: Options{Dir: dir, Supervisor: []string{"false"}, RenderedFor: "26.05"}})
	var re *RenderError
	if !errors.As(err, &re) || len(re.Diags) == 0 {
		t.Fatalf("Start: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Start made the state directory: %v", err)
	}
}
