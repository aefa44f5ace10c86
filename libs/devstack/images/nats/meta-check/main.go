// nats-meta-check is the bundled NATS server's startup probe in a cluster
// (charts/transmute/templates/nats.yaml). nats-server's own /healthz answers
// ok on a server that knows the JetStream meta leader but is not a member of
// the meta group, and then every R3 stream fails with "no suitable peers for
// placement" until that server restarts. This program fails until the
// server's /jsz shows a meta group holding every server, so the kubelet
// restarts a server that boots outside it. The image is FROM scratch: no
// shell, no curl, hence a static binary of its own.
//
// Usage: nats-meta-check --expect N [--url http://127.0.0.1:8222] [--timeout 3s]
// Exit 0 prints one short line on stdout; any failure prints one line on
// stderr and exits 1 (2 for bad usage).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// jsz holds the fields of nats-server's /jsz that the check reads
// (server/monitor.go, JSInfo and MetaClusterInfo; the same in 2.10 and 2.15).
type jsz struct {
	Disabled bool         `json:"disabled"`
	Meta     *metaCluster `json:"meta_cluster"`
}

type metaCluster struct {
	Leader string `json:"leader"`
	Size   int    `json:"cluster_size"`
	// The server's peers in the meta group, without itself: listed by the
	// leader alone in 2.10, by every member (the leader among them on a
	// follower) in 2.15.
	Replicas []metaPeer `json:"replicas"`
}

type metaPeer struct {
	Name    string `json:"name"`
	Current bool   `json:"current"`
	Offline bool   `json:"offline"`
}

// verdict reads one /jsz body and says why this server is not (yet) a member
// of a meta group of at least `expect` servers, or returns a short summary.
//
// Where the server lists its peers, membership is counted: the size alone can
// be the boot estimate (the number of routes) before the leader has shrunk
// it to the servers it has heard from, which is the defect this check exists
// for. A 2.10 follower lists none, and there the size is the whole test.
func verdict(body []byte, expect int) (string, error) {
	var info jsz
	if err := json.Unmarshal(body, &info); err != nil {
		return "", fmt.Errorf("/jsz is not JSON: %v", err)
	}
	if info.Disabled {
		return "", errors.New("JetStream is disabled on this server")
	}
	meta := info.Meta
	if meta == nil {
		return "", errors.New("no JetStream meta group on this server (not clustered, or JetStream still starting)")
	}
	if meta.Leader == "" {
		return "", fmt.Errorf("no JetStream meta leader yet (group size %d)", meta.Size)
	}
	if meta.Size < expect {
		return "", fmt.Errorf("JetStream meta group holds %d servers, expected %d (leader %s): a server is outside it", meta.Size, expect, meta.Leader)
	}
	if len(meta.Replicas) == 0 {
		return fmt.Sprintf("meta group of %d, leader %s", meta.Size, meta.Leader), nil
	}
	members := 1 + len(meta.Replicas)
	leader := meta.Leader
	if !listsPeer(meta.Replicas, meta.Leader) {
		// Peers listed without the leader among them: this server leads.
		leader += " (this server)"
	}
	if members < expect {
		return "", fmt.Errorf("JetStream meta group has %d members here (this server, %s), expected %d (leader %s)", members, peerNames(meta.Replicas), expect, leader)
	}
	return fmt.Sprintf("meta group of %d, leader %s", members, leader), nil
}

func listsPeer(peers []metaPeer, name string) bool {
	for _, peer := range peers {
		if peer.Name == name {
			return true
		}
	}
	return false
}

func peerNames(peers []metaPeer) string {
	names := make([]string, len(peers))
	for i, peer := range peers {
		names[i] = peer.Name
	}
	return strings.Join(names, ", ")
}

// check asks the monitor at base: first /healthz?js-meta-only=true (what
// the chart's HTTP startup probe asks: JetStream current with the meta
// leader; 2.10 answered that to js-server-only, 2.14 and 2.15 only to
// js-meta-only), then /jsz for the group's membership.
func check(ctx context.Context, client *http.Client, base string, expect int) (string, error) {
	base = strings.TrimRight(base, "/")
	if _, err := get(ctx, client, base+"/healthz?js-meta-only=true"); err != nil {
		return "", err
	}
	body, err := get(ctx, client, base+"/jsz")
	if err != nil {
		return "", err
	}
	return verdict(body, expect)
}

func get(ctx context.Context, client *http.Client, address string) ([]byte, error) {
	request, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil {
		return nil, err
	}
	response, err := client.Do(request)
	if err != nil {
		// The client's error repeats the method and address; keep its cause.
		var failed *url.Error
		if errors.As(err, &failed) {
			err = failed.Err
		}
		return nil, fmt.Errorf("GET %s: %v", address, err)
	}
	defer response.Body.Close()
	// /jsz without account details is a few hundred bytes; cap what is read.
	body, err := io.ReadAll(io.LimitReader(response.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %v", address, err)
	}
	if response.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %s", address, response.StatusCode, oneLine(body))
	}
	return body, nil
}

func oneLine(body []byte) string {
	text := strings.Join(strings.Fields(string(body)), " ")
	if len(text) > 200 {
		text = text[:200] + "..."
	}
	return text
}

func main() {
	flags := flag.NewFlagSet("nats-meta-check", flag.ContinueOnError)
	expect := flags.Int("expect", 0, "servers the JetStream meta group must hold (the cluster's size)")
	monitor := flags.String("url", "http://127.0.0.1:8222", "nats-server monitoring address")
	timeout := flags.Duration("timeout", 3*time.Second, "time for both requests together")
	if err := flags.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *expect < 1 || flags.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "nats-meta-check: usage: nats-meta-check --expect N [--url http://127.0.0.1:8222] [--timeout 3s]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	// No proxy: the monitor is the pod's own loopback.
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	summary, err := check(ctx, client, *monitor, *expect)
	if err != nil {
		fmt.Fprintf(os.Stderr, "nats-meta-check: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("nats-meta-check: ok, %s\n", summary)
}
