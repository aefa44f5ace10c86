import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';

/** One application the person authorised through OAuth (GET /web/api/account/connected-apps). */
interface ConnectedApp {
  client_id: string;
  name: string;
  scopes: string[];
  can: string[];
  authorised_at: string;
  last_used_at: string;
}

const when = (iso: string): string => new Date(iso).toLocaleString();

/**
 * The dashboard's "Connected applications": the MCP clients (AI assistants)
 * the person allowed, what each may do, and disconnecting one, which stops
 * its tokens at once.
 */
export function ConnectedAppsSection() {
  const [apps, setApps] = useState<ConnectedApp[] | null>(null);
  const [problem, setProblem] = useState('');
  const load = () =>
    api<{ applications: ConnectedApp[] }>('GET', '/web/api/account/connected-apps').then(
      (answer) => setApps(answer.applications),
      (error: Error) => setProblem(error.message),
    );
  useEffect(() => void load(), []);

  const disconnect = async (app: ConnectedApp) => {
    if (!confirm(`Disconnect ${app.name}? It loses access to your account at once.`)) return;
    setProblem('');
    try {
      await api('DELETE', `/web/api/account/connected-apps/${app.client_id}`);
      await load();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <section aria-labelledby="apps-title" class="card" id="connected-applications">
      <h2 id="apps-title">Connected applications</h2>
      <p class="hint">Applications you allowed to use your account (for example AI assistants through MCP).</p>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      {apps && apps.length === 0 && <p class="hint">No connected applications.</p>}
      {apps && apps.length > 0 && (
        <div class="table-wrap" role="region" aria-label="Connected applications" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Application</th>
                <th scope="col">May</th>
                <th scope="col">Allowed</th>
                <th scope="col">Last renewed</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.map((app) => (
                <tr key={app.client_id} data-testid="app-row" data-client-id={app.client_id}>
                  <td>{app.name}</td>
                  <td>{app.can.join('; ')}</td>
                  <td>{when(app.authorised_at)}</td>
                  <td>{when(app.last_used_at)}</td>
                  <td>
                    <button type="button" class="danger" onClick={() => void disconnect(app)}>
                      Disconnect<span class="visually-hidden"> {app.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
