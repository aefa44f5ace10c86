import { access, constants } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * The Python of the tools venv (`make test-tools`), where the readers the
 * fidelity checks need live (fontTools, openpyxl). A missing venv is an
 * error that says how to make it, never a skipped check.
 */
export async function toolsPython(): Promise<string> {
  // dist/matrix/fidelity or src/matrix/fidelity → the repository root, five folders up.
  const python = join(resolve(__dirname, '..', '..', '..', '..', '..'), '.tools', 'venv', 'bin', 'python');
  try {
    await access(python, constants.X_OK);
  } catch {
    throw new Error(`${python} is missing: run \`make test-tools\` (it installs fontTools and openpyxl into the tools venv)`);
  }
  return python;
}
