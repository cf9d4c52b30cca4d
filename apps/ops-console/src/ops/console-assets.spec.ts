import { ConsoleAssets } from './console-assets';
import { CONSOLE_CSP } from './content-security-policy';

/**
 * The console's page and files as the browser gets them. The page's Content-Security-Policy
 * lets scripts come only from the console's own files: an inline script, an `on…=` handler or
 * a style attribute in the page would be refused by the browser and break the console quietly.
 */
describe("the console's page and files", () => {
  const assets = ConsoleAssets.load();
  const text = (name: string) => assets.get(name)?.body.toString('utf8') ?? '';
  const page = text('ops.html');

  it('has no inline script, handler or style attribute, and loads nothing from elsewhere', () => {
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/\son[a-z]+=/i);
    expect(page).not.toMatch(/\sstyle=|<style/i);
    // Comments aside; the SVG namespace in the timeline module is a name, not a request.
    for (const name of assets.names) {
      const code = text(name)
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
        .replace("'http://www.w3.org/2000/svg'", '');
      expect(code).not.toMatch(/https?:\/\//);
    }
  });

  it('loads its style sheet and its entry module, and each module what it imports, from the console', () => {
    const loaded = [...page.matchAll(/(?:src|href)="\/ops\/assets\/([^"]+)"/g)].map((m) => m[1]);
    expect(loaded.sort()).toEqual(['console.js', 'ops.css']);
    const modules = assets.names.filter((name) => name.endsWith('.js'));
    expect(modules.sort()).toEqual([
      'actions.js',
      'console.js',
      'lists.js',
      'ops.js',
      'timeline.js',
    ]);
    for (const module of modules) {
      const imports = [...text(module).matchAll(/from '\.\/([^']+)'/g)].map((m) => m[1]);
      for (const imported of imports) expect(assets.get(imported)).toBeDefined();
    }
  });

  it('allows scripts from the console only', () => {
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
  });
});
