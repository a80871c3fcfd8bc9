package localslurm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRestAPI starts slurmrestd on the releases that serve v0.0.42 and
// reads the partitions as the system user daemon with a token the harness
// signed, and with accounting the clusters slurmdbd knows; a request with
// a token signed by another key is refused.
func TestRestAPI(t *testing.T) {
	for _, tc := range []struct {
		series     string
		accounting bool
	}{{"22.05", false}, {"24.11", false}, {"26.05", false}, {"26.05", true}} {
		name := tc.series
		if tc.accounting {
			name += "-accounting"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o := Options{Release: tc.series, RestAPI: true, Accounting: tc.accounting, StandIns: []string{"seed-a4-0"}, Log: testLog{t}}
			requirePrereqs(t, o)
			o.Dir = renderedDir(t, nil, "")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			c, err := Start(ctx, o)
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			defer func() {
				if err := c.Stop(); err != nil {
					t.Errorf("Stop: %v", err)
				}
			}()
			token, err := c.RestToken("daemon", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if tc.series == "22.05" {
				// 22.05 serves v0.0.36-38 only: v0.0.42 is not found.
				status, body := restGet(t, c.RestURL()+"/slurm/v0.0.42/partitions", "daemon", token)
				t.Logf("22.05, GET /slurm/v0.0.42/partitions: %d %s", status, body)
				if status != http.StatusNotFound {
					t.Errorf("22.05 answered v0.0.42 with %d, want 404", status)
				}
				if status, body := restGet(t, c.RestURL()+"/slurm/v0.0.38/partitions", "daemon", token); status != http.StatusOK {
					t.Errorf("22.05, GET /slurm/v0.0.38/partitions: %d %s", status, body)
				}
				return
			}
			status, body := restGet(t, c.RestURL()+"/slurm/v0.0.42/partitions", "daemon", token)
			if status != http.StatusOK {
				t.Fatalf("GET partitions: status %d: %s", status, body)
			}
			var got struct {
				Partitions []struct {
					Name string `json:"name"`
				} `json:"partitions"`
			}
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatalf("partitions: %v: %s", err, body)
			}
			var names []string
			for _, p := range got.Partitions {
				names = append(names, p.Name)
			}
			if len(names) == 0 {
				t.Errorf("no partitions in %s", body)
			}
			t.Logf("partitions through slurmrestd %s: %v", c.Release().Version, names)

			if tc.accounting {
				// The /slurmdb/ paths (issue 27's accounting through the
				// Slurm Job API) reach slurmdbd with the same token.
				status, body := restGet(t, c.RestURL()+"/slurmdb/v0.0.42/clusters", "daemon", token)
				if status != http.StatusOK || !strings.Contains(body, `"name": "seed"`) {
					t.Errorf("GET /slurmdb/v0.0.42/clusters: status %d: %s", status, body)
				}
			}

			forged, err := signJWT([]byte("not the harness's key, 32 bytes."), "daemon", time.Now(), time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if status, body := restGet(t, c.RestURL()+"/slurm/v0.0.42/partitions", "daemon", forged); status == http.StatusOK {
				t.Errorf("a token signed by another key was accepted: %s", body)
			}
		})
	}
}

func restGet(t *testing.T, url, user, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-SLURM-USER-NAME", user)
	req.Header.Set("X-SLURM-USER-TOKEN", token)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, strings.TrimSpace(string(body))
}
