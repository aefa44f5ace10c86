import { useState } from 'preact/hooks';
import { api, type Person } from '../api';
import { navigate, onLinkClick } from '../router';

/**
 * Sign-up, then sign-in with the same details. The server answers a taken
 * address like a new one; only the sign-in that follows can fail, with the
 * same message as any wrong password.
 */
export function SignUpPage(props: { onSignedIn: (person: Person) => void }) {
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const details = { email: form.get('email'), password: form.get('password') };
    setBusy(true);
    setProblem('');
    try {
      await api('POST', '/web/api/signup', details);
      const answer = await api<{ person: Person }>('POST', '/web/api/signin', { ...details, next: '/dashboard' });
      props.onSignedIn(answer.person);
      navigate('/dashboard');
    } catch (error) {
      setProblem((error as Error).message);
      setBusy(false);
    }
  };

  return (
    <section class="narrow" aria-labelledby="signup-title">
      <h1 id="signup-title" tabIndex={-1}>
        Sign up
      </h1>
      <p>A free account converts 5 files a day, with 1.00 GB a month and 1.00 GB additional, and gives you API keys.</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <label for="signup-email">Email</label>
        <input id="signup-email" name="email" type="email" autocomplete="email" required />
        <label for="signup-password">Password</label>
        <input id="signup-password" name="password" type="password" autocomplete="new-password" minLength={10} maxLength={128} required aria-describedby="password-rules" />
        <p id="password-rules" class="hint">
          10 to 128 characters; not your email address.
        </p>
        {problem && (
          <p class="error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p>
        Already have an account?{' '}
        <a href="/signin" onClick={onLinkClick}>
          Sign in
        </a>
        .
      </p>
    </section>
  );
}
