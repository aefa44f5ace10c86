/**
 * Runs a script's main and exits with its code. Ctrl-C or a kill exits through
 * 'exit' too, where devstack SIGKILLs every process it started (nothing is left behind).
 */
export function runScript(main: () => Promise<number>): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    process.once(signal, () => process.exit(code));
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(2);
    },
  );
}
