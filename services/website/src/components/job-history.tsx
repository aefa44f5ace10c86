import { useState } from 'preact/hooks';
import { type JobView, formatWhen } from '../api';
import { useLoaded } from '../hooks/use-loaded';
import { DataTable } from './data-table';
import { Problem } from './problem';

interface Delivery {
  id: string;
  event: string;
  url: string;
  state: string;
  attempts: { attempt: number; statusCode: number | null; error: string | null; startedAt: string | null }[];
}

/** The webhook delivery log of one job, fetched when it is opened. */
function Deliveries(props: { jobId: string }) {
  const { value: deliveries, problem } = useLoaded(`/web/api/account/jobs/${props.jobId}/webhooks`, (answer: { deliveries: Delivery[] }) => answer.deliveries);
  if (problem) return <Problem text={problem} />;
  if (!deliveries) return <p role="status">Loading…</p>;
  if (deliveries.length === 0) return <p class="hint">No webhook deliveries for this job.</p>;
  return (
    <ul class="deliveries">
      {deliveries.map((delivery) => {
        const last = delivery.attempts.at(-1);
        return (
          <li key={delivery.id}>
            <strong>{delivery.event}</strong> to {delivery.url}: {delivery.state}, {delivery.attempts.length} attempt(s)
            {last?.statusCode ? `, last answer ${last.statusCode}` : ''}
            {last?.error ? `, last error: ${last.error}` : ''}
          </li>
        );
      })}
    </ul>
  );
}

/** The dashboard's "Job history": status, download links while the files last, and each job's webhook deliveries. */
export function JobHistorySection() {
  const { value: jobs, problem } = useLoaded('/web/api/account/jobs?limit=50', (answer: { jobs: JobView[] }) => answer.jobs);
  const [open, setOpen] = useState<string>('');
  return (
    <section aria-labelledby="jobs-title" class="card">
      <h2 id="jobs-title">Job history</h2>
      <Problem text={problem} />
      <DataTable
        label="Job history"
        rows={jobs}
        empty="No jobs yet."
        columns={['Created', 'Status', 'Files', 'Webhooks']}
        row={(job) => (
          <tr key={job.id} data-testid="job-row">
            <td>
              {formatWhen(job.createdAt)}
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
        )}
      />
      <p class="hint">Download links work while the files are kept (24 hours).</p>
    </section>
  );
}
