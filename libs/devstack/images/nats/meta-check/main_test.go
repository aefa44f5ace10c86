package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func body(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestVerdictOnRealBodies(t *testing.T) {
	cases := []struct {
		file   string
		expect int
		// "" when the check must pass; else a part of the message it must give.
		failure string
	}{
		{"whole-leader.json", 3, ""},
		{"whole-follower.json", 3, ""},
		{"whole-leader.json", 4, "holds 3 servers, expected 4"},
		{"whole-follower.json", 4, "holds 3 servers, expected 4"},
		{"short-leader.json", 3, "holds 2 servers, expected 3"},
		{"short-follower.json", 3, "holds 2 servers, expected 3"},
		{"short-leader.json", 2, ""},
		{"no-leader.json", 3, "no JetStream meta leader yet"},
		{"single-server.json", 3, "no JetStream meta group"},
		{"single-server.json", 1, "no JetStream meta group"},
		{"jetstream-disabled.json", 1, "JetStream is disabled"},
		{"v2.15-whole-leader.json", 3, ""},
		{"v2.15-whole-follower.json", 3, ""},
		{"v2.15-whole-leader.json", 4, "holds 3 servers, expected 4"},
		{"v2.15-whole-follower.json", 4, "holds 3 servers, expected 4"},
		{"v2.15-no-leader.json", 3, "no JetStream meta leader yet"},
		{"v2.15-no-leader.json", 2, "no JetStream meta leader yet"},
	}
	for _, c := range cases {
		summary, err := verdict(body(t, c.file), c.expect)
		switch {
		case c.failure == "" && err != nil:
			t.Errorf("%s --expect %d: want ok, got %v", c.file, c.expect, err)
		case c.failure != "" && err == nil:
			t.Errorf("%s --expect %d: want a failure with %q, got ok (%s)", c.file, c.expect, c.failure, summary)
		case c.failure != "" && !strings.Contains(err.Error(), c.failure):
			t.Errorf("%s --expect %d: want %q in %q", c.file, c.expect, c.failure, err)
		}
	}
}

// The leader's boot estimate can still read 3 while it lists one peer: its
// member count decides, not the size.
func TestLeaderCountsItsMembers(t *testing.T) {
	leader := strings.Replace(string(body(t, "short-leader.json")), `"cluster_size": 2`, `"cluster_size": 3`, 1)
	if leader == string(body(t, "short-leader.json")) {
		t.Fatal("short-leader.json has no \"cluster_size\": 2 to change")
	}
	_, err := verdict([]byte(leader), 3)
	if err == nil || !strings.Contains(err.Error(), "has 2 members here (this server, p0), expected 3 (leader p1 (this server))") {
		t.Fatalf("want the member count in the failure, got %v", err)
	}
}

// In 2.15 a follower lists its peers too, the leader among them: it
// counts its members, and names the leader; the leader names itself.
func TestFollowerCountsItsMembers(t *testing.T) {
	whole, err := verdict(body(t, "v2.15-whole-follower.json"), 3)
	if err != nil || whole != "meta group of 3, leader s0" {
		t.Fatalf("want the follower's summary, got %q, %v", whole, err)
	}
	leader, err := verdict(body(t, "v2.15-whole-leader.json"), 3)
	if err != nil || leader != "meta group of 3, leader s0 (this server)" {
		t.Fatalf("want the leader's summary, got %q, %v", leader, err)
	}
	var info map[string]any
	if err := json.Unmarshal(body(t, "v2.15-whole-follower.json"), &info); err != nil {
		t.Fatal(err)
	}
	meta := info["meta_cluster"].(map[string]any)
	meta["replicas"] = meta["replicas"].([]any)[:1]
	short, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	_, err = verdict(short, 3)
	if err == nil || !strings.Contains(err.Error(), "has 2 members here (this server, s0), expected 3 (leader s0)") {
		t.Fatalf("want the member count in the failure, got %v", err)
	}
}

func TestVerdictOnGarbage(t *testing.T) {
	if _, err := verdict([]byte("<html>"), 3); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Fatalf("want a JSON error, got %v", err)
	}
}

// check asks /healthz first: a server that is not current with the meta
// leader fails there, with nats-server's own words.
func TestCheckAsksHealthzThenJsz(t *testing.T) {
	var healthy bool
	monitor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/healthz" && r.URL.Query().Get("js-meta-only") == "true":
			if !healthy {
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"status":"unavailable","error":"JetStream is not current with the meta leader"}`))
				return
			}
			_, _ = w.Write([]byte(`{"status":"ok"}`))
		case r.URL.Path == "/jsz":
			_, _ = w.Write(body(t, "whole-follower.json"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer monitor.Close()

	_, err := check(context.Background(), monitor.Client(), monitor.URL+"/", 3)
	if err == nil || !strings.Contains(err.Error(), "503") || !strings.Contains(err.Error(), "not current with the meta leader") {
		t.Fatalf("want the 503 of /healthz, got %v", err)
	}
	healthy = true
	summary, err := check(context.Background(), monitor.Client(), monitor.URL, 3)
	if err != nil || summary != "meta group of 3, leader s0" {
		t.Fatalf("want ok, got %q, %v", summary, err)
	}
}
