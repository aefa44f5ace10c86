import { useState } from 'preact/hooks';
import { api, ApiError, type Person } from '../api';
import { navigate, onLinkClick } from '../router';

interface SignInAnswer {
  person: Person;
  next: string;
}

/** `/signin?next=<relative path>`: goes to `next` (checked by the server: same-origin paths only) after signing in. */
export function SignInPage(props: { onSignedIn: (person: Person) => void; next?: string }) {
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const next = props.next ?? new URLSearchParams(location.search).get('next') ?? '/dashboard';

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setProblem('');
    try {
      const answer = await api<SignInAnswer>('POST', '/web/api/signin', { email: form.get('email'), password: form.get('password'), next });
      props.onSignedIn(answer.person);
      // A page the website itself draws stays in the app; any other (e.g. an OAuth consent screen) is a real navigation.
      if (['/', '/dashboard'].includes(answer.next)) navigate(answer.next);
      else location.assign(answer.next);
    } catch (error) {
      setProblem(error instanceof ApiError && error.status === 429 ? `${error.message}. Wrong passwords slow sign-in down.` : (error as Error).message);
      setBusy(false);
    }
  };

  return (
    <section class="narrow" aria-labelledby="signin-title">
      <h1 id="signin-title" tabIndex={-1}>
        Sign in
      </h1>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <label for="signin-email">Email</label>
        <input id="signin-email" name="email" type="email" autocomplete="username" required />
        <label for="signin-password">Password</label>
        <input id="signin-password" name="password" type="password" autocomplete="current-password" required />
        {problem && (
          <p class="error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        No account yet?{' '}
        <a href="/signup" onClick={onLinkClick}>
          Sign up for free
        </a>
        .
      </p>
    </section>
  );
}
