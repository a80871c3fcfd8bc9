// Package checker runs slurmspec's online checks: it reads every Filestore
// instance a spec names (homeDirectoryStorage and nodePools[].filestores[])
// from the Filestore API with Application Default Credentials and reports
// the rules of package lint/online against the spec's positions.
//
// This package links gRPC and the Filestore client. Only the
// slurmspec-online helper (cmd/slurmspec-online) imports it; the main
// slurmspec binary reaches it through lint/online/dispatch.
package checker

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"cloud.google.com/go/filestore/apiv1/filestorepb"
	"github.com/googleapis/gax-go/v2"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint/online"
)

// Options configure Check.
type Options struct {
	// Timeout bounds each Filestore API call and the client's set-up
	// (finding credentials); 0 means online.DefaultTimeout.
	Timeout time.Duration
	// MinHomeCapacityGiB is the smallest /home instance filestore-capacity
	// accepts; 0 means online.DefaultMinHomeCapacityGiB, a negative value
	// turns the check off.
	MinHomeCapacityGiB int64
	// ClientOptions are passed to the Filestore client after the defaults,
	// for example an endpoint (see OptionsFromEnv).
	ClientOptions []option.ClientOption
	// Disabled holds rule ids not to report.
	Disabled map[string]bool
}

// OptionsFromEnv returns the default Options, pointed at a plaintext gRPC
// server without credentials when the environment variable
// SLURMSPEC_FILESTORE_ENDPOINT (online.EnvEndpoint) holds its address. The
// variable is a testing hook for the fake server in lint/online/
// fakefilestore; it is not meant for the real API.
func OptionsFromEnv() Options {
	var opt Options
	if ep := strings.TrimSpace(os.Getenv(online.EnvEndpoint)); ep != "" {
		opt.ClientOptions = []option.ClientOption{
			option.WithEndpoint(ep),
			option.WithoutAuthentication(),
			option.WithGRPCDialOption(grpc.WithTransportCredentials(insecure.NewCredentials())),
		}
	}
	return opt
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = online.DefaultTimeout
	}
	if o.MinHomeCapacityGiB == 0 {
		o.MinHomeCapacityGiB = online.DefaultMinHomeCapacityGiB
	}
	return o
}

var (
	instanceRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^projects/([^/]+)/locations/([^/]+)/instances/([^/]+)$`)
	})
	placeholderRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][A-Z0-9_-]*$`) })
	zoneRe        = compiler.ZoneRegexp // the name formats are compiler's
	regionRe      = compiler.RegionRegexp
	numberRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+$`) })
)

// use is one place in the spec that names an instance.
type use struct {
	s    ir.Str
	pool *ir.NodePool // nil for homeDirectoryStorage
}

// target is one distinct instance and every place that names it.
type target struct {
	name, project, location, id string
	uses                        []use
}

// targets lists the instances to read, homeDirectoryStorage first, skipping
// values that are not full instance names or hold placeholders (offline
// rules report those).
func targets(c *ir.Cluster) []*target {
	var out []*target
	byName := map[string]*target{}
	add := func(s ir.Str, pool *ir.NodePool) {
		m := instanceRe().FindStringSubmatch(s.Value)
		if !s.Set || m == nil {
			return
		}
		for _, seg := range m[1:] {
			if placeholderRe().MatchString(seg) {
				return
			}
		}
		t := byName[s.Value]
		if t == nil {
			t = &target{name: s.Value, project: m[1], location: m[2], id: m[3]}
			byName[s.Value] = t
			out = append(out, t)
		}
		t.uses = append(t.uses, use{s: s, pool: pool})
	}
	add(c.Slurm.HomeDirectoryStorage, nil)
	for _, p := range c.NodePools {
		for _, f := range p.Filestores {
			add(f, p)
		}
	}
	return out
}

// Check reads every Filestore instance the cluster names and reports the
// online rules. It returns an *online.Error when the API cannot be used at
// all (no credentials, no network, permission denied, quota, timeout); a
// missing instance is a filestore-not-found diagnostic, not an error. A
// spec that names no instance needs no credentials and makes no call.
func Check(ctx context.Context, c *ir.Cluster, opt Options) (diag.List, error) {
	opt = opt.withDefaults()
	ts := targets(c)
	if len(ts) == 0 {
		return nil, nil
	}
	client, err := newClient(ctx, opt)
	if err != nil {
		return nil, err
	}
	defer func() { _ = client.Close() }()

	type fetched struct {
		inst *filestorepb.Instance
		err  error
	}
	results := make([]fetched, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, opt.Timeout)
			defer cancel()
			// No retries: each call gets one attempt within the timeout,
			// so that an unreachable API is reported as such.
			inst, err := client.GetInstance(cctx, &filestorepb.GetInstanceRequest{Name: t.name},
				gax.WithRetry(func() gax.Retryer { return nil }))
			results[i] = fetched{inst, err}
		})
	}
	wg.Wait()

	var l diag.List
	for i, t := range ts {
		r := results[i]
		switch {
		case r.err == nil:
			checkInstance(&l, c, t, r.inst, opt)
		case status.Code(r.err) == codes.NotFound:
			for _, u := range t.uses {
				l.Errorf(online.RuleNotFound, u.s.Pos, u.s.Path,
					fmt.Sprintf("check the name; `gcloud filestore instances list --project %s` lists the project's instances", t.project),
					"Filestore instance %q does not exist in project %s, location %s", t.id, t.project, t.location)
			}
		default:
			return nil, classify(r.err, t, opt.Timeout)
		}
	}
	var out diag.List
	for _, d := range l {
		if !opt.Disabled[d.Rule] {
			out = append(out, d)
		}
	}
	return out.Sort(), nil
}
