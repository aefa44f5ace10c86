import { describeWordOrder, wordsInOrder, wordsOf } from './words';

describe('wordsInOrder', () => {
  it('finds the expected words in order, whatever lies between them', () => {
    expect(wordsInOrder(['alpha', 'bravo', 'charlie'], '<h1>Alpha</h1> <p>1. Bravo, then charlie!</p>')).toEqual({ found: 3, expected: 3, firstMissing: undefined });
  });

  it('reports a missing word and one out of order', () => {
    expect(wordsInOrder(['alpha', 'bravo', 'charlie'], 'alpha charlie')).toMatchObject({ found: 2, firstMissing: 'bravo' });
    const swapped = wordsInOrder(['alpha', 'bravo', 'charlie'], 'charlie bravo alpha');
    expect(swapped.found).toBe(1);
    expect(describeWordOrder(swapped)).toMatch(/1 of 3 words in order; first missing/);
  });

  it('cuts text into lower-case words of letters and digits', () => {
    expect(wordsOf('Transmute: ÉCHO-42\nfoo_bar')).toEqual(['transmute', 'écho', '42', 'foo', 'bar']);
  });
});
