import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** "tasks.a.url" → "task a: url"; top-level fields keep their name. */
function where(path: readonly PropertyKey[]): string {
  if (path[0] === 'tasks' && path.length >= 2) {
    const field = path.slice(2).map(String).join('.');
    return field ? `task ${String(path[1])}: ${field}` : `task ${String(path[1])}`;
  }
  return path.length > 0 ? path.map(String).join('.') : 'the request body';
}

/** What the client did wrong, in words that name the field and what it may hold. */
function problem(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      // zod does not keep the input on the issue; its message says what it received.
      return / received undefined$/.test(issue.message)
        ? 'is required'
        : `must be ${issue.expected === 'record' ? 'an object' : `a${/^[aeiou]/.test(issue.expected) ? 'n' : ''} ${issue.expected}`}`;
    case 'too_big':
      return `is longer than ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'too_small':
      return issue.origin === 'string' ? 'must not be empty' : `must be at least ${String(issue.minimum)}`;
    case 'invalid_format':
      return issue.format === 'regex' ? `does not match ${String((issue as { pattern?: string }).pattern ?? 'the expected pattern')}` : `must be a valid ${issue.format}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_key':
      return 'has a name that is not 1 to 64 letters, digits, dots, dashes or underscores';
    default:
      return issue.message;
  }
}

/**
 * One message for a failed body validation: the first problem, named by task
 * and field. An unknown operation is the spec's rule 1 and says so.
 */
export function validationMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'the request body is invalid';
  if (issue.code === 'invalid_union' && issue.path[0] === 'tasks' && issue.path.at(-1) === 'operation') {
    const options = (issue as { options?: unknown[] }).options ?? [];
    return `rule 1 (operation must be one of the twelve): ${where(issue.path)} must be one of ${options.join(', ')}`;
  }
  if (issue.code === 'invalid_union' && issue.path[0] === 'tasks' && issue.path.length === 2) {
    return `${where(issue.path)} must be an object with an operation`;
  }
  if (issue.code === 'invalid_key' && issue.path[0] === 'tasks') {
    return `task name ${JSON.stringify(String(issue.path[1] ?? ''))} must be 1 to 64 letters, digits, dots, dashes or underscores`;
  }
  return `${where(issue.path)} ${problem(issue)}`;
}
