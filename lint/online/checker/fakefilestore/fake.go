// Package fakefilestore is an in-process fake of the Filestore API's
// GetInstance, for tests of the online checks. It serves plaintext gRPC on
// 127.0.0.1; point a client at it with ClientOptions, or point the
// slurmspec-online helper at it with the SLURMSPEC_FILESTORE_ENDPOINT
// environment variable (online.EnvEndpoint).
package fakefilestore

import (
	"context"
	"fmt"
	"net"
	"sync"

	"cloud.google.com/go/filestore/apiv1/filestorepb"
	"google.golang.org/api/option"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Server is the fake. The zero value is not usable; call New.
type Server struct {
	filestorepb.UnimplementedCloudFilestoreManagerServer

	mu        sync.Mutex
	instances map[string]*filestorepb.Instance
	failures  map[string]error
	failAll   error
	block     bool
	calls     []string

	grpc     *grpc.Server
	listener net.Listener
}

// New returns a fake with no instances.
func New() *Server {
	return &Server{instances: map[string]*filestorepb.Instance{}, failures: map[string]error{}}
}

// Put stores an instance under its Name; GetInstance returns a copy.
func (s *Server) Put(inst *filestorepb.Instance) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.instances[inst.GetName()] = proto.Clone(inst).(*filestorepb.Instance)
}

// Fail makes GetInstance of name answer with a status error. An empty name
// fails every call.
func (s *Server) Fail(name string, code codes.Code, msg string) {
	s.FailWith(name, status.Error(code, msg))
}

// FailServiceDisabled makes every call answer PERMISSION_DENIED with the
// ErrorInfo reason the real API gives when the Filestore API is not enabled.
func (s *Server) FailServiceDisabled(project string) {
	st := status.New(codes.PermissionDenied, "Cloud Filestore API has not been used in project "+project+" before or it is disabled.")
	st, err := st.WithDetails(&errdetails.ErrorInfo{Reason: "SERVICE_DISABLED", Domain: "googleapis.com",
		Metadata: map[string]string{"service": "file.googleapis.com", "consumer": "projects/" + project}})
	if err != nil {
		panic(err) // a fixed, valid message
	}
	s.FailWith("", st.Err())
}

// FailWith makes GetInstance of name (every name when empty) return err.
func (s *Server) FailWith(name string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "" {
		s.failAll = err
		return
	}
	s.failures[name] = err
}

// Block makes every GetInstance wait until the caller gives up, to test
// timeouts.
func (s *Server) Block() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.block = true
}

// Calls returns the names GetInstance was called with, in order.
func (s *Server) Calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}

// GetInstance implements filestorepb.CloudFilestoreManagerServer.
func (s *Server) GetInstance(ctx context.Context, req *filestorepb.GetInstanceRequest) (*filestorepb.Instance, error) {
	s.mu.Lock()
	s.calls = append(s.calls, req.GetName())
	block, failAll, fail := s.block, s.failAll, s.failures[req.GetName()]
	inst, ok := s.instances[req.GetName()]
	if ok {
		inst = proto.Clone(inst).(*filestorepb.Instance)
	}
	s.mu.Unlock()
	switch {
	case block:
		<-ctx.Done()
		return nil, status.FromContextError(ctx.Err()).Err()
	case failAll != nil:
		return nil, failAll
	case fail != nil:
		return nil, fail
	case !ok:
		return nil, status.Errorf(codes.NotFound, "Resource '%s' was not found", req.GetName())
	}
	return inst, nil
}

// Start serves on 127.0.0.1 on a free port and returns the address
// ("127.0.0.1:PORT"). Stop the server with Stop.
func (s *Server) Start() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("fake filestore: listen: %w", err)
	}
	s.listener = l
	s.grpc = grpc.NewServer()
	filestorepb.RegisterCloudFilestoreManagerServer(s.grpc, s)
	go func() { _ = s.grpc.Serve(l) }()
	return l.Addr().String(), nil
}

// Stop stops the server at once, ending blocked calls.
func (s *Server) Stop() {
	if s.grpc != nil {
		s.grpc.Stop()
	}
}

// ClientOptions returns the options that point a Filestore client at the
// fake at addr: the endpoint, no authentication, plaintext transport.
func ClientOptions(addr string) []option.ClientOption {
	return []option.ClientOption{
		option.WithEndpoint(addr),
		option.WithoutAuthentication(),
		option.WithGRPCDialOption(grpc.WithTransportCredentials(insecure.NewCredentials())),
	}
}

// Instance returns a READY, NFS_V3, ZONAL instance of 2560 GiB with the
// given name on the given network, for tests to adjust.
func Instance(name, network string) *filestorepb.Instance {
	return &filestorepb.Instance{
		Name:     name,
		State:    filestorepb.Instance_READY,
		Tier:     filestorepb.Instance_ZONAL,
		Protocol: filestorepb.Instance_NFS_V3,
		FileShares: []*filestorepb.FileShareConfig{{
			Name:       "home",
			CapacityGb: 2560,
		}},
		Networks: []*filestorepb.NetworkConfig{{
			Network:     network,
			Modes:       []filestorepb.NetworkConfig_AddressMode{filestorepb.NetworkConfig_MODE_IPV4},
			IpAddresses: []string{"10.0.0.2"},
		}},
	}
}
