import { LineTail } from './line-tail';

describe('LineTail', () => {
  it.each([
    { scenario: 'whole lines', chunks: ['a\nb\n'], expected: ['a', 'b'] },
    { scenario: 'a line split across chunks', chunks: ['he', 'llo\nwor', 'ld\n'], expected: ['hello', 'world'] },
    { scenario: 'an unterminated last line', chunks: ['a\nb'], expected: ['a', 'b'] },
    { scenario: 'more lines than the capacity', chunks: ['1\n2\n3\n4\n5\n'], expected: ['3', '4', '5'] },
  ])('keeps the last lines: $scenario', ({ chunks, expected }) => {
    const tail = new LineTail(3);
    chunks.forEach((chunk) => tail.push(chunk));
    expect(tail.last()).toEqual(expected);
  });

  it('returns only the requested number of lines', () => {
    const tail = new LineTail(10);
    tail.push('1\n2\n3\n');
    expect(tail.last(2)).toEqual(['2', '3']);
  });
});
