import { create } from '@bufbuild/protobuf';
import { CreateJobRequestSchema, type TaskSpec, TaskSpecSchema } from '@transmute/contracts';
import { planJob } from './job-plan';

type Tasks = Record<string, Partial<Omit<TaskSpec, '$typeName' | 'options'>>>;

function request(tasks: Tasks, extra: { tag?: string } = {}) {
  return create(CreateJobRequestSchema, {
    tasks: Object.fromEntries(Object.entries(tasks).map(([name, spec]) => [name, create(TaskSpecSchema, spec)])),
    taskOrder: Object.keys(tasks),
    tag: extra.tag ?? '',
  });
}

const standard: Tasks = {
  'upload-my-file': { operation: 'import/upload', filename: 'photo.PNG' },
  'convert-my-file': { operation: 'convert', input: ['upload-my-file'], outputFormat: 'JPG' },
  'export-my-file': { operation: 'export/url', input: ['convert-my-file'], inputIsList: true },
};

describe('planJob', () => {
  it('plans the standard flow, inferring the input format from the file name', () => {
    const plan = planJob(request(standard), 5);
    expect(plan.tasks.map((task) => [task.name, task.dependsOn])).toEqual([
      ['upload-my-file', []],
      ['convert-my-file', ['upload-my-file']],
      ['export-my-file', ['convert-my-file']],
    ]);
    expect(plan.conversions).toEqual([{ task: 'convert-my-file', inputFormat: 'png', outputFormat: 'jpg' }]);
  });

  it("sets a chained convert's input_format to its upstream output_format", () => {
    const plan = planJob(
      request({
        in: { operation: 'import/url', url: 'https://example.com/a.png?x=1' },
        first: { operation: 'convert', input: ['in'], outputFormat: 'webp' },
        second: { operation: 'convert', input: ['first'], inputFormat: 'gif', outputFormat: 'jpg' },
      }),
      5,
    );
    expect(plan.conversions).toEqual([
      { task: 'first', inputFormat: 'png', outputFormat: 'webp' },
      { task: 'second', inputFormat: 'webp', outputFormat: 'jpg' },
    ]);
  });

  it.each<[string, Tasks]>([
    ['a string', { a: { operation: 'import/upload', filename: 'x.png' }, b: { operation: 'convert', input: ['a'], outputFormat: 'jpg' } }],
    ['an array of one name', { a: { operation: 'import/upload', filename: 'x.png' }, b: { operation: 'convert', input: ['a'], inputIsList: true, outputFormat: 'jpg' } }],
  ])('accepts a convert input given as %s', (_name, tasks) => {
    const plan = planJob(request(tasks), 5);
    expect(plan.tasks.find((task) => task.name === 'b')?.dependsOn).toEqual(['a']);
    expect(plan.conversions).toEqual([{ task: 'b', inputFormat: 'png', outputFormat: 'jpg' }]);
  });

  it.each<[string, Tasks, string]>([
    ['rule 1: unknown operation', { a: { operation: 'import/ftp' } }, 'task a: unknown operation "import/ftp"'],
    [
      'rule 2: import not consumed',
      { a: { operation: 'import/upload', filename: 'x.png' }, b: { operation: 'import/upload' }, c: { operation: 'convert', input: ['a'], outputFormat: 'jpg' } },
      'import task b is not the input of any convert task',
    ],
    [
      'rule 3: export wired to an import',
      {
        a: { operation: 'import/upload', filename: 'x.png' },
        c: { operation: 'convert', input: ['a'], outputFormat: 'jpg' },
        e: { operation: 'export/url', input: ['a'], inputIsList: true },
      },
      'export task e is wired directly to import task a',
    ],
    [
      'rule 4: cycle',
      {
        a: { operation: 'import/upload', filename: 'x.png' },
        b: { operation: 'convert', input: ['c'], outputFormat: 'jpg' },
        c: { operation: 'convert', input: ['b'], outputFormat: 'png' },
        d: { operation: 'convert', input: ['a'], outputFormat: 'gif' },
      },
      'form a cycle',
    ],
    [
      'rule 5: convert input is an export',
      {
        a: { operation: 'import/upload', filename: 'x.png' },
        b: { operation: 'convert', input: ['a'], outputFormat: 'jpg' },
        e: { operation: 'export/url', input: ['b'] },
        c: { operation: 'convert', input: ['e'], outputFormat: 'png' },
      },
      'convert task c: input e is a export/url task',
    ],
    [
      'rule 5: convert with two inputs',
      { a: { operation: 'import/upload', filename: 'x.png' }, b: { operation: 'convert', input: ['a', 'a'], outputFormat: 'jpg' } },
      'convert task b must name exactly one input task',
    ],
    [
      'rule 5: convert with an array of two inputs',
      {
        a: { operation: 'import/upload', filename: 'x.png' },
        z: { operation: 'import/upload', filename: 'y.png' },
        b: { operation: 'convert', input: ['a', 'z'], inputIsList: true, outputFormat: 'jpg' },
      },
      'convert task b must name exactly one input task',
    ],
    ['unknown input', { b: { operation: 'convert', input: ['nope'], outputFormat: 'jpg' } }, 'task b: input "nope" is not a task of this job'],
    ['missing output format', { a: { operation: 'import/upload', filename: 'x.png' }, b: { operation: 'convert', input: ['a'] } }, 'output_format is required'],
    ['import/url without url', { a: { operation: 'import/url' }, b: { operation: 'convert', input: ['a'], outputFormat: 'jpg' } }, 'import/url task a: url is required'],
  ])('rejects %s', (_name, tasks, message) => {
    expect(() => planJob(request(tasks), 5)).toThrow(message);
  });

  it('rule 6: names the allowance and the number requested', () => {
    const tasks: Tasks = { in: { operation: 'import/upload', filename: 'a.png' } };
    for (let i = 0; i < 4; i++) tasks[`c${i}`] = { operation: 'convert', input: ['in'], outputFormat: 'jpg' };
    expect(() => planJob(request(tasks), 3)).toThrow('the job has 4 convert tasks; the plan allows 3 per job');
  });

  it.each<[string, Tasks, string]>([
    ['rule 1', { a: { operation: 'import/ftp' } }, 'rule 1 (operation must be one of the twelve): task a'],
    [
      'rule 2',
      { a: { operation: 'import/upload', filename: 'x.png' }, b: { operation: 'import/upload' }, c: { operation: 'convert', input: ['a'], outputFormat: 'jpg' } },
      'rule 2 (every import must be the input of a convert): import task b',
    ],
    [
      'rule 3',
      {
        a: { operation: 'import/upload', filename: 'x.png' },
        c: { operation: 'convert', input: ['a'], outputFormat: 'jpg' },
        e: { operation: 'export/url', input: ['a'], inputIsList: true },
      },
      'rule 3 (an export may not be wired to an import): export task e',
    ],
    [
      'rule 4',
      { a: { operation: 'import/upload', filename: 'x.png' }, b: { operation: 'convert', input: ['b'], outputFormat: 'jpg' } },
      'rule 4 (the graph must be acyclic and trace back to an import): task b',
    ],
    [
      'rule 5',
      { a: { operation: 'import/upload', filename: 'x.png' }, b: { operation: 'convert', input: ['a', 'a'], outputFormat: 'jpg' } },
      'rule 5 (a convert takes one import or convert; an export takes convert tasks): convert task b',
    ],
  ])('names the broken rule: %s', (_name, tasks, message) => {
    expect(() => planJob(request(tasks), 5)).toThrow(message);
  });

  it('builds a job around an import: import, convert, export/url', () => {
    const plan = planJob(create(CreateJobRequestSchema, { importId: 'a'.repeat(32), importFilename: 'scan.PNG', outputFormat: 'JPG' }), 5);
    expect(plan.tasks.map((task) => [task.name, task.operation, task.dependsOn])).toEqual([
      ['import', 'import/upload', []],
      ['convert', 'convert', ['import']],
      ['export', 'export/url', ['convert']],
    ]);
    expect(plan.conversions).toEqual([{ task: 'convert', inputFormat: 'png', outputFormat: 'jpg' }]);
  });

  it.each([
    ['without output_format', { importId: 'a'.repeat(32), inputFormat: 'png' }, 'import_id needs a top-level output_format'],
    [
      'with tasks as well',
      { importId: 'a'.repeat(32), outputFormat: 'jpg', taskOrder: ['x'], tasks: { x: create(TaskSpecSchema, { operation: 'import/upload' }) } },
      'leave tasks out',
    ],
  ])('rejects an import_id job %s', (_name, fields, message) => {
    expect(() => planJob(create(CreateJobRequestSchema, fields), 5)).toThrow(message);
  });

  it('leaves a convert whose input has no name to be routed once the importer recognises the bytes', () => {
    const plan = planJob(
      request({
        a: { operation: 'import/upload' },
        b: { operation: 'convert', input: ['a'], outputFormat: 'JPG' },
        c: { operation: 'convert', input: ['b'], outputFormat: 'webp' },
      }),
      5,
    );
    expect(plan.tasks.find((task) => task.name === 'b')).toMatchObject({ inputFormat: '', outputFormat: 'jpg' });
    // The next link of the chain reads what the first writes, so it is routed at creation as usual.
    expect(plan.conversions).toEqual([{ task: 'c', inputFormat: 'jpg', outputFormat: 'webp' }]);
  });

  it('rejects a tag longer than 255 characters', () => {
    expect(() => planJob(request(standard, { tag: 'x'.repeat(256) }), 5)).toThrow('tag is longer than 255 characters');
  });
});
