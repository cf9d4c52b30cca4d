import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INVARIANT_RULES } from './invariant-report';

/** The rule ids in the first column of the table under "## Invariant rules". */
function documentedRules(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Invariant rules'));
  if (!section) throw new Error('docs/guarantees.md has no "## Invariant rules" section');
  return section
    .split('\n')
    .map((line) => /^\|\s*`([a-z-]+)`/.exec(line)?.[1])
    .filter((rule): rule is string => rule !== undefined);
}

describe('the documented rule table', () => {
  it('lists exactly the rules the checker implements, in its order', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/guarantees.md'), 'utf8');
    expect(documentedRules(doc)).toEqual(Object.keys(INVARIANT_RULES));
  });
});
