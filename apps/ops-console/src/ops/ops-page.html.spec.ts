import { Script } from 'node:vm';
import { OPS_PAGE_HTML } from './ops-page.html';

/**
 * The console's scripts are strings inlined into the page: a slip in one is a syntax error that
 * only a browser would show, and it would blank the whole console. Compiled here, never run.
 */
describe('the /ops page', () => {
  const scripts = [...OPS_PAGE_HTML.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);

  it('inlines its two scripts, and each compiles', () => {
    expect(scripts).toHaveLength(2);
    for (const source of scripts) expect(() => new Script(source)).not.toThrow();
  });

  it('loads nothing from elsewhere (the SVG namespace is a name, not a request)', () => {
    const elsewhere = /<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org\/2000\/svg')/;
    expect(OPS_PAGE_HTML).not.toMatch(elsewhere);
  });
});
