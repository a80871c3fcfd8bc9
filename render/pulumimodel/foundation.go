package pulumimodel

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/netip"
	"regexp"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler/ir"
)

// Type tokens of the foundation resources (pulumi-gcp).
const (
	ServiceType        = "gcp:projects/service:Service"
	NetworkType        = "gcp:compute/network:Network"
	SubnetworkType     = "gcp:compute/subnetwork:Subnetwork"
	FirewallType       = "gcp:compute/firewall:Firewall"
	RouterType         = "gcp:compute/router:Router"
	RouterNatType      = "gcp:compute/routerNat:RouterNat"
	AccountType        = "gcp:serviceaccount/account:Account"
	IAMMemberType      = "gcp:projects/iAMMember:IAMMember"
	DefaultSubnetCIDR  = "10.0.0.0/16"
	iapSourceRange     = "35.235.240.0/20" // Identity-Aware Proxy's TCP forwarding range
	NetworkResource    = "network"
	SubnetworkResource = "subnetwork"
	AccountResource    = "serviceAccount"
)

// requiredAPIs are the services a cluster needs (reference: "APIs
// enabled: Compute, Filestore, Cloud Storage, Vertex AI, Hypercomputer
// Configuration, and Managed Lustre if used"). The service name of
// Hypercomputer Configuration is not stated by the reference or Google's
// get-started page; hypercomputecluster.googleapis.com is unverified.
var requiredAPIs = []struct{ name, service string }{
	{"compute", "compute.googleapis.com"},
	{"file", "file.googleapis.com"},
	{"storage", "storage.googleapis.com"},
	{"aiplatform", "aiplatform.googleapis.com"},
	{"hypercomputecluster", "hypercomputecluster.googleapis.com"},
}

var lustreAPI = struct{ name, service string }{"lustre", "lustre.googleapis.com"}

// serviceAccountRoles are the project roles given to a created
// runtimeSpec.serviceAccount: writing logs and metrics, and reading the
// Cloud Storage objects a job stages. The reference names no roles; these
// are the least the nodes' agents need and are easy to extend by hand.
var serviceAccountRoles = []string{
	"roles/logging.logWriter",
	"roles/monitoring.metricWriter",
	"roles/storage.objectViewer",
}

var (
	reSubnetwork = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^projects/([^/]+)/regions/([^/]+)/subnetworks/([^/]+)$`)
	})
	reAccount = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([a-z][a-z0-9-]{4,28}[a-z0-9])@([a-z][a-z0-9-]{4,28}[a-z0-9])\.iam\.gserviceaccount\.com$`)
	})
)

// foundation is the opt-in layer beneath the cluster.
type foundation struct {
	resources []Resource
	// clusterDeps are resources the cluster waits for although it does
	// not reference them (firewall rules, NAT, APIs, role bindings).
	clusterDeps []string
	// services are the API resources every other resource waits for.
	services []string
	// network, subnetwork, serviceAccount replace the cluster's inputs
	// with references to the created resources (nil: as in the spec).
	network, subnetwork, serviceAccount any
	// networkName is what a Filestore instance is connected to.
	networkName any
}

// buildFoundation builds the resources Options asks for; body is the
// cluster's inputs.
func buildFoundation(c *ir.Cluster, body map[string]any, opt Options) (*foundation, error) {
	f := &foundation{}
	if opt.EnableAPIs {
		apis := append([]struct{ name, service string }{}, requiredAPIs...)
		if usesLustre(body) {
			apis = append(apis, lustreAPI)
		}
		for _, a := range apis {
			name := "api-" + a.name
			f.add(Resource{Name: name, Type: ServiceType, Inputs: map[string]any{
				"project": c.Project.Value,
				"service": a.service,
				// Turning an API off on destroy would break whatever else
				// in the project uses it.
				"disableOnDestroy": false,
			}}, true)
			f.services = append(f.services, name)
		}
	}
	if opt.CreateNetwork {
		if err := f.addNetwork(c, body, opt); err != nil {
			return nil, err
		}
	} else if opt.SubnetCIDR != "" {
		return nil, fmt.Errorf("--%s needs --%s", FlagSubnetCIDR, FlagCreateNetwork)
	}
	if opt.CreateServiceAccount {
		if err := f.addAccount(c, body); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// add appends a resource; it waits for the APIs unless it is one.
func (f *foundation) add(r Resource, isService bool) {
	if !isService {
		r.Options.DependsOn = append(r.Options.DependsOn, f.services...)
	}
	f.resources = append(f.resources, r)
}

// get returns the value at a path of plain data, or nil.
func get(v any, keys ...string) any {
	for _, k := range keys {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

func str(v any, keys ...string) string {
	s, _ := get(v, keys...).(string)
	return s
}

func pools(body map[string]any) []any {
	l, _ := body["nodePools"].([]any)
	return l
}

func usesLustre(body map[string]any) bool {
	if get(body, "lustreExportConfig") != nil {
		return true
	}
	for _, p := range pools(body) {
		if l, _ := get(p, "lustres").([]any); len(l) > 0 {
			return true
		}
	}
	return false
}

// network: VPC, subnetwork with Private Google Access, internal firewall,
// IAP SSH, and Cloud Router + NAT when some nodes have no public IP.
func (f *foundation) addNetwork(c *ir.Cluster, body map[string]any, opt Options) error {
	nm := reNetwork().FindStringSubmatch(c.Network.Value)
	if nm == nil {
		return fmt.Errorf("--%s: network.network %q is not projects/P/global/networks/NAME", FlagCreateNetwork, c.Network.Value)
	}
	subName := str(body, "network", "subnetwork")
	sm := reSubnetwork().FindStringSubmatch(subName)
	if sm == nil {
		return fmt.Errorf("--%s: the spec needs network.subnetwork, projects/P/regions/R/subnetworks/NAME, for the subnetwork to create (got %q)", FlagCreateNetwork, subName)
	}
	if sm[1] != nm[1] || sm[2] != c.Region.Value {
		return fmt.Errorf("--%s: subnetwork %q must be in the network's project %s and the cluster's region %s", FlagCreateNetwork, subName, nm[1], c.Region.Value)
	}
	cidr := opt.SubnetCIDR
	if cidr == "" {
		cidr = DefaultSubnetCIDR
	}
	prefix, err := netip.ParsePrefix(cidr)
	if err != nil || !prefix.Addr().Is4() || prefix.Masked() != prefix || prefix.Bits() > 29 {
		return fmt.Errorf("--%s %q: want an IPv4 range such as %s (at most /29, host bits zero)", FlagSubnetCIDR, cidr, DefaultSubnetCIDR)
	}
	project, name := nm[1], nm[2]
	id := c.ID.Value
	netRef := Ref{Resource: NetworkResource, Property: "id"}
	f.add(Resource{Name: NetworkResource, Type: NetworkType, Inputs: map[string]any{
		"project":               project,
		"name":                  name,
		"autoCreateSubnetworks": false,
	}}, false)
	f.add(Resource{Name: SubnetworkResource, Type: SubnetworkType, Inputs: map[string]any{
		"project":               project,
		"region":                c.Region.Value,
		"name":                  sm[3],
		"network":               netRef,
		"ipCidrRange":           cidr,
		"privateIpGoogleAccess": true,
	}}, false)
	f.add(Resource{Name: "firewallInternal", Type: FirewallType, Inputs: map[string]any{
		"project":      project,
		"name":         resourceName(name+"-"+id, "internal"),
		"network":      netRef,
		"description":  "slurmspec: traffic between the nodes of cluster " + id,
		"direction":    "INGRESS",
		"sourceRanges": []any{cidr},
		"allows": []any{
			map[string]any{"protocol": "tcp"},
			map[string]any{"protocol": "udp"},
			map[string]any{"protocol": "icmp"},
		},
	}}, false)
	f.add(Resource{Name: "firewallIapSsh", Type: FirewallType, Inputs: map[string]any{
		"project":      project,
		"name":         resourceName(name+"-"+id, "iap-ssh"),
		"network":      netRef,
		"description":  "slurmspec: SSH through Identity-Aware Proxy to cluster " + id + " (login pool " + c.Slurm.LoginNodePoolID.Value + ")",
		"direction":    "INGRESS",
		"sourceRanges": []any{iapSourceRange},
		"allows":       []any{map[string]any{"protocol": "tcp", "ports": []any{"22"}}},
	}}, false)
	f.clusterDeps = append(f.clusterDeps, "firewallInternal", "firewallIapSsh")
	if needsNAT(body) {
		f.add(Resource{Name: "router", Type: RouterType, Inputs: map[string]any{
			"project": project,
			"region":  c.Region.Value,
			"name":    resourceName(name+"-"+id, "router"),
			"network": netRef,
		}}, false)
		f.add(Resource{Name: "nat", Type: RouterNatType, Inputs: map[string]any{
			"project":                       project,
			"region":                        c.Region.Value,
			"name":                          resourceName(name+"-"+id, "nat"),
			"router":                        Ref{Resource: "router", Property: "name"},
			"natIpAllocateOption":           "AUTO_ONLY",
			"sourceSubnetworkIpRangesToNat": "ALL_SUBNETWORKS_ALL_IP_RANGES",
		}}, false)
		f.clusterDeps = append(f.clusterDeps, "nat")
	}
	f.network = netRef
	f.subnetwork = Ref{Resource: SubnetworkResource, Property: "id"}
	f.networkName = Ref{Resource: NetworkResource, Property: "name"}
	return nil
}

// needsNAT: a node pool without public IPs reaches the internet (package
// mirrors, container registries) only through Cloud NAT.
func needsNAT(body map[string]any) bool {
	for _, p := range pools(body) {
		if v, _ := get(p, "enablePublicIps").(bool); !v {
			return true
		}
	}
	return false
}

// account: the runtime service account and its roles.
func (f *foundation) addAccount(c *ir.Cluster, body map[string]any) error {
	email := str(body, "runtimeSpec", "serviceAccount")
	m := reAccount().FindStringSubmatch(email)
	if m == nil {
		return fmt.Errorf("--%s: the spec needs runtimeSpec.serviceAccount, NAME@PROJECT.iam.gserviceaccount.com, for the account to create (got %q)", FlagCreateServiceAccount, email)
	}
	f.add(Resource{Name: AccountResource, Type: AccountType, Inputs: map[string]any{
		"project":     m[2],
		"accountId":   m[1],
		"displayName": "Slurm cluster " + c.ID.Value + " (slurmspec)",
	}}, false)
	for _, role := range serviceAccountRoles {
		name := "role-" + strings.ReplaceAll(strings.TrimPrefix(role, "roles/"), ".", "-")
		f.add(Resource{Name: name, Type: IAMMemberType, Inputs: map[string]any{
			"project": c.Project.Value,
			"role":    role,
			"member":  Ref{Resource: AccountResource, Property: "member"},
		}}, false)
		f.clusterDeps = append(f.clusterDeps, name)
	}
	f.serviceAccount = Ref{Resource: AccountResource, Property: "email"}
	return nil
}

// maxResourceName is the length limit of a Compute Engine resource name
// (RFC 1035 labels: 63 characters).
const maxResourceName = 63

// resourceName names the role resource (firewall, router, NAT) of a cluster
// network: base-role when that fits in 63 characters; otherwise base is cut
// and an 8-hex-digit hash of the whole base is put before the role, so two
// long bases that share their first characters, and the roles of one base,
// still get distinct names.
func resourceName(base, role string) string {
	full := base + "-" + role
	if len(full) <= maxResourceName {
		return full
	}
	sum := sha256.Sum256([]byte(base))
	hash := hex.EncodeToString(sum[:4])
	keep := maxResourceName - len(role) - len(hash) - 2
	return strings.TrimRight(base[:keep], "-") + "-" + hash + "-" + role
}
