import { useEffect, useState } from 'preact/hooks';
import { api, type JobView, type Person, type Usage } from '../api';
import { ConnectedAppsSection } from '../components/connected-apps';
import { UsageBars } from '../components/usage-bars';

interface KeyRow {
  prefix: string;
  label: string;
  allowed_ips: string[];
  created_at: string;
  last_used_at: string | null;
}

interface Delivery {
  id: string;
  event: string;
  url: string;
  state: string;
  attempts: { attempt: number; statusCode: number | null; error: string | null; startedAt: string | null }[];
}

const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : 'never');

function Problem(props: { text: string }) {
  return props.text ? (
    <p class="error" role="alert">
      {props.text}
    </p>
  ) : null;
}

function KeysSection() {
  const [keys, setKeys] = useState<KeyRow[] | null>(null);
  const [created, setCreated] = useState<string>('');
  const [problem, setProblem] = useState('');
  const load = () => api<{ keys: KeyRow[] }>('GET', '/web/api/account/keys').then((answer) => setKeys(answer.keys), (error: Error) => setProblem(error.message));
  useEffect(() => void load(), []);

  const create = async (event: Event) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const ipsField = form.get('ips');
    const ips = (typeof ipsField === 'string' ? ipsField : '')
      .split(/[\s,]+/)
      .filter(Boolean);
    setProblem('');
    try {
      const answer = await api<{ key: string }>('POST', '/web/api/account/keys', { label: form.get('label'), allowed_ips: ips });
      setCreated(answer.key);
      formElement.reset();
      await load();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  const remove = async (key: KeyRow) => {
    if (!confirm(`Delete key ${key.prefix}${key.label ? ` (${key.label})` : ''}? Programs using it stop working at once.`)) return;
    try {
      await api('DELETE', `/web/api/account/keys/${key.prefix}`);
      await load();
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
      {keys && keys.length === 0 && <p class="hint">No keys yet.</p>}
      {keys && keys.length > 0 && (
        <div class="table-wrap" role="region" aria-label="API keys" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Prefix</th>
                <th scope="col">Label</th>
                <th scope="col">Allowed from</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.prefix} data-testid="key-row" data-prefix={key.prefix}>
                  <td>
                    <code>tm_{key.prefix}_…</code>
                  </td>
                  <td>{key.label || '—'}</td>
                  <td>{key.allowed_ips.join(', ') || 'any address'}</td>
                  <td>{when(key.created_at)}</td>
                  <td>{when(key.last_used_at)}</td>
                  <td>
                    <button type="button" class="danger" onClick={() => void remove(key)}>
                      Delete<span class="visually-hidden"> key {key.prefix}</span>
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

function SigningSecretSection() {
  const [secret, setSecret] = useState('');
  const [problem, setProblem] = useState('');
  const reveal = () => api<{ signing_secret: string }>('GET', '/web/api/account/signing-secret').then((answer) => setSecret(answer.signing_secret), (error: Error) => setProblem(error.message));
  const rotate = async () => {
    if (!confirm('Rotate the signing secret? Webhooks are signed with the new one from now on; receivers must be updated.')) return;
    try {
      setSecret((await api<{ signing_secret: string }>('POST', '/web/api/account/signing-secret/rotate')).signing_secret);
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <section aria-labelledby="secret-title" class="card">
      <h2 id="secret-title">Webhook signing secret</h2>
      <p class="hint">Your webhooks carry a signature made with this secret; check it in your receiver.</p>
      {secret ? (
        <code class="secret" data-testid="signing-secret">
          {secret}
        </code>
      ) : (
        <p>Hidden.</p>
      )}
      <div class="inline">
        <button type="button" onClick={() => (secret ? setSecret('') : void reveal())}>
          {secret ? 'Hide' : 'Reveal'}
        </button>
        <button type="button" class="danger" onClick={() => void rotate()}>
          Rotate
        </button>
      </div>
      <Problem text={problem} />
    </section>
  );
}

function UsageSection() {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => void api<{ usage: Usage }>('GET', '/web/api/account/usage').then((answer) => setUsage(answer.usage), (error: Error) => setProblem(error.message)), []);
  return (
    <section aria-labelledby="usage-title" class="card">
      <h2 id="usage-title">Usage{usage && <span class="hint"> · plan {usage.plan}</span>}</h2>
      {usage && <UsageBars usage={usage} />}
      <Problem text={problem} />
    </section>
  );
}

function Deliveries(props: { jobId: string }) {
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => void api<{ deliveries: Delivery[] }>('GET', `/web/api/account/jobs/${props.jobId}/webhooks`).then((answer) => setDeliveries(answer.deliveries), (error: Error) => setProblem(error.message)), [props.jobId]);
  if (problem) return <Problem text={problem} />;
  if (!deliveries) return <p role="status">Loading…</p>;
  if (deliveries.length === 0) return <p class="hint">No webhook deliveries for this job.</p>;
  return (
    <ul class="deliveries">
      {deliveries.map((delivery) => (
        <li key={delivery.id}>
          <strong>{delivery.event}</strong> to {delivery.url}: {delivery.state}, {delivery.attempts.length} attempt(s)
          {delivery.attempts.at(-1)?.statusCode ? `, last answer ${delivery.attempts.at(-1)?.statusCode}` : ''}
          {delivery.attempts.at(-1)?.error ? `, last error: ${delivery.attempts.at(-1)?.error}` : ''}
        </li>
      ))}
    </ul>
  );
}

function JobsSection() {
  const [jobs, setJobs] = useState<JobView[] | null>(null);
  const [open, setOpen] = useState<string>('');
  const [problem, setProblem] = useState('');
  useEffect(() => void api<{ jobs: JobView[] }>('GET', '/web/api/account/jobs?limit=50').then((answer) => setJobs(answer.jobs), (error: Error) => setProblem(error.message)), []);
  return (
    <section aria-labelledby="jobs-title" class="card">
      <h2 id="jobs-title">Job history</h2>
      <Problem text={problem} />
      {jobs && jobs.length === 0 && <p class="hint">No jobs yet.</p>}
      {jobs && jobs.length > 0 && (
        <div class="table-wrap" role="region" aria-label="Job history" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Status</th>
                <th scope="col">Files</th>
                <th scope="col">Webhooks</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.id} data-testid="job-row">
                  <td>
                    {when(job.createdAt)}
                    {job.tag && <span class="hint"> · {job.tag}</span>}
                  </td>
                  <td>
                    {job.status}
                    {job.error && <span class="error"> {job.error}</span>}
                  </td>
                  <td>
                    {(job.result?.files ?? []).map((file) => (
                      <a key={file.url} href={file.url} download={file.filename}>
                        {file.filename || 'download'}
                      </a>
                    ))}
                    {!job.result && '—'}
                  </td>
                  <td>
                    <button type="button" class="link" aria-expanded={open === job.id} onClick={() => setOpen(open === job.id ? '' : job.id)}>
                      {open === job.id ? 'Hide' : 'Show'}
                      <span class="visually-hidden"> webhook deliveries of job {job.id}</span>
                    </button>
                    {open === job.id && <Deliveries jobId={job.id} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p class="hint">Download links work while the files are kept (24 hours).</p>
    </section>
  );
}

/** The signed-in person's dashboard: usage, API keys, signing secret, job history, connected applications. */
export function DashboardPage(props: { person: Person }) {
  return (
    <div aria-labelledby="dashboard-title">
      <h1 id="dashboard-title" tabIndex={-1}>
        Dashboard
      </h1>
      <p class="hint">Signed in as {props.person.email}</p>
      <div class="cards">
        <UsageSection />
        <KeysSection />
        <SigningSecretSection />
        <JobsSection />
        <ConnectedAppsSection />
      </div>
    </div>
  );
}
