import type { Person, Usage } from '../api';
import { ApiKeysSection } from '../components/api-keys';
import { ConnectedAppsSection } from '../components/connected-apps';
import { JobHistorySection } from '../components/job-history';
import { Problem } from '../components/problem';
import { SigningSecretSection } from '../components/signing-secret';
import { UsageBars } from '../components/usage-bars';
import { useLoaded } from '../hooks/use-loaded';

function UsageSection() {
  const { value: usage, problem } = useLoaded('/web/api/account/usage', (answer: { usage: Usage }) => answer.usage);
  return (
    <section aria-labelledby="usage-title" class="card">
      <h2 id="usage-title">Usage{usage && <span class="hint"> · plan {usage.plan}</span>}</h2>
      {usage && <UsageBars usage={usage} />}
      <Problem text={problem} />
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
        <ApiKeysSection />
        <SigningSecretSection />
        <JobHistorySection />
        <ConnectedAppsSection />
      </div>
    </div>
  );
}
