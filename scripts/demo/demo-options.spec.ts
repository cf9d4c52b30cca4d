import { parseDemoOptions } from './demo-options';

describe('parseDemoOptions', () => {
  it('reads --help and -h before anything else', () => {
    expect(parseDemoOptions(['--help'])).toEqual({ help: true });
    expect(parseDemoOptions(['--orders', 'x', '-h'])).toEqual({ help: true });
  });

  it('reads --orders and --keep, with $DEMO_ORDERS and 50 as defaults', () => {
    expect(parseDemoOptions(['--orders', '7', '--keep'])).toEqual({
      help: false,
      orders: 7,
      keep: true,
    });
    expect(parseDemoOptions([], { DEMO_ORDERS: '9' })).toEqual({
      help: false,
      orders: 9,
      keep: false,
    });
    expect(parseDemoOptions([], {})).toEqual({ help: false, orders: 50, keep: false });
  });

  it('names a bad option', () => {
    expect(() => parseDemoOptions(['--orders', '0'])).toThrow(/--orders must be a whole number/);
    expect(() => parseDemoOptions(['--verbose'])).toThrow(/Unknown option '--verbose'/);
  });
});
