package checker_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/filestore/apiv1/filestorepb"
	"google.golang.org/api/option"
	"google.golang.org/grpc/codes"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/checker"
	"github.com/slurmspec/slurmspec/lint/online/checker/fakefilestore"
)

const (
	homeName = "projects/acme/locations/us-central1-b/instances/home"
	dataName = "projects/acme/locations/us-central1-b/instances/data"
	vpc      = "projects/acme/global/networks/ml-vpc"
)

var (
	homePos = diag.Pos{File: "c.yaml", Line: 40, Col: 29}
	dataPos = diag.Pos{File: "c.yaml", Line: 20, Col: 18}
)

const (
	homePath = "orchestratorSpec.slurmSpec.homeDirectoryStorage"
	dataPath = "nodePools[0].filestores[0]"
)

// cluster returns a small IR: cluster acme/us-central1 on ml-vpc, pools a4
// and login in us-central1-b, /home on homeName and pool a4 mounting
// dataName.
func cluster() *ir.Cluster {
	str := func(v string, pos diag.Pos, path string) ir.Str {
		return ir.Str{Value: v, Set: v != "", Pos: pos, Path: path}
	}
	namePos := diag.Pos{File: "c.yaml", Line: 1, Col: 7}
	c := &ir.Cluster{
		File:    "c.yaml",
		Project: str("acme", namePos, "name"),
		Region:  str("us-central1", namePos, "name"),
		ID:      str("train", namePos, "name"),
		Network: str(vpc, diag.Pos{File: "c.yaml", Line: 3, Col: 12}, "network.network"),
		NodePools: []*ir.NodePool{
			{Index: 0, Path: "nodePools[0]", ID: str("a4", diag.Pos{}, "nodePools[0].id"),
				Zone:       str("us-central1-b", diag.Pos{File: "c.yaml", Line: 19, Col: 11}, "nodePools[0].zone"),
				Filestores: []ir.Str{str(dataName, dataPos, dataPath)}},
			{Index: 1, Path: "nodePools[1]", ID: str("login", diag.Pos{}, "nodePools[1].id"),
				Zone: str("us-central1-b", diag.Pos{File: "c.yaml", Line: 30, Col: 11}, "nodePools[1].zone")},
		},
	}
	c.Slurm.HomeDirectoryStorage = str(homeName, homePos, homePath)
	c.Slurm.LoginNodePoolID = str("login", diag.Pos{}, "orchestratorSpec.slurmSpec.loginNodePoolId")
	return c
}

// start runs a fake holding good home and data instances.
func start(t *testing.T) (*fakefilestore.Server, checker.Options) {
	t.Helper()
	srv := fakefilestore.New()
	srv.Put(fakefilestore.Instance(homeName, "ml-vpc"))
	srv.Put(fakefilestore.Instance(dataName, "ml-vpc"))
	addr, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv, checker.Options{ClientOptions: fakefilestore.ClientOptions(addr), Timeout: 5 * time.Second}
}

// finding is the part of a diagnostic the tests compare.
type finding struct {
	rule string
	sev  diag.Severity
	pos  diag.Pos
	msg  string // a substring of the message
}

func (f finding) String() string { return fmt.Sprintf("%s %s %s %q", f.pos, f.sev, f.rule, f.msg) }

func TestRules(t *testing.T) {
	home := func(rule string, sev diag.Severity, msg string) finding { return finding{rule, sev, homePos, msg} }
	data := func(rule string, sev diag.Severity, msg string) finding { return finding{rule, sev, dataPos, msg} }
	edit := func(name string, f func(*filestorepb.Instance)) func(*fakefilestore.Server) {
		return func(s *fakefilestore.Server) {
			inst := fakefilestore.Instance(name, "ml-vpc")
			f(inst)
			s.Put(inst)
		}
	}
	tests := []struct {
		name    string
		fake    func(*fakefilestore.Server)
		cluster func(*ir.Cluster)
		opt     func(*checker.Options)
		want    []finding // in diag.Compare order: position, then rule
	}{
		{name: "all good"},
		{name: "not found", fake: func(s *fakefilestore.Server) {
			s.Put(&filestorepb.Instance{Name: "projects/acme/locations/us-central1-b/instances/other"})
		},
			cluster: func(c *ir.Cluster) {
				c.Slurm.HomeDirectoryStorage.Value = "projects/acme/locations/us-central1-b/instances/hmoe"
			},
			want: []finding{home(online.RuleNotFound, diag.Error, `"hmoe" does not exist in project acme, location us-central1-b`)}},
		{name: "suspended", fake: edit(homeName, func(i *filestorepb.Instance) {
			i.State = filestorepb.Instance_SUSPENDED
			i.StatusMessage = "billing\ndisabled"
			i.Tier = filestorepb.Instance_BASIC_HDD // not reported: the instance is unusable anyway
		}), want: []finding{home(online.RuleNotReady, diag.Error, `"home" is SUSPENDED, not READY: billing; disabled`)}},
		{name: "creating", fake: edit(dataName, func(i *filestorepb.Instance) {
			i.State = filestorepb.Instance_CREATING
			i.Networks[0].Network = "default"
		}), want: []finding{
			data(online.RuleNetworkMismatch, diag.Error, "on network projects/acme/global/networks/default, but the cluster's network is "+vpc),
			data(online.RuleNotReady, diag.Warning, `"data" is CREATING, not READY yet`),
		}},
		{name: "other region than the cluster", fake: func(s *fakefilestore.Server) {
			s.Put(fakefilestore.Instance("projects/acme/locations/us-east1-b/instances/home", "ml-vpc"))
		}, cluster: func(c *ir.Cluster) {
			c.Slurm.HomeDirectoryStorage.Value = "projects/acme/locations/us-east1-b/instances/home"
		},
			want: []finding{home(online.RuleLocationMismatch, diag.Error, `"home" is in us-east1-b, but the cluster is in region us-central1`)}},
		{name: "other region than the pool", fake: func(s *fakefilestore.Server) {
			s.Put(fakefilestore.Instance("projects/acme/locations/europe-west4/instances/data", "ml-vpc"))
		}, cluster: func(c *ir.Cluster) {
			c.Region = ir.Str{} // given neither by name nor by flag
			c.NodePools[0].Filestores[0].Value = "projects/acme/locations/europe-west4/instances/data"
		}, want: []finding{data(online.RuleLocationMismatch, diag.Error, `"data" is in europe-west4, but node pool "a4" is in zone us-central1-b (region us-central1)`)}},
		{name: "other zone", fake: func(s *fakefilestore.Server) {
			s.Put(fakefilestore.Instance("projects/acme/locations/us-central1-a/instances/home", "ml-vpc"))
		}, cluster: func(c *ir.Cluster) {
			c.Slurm.HomeDirectoryStorage.Value = "projects/acme/locations/us-central1-a/instances/home"
		},
			want: []finding{home(online.RuleLocationMismatch, diag.Warning, `zonal Filestore instance "home" is in us-central1-a, but node pool "a4" is in zone us-central1-b`)}},
		{name: "regional instance", fake: func(s *fakefilestore.Server) {
			inst := fakefilestore.Instance("projects/acme/locations/us-central1/instances/home", "ml-vpc")
			inst.Tier = filestorepb.Instance_REGIONAL
			s.Put(inst)
		}, cluster: func(c *ir.Cluster) {
			c.Slurm.HomeDirectoryStorage.Value = "projects/acme/locations/us-central1/instances/home"
		}},
		{name: "other network", fake: edit(homeName, func(i *filestorepb.Instance) { i.Networks[0].Network = "default" }),
			want: []finding{home(online.RuleNetworkMismatch, diag.Error, `"home" is on network projects/acme/global/networks/default, but the cluster's network is projects/acme/global/networks/ml-vpc: the nodes cannot reach it`)}},
		{name: "same network name in another project", fake: edit(homeName, func(i *filestorepb.Instance) { i.Networks[0].Network = "projects/shared-vpc/global/networks/ml-vpc" }),
			want: []finding{home(online.RuleNetworkMismatch, diag.Error, "on network projects/shared-vpc/global/networks/ml-vpc")}},
		{name: "full network name", fake: edit(homeName, func(i *filestorepb.Instance) { i.Networks[0].Network = vpc })},
		{name: "compute URL", fake: edit(homeName, func(i *filestorepb.Instance) {
			i.Networks[0].Network = "https://www.googleapis.com/compute/v1/projects/acme/global/networks/ml-vpc"
		})},
		{name: "project number", fake: edit(homeName, func(i *filestorepb.Instance) { i.Networks[0].Network = "projects/123456789012/global/networks/ml-vpc" })},
		{name: "spec short network", cluster: func(c *ir.Cluster) { c.Network.Value = "ml-vpc" }},
		{name: "second network matches", fake: edit(homeName, func(i *filestorepb.Instance) {
			i.Networks = append([]*filestorepb.NetworkConfig{{Network: "default"}}, i.Networks...)
		})},
		{name: "basic hdd", fake: edit(homeName, func(i *filestorepb.Instance) { i.Tier = filestorepb.Instance_BASIC_HDD }),
			want: []finding{home(online.RuleTier, diag.Warning, "on tier BASIC_HDD: hard disks")}},
		{name: "standard", fake: edit(homeName, func(i *filestorepb.Instance) { i.Tier = filestorepb.Instance_STANDARD }),
			want: []finding{home(online.RuleTier, diag.Warning, "on tier STANDARD")}},
		{name: "basic ssd", fake: edit(homeName, func(i *filestorepb.Instance) { i.Tier = filestorepb.Instance_BASIC_SSD }),
			want: []finding{home(online.RuleTier, diag.Info, "on tier BASIC_SSD: fixed performance")}},
		{name: "enterprise", fake: edit(homeName, func(i *filestorepb.Instance) { i.Tier = filestorepb.Instance_ENTERPRISE })},
		{name: "tier of a pool filestore", fake: edit(dataName, func(i *filestorepb.Instance) { i.Tier = filestorepb.Instance_BASIC_HDD })},
		{name: "nfs 4.1", fake: edit(homeName, func(i *filestorepb.Instance) { i.Protocol = filestorepb.Instance_NFS_V4_1 }),
			want: []finding{home(online.RuleProtocol, diag.Warning, `"home" serves NFSv4.1 only`)}},
		{name: "protocol unspecified", fake: edit(homeName, func(i *filestorepb.Instance) { i.Protocol = filestorepb.Instance_FILE_PROTOCOL_UNSPECIFIED })},
		{name: "small", fake: edit(homeName, func(i *filestorepb.Instance) { i.FileShares[0].CapacityGb = 512 }),
			want: []finding{home(online.RuleCapacity, diag.Warning, `"home" has 512 GiB, less than the minimum of 1024 GiB`)}},
		{name: "small pool filestore", fake: edit(dataName, func(i *filestorepb.Instance) { i.FileShares[0].CapacityGb = 512 })},
		{name: "custom minimum", opt: func(o *checker.Options) { o.MinHomeCapacityGiB = 4096 },
			want: []finding{home(online.RuleCapacity, diag.Warning, "has 2560 GiB, less than the minimum of 4096 GiB")}},
		{name: "capacity check off", fake: edit(homeName, func(i *filestorepb.Instance) { i.FileShares[0].CapacityGb = 100 }),
			opt: func(o *checker.Options) { o.MinHomeCapacityGiB = -1 }},
		{name: "disabled", fake: edit(homeName, func(i *filestorepb.Instance) {
			i.Tier = filestorepb.Instance_BASIC_HDD
			i.FileShares[0].CapacityGb = 100
		}),
			opt:  func(o *checker.Options) { o.Disabled = map[string]bool{online.RuleTier: true} },
			want: []finding{home(online.RuleCapacity, diag.Warning, "has 100 GiB")}},
		{name: "home also mounted by a pool", fake: edit(homeName, func(i *filestorepb.Instance) { i.Networks[0].Network = "default" }),
			cluster: func(c *ir.Cluster) { c.NodePools[0].Filestores[0].Value = homeName },
			want: []finding{
				data(online.RuleNetworkMismatch, diag.Error, "on network projects/acme/global/networks/default"),
				home(online.RuleNetworkMismatch, diag.Error, "on network projects/acme/global/networks/default"),
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, opt := start(t)
			if tt.fake != nil {
				tt.fake(srv)
			}
			c := cluster()
			if tt.cluster != nil {
				tt.cluster(c)
			}
			if tt.opt != nil {
				tt.opt(&opt)
			}
			got, err := checker.Check(context.Background(), c, opt)
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d findings, want %d:\n%s", len(got), len(tt.want), dump(got))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Rule != w.rule || g.Severity != w.sev || g.Pos != w.pos || !strings.Contains(g.Message, w.msg) {
					t.Errorf("finding %d:\n got %s %s %s %q\nwant %s", i, g.Pos, g.Severity, g.Rule, g.Message, w)
				}
				wantPath := homePath
				if w.pos == dataPos {
					wantPath = dataPath
				}
				if g.Path != wantPath || g.Hint == "" {
					t.Errorf("finding %d: path %q hint %q, want path %q and a hint", i, g.Path, g.Hint, wantPath)
				}
			}
		})
	}
}

func dump(l diag.List) string {
	var b strings.Builder
	for _, d := range l {
		fmt.Fprintf(&b, "  %s %s %s %q\n", d.Pos, d.Severity, d.Rule, d.Message)
	}
	return b.String()
}

func TestNetworkMismatchPointsAtTheSpecNetwork(t *testing.T) {
	srv, opt := start(t)
	inst := fakefilestore.Instance(homeName, "default")
	srv.Put(inst)
	got, err := checker.Check(context.Background(), cluster(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Related) != 1 || got[0].Related[0].Path != "network.network" || got[0].Related[0].Pos.Line != 3 {
		t.Fatalf("want one finding related to network.network:\n%s%+v", dump(got), got)
	}
}

// TestNoInstanceNoCall checks that a spec whose names are placeholders or
// absent needs no credentials and makes no call.
func TestNoInstanceNoCall(t *testing.T) {
	srv, _ := start(t)
	c := cluster()
	c.Slurm.HomeDirectoryStorage.Value = "projects/PROJECT_ID/locations/REGION-ZONE/instances/FILESTORE_INSTANCE_ID"
	c.NodePools[0].Filestores = nil
	// No client options: a client would need Application Default Credentials.
	got, err := checker.Check(context.Background(), c, checker.Options{})
	if err != nil || len(got) != 0 {
		t.Fatalf("Check = %v, %v; want nothing", got, err)
	}
	if calls := srv.Calls(); len(calls) != 0 {
		t.Fatalf("calls: %v", calls)
	}
}

// TestOneCallPerInstance checks that an instance named twice is read once.
func TestOneCallPerInstance(t *testing.T) {
	srv, opt := start(t)
	c := cluster()
	c.NodePools[1].Filestores = []ir.Str{{Value: dataName, Set: true, Pos: diag.Pos{File: "c.yaml", Line: 31}, Path: "nodePools[1].filestores[0]"}}
	if _, err := checker.Check(context.Background(), c, opt); err != nil {
		t.Fatal(err)
	}
	if calls := srv.Calls(); len(calls) != 2 {
		t.Fatalf("calls: %v, want one per instance", calls)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		fake func(*fakefilestore.Server)
		opt  func(*checker.Options)
		kind online.Kind
		msg  string
	}{
		{name: "permission denied", fake: func(s *fakefilestore.Server) {
			s.Fail(dataName, codes.PermissionDenied, "Permission 'file.instances.get' denied on resource")
		},
			kind: online.KindPermissionDenied,
			msg:  "permission denied reading Filestore instance " + dataName + " (Permission 'file.instances.get' denied on resource): the credentials need file.instances.get on project acme, e.g. role roles/file.viewer"},
		{name: "api disabled", fake: func(s *fakefilestore.Server) { s.FailServiceDisabled("acme") },
			kind: online.KindAPIDisabled, msg: "the Filestore API is not enabled in project acme"},
		{name: "quota", fake: func(s *fakefilestore.Server) {
			s.Fail("", codes.ResourceExhausted, "Quota exceeded for quota metric 'Read requests'")
		},
			kind: online.KindQuota, msg: "Filestore API quota exhausted reading Filestore instance " + homeName + " (Quota exceeded for quota metric 'Read requests')"},
		{name: "unauthenticated", fake: func(s *fakefilestore.Server) {
			s.Fail("", codes.Unauthenticated, "Request had invalid authentication credentials.\nExpected OAuth 2 access token")
		}, kind: online.KindUnauthenticated, msg: "Google Cloud rejected the credentials"},
		{name: "other", fake: func(s *fakefilestore.Server) { s.Fail("", codes.Internal, "boom") },
			kind: online.KindOther, msg: "reading Filestore instance " + homeName + ": Internal: boom"},
		{name: "timeout", fake: func(s *fakefilestore.Server) { s.Block() },
			opt:  func(o *checker.Options) { o.Timeout = 300 * time.Millisecond },
			kind: online.KindTimeout, msg: "the Filestore API did not answer within 300ms (reading Filestore instance " + homeName + "): check the network, or raise the timeout (--online-timeout)"},
		{name: "no network", opt: func(o *checker.Options) { o.ClientOptions = fakefilestore.ClientOptions(closedAddr(t)) },
			kind: online.KindNetwork, msg: "cannot reach the Filestore API reading Filestore instance " + homeName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, opt := start(t)
			if tt.fake != nil {
				tt.fake(srv)
			}
			if tt.opt != nil {
				tt.opt(&opt)
			}
			start := time.Now()
			got, err := checker.Check(context.Background(), cluster(), opt)
			if elapsed := time.Since(start); elapsed > 3*time.Second {
				t.Errorf("Check took %s", elapsed)
			}
			if err == nil {
				t.Fatalf("Check = %v, nil; want an error", got)
			}
			t.Logf("%s: %v", online.KindOf(err), err)
			if k := online.KindOf(err); k != tt.kind {
				t.Errorf("kind %s, want %s (%v)", k, tt.kind, err)
			}
			if !strings.Contains(err.Error(), tt.msg) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error:\n%s\nwant one line containing\n%s", err, tt.msg)
			}
		})
	}
}

// closedAddr returns an address nothing listens on.
func closedAddr(t *testing.T) string {
	srv := fakefilestore.New()
	addr, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	return addr
}

func TestNoCredentials(t *testing.T) {
	t.Run("unreadable key file", func(t *testing.T) {
		t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", filepath.Join(t.TempDir(), "missing.json"))
		_, err := checker.Check(context.Background(), cluster(), checker.Options{ClientOptions: nil, Timeout: 5 * time.Second})
		if online.KindOf(err) != online.KindNoCredentials || !strings.Contains(err.Error(), "cannot load Google Cloud credentials") {
			t.Fatalf("err = %v (kind %s), want no-credentials", err, online.KindOf(err))
		}
	})
	// A key file that is a FIFO or a device is refused before the Google
	// client reads it whole: quickly, without blocking or reading /dev/zero.
	for name, path := range map[string]string{"fifo": "", "device": "/dev/zero", "huge": ""} {
		t.Run(name, func(t *testing.T) {
			switch name {
			case "fifo":
				path = filepath.Join(t.TempDir(), "key.json")
				if err := mkfifo(path); err != nil {
					t.Skip(err) // no FIFOs on this system
				}
			case "huge":
				path = filepath.Join(t.TempDir(), "key.json")
				if err := os.WriteFile(path, make([]byte, checker.MaxCredentialsSize+1), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", path)
			start := time.Now()
			_, err := checker.Check(context.Background(), cluster(), checker.Options{Timeout: 30 * time.Second})
			if online.KindOf(err) != online.KindNoCredentials || !strings.Contains(err.Error(), "the credentials file "+path) {
				t.Errorf("err = %v (kind %s)", err, online.KindOf(err))
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	t.Run("none found", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
		t.Setenv("CLOUDSDK_CONFIG", dir)
		t.Setenv("HOME", dir)
		t.Setenv("GCE_METADATA_HOST", "")
		os.Unsetenv("GCE_METADATA_HOST")
		addr := closedAddr(t) // never called: there are no credentials to call with
		_, err := checker.Check(context.Background(), cluster(), checker.Options{
			ClientOptions: []option.ClientOption{option.WithEndpoint(addr)}, Timeout: 5 * time.Second})
		switch k := online.KindOf(err); {
		case k == online.KindNoCredentials:
			if !strings.Contains(err.Error(), "no Google Cloud credentials found: run `gcloud auth application-default login`") {
				t.Errorf("err = %v", err)
			}
		case err != nil && k != online.KindOther && k != online.KindNetwork:
			t.Errorf("err = %v (kind %s)", err, k)
		default:
			t.Skipf("credentials found on this machine (metadata server?): %v", err)
		}
	})
}
