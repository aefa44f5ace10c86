package main

import (
	"strings"
	"testing"
)

func TestParseOptions(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		wantDir string
		wantErr string
	}{
		{name: "the local platform's short form", args: []string{"--sqlite-dir", "/var/x"}, wantDir: "/var/x"},
		{name: "FerretDB's own flags, as the chart passes them", args: []string{"--listen-addr=:27017", "--handler=sqlite", "--sqlite-url=file:/state/", "--telemetry=disable"}, wantDir: "/state/"},
		{name: "FerretDB's own variables", env: map[string]string{"FERRETDB_SQLITE_URL": "file:/env/", "FERRETDB_HANDLER": "sqlite"}, wantDir: "/env/"},
		{name: "another handler", args: []string{"--handler=postgresql"}, wantErr: "only the sqlite handler"},
		{name: "telemetry asked for", args: []string{"--telemetry=enable"}, wantErr: "never reports telemetry"},
		{name: "a URI that is not a directory", args: []string{"--sqlite-url=file:/state"}, wantErr: "trailing slash"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for name, value := range c.env {
				t.Setenv(name, value)
			}
			o, err := parseOptions(c.args)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.sqliteDir != c.wantDir {
				t.Fatalf("sqlite dir = %q, want %q", o.sqliteDir, c.wantDir)
			}
		})
	}
}
