package localslurm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Fields is one record of `scontrol show ... -o` output: key to value, keys
// spelled as scontrol prints them.
type Fields map[string]string

// commandTimeout bounds each client command the harness runs itself.
const commandTimeout = 30 * time.Second

// output runs a client command in the cluster's namespace and returns its
// standard output; a failure carries the command's standard error.
func (c *Cluster) output(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := c.Command(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = strings.TrimSpace(string(out))
		}
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) && msg != "" {
			return out, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, msg)
		}
		return out, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return out, nil
}

// ShowConfig runs `scontrol show config` and returns its settings, keys
// spelled as scontrol prints them. Where a key appears in more than one
// section, the first (the slurm.conf section) wins.
func (c *Cluster) ShowConfig() (map[string]string, error) {
	out, err := c.output(context.Background(), "scontrol", "show", "config")
	if err != nil {
		return nil, fmt.Errorf("show config: %w", err)
	}
	return parseShowConfig(string(out)), nil
}

// ShowPartitions runs `scontrol show partition -o` and returns one record
// per partition.
func (c *Cluster) ShowPartitions() ([]Fields, error) {
	out, err := c.output(context.Background(), "scontrol", "show", "partition", "-o")
	if err != nil {
		return nil, fmt.Errorf("show partitions: %w", err)
	}
	return parseOneLiners(string(out)), nil
}

// ShowPartitionsClientConf is ShowPartitions run with a client-only
// slurm.conf: the cluster's with extra lines appended, written next to it
// (etc/client-slurm.conf) and named by the command's SLURM_CONF alone, so
// no daemon reads it. scontrol decides part of what it prints from its
// own slurm.conf: Slurm 23.02 and later print a partition's ResumeTimeout,
// SuspendTimeout, SuspendTime and PowerDownOnIdle only when the client's
// configuration has both SuspendProgram and ResumeProgram
// (src/api/partition_info.c, power_save_on), which the harness's has not.
func (c *Cluster) ShowPartitionsClientConf(extra string) ([]Fields, error) {
	base, err := os.ReadFile(c.confPath)
	if err != nil {
		return nil, fmt.Errorf("show partitions: %w", err)
	}
	path := c.path("etc", "client-slurm.conf")
	if err := os.WriteFile(path, append(append(base, '\n'), extra...), 0o644); err != nil {
		return nil, fmt.Errorf("show partitions: client slurm.conf: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := c.Command(ctx, "scontrol", "show", "partition", "-o")
	cmd.Env = append(cmd.Env, "SLURM_CONF="+path) // the last one wins
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("show partitions with %s: %w: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	return parseOneLiners(string(out)), nil
}

// ShowNodes runs `scontrol show node -o` and returns one record per node.
// Slurm 22.05 hides powered-down State=CLOUD nodes from this listing (unless
// PrivateData=cloud is set); a cloud node appears once its slurmd registers.
func (c *Cluster) ShowNodes() ([]Fields, error) {
	out, err := c.output(context.Background(), "scontrol", "show", "node", "-o")
	if err != nil {
		return nil, fmt.Errorf("show nodes: %w", err)
	}
	return parseOneLiners(string(out)), nil
}

// showNode returns one node's record, or nil when slurmctld does not show it.
func (c *Cluster) showNode(ctx context.Context, name string) (Fields, error) {
	out, err := c.output(ctx, "scontrol", "show", "node", "-o", name)
	if err != nil {
		if strings.Contains(err.Error(), "not found") {
			return nil, nil
		}
		return nil, fmt.Errorf("show node %s: %w", name, err)
	}
	for _, f := range parseOneLiners(string(out)) {
		if f["NodeName"] == name {
			return f, nil
		}
	}
	return nil, nil
}

// parseShowConfig parses "Key = value" lines.
func parseShowConfig(out string) map[string]string {
	m := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			continue
		}
		key = strings.TrimSpace(key)
		if key == "" || strings.ContainsAny(key, " \t") {
			continue
		}
		if _, dup := m[key]; !dup {
			m[key] = strings.TrimSpace(value)
		}
	}
	return m
}

// isKeyWord reports whether a word starts a new Key=value pair.
func isKeyWord(w string) bool {
	key, _, ok := strings.Cut(w, "=")
	if !ok || key == "" {
		return false
	}
	for i, r := range key {
		letter := (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z')
		if !letter && (i == 0 || ((r < '0' || r > '9') && r != '_')) {
			return false
		}
	}
	return true
}

// parseOneLiners parses `scontrol show ... -o` output, one record a line.
// Values may hold spaces (OS=, Reason=): a word that does not start with
// Key= continues the previous value.
func parseOneLiners(out string) []Fields {
	var records []Fields
	for line := range strings.SplitSeq(out, "\n") {
		words := strings.Fields(line)
		if len(words) == 0 || !isKeyWord(words[0]) {
			continue
		}
		f := Fields{}
		last := ""
		for _, w := range words {
			if isKeyWord(w) {
				k, v, _ := strings.Cut(w, "=")
				f[k], last = v, k
				continue
			}
			f[last] += " " + w
		}
		records = append(records, f)
	}
	return records
}
