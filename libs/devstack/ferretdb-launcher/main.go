// Command ferretdb runs FerretDB 1.24 in-process on a SQLite directory.
//
// FerretDB's own cmd cannot be `go install`ed from the module proxy (its
// build/version/version.txt is generated at release time and is absent from
// the module zip, so the binary panics at start-up). The embeddable package
// has no such requirement, so this launcher wraps it.
//
// It takes the flags and FERRETDB_* variables of FerretDB's own command that
// a SQLite deployment uses, so the image built from it and FerretDB's upstream
// image (ghcr.io/ferretdb/ferretdb) run with the same arguments, plus
// --sqlite-dir, the short form the local platform uses.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

type options struct {
	listenAddr string
	handler    string
	sqliteURL  string
	sqliteDir  string
	telemetry  string
	logLevel   slog.Level
}

// envOr is the flag default FerretDB's command would take from its environment.
func envOr(name, fallback string) string {
	if value, ok := os.LookupEnv(name); ok {
		return value
	}
	return fallback
}

func parseOptions(args []string) (options, error) {
	var o options
	flags := flag.NewFlagSet("ferretdb", flag.ContinueOnError)
	flags.StringVar(&o.listenAddr, "listen-addr", envOr("FERRETDB_LISTEN_ADDR", "127.0.0.1:27017"), "TCP address to accept MongoDB wire protocol connections on")
	flags.StringVar(&o.handler, "handler", envOr("FERRETDB_HANDLER", "sqlite"), "backend handler; only sqlite is built in")
	flags.StringVar(&o.sqliteURL, "sqlite-url", envOr("FERRETDB_SQLITE_URL", ""), "SQLite directory URI, file:/path/ (FerretDB's own flag)")
	flags.StringVar(&o.sqliteDir, "sqlite-dir", "data", "directory holding one SQLite file per database (when --sqlite-url is not given)")
	flags.StringVar(&o.telemetry, "telemetry", envOr("FERRETDB_TELEMETRY", "disable"), "telemetry; this build has no reporter, so only disable is accepted")
	// Warnings and errors by default: the launcher runs beside many services
	// and its per-connection info logs would drown theirs. A container image
	// has a log of its own, and "Listening on TCP" (info) tells that it is up.
	o.logLevel = slog.LevelWarn
	if value, ok := os.LookupEnv("FERRETDB_LOG_LEVEL"); ok {
		if err := o.logLevel.UnmarshalText([]byte(value)); err != nil {
			return o, fmt.Errorf("FERRETDB_LOG_LEVEL=%s: %w", value, err)
		}
	}
	flags.TextVar(&o.logLevel, "log-level", o.logLevel, "lowest level logged: DEBUG, INFO, WARN or ERROR")
	if err := flags.Parse(args); err != nil {
		return o, err
	}
	if o.handler != "sqlite" {
		return o, fmt.Errorf("--handler=%s: this build runs only the sqlite handler", o.handler)
	}
	switch strings.ToLower(o.telemetry) {
	case "disable", "disabled", "false", "0", "off":
	default:
		return o, fmt.Errorf("--telemetry=%s: this build never reports telemetry; use --telemetry=disable", o.telemetry)
	}
	if o.sqliteURL != "" {
		dir, ok := strings.CutPrefix(o.sqliteURL, "file:")
		if !ok || !strings.HasSuffix(dir, "/") {
			return o, errors.New("--sqlite-url must be a directory URI, file:/path/ with a trailing slash")
		}
		o.sqliteDir = dir
	}
	return o, nil
}

func main() {
	o, err := parseOptions(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: %s\n", err)
		os.Exit(2)
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: o.logLevel}))

	if err := run(o.listenAddr, o.sqliteDir, logger); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: %s\n", err)
		os.Exit(1)
	}
}

func run(listenAddr, sqliteDir string, logger *slog.Logger) error {
	dir, err := filepath.Abs(sqliteDir)
	if err != nil {
		return fmt.Errorf("resolving the SQLite directory: %w", err)
	}

	if err = os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the SQLite directory: %w", err)
	}

	// SIGTERM is what process supervisors (and the devstack) send; cancelling
	// the context makes Run close the listener, the connections and the
	// SQLite backend before returning.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: listenAddr},
		Logger:   logger,
		Handler:  "sqlite",
		// The SQLite handler wants a directory URI ending with a slash.
		SQLiteURL: "file:" + dir + "/",
	})
	if err != nil {
		return err
	}

	return f.Run(ctx)
}
