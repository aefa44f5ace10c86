import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { explain } from '../convert/explain';

/**
 * What every selected input converts to (GET /v1/formats), each target with
 * the family that converts it (for grouping), and a problem to show when no
 * target suits them all or the catalogue does not answer.
 */
export function useTargets(inputFormats: string[]): { families: Record<string, string>; problem: string } {
  const [families, setFamilies] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState('');
  const key = [...inputFormats].sort().join(',');
  useEffect(() => {
    if (inputFormats.length === 0) {
      setFamilies({});
      setProblem('');
      return;
    }
    let live = true;
    Promise.all(
      inputFormats.map(async (input) => {
        const [listed, grouped] = await Promise.all([
          api<{ formats: string[] }>('GET', `/v1/formats?input_format=${encodeURIComponent(input)}`),
          api<{ families: Record<string, string> }>('GET', `/web/api/format-families?input_format=${encodeURIComponent(input)}`),
        ]);
        return Object.fromEntries(listed.formats.map((format) => [format, grouped.families[format] ?? 'other']));
      }),
    ).then(
      (maps) => {
        if (!live) return;
        const common = Object.fromEntries(Object.entries(maps[0] ?? {}).filter(([format]) => maps.every((map) => format in map)));
        setFamilies(common);
        setProblem(Object.keys(common).length === 0 ? `No target format converts every selected file (${inputFormats.join(', ')}). Convert them separately.` : '');
      },
      (error: unknown) => live && setProblem(explain(error).text),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return { families, problem };
}
