import { useEffect, useState } from 'preact/hooks';

/** In-page navigation: pushState plus a popstate listener; every page is also a real URL the gateway serves. */
export function navigate(path: string): void {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return path;
}

/** Link clicks stay in the page (a modified click opens a tab as usual). */
export function onLinkClick(event: MouseEvent): void {
  const anchor = event.currentTarget as HTMLAnchorElement;
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (anchor.origin !== location.origin) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}
