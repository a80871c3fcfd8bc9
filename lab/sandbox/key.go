package sandbox

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// A state directory may be anywhere (--state-dir), so a repository can
// plant a state.json in one. The sandbox acts only on state it wrote: each
// state.json carries an HMAC of its content and its directory under a
// per-user secret key kept outside every state directory, in the user's
// own state directory (keyFile), which a repository cannot write. Read
// refuses a state that does not verify, so a forged state.json never makes
// the sandbox signal a process or delete a file.

// keyName is the key file's name in the user's slurmspec state directory.
const keyName = "sandbox.key"

// keySize is the key's length in bytes.
const keySize = 32

// maxStateSize bounds state.json.
const maxStateSize = 1 << 20

// keyFile returns the path of the per-user key: $XDG_STATE_HOME/slurmspec
// or ~/.local/state/slurmspec. SLURMSPEC_SANDBOX_DIR does not move it.
func keyFile() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "slurmspec", keyName), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("sandbox key: %w", err)
	}
	return filepath.Join(home, ".local", "state", "slurmspec", keyName), nil
}

// loadKey reads the key, creating it first when create is set and there is
// none. The key must be a regular file of this user, readable by no one
// else, and is opened without following a symlink.
func loadKey(create bool) ([]byte, error) {
	path, err := keyFile()
	if err != nil {
		return nil, err
	}
	key, err := readKey(path)
	if !errors.Is(err, os.ErrNotExist) || !create {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil { // the key itself is 0600
		return nil, fmt.Errorf("sandbox key: %w", err)
	}
	fresh := make([]byte, keySize)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("sandbox key: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), keyName+".*")
	if err != nil {
		return nil, fmt.Errorf("sandbox key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(fresh)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("sandbox key: %w", werr)
	}
	// A link never replaces a key another process made meanwhile.
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("sandbox key: %w", err)
	}
	return readKey(path)
}

func readKey(path string) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) {
			return nil, fmt.Errorf("sandbox key %s: %w", path, os.ErrNotExist)
		}
		return nil, fmt.Errorf("sandbox key %s: %w", path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("sandbox key %s: %w", path, err)
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return nil, fmt.Errorf("sandbox key %s is not a regular file", path)
	case int(st.Uid) != os.Geteuid():
		return nil, fmt.Errorf("sandbox key %s belongs to uid %d, not to this user (%d)", path, st.Uid, os.Geteuid())
	case st.Mode&0o077 != 0:
		return nil, fmt.Errorf("sandbox key %s is readable or writable by others (mode %04o): remove it and run the sandbox again", path, st.Mode&0o777)
	case st.Size != keySize:
		return nil, fmt.Errorf("sandbox key %s: %d bytes, want %d", path, st.Size, keySize)
	}
	key := make([]byte, keySize)
	if _, err := io.ReadFull(f, key); err != nil {
		return nil, fmt.Errorf("sandbox key %s: %w", path, err)
	}
	return key, nil
}

// signedState is the content of state.json: the state and its MAC.
type signedState struct {
	State json.RawMessage `json:"state"`
	// MAC is the hex HMAC-SHA256, under the user's key, of the state
	// directory's absolute path, a NUL byte and State.
	MAC string `json:"mac"`
}

func mac(key []byte, dir string, state []byte) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(dir))
	h.Write([]byte{0})
	h.Write(state)
	return hex.EncodeToString(h.Sum(nil))
}

// seal returns state.json's content for a state of dir.
func seal(dir string, state []byte) ([]byte, error) {
	key, err := loadKey(true)
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(signedState{State: state, MAC: mac(key, dir, state)}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode sandbox state: %w", err)
	}
	return append(data, '\n'), nil
}

// ErrForeignState is returned by Read when state.json was not written by
// this user's sandbox for this directory.
var ErrForeignState = errors.New("not written by this user's slurmspec sandbox")

// unseal checks state.json's content and returns the state it holds.
func unseal(dir string, data []byte) ([]byte, error) {
	var s signedState
	if err := json.Unmarshal(data, &s); err != nil || len(s.State) == 0 || s.MAC == "" {
		return nil, ErrForeignState
	}
	// The state is signed compact; the file holds it indented.
	var compact bytes.Buffer
	if err := json.Compact(&compact, s.State); err != nil {
		return nil, ErrForeignState
	}
	key, err := loadKey(false)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrForeignState, err)
	}
	want := mac(key, dir, compact.Bytes())
	if !hmac.Equal([]byte(want), []byte(s.MAC)) {
		return nil, ErrForeignState
	}
	return compact.Bytes(), nil
}

// readRegular reads a regular file of at most limit bytes, without
// following a symlink or blocking on a FIFO.
func readRegular(path string, limit int64) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) {
			return nil, fmt.Errorf("%s: %w", path, os.ErrNotExist)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, nil
}
