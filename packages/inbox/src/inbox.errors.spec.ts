import { join } from 'node:path';
import { readMarkdownTable } from '@outbox-inbox/test-kit';
import { DEAD_LETTER_CODES, INBOX_ERROR_CODES } from './inbox.errors';

describe('the inbox error codes', () => {
  const table = readMarkdownTable(join(__dirname, '..', 'README.md'), '## Error codes');

  it('are the codes the README lists, no more and no fewer', () => {
    expect(table.map(([code]) => code).sort()).toEqual([...INBOX_ERROR_CODES].sort());
  });

  it('mark as dead-letter codes exactly those a dead letter can carry', () => {
    const marked = table.filter(([, deadLetter]) => deadLetter === 'yes').map(([code]) => code);
    expect(marked.sort()).toEqual([...DEAD_LETTER_CODES].sort());
  });
});
