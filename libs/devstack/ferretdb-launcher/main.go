// Command ferretdb runs FerretDB 1.24 in-process on a SQLite directory.
//
// FerretDB's own cmd cannot be `go install`ed from the module proxy (its
// build/version/version.txt is generated at release time and is absent from
// the module zip, so the binary panics at start-up). The embeddable package
// has no such requirement, so this launcher wraps it with the flags the local
// platform, the tests and the transmute/ferretdb image need.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listenAddr := flag.String("listen-addr", "127.0.0.1:27017", "TCP address to accept MongoDB wire protocol connections on")
	sqliteDir := flag.String("sqlite-dir", "data", "directory holding one SQLite file per database")
	// Warnings and errors by default: the launcher runs beside many services
	// and its per-connection info logs would drown theirs. A container image
	// has a log of its own, and "Listening on TCP" (info) tells that it is up.
	var level slog.Level = slog.LevelWarn
	flag.TextVar(&level, "log-level", level, "lowest level logged: DEBUG, INFO, WARN or ERROR")
	flag.Parse()

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	if err := run(*listenAddr, *sqliteDir, logger); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: %s\n", err)
		os.Exit(1)
	}
}

func run(listenAddr, sqliteDir string, logger *slog.Logger) error {
	dir, err := filepath.Abs(sqliteDir)
	if err != nil {
		return fmt.Errorf("resolving --sqlite-dir: %w", err)
	}

	if err = os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating --sqlite-dir: %w", err)
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
