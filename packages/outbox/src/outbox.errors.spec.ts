import { join } from 'node:path';
import { readMarkdownTable } from '@outbox-inbox/test-kit';
import { OUTBOX_ERROR_CODES } from './outbox.errors';

describe('the outbox error codes', () => {
  it('are the codes the README lists, no more and no fewer', () => {
    const table = readMarkdownTable(join(__dirname, '..', 'README.md'), '## Error codes');
    expect(table.map(([code]) => code).sort()).toEqual([...OUTBOX_ERROR_CODES].sort());
  });
});
