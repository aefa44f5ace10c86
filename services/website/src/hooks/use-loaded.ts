import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';

/**
 * GETs `path` when the component mounts (and when `path` changes) and keeps
 * what `pick` takes from the answer; a failure becomes `problem`. `reload`
 * fetches again after a change.
 */
export function useLoaded<Answer, Value>(path: string, pick: (answer: Answer) => Value) {
  const [value, setValue] = useState<Value | null>(null);
  const [problem, setProblem] = useState('');
  const reload = () =>
    api<Answer>('GET', path).then(
      (answer) => setValue(pick(answer)),
      (error: Error) => setProblem(error.message),
    );
  useEffect(() => void reload(), [path]);
  return { value, problem, setProblem, reload };
}
