import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, loadSession, type Person } from './api';
import { navigate, onLinkClick, usePath } from './router';
import { ConvertPage } from './pages/convert';
import { DashboardPage } from './pages/dashboard';
import { SignInPage } from './pages/signin';
import { SignUpPage } from './pages/signup';
import './style.css';

const TITLES: Record<string, string> = { '/': 'Convert files', '/signin': 'Sign in', '/signup': 'Sign up', '/dashboard': 'Dashboard' };

function App() {
  const path = usePath();
  const [person, setPerson] = useState<Person | null | undefined>(undefined);
  const [problem, setProblem] = useState('');

  const refresh = () =>
    loadSession().then(
      (found) => setPerson(found),
      (error: Error) => {
        setPerson(null);
        setProblem(error.message);
      },
    );
  useEffect(() => void refresh(), []);
  useEffect(() => {
    document.title = `${TITLES[path] ?? 'Not found'} · Transmute`;
    // Move focus to the new page's heading, so keyboard and screen-reader users land on it.
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [path, person === undefined]);

  const signOut = async () => {
    await api('POST', '/web/api/signout');
    setPerson(null);
    navigate('/');
  };

  let page;
  if (person === undefined) page = <p role="status">Loading…</p>;
  else if (path === '/') page = <ConvertPage person={person} />;
  else if (path === '/signin') page = <SignInPage onSignedIn={setPerson} />;
  else if (path === '/signup') page = <SignUpPage onSignedIn={setPerson} />;
  else if (path === '/dashboard') page = person ? <DashboardPage person={person} /> : <SignInPage onSignedIn={setPerson} next="/dashboard" />;
  else page = <h1 tabIndex={-1}>Page not found</h1>;

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="bar">
        <a class="brand" href="/" onClick={onLinkClick}>
          Transmute
        </a>
        <nav aria-label="Main">
          <ul>
            <li>
              <a href="/" onClick={onLinkClick} aria-current={path === '/' ? 'page' : undefined}>
                Convert
              </a>
            </li>
            {person ? (
              <>
                <li>
                  <a href="/dashboard" onClick={onLinkClick} aria-current={path === '/dashboard' ? 'page' : undefined}>
                    Dashboard
                  </a>
                </li>
                <li>
                  <button type="button" class="link" onClick={() => void signOut()}>
                    Sign out
                  </button>
                </li>
              </>
            ) : (
              <>
                <li>
                  <a href="/signin" onClick={onLinkClick} aria-current={path === '/signin' ? 'page' : undefined}>
                    Sign in
                  </a>
                </li>
                <li>
                  <a href="/signup" onClick={onLinkClick} aria-current={path === '/signup' ? 'page' : undefined}>
                    Sign up
                  </a>
                </li>
              </>
            )}
          </ul>
        </nav>
      </header>
      <main id="main">
        {problem && (
          <p class="error" role="alert">
            {problem}
          </p>
        )}
        {page}
      </main>
      <footer class="foot">
        <p>
          Files are deleted 24 hours after conversion. Developers: <a href="/openapi.json">REST API (OpenAPI)</a>.
        </p>
      </footer>
    </>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
