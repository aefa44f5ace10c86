import { formatGb } from '../api';
import { useLoaded } from '../hooks/use-loaded';
import { onLinkClick } from '../router';

/** The plan a new account starts on, as the operator configured it (GET /web/api/sign-up-plan). */
interface SignUpPlan {
  name: string;
  monthly_bytes: number;
  daily_conversions: number;
}

/** What to do once the allowance is used up: the dashboard for a signed-in person, the sign-up (with its plan's figures) for anyone else. */
export function QuotaNotice(props: { signedIn: boolean }) {
  return (
    <div class="notice" role="alert" data-testid="quota-notice">
      {props.signedIn ? (
        <p>
          You have used your plan's allowance. It resets daily (conversions) and monthly (GB); see your{' '}
          <a href="/dashboard" onClick={onLinkClick}>
            dashboard
          </a>
          .
        </p>
      ) : (
        <SignUpOffer />
      )}
    </div>
  );
}

function SignUpOffer() {
  const { value: plan } = useLoaded<{ plan: SignUpPlan }, SignUpPlan>('/web/api/sign-up-plan', (answer) => answer.plan);
  return (
    <p>
      You have used today's conversions without an account.{' '}
      <a href="/signup" onClick={onLinkClick}>
        Sign up for free
      </a>{' '}
      {plan ? `to convert ${plan.daily_conversions} files a day with ${formatGb(plan.monthly_bytes)} a month, and to get API keys.` : 'to convert more, and to get API keys.'}
    </p>
  );
}
