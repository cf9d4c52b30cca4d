import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { PageLimit } from './page-limit';

class ListQuery {
  @PageLimit(50)
  limit = 10;
}

function read(query: Record<string, unknown>) {
  const dto = plainToInstance(ListQuery, query);
  return { dto, problems: validateSync(dto).map((e) => Object.keys(e.constraints ?? {})) };
}

describe('PageLimit', () => {
  it('defaults when absent and converts the query text to a number', () => {
    expect(read({})).toEqual({ dto: { limit: 10 }, problems: [] });
    expect(read({ limit: '50' })).toEqual({ dto: { limit: 50 }, problems: [] });
  });

  it('refuses what is not a whole number from 1 to the maximum', () => {
    expect(read({ limit: '0' }).problems).toEqual([['min']]);
    expect(read({ limit: '51' }).problems).toEqual([['max']]);
    expect(read({ limit: '2.5' }).problems).toEqual([['isInt']]);
    expect(read({ limit: 'many' }).problems).toEqual([['max', 'min', 'isInt']]);
  });
});
