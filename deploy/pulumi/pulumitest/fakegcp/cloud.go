package fakegcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// EnvCloud names a directory that plays Google Cloud: the resources that
// exist, one JSON file each, kept across provider processes. Create
// records a resource as soon as the operation is accepted, before it
// finishes (so an interrupted create still leaves it behind, as the real
// long-running operation would), and refuses an id that exists
// (ALREADY_EXISTS); Read returns what is there; Delete removes it. Unset:
// nothing is kept and nothing collides.
const EnvCloud = "FAKEGCP_CLOUD"

// cloudResource is one stored resource.
type cloudResource struct {
	Type    string         `json:"type"`
	ID      string         `json:"id"`
	Inputs  map[string]any `json:"inputs"`
	Outputs map[string]any `json:"outputs"`
}

type cloud struct{ dir string }

// errAlreadyExists is the API's answer to a create of an existing id.
var errAlreadyExists = errors.New("ALREADY_EXISTS")

func (c cloud) path(id string) string {
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:8])+".json")
}

func (c cloud) get(id string) (*cloudResource, error) {
	if c.dir == "" {
		return nil, nil
	}
	data, err := os.ReadFile(c.path(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r cloudResource
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("cloud record of %s: %w", id, err)
	}
	return &r, nil
}

// create stores a new resource, failing when the id exists.
func (c cloud) create(r cloudResource) error {
	if c.dir == "" {
		return nil
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(c.path(r.ID), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%w: %s already exists", errAlreadyExists, r.ID)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// put overwrites a resource (an update).
func (c cloud) put(r cloudResource) error {
	if c.dir == "" {
		return nil
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return os.WriteFile(c.path(r.ID), data, 0o644)
}

func (c cloud) delete(id string) error {
	if c.dir == "" {
		return nil
	}
	err := os.Remove(c.path(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// Put records a resource in the cloud directory dir as if it had been
// created outside the stack (tests: an existing network the cluster
// uses). The id and outputs are formed from the inputs as Create forms
// them.
func Put(dir, typ string, inputs map[string]any) (string, error) {
	ref, err := LoadReference()
	if err != nil {
		return "", err
	}
	spec := ref.Resources[typ]
	if spec == nil {
		return "", fmt.Errorf("no resource type %s", typ)
	}
	id, outs := spec.Created(inputs)
	return id, cloud{dir: dir}.create(cloudResource{Type: typ, ID: id, Inputs: inputs, Outputs: outs})
}
