import { useState } from 'preact/hooks';
import { api, formatWhen } from '../api';
import { useLoaded } from '../hooks/use-loaded';
import { DataTable } from './data-table';
import { Problem } from './problem';

interface KeyRow {
  prefix: string;
  label: string;
  allowed_ips: string[];
  created_at: string;
  last_used_at: string | null;
}

/** The dashboard's "API keys": create one (its value shown once), list them, delete one. */
export function ApiKeysSection() {
  const { value: keys, problem, setProblem, reload } = useLoaded('/web/api/account/keys', (answer: { keys: KeyRow[] }) => answer.keys);
  const [created, setCreated] = useState<string>('');

  const create = async (event: Event) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const ipsField = form.get('ips');
    const ips = (typeof ipsField === 'string' ? ipsField : '').split(/[\s,]+/).filter(Boolean);
    setProblem('');
    try {
      const answer = await api<{ key: string }>('POST', '/web/api/account/keys', { label: form.get('label'), allowed_ips: ips });
      setCreated(answer.key);
      formElement.reset();
      await reload();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  const remove = async (key: KeyRow) => {
    if (!confirm(`Delete key ${key.prefix}${key.label ? ` (${key.label})` : ''}? Programs using it stop working at once.`)) return;
    try {
      await api('DELETE', `/web/api/account/keys/${key.prefix}`);
      await reload();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <section aria-labelledby="keys-title" class="card">
      <h2 id="keys-title">API keys</h2>
      <form onSubmit={(event) => void create(event)} class="key-form">
        <div class="field">
          <label for="key-label">Label</label>
          <input id="key-label" name="label" maxLength={100} placeholder="e.g. build server" />
        </div>
        <div class="field">
          <label for="key-ips">Allowed IP addresses (optional)</label>
          <input id="key-ips" name="ips" placeholder="203.0.113.7, 198.51.100.0/24" aria-describedby="key-ips-help" />
          <span id="key-ips-help" class="hint">
            Addresses or CIDR ranges, separated by commas. Empty: any address.
          </span>
        </div>
        <button type="submit">Create key</button>
      </form>
      {created && (
        <div class="notice" role="status" data-testid="new-key">
          <p>
            Your new key is shown <strong>only this once</strong>; copy it now:
          </p>
          <code class="secret">{created}</code>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(created)}>
            Copy
          </button>
          <button type="button" class="link" onClick={() => setCreated('')}>
            Done
          </button>
        </div>
      )}
      <Problem text={problem} />
      <DataTable
        label="API keys"
        rows={keys}
        empty="No keys yet."
        columns={['Prefix', 'Label', 'Allowed from', 'Created', 'Last used', '']}
        row={(key) => (
          <tr key={key.prefix} data-testid="key-row" data-prefix={key.prefix}>
            <td>
              <code>tm_{key.prefix}_…</code>
            </td>
            <td>{key.label || '—'}</td>
            <td>{key.allowed_ips.join(', ') || 'any address'}</td>
            <td>{formatWhen(key.created_at)}</td>
            <td>{formatWhen(key.last_used_at)}</td>
            <td>
              <button type="button" class="danger" onClick={() => void remove(key)}>
                Delete<span class="visually-hidden"> key {key.prefix}</span>
              </button>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
