package localslurm

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/slurmspec/slurmspec/schema/catalog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// The REST API (Options.RestAPI): slurmrestd on a loopback port, with
// auth/jwt. The harness writes the HS256 key slurmctld checks tokens
// against, so that a caller (the double of the service's Slurm Job API,
// lab/fakeslurmapi) can act as any Linux user by minting a token with
// RestToken, as the service acts as its caller's Linux account.

// restUser is the account slurmrestd runs as: it refuses root and
// SlurmUser (root here), and daemon (uid 1) exists on every Debian system.
const restUser = "daemon"

// reasonJWT is the reason of the overrides that turn on auth/jwt.
const reasonJWT = "slurmrestd (Options.RestAPI) authenticates each request with a JWT signed by the harness's key; MUNGE stays the main authentication"

// restOverrides adds auth/jwt beside the rendered authentication.
func restOverrides(c *conf, l layout) {
	alt, _ := c.get("AuthAltTypes")
	list := splitList(alt)
	found := false
	for _, t := range list {
		found = found || t == "auth/jwt"
	}
	if !found {
		list = append(list, "auth/jwt")
	}
	c.set("AuthAltTypes", strings.Join(list, ","), reasonJWT)
	params, _ := c.get("AuthAltParameters")
	c.set("AuthAltParameters", withOption(params, "jwt_key", l.jwtKey()), reasonJWT)
}

// jwtKey is where the harness writes the JWT key.
func (l layout) jwtKey() string { return l.path("etc", "jwt_hs256.key") }

// writeJWTKey writes a fresh 256-bit key, readable by root only (slurmctld
// refuses a key others may read).
func (c *Cluster) writeJWTKey() error {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return fmt.Errorf("jwt key: %w", err)
	}
	if err := os.WriteFile(c.layout.jwtKey(), key, 0o600); err != nil {
		return fmt.Errorf("write jwt key: %w", err)
	}
	c.jwtKey = key
	return nil
}

// startRest starts slurmrestd on its loopback port and waits until it
// answers HTTP.
func (c *Cluster) startRest(ctx context.Context) error {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(c.layout.restPort))
	args := []string{"-f", c.confPath, "-a", "rest_auth/jwt", "-u", restUser, "-g", restUser}
	switch {
	case !c.layout.atLeast(catalog.V2411):
		// 22.05 names its plugins by REST version (openapi/v0.0.36-38,
		// openapi/dbv0.0.36-38, the db ones fatal without accounting).
		plugins := "openapi/v0.0.38"
		if c.opts.Accounting {
			plugins += ",openapi/dbv0.0.38"
		}
		args = append(args, "-s", plugins)
	case !c.opts.Accounting:
		// openapi/slurmdbd (the /slurmdb/ paths) is fatal without
		// accounting storage ("Failure loading plugin path bindings").
		args = append(args, "-s", "openapi/slurmctld")
	}
	// SLURM_JWT=daemon makes slurmrestd use auth/jwt towards slurmctld
	// (rest_quickstart.html); without it every token is refused with
	// "Rejecting thread config token" by auth/munge.
	d, err := c.startDaemon("slurmrestd", c.clientEnv("SLURM_JWT=daemon"), c.tools["slurmrestd"], append(args, addr)...)
	if err != nil {
		return err
	}
	c.restURL = "http://" + addr
	client := &http.Client{Timeout: 2 * time.Second}
	return c.waitFor(ctx, d, "answering on "+addr, func(ctx context.Context) (bool, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.restURL+"/openapi/v3", nil)
		if err != nil {
			return false, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return false, err
		}
		resp.Body.Close()
		return true, nil
	})
}

// RestURL returns the base URL of the cluster's slurmrestd, such as
// "http://127.0.0.1:41234", or "" when Options.RestAPI was not set.
func (c *Cluster) RestURL() string { return c.restURL }

// RestToken returns a JWT that slurmrestd accepts for user (a Linux account
// of the cluster), valid for lifetime: send it as X-SLURM-USER-TOKEN with
// X-SLURM-USER-NAME. It fails when Options.RestAPI was not set.
func (c *Cluster) RestToken(user string, lifetime time.Duration) (string, error) {
	if c.jwtKey == nil {
		return "", errors.New("localslurm: the cluster has no REST API (Options.RestAPI)")
	}
	return signJWT(c.jwtKey, user, time.Now(), lifetime)
}

// signJWT makes an HS256 token with the claims auth/jwt reads: the user
// name (sun), the issue and expiry times.
func signJWT(key []byte, user string, now time.Time, lifetime time.Duration) (string, error) {
	enc := base64.RawURLEncoding
	header, err := json.Marshal(map[string]string{"alg": "HS256", "typ": "JWT"})
	if err != nil {
		return "", err
	}
	claims, err := json.Marshal(map[string]any{"sun": user, "iat": now.Unix(), "exp": now.Add(lifetime).Unix()})
	if err != nil {
		return "", err
	}
	unsigned := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(unsigned))
	return unsigned + "." + enc.EncodeToString(mac.Sum(nil)), nil
}
