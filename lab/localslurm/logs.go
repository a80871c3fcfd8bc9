package localslurm

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strings"
)

// noise reports whether an error line says nothing about the rendered
// configuration: a line that every first start of slurmctld on an empty
// StateSaveLocation logs (the harness always starts from an empty one), or
// slurmctld's clock-latency self-test, which fails on a loaded or virtualised
// host ("High latency for 1000 calls to gettimeofday()") whatever the
// configuration.
func noise(line string) bool {
	switch {
	case strings.Contains(line, "error: High latency for 1000 calls to gettimeofday()"):
		return true
	case strings.Contains(line, "error: Could not open ") && strings.Contains(line, " state file ") && strings.HasSuffix(line, "No such file or directory"):
		return true
	case strings.Contains(line, "error: NOTE: Trying backup state save file."),
		// 24.11 with ReconfigFlags=KeepPartInfo, on the empty state.
		strings.Contains(line, "error: NOTE: Trying backup partition state save file."),
		// 24.11 with jobcomp/elasticsearch, on the empty state.
		strings.Contains(line, "error: NOTE: Trying backup jobcomp state save file."):
		return true
	case strings.Contains(line, "error: No fed_mgr state file (") && strings.HasSuffix(line, ") to recover"),
		// 22.05's select/cray_aries, on the empty state.
		strings.Contains(line, "error: No blade state file (") && strings.HasSuffix(line, ") to recover"):
		return true
	}
	return false
}

// errorLines returns the lines of a daemon's output that contain "error:"
// or "fatal:", dropping noise lines when filter is set.
func errorLines(data []byte, filter bool) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if !strings.Contains(line, "error:") && !strings.Contains(line, "fatal:") {
			continue
		}
		if filter && noise(line) {
			continue
		}
		out = append(out, line)
	}
	return out
}

// LogErrors returns slurmctld's own log lines that contain "error:" or
// "fatal:", in order. They are read from slurmctld's standard error, which
// also holds what slurmctld prints before it opens SlurmctldLogFile (such as
// configuration parse errors). Lines that every first start on an empty
// StateSaveLocation logs ("Could not open ... state file", "Trying backup
// state save file", "No fed_mgr state file") and the host's clock-latency
// warning are left out; RawLogErrors keeps them. After Stop, the lines captured at Stop are returned.
func (c *Cluster) LogErrors() []string {
	return errorLines(c.ctldOutput(), true)
}

// RawLogErrors is LogErrors without leaving out the noise lines.
func (c *Cluster) RawLogErrors() []string {
	return errorLines(c.ctldOutput(), false)
}

// ctldOutput returns slurmctld's captured output.
func (c *Cluster) ctldOutput() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctldCaptured != nil {
		return c.ctldCaptured
	}
	data, err := os.ReadFile(c.ctldOutPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // slurmctld was never started
	}
	if err != nil {
		return []byte("localslurm: error: cannot read slurmctld output: " + err.Error() + "\n")
	}
	return data
}

// SlurmdErrors returns the error and fatal lines of a stand-in slurmd
// (Options.StandIns) since it was last started, read from its standard
// error, which holds everything it logs in the foreground. None is left
// out: no slurmd line was found that every start on this host logs
// whatever the configuration. It reads the work directory: call it before
// Stop.
func (c *Cluster) SlurmdErrors(node string) []string {
	data, err := os.ReadFile(c.path("log", "slurmd-"+node+".out"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []string{"localslurm: error: cannot read slurmd output: " + err.Error()}
	}
	return errorLines(data, false)
}
