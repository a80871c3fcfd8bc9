package localslurm

import (
	"context"
	"fmt"
	"strings"
)

// ShowJob runs `scontrol show job -o ID` and returns the job's record, or
// nil when slurmctld no longer knows the job.
func (c *Cluster) ShowJob(ctx context.Context, id string) (Fields, error) {
	out, err := c.output(ctx, "scontrol", "show", "job", "-o", id)
	if err != nil {
		if strings.Contains(err.Error(), "Invalid job id") {
			return nil, nil
		}
		return nil, fmt.Errorf("show job %s: %w", id, err)
	}
	for _, f := range parseOneLiners(string(out)) {
		if f["JobId"] == id {
			return f, nil
		}
	}
	return nil, nil
}

// ShowNode returns one node's `scontrol show node -o` record, or nil when
// slurmctld does not show it.
func (c *Cluster) ShowNode(ctx context.Context, name string) (Fields, error) {
	return c.showNode(ctx, name)
}
