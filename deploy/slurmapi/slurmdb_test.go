package slurmapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// recorded serves slurmdbd 24.11's answers recorded after sacctmgr set
// every field a plan compares (testdata/slurmdb-24.11-*.json: QOS
// urgent, account research with limits, vision under it, alice an
// Operator, bob in research with partition train), and records the
// calls.
func recorded(t *testing.T, calls *[]string) *Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Method string          `json:"method"`
			Path   string          `json:"path"`
			Body   json.RawMessage `json:"body"`
		}
		data, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(data, &req); err != nil {
			t.Errorf("request: %v", err)
		}
		*calls = append(*calls, strings.TrimPrefix(req.Method, "HTTP_METHOD_")+" "+req.Path+" "+string(req.Body))
		body := []byte(`{}`)
		if req.Method == "HTTP_METHOD_GET" {
			name := strings.TrimPrefix(req.Path, "/slurmdb/v0.0.42/")
			name, qos, one := strings.Cut(name, "/")
			var err error
			if body, err = os.ReadFile("testdata/slurmdb-24.11-" + name + ".json"); err != nil {
				t.Errorf("GET %s: %v", req.Path, err)
			}
			if one { // GET qos/NAME: that QOS alone
				var all struct {
					QOS []map[string]any `json:"qos"`
				}
				_ = json.Unmarshal(body, &all)
				var out []map[string]any
				for _, q := range all.QOS {
					if q["name"] == qos {
						out = append(out, q)
					}
				}
				body, _ = json.Marshal(map[string]any{"qos": out})
			}
		}
		_, _ = w.Write([]byte(`{"status": 200, "structuredBody": ` + string(body) + `}`))
	}))
	t.Cleanup(srv.Close)
	return &Client{HTTP: srv.Client(), Endpoint: srv.URL, Cluster: "projects/p/locations/r/modelDevelopmentClusters/train"}
}

// TestAccountingReadsSacctmgrValues: every field a plan compares comes
// out of slurmrestd's answer as sacctmgr shows it (the names of flags and
// preempt modes, memory with its unit, usage factor with %f), from the
// place v0.0.42 keeps it (association GrpJobs in max.jobs.per.count,
// MaxJobs in max.jobs.active), and a user's default account is that of
// their default association.
func TestAccountingReadsSacctmgrValues(t *testing.T) {
	var calls []string
	s, err := recorded(t, &calls).Accounting(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key    sacctmgr.Key
		fields map[string]string
	}{
		{sacctmgr.Key{Kind: sacctmgr.KindQOS, Name: "urgent"}, map[string]string{
			"Priority": "10", "Preempt": "normal", "PreemptMode": "requeue", "Flags": "DenyOnLimit", "UsageFactor": "0.250000",
			"GrpTRES": "cpu=8", "GrpJobs": "5", "MaxTRES": "node=2", "MaxTRESPerUser": "cpu=16,mem=1G", "MaxWall": "1440",
			"MaxJobsPerUser": "2", "MaxSubmitJobsPerUser": "7"}},
		{sacctmgr.Key{Kind: sacctmgr.KindQOS, Name: "normal"}, map[string]string{"PreemptMode": "cluster", "Flags": "", "Priority": "0"}},
		{sacctmgr.Key{Kind: sacctmgr.KindAccount, Name: "research"}, map[string]string{
			"Description": "research teams", "Parent": "root", "Fairshare": "60", "QOS": "normal,urgent", "DefaultQOS": "normal",
			"GrpTRES": "cpu=100", "GrpJobs": "9", "MaxTRES": "node=3", "MaxWall": "60", "MaxJobs": "4", "MaxSubmitJobs": "8"}},
		{sacctmgr.Key{Kind: sacctmgr.KindAccount, Name: "vision"}, map[string]string{"Parent": "research", "Fairshare": "30"}},
		{sacctmgr.Key{Kind: sacctmgr.KindUser, Name: "alice"}, map[string]string{"DefaultAccount": "vision", "AdminLevel": "Operator"}},
		{sacctmgr.Key{Kind: sacctmgr.KindUser, Name: "bob"}, map[string]string{"DefaultAccount": "research", "AdminLevel": "None"}},
		{sacctmgr.Key{Kind: sacctmgr.KindAssoc, Name: "bob", Account: "research", Partition: "train"}, map[string]string{
			"Fairshare": "3", "QOS": "urgent", "DefaultQOS": "urgent"}},
	} {
		e := s.Get(tc.key)
		if e == nil {
			t.Errorf("%s: not read", tc.key)
			continue
		}
		for f, want := range tc.fields {
			if got := e.Fields[f]; got != want {
				t.Errorf("%s %s = %q, want %q", tc.key, f, got, want)
			}
		}
	}
	if len(calls) != 4 {
		t.Errorf("calls %q, want the four GETs", calls)
	}
}

// TestApplyAccountingCalls: the calls a plan becomes. A modified QOS is
// read and posted whole with the change over it (slurmrestd resets the
// flags and preempt mode a POST leaves out), a TRES the new limit drops
// is posted at -1, a new user's default account waits for their
// associations, and a plan that removes an association is refused before
// any call.
func TestApplyAccountingCalls(t *testing.T) {
	var calls []string
	c := recorded(t, &calls)
	plan := &sacctmgr.Plan{Ops: []sacctmgr.Op{
		{Action: sacctmgr.Add, Key: sacctmgr.Key{Kind: sacctmgr.KindUser, Name: "dave"}, Entity: "user dave",
			Changes: []sacctmgr.FieldChange{{Field: "DefaultAccount", New: "vision"}}},
		{Action: sacctmgr.Add, Key: sacctmgr.Key{Kind: sacctmgr.KindAssoc, Name: "dave", Account: "vision"}, Entity: "association dave/vision"},
		{Action: sacctmgr.Modify, Key: sacctmgr.Key{Kind: sacctmgr.KindQOS, Name: "urgent"}, Entity: "qos urgent",
			Changes: []sacctmgr.FieldChange{{Field: "MaxTRESPerUser", Old: "cpu=16,mem=1G", New: "node=1,mem=2G"}}},
	}}
	if err := c.ApplyAccounting(context.Background(), plan, "train"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`POST /slurmdb/v0.0.42/users {"users":[{"name":"dave"}]}`,
		`POST /slurmdb/v0.0.42/associations {"associations":[{"account":"vision","cluster":"train","partition":"","user":"dave"}]}`,
		`POST /slurmdb/v0.0.42/users {"users":[{"default":{"account":"vision"},"name":"dave"}]}`,
		`GET /slurmdb/v0.0.42/qos/urgent `,
	}
	for i, w := range want {
		if i >= len(calls) || calls[i] != w {
			t.Fatalf("calls:\n%s\nwant first:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
		}
	}
	post := calls[len(calls)-1]
	for _, w := range []string{`"flags":["DENY_LIMIT"]`, `"mode":["REQUEUE"]`,
		`"user":[{"count":1,"name":"","type":"node"},{"count":2048,"name":"","type":"mem"},{"count":-1,"name":"","type":"cpu"}]`} {
		if !strings.Contains(post, w) {
			t.Errorf("the QOS posted lacks %s:\n%s", w, post)
		}
	}

	calls = nil
	plan = &sacctmgr.Plan{Ops: []sacctmgr.Op{{Action: sacctmgr.Add, Key: sacctmgr.Key{Kind: sacctmgr.KindQOS, Name: "x"}, Entity: "qos x"},
		{Action: sacctmgr.Remove, Key: sacctmgr.Key{Kind: sacctmgr.KindAssoc, Name: "bob", Account: "research", Partition: "train"}, Entity: "association bob/research/train"}}}
	err := c.ApplyAccounting(context.Background(), plan, "train")
	var rm *AssocRemovalError
	if !errors.As(err, &rm) || len(calls) != 0 || !strings.Contains(err.Error(), "`sacctmgr -i delete user bob account=research partition=train`") {
		t.Errorf("a plan removing an association: %v, calls %q; want refused before any call, with the sacctmgr command", err, calls)
	}
}
