import { api, formatWhen } from '../api';
import { useLoaded } from '../hooks/use-loaded';
import { DataTable } from './data-table';
import { Problem } from './problem';

/** One application the person authorised through OAuth (GET /web/api/account/connected-apps). */
interface ConnectedApp {
  client_id: string;
  name: string;
  scopes: string[];
  can: string[];
  authorised_at: string;
  last_used_at: string;
}

/**
 * The dashboard's "Connected applications": the MCP clients (AI assistants)
 * the person allowed, what each may do, and disconnecting one, which stops
 * its tokens at once.
 */
export function ConnectedAppsSection() {
  const { value: apps, problem, setProblem, reload } = useLoaded('/web/api/account/connected-apps', (answer: { applications: ConnectedApp[] }) => answer.applications);

  const disconnect = async (app: ConnectedApp) => {
    if (!confirm(`Disconnect ${app.name}? It loses access to your account at once.`)) return;
    setProblem('');
    try {
      await api('DELETE', `/web/api/account/connected-apps/${app.client_id}`);
      await reload();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <section aria-labelledby="apps-title" class="card" id="connected-applications">
      <h2 id="apps-title">Connected applications</h2>
      <p class="hint">Applications you allowed to use your account (for example AI assistants through MCP).</p>
      <Problem text={problem} />
      <DataTable
        label="Connected applications"
        rows={apps}
        empty="No connected applications."
        columns={['Application', 'May', 'Allowed', 'Last renewed', '']}
        row={(app) => (
          <tr key={app.client_id} data-testid="app-row" data-client-id={app.client_id}>
            <td>{app.name}</td>
            <td>{app.can.join('; ')}</td>
            <td>{formatWhen(app.authorised_at)}</td>
            <td>{formatWhen(app.last_used_at)}</td>
            <td>
              <button type="button" class="danger" onClick={() => void disconnect(app)}>
                Disconnect<span class="visually-hidden"> {app.name}</span>
              </button>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
