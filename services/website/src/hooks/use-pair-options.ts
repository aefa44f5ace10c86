import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import type { ConversionOption } from '../components/options-form';
import { explain } from '../convert/explain';

/** The options of one pair (GET /v1/options), and a problem to show when they cannot be read. */
export function usePairOptions(input: string | undefined, target: string): { options: ConversionOption[]; problem: string } {
  const [options, setOptions] = useState<ConversionOption[]>([]);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    setProblem('');
    if (!target || !input) {
      setOptions([]);
      return;
    }
    let live = true;
    api<{ options: ConversionOption[] }>('GET', `/v1/options?input_format=${encodeURIComponent(input)}&output_format=${encodeURIComponent(target)}`).then(
      (answer) => live && setOptions(answer.options),
      (error: unknown) => live && setProblem(explain(error).text),
    );
    return () => {
      live = false;
    };
  }, [input, target]);
  return { options, problem };
}
