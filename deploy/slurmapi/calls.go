package slurmapi

import (
	"context"
	"fmt"
	"strconv"
)

// Number is slurmrestd's optional number: {"set", "infinite", "number"}.
type Number struct {
	Set      bool  `json:"set"`
	Infinite bool  `json:"infinite"`
	Number   int64 `json:"number"`
}

// String returns the number, "UNLIMITED" or "" when unset.
func (n Number) String() string {
	switch {
	case n.Infinite:
		return "UNLIMITED"
	case !n.Set:
		return ""
	}
	return strconv.FormatInt(n.Number, 10)
}

// Partition is what the client reads of a live partition.
type Partition struct {
	Name  string `json:"name"`
	Nodes struct {
		// Configured is the partition's Nodes= as slurmctld expands
		// node sets: a host list such as "train-a4-[0-3]".
		Configured string `json:"configured"`
		Total      int    `json:"total"`
	} `json:"nodes"`
	CPUs struct {
		Total int `json:"total"`
	} `json:"cpus"`
	Defaults struct {
		Time Number `json:"time"`
	} `json:"defaults"`
	Maximums struct {
		Time  Number `json:"time"`
		Nodes Number `json:"nodes"`
	} `json:"maximums"`
	Minimums struct {
		Nodes int64 `json:"nodes"`
	} `json:"minimums"`
	Priority struct {
		Tier int64 `json:"tier"`
	} `json:"priority"`
	Partition struct {
		State []string `json:"state"`
	} `json:"partition"`
}

// Node is what the client reads of a live node.
type Node struct {
	Name string `json:"name"`
	CPUs int    `json:"cpus"`
	// RealMemory is in MiB.
	RealMemory int64 `json:"real_memory"`
	// Gres is the node's Gres= ("gpu:b200:8").
	Gres       string   `json:"gres"`
	Partitions []string `json:"partitions"`
	State      []string `json:"state"`
}

// Partitions reads every partition.
func (c *Client) Partitions(ctx context.Context) ([]Partition, error) {
	var out struct {
		Partitions []Partition `json:"partitions"`
	}
	if err := c.call(ctx, "GET", "/slurm/"+Version+"/partitions", nil, &out); err != nil {
		return nil, err
	}
	return out.Partitions, nil
}

// Nodes reads every node.
func (c *Client) Nodes(ctx context.Context) ([]Node, error) {
	var out struct {
		Nodes []Node `json:"nodes"`
	}
	if err := c.call(ctx, "GET", "/slurm/"+Version+"/nodes", nil, &out); err != nil {
		return nil, err
	}
	return out.Nodes, nil
}

// JobSpec is a batch job to submit. Zero fields are left to Slurm's
// defaults.
type JobSpec struct {
	Name      string
	Partition string
	// Script is the batch script, starting with #!.
	Script string
	// Nodes is the node count (0: Slurm's default, one).
	Nodes int
	// Tasks is the task count (0: Slurm's default).
	Tasks int
	// GPUs is the job's GPU count (--gpus), GPUsPerNode the count on each
	// node (--gpus-per-node).
	GPUs, GPUsPerNode int
	// Exclusive asks for whole nodes (--exclusive).
	Exclusive bool
	// MemoryPerNode is --mem in MiB (0: the partition's default).
	MemoryPerNode int64
	// MemoryPerGPU is --mem-per-gpu in MiB (0: the partition's default).
	MemoryPerGPU int64
	// TimeLimit is --time in minutes; unset (Set false), the partition's
	// default.
	TimeLimit Number
	// Account is -A, QOS --qos ("": the user's defaults).
	Account, QOS string
	// ExcludedNodes are nodes the job may not run on (-x).
	ExcludedNodes []string
	// Cwd is the job's working directory; "" means /tmp.
	Cwd string
}

// body is the v0.0.42 job description of s.
func (s JobSpec) body() map[string]any {
	cwd := s.Cwd
	if cwd == "" {
		cwd = "/tmp"
	}
	job := map[string]any{
		"name":                      s.Name,
		"partition":                 s.Partition,
		"script":                    s.Script,
		"current_working_directory": cwd,
		"environment":               []string{"PATH=/usr/local/bin:/usr/bin:/bin"},
		"standard_output":           "/dev/null",
		"standard_error":            "/dev/null",
	}
	if s.Nodes > 0 {
		job["minimum_nodes"] = s.Nodes
		job["maximum_nodes"] = s.Nodes
	}
	if s.Tasks > 0 {
		job["tasks"] = s.Tasks
	}
	if s.GPUs > 0 {
		job["tres_per_job"] = fmt.Sprintf("gres/gpu:%d", s.GPUs)
	}
	if s.GPUsPerNode > 0 {
		job["tres_per_node"] = fmt.Sprintf("gres/gpu:%d", s.GPUsPerNode)
	}
	if s.Exclusive {
		job["shared"] = []string{"none"}
	}
	if s.MemoryPerNode > 0 {
		job["memory_per_node"] = Number{Set: true, Number: s.MemoryPerNode}
	}
	if s.MemoryPerGPU > 0 {
		job["memory_per_tres"] = fmt.Sprintf("gres/gpu:%d", s.MemoryPerGPU)
	}
	if s.TimeLimit.Set {
		job["time_limit"] = s.TimeLimit
	}
	if s.Account != "" {
		job["account"] = s.Account
	}
	if s.QOS != "" {
		job["qos"] = s.QOS
	}
	if len(s.ExcludedNodes) > 0 {
		job["excluded_nodes"] = s.ExcludedNodes
	}
	return map[string]any{"job": job}
}

// Submit submits a batch job and returns its id. A job Slurm refuses is an
// *Error whose SlurmStatus is set and whose message is Slurm's reason.
func (c *Client) Submit(ctx context.Context, s JobSpec) (int64, error) {
	var out struct {
		JobID int64 `json:"job_id"`
	}
	if err := c.call(ctx, "POST", "/slurm/"+Version+"/job/submit", s.body(), &out); err != nil {
		return 0, err
	}
	if out.JobID == 0 {
		return 0, &Error{Op: "POST /slurm/" + Version + "/job/submit", Msg: "slurmrestd answered without a job id"}
	}
	return out.JobID, nil
}

// Job is what the client reads of a job.
type Job struct {
	JobID int64    `json:"job_id"`
	State []string `json:"job_state"`
	// Reason is why a pending job waits (PartitionConfig, Resources, ...).
	Reason string `json:"state_reason"`
	Nodes  string `json:"nodes"`
}

// Job reads one job.
func (c *Client) Job(ctx context.Context, id int64) (Job, error) {
	var out struct {
		Jobs []Job `json:"jobs"`
	}
	path := "/slurm/" + Version + "/job/" + strconv.FormatInt(id, 10)
	if err := c.call(ctx, "GET", path, nil, &out); err != nil {
		return Job{}, err
	}
	if len(out.Jobs) != 1 {
		return Job{}, &Error{Op: "GET " + path, Msg: fmt.Sprintf("slurmrestd answered with %d jobs, want 1", len(out.Jobs))}
	}
	if out.Jobs[0].JobID != id {
		return Job{}, &Error{Op: "GET " + path, Msg: fmt.Sprintf("slurmrestd answered about job %d, not job %d", out.Jobs[0].JobID, id)}
	}
	return out.Jobs[0], nil
}

// Cancel cancels a job.
func (c *Client) Cancel(ctx context.Context, id int64) error {
	return c.call(ctx, "DELETE", "/slurm/"+Version+"/job/"+strconv.FormatInt(id, 10), nil, nil)
}
