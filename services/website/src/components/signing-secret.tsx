import { useState } from 'preact/hooks';
import { api } from '../api';
import { Problem } from './problem';

/** The dashboard's "Webhook signing secret": hidden until asked for, and rotated on request. */
export function SigningSecretSection() {
  const [secret, setSecret] = useState('');
  const [problem, setProblem] = useState('');
  const reveal = () =>
    api<{ signing_secret: string }>('GET', '/web/api/account/signing-secret').then(
      (answer) => setSecret(answer.signing_secret),
      (error: Error) => setProblem(error.message),
    );
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
