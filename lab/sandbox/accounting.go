package sandbox

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// assocWait bounds the wait for slurmctld to learn the users the
// accounting file's script added (slurmdbd pushes them).
const assocWait = 30 * time.Second

// applyAccounting runs the rendered accounting script (sacctmgr -i, as a
// Slurm administrator would on the login node) and waits, polling, until
// slurmctld's association manager knows every user it declares, so that
// their jobs are accepted at once under the spec's
// AccountingStorageEnforce.
func applyAccounting(ctx context.Context, st *State, cl *localslurm.Cluster, log io.Writer) error {
	script := filepath.Join(st.Dir, renderedDir, filepath.FromSlash(sacctmgr.Path))
	actx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	out, err := cl.Command(actx, "sh", script).CombinedOutput()
	if err != nil {
		return fmt.Errorf("apply the accounting file (%s): %w: %s", sacctmgr.Path, err, strings.TrimSpace(string(out)))
	}
	note(st, log, "applied the spec's accounting file with its rendered script (%s): %d users", sacctmgr.Path, len(st.AccountingUsers))
	deadline := time.Now().Add(assocWait)
	for {
		shown, err := run(ctx, cl, "scontrol", "show", "assoc_mgr", "flags=users")
		var missing []string
		for _, u := range st.AccountingUsers {
			if !strings.Contains(shown, "UserName="+u+"(") {
				missing = append(missing, u)
			}
		}
		if err == nil && len(missing) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			note(st, log, "warning: after %v slurmctld does not know user %s yet (scontrol show assoc_mgr); their jobs may be refused for a moment", assocWait, strings.Join(missing, ", "))
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
